#!/bin/bash
# whatif_table.sh - every setting of a run, on a workload and on a capture
# (mk/whatif.inc: one path for WORKLOAD= and TRACE=).  Each row is a
# `make sim` with one setting other than the default, and must give
#   - its own report directory, named after what differs;
#   - the default's report and traces untouched;
#   - the setting in the runs' kernel.txt (or summary.csv) and in report.md's
#     header, which reads the runs;
#   - a figure of a run that the setting must change, changed.
# The workload is smack17k at 300 rules and 30 labels (MAP: hackbench,
# whose trace runs on every CPU; smack17k's on one); the capture is
# tests/data/capture/ls-etc-6.18.  A setting a workload does not read, and
# a capture's INITIAL and IMPORT_FLAGS on a workload, are refused with
# nothing written.
. "$(dirname "$0")/lib/common.bash"
command -v gnuplot > /dev/null || { echo "SKIP: gnuplot missing"; exit 77; }

R=$tmp/reports
D=$tmp/datasets
cap=$root/tests/data/capture/ls-etc-6.18
mk() { make -C "$root" --no-print-directory SLABSIM="$S" REPORTS="$R" DATASETS="$D" "$@"; }
costs=$tmp/high.costs
"$S" costs --all high -o "$costs" > /dev/null
W=(WORKLOAD=smack17k RULES=300 LABELS=30 "MODELS=traced kmem_cache")
wbase=smack17k--labels-30--models-traced,kmem_cache--rules-300
C=(TRACE="$cap")
cbase=ls-etc-6.18
HB=(WORKLOAD=hackbench HB_GROUPS=2 HB_LOOPS=3 "TOPOLOGY=synth:pack:1 numa:2 core:2 pu:1")
hbase=hackbench--hb_groups-2--hb_loops-3--topology-synth_pack_1,numa_2,core_2,pu_1
for base in W C HB; do
	eval "args=(\"\${$base[@]}\")"
	mk sim "${args[@]}" > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "make sim ${args[*]}"; }
done
for d in "$wbase" "$cbase" "$hbase"; do [ -s "$R/$d/report.md" ] || fail "no default report $d: $(ls "$R")"; done
# the capture's default target is its own kernel's, said so
grep -qx "target=x86_64-6.18" "$R/$cbase/runs/trace__traced/kernel.txt" || fail "the capture's default target"
has "$R/$cbase/report.md" "- Target chosen from the capture: its kernel 6.18.44-fc-v1300 (x86_64)"

# A figure of one run from a report's summary.csv: VARIANT__MODEL COLUMN.
fig() {
	awk -F, -v r="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$k["variant"] "__" $k["model"] == r { print $k[c] }' "$R/$1/summary.csv"
}
# (a capture's data directory also holds what pick-target said of it for
# each set of allocators, target-SET.{mk,txt}: the capture's, not the
# default's results, made once for every what-if that needs them)
snapshot() { find "$R/$1" "$2" -type f ! -name 'target-*' -printf '%p %s %T@\n' 2> /dev/null | sort; }

# row SUBJECT "SETTING=VALUE" DIR KERNEL_TXT_LINE REPORT_TEXT RUN[/BASE_RUN] COLUMN
#   SUBJECT   W, C, CT or HB (the arguments of the default above; CT:
#             the capture on a topology, the TOPOLOGY row's)
#   DIR       the what-if's report directory
#   KERNEL_TXT_LINE  a line of RUN's kernel.txt (or, "summary:COL=VALUE",
#             a column of its summary.csv row; "!KEY=": no such line)
#   REPORT_TEXT      text of report.md's header
#   RUN/BASE_RUN, COLUMN  the figure that must change: RUN's in the what-if
#             against BASE_RUN's (default RUN) in the default
n=0
# the sanitizer pass (SLABSIM_QUICK): the ALLOCATOR and INITIAL rows only
quick=${SLABSIM_QUICK:-}
row() {
	local subj=$1 set=$2 dir=$3 kline=$4 rtext=$5 runs=$6 col=$7 base bdata run brun got want
	[ -z "$quick" ] || case $set in ALLOCATOR=* | INITIAL=) ;; *) return 0 ;; esac
	eval "args=(\"\${$subj[@]}\")"
	case $subj in W) base=$wbase bdata=$D/smack17k--labels-30--rules-300 ;;
	C) base=$cbase bdata=$D/import/$cbase ;;
	CT) base=$ctbase bdata=$D/import/$cbase ;;
	HB) base=$hbase bdata=$D/hackbench--hb_groups-2--hb_loops-3--topology-synth_pack_1,numa_2,core_2,pu_1 ;;
	esac
	run=${runs%%/*} brun=${runs#*/}
	snapshot "$base" "$bdata" > "$tmp/before"
	mk sim "${args[@]}" "$set" > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "$subj $set: make sim"; }
	[ -s "$R/$dir/report.md" ] || fail "$subj $set: no report in $dir (there: $(ls "$R" | tr '\n' ' '))"
	snapshot "$base" "$bdata" > "$tmp/after"
	cmp -s "$tmp/before" "$tmp/after" || fail "$subj $set: the default's files changed: $(diff "$tmp/before" "$tmp/after" | head -5)"
	case $kline in
	summary:*)
		kline=${kline#summary:}
		[ "$(fig "$dir" "$run" "${kline%%=*}")" = "${kline#*=}" ] ||
			fail "$subj $set: summary.csv of $run: ${kline%%=*} is '$(fig "$dir" "$run" "${kline%%=*}")', want '${kline#*=}'" ;;
	!*) ! grep -q "^${kline#!}" "$R/$dir/runs/$run/kernel.txt" ||
		fail "$subj $set: $run/kernel.txt has a line ${kline#!}..." ;;
	*) grep -qxF -- "$kline" "$R/$dir/runs/$run/kernel.txt" ||
		fail "$subj $set: $run/kernel.txt has no line '$kline': $(cat "$R/$dir/runs/$run/kernel.txt")" ;;
	esac
	sed -n '/^## 1\. What was run/,/^- Plots:/p' "$R/$dir/report.md" > "$tmp/header"
	grep -qF -- "$rtext" "$tmp/header" || fail "$subj $set: report.md's header lacks '$rtext': $(cat "$tmp/header")"
	got=$(fig "$dir" "$run" "$col") want=$(fig "$base" "$brun" "$col")
	[ -n "$got" ] && [ -n "$want" ] || fail "$subj $set: no $col of $run/$brun"
	[ "$got" != "$want" ] || fail "$subj $set: $col of $run unchanged ($got)"
	n=$((n + 1))
	printf '%-3s %-44s %-14s %s -> %s\n' "$subj" "$set" "$col" "$want" "$got"
}

# ---- the workload ----
row W ALLOCATOR=slab "smack17k--allocator-slab--${wbase#smack17k--}" allocator=slab \
	"- Kernel: slab, options:" ref__traced footprint_kib
row W CONFIG=slub_min_order=2 "smack17k--config-slub_min_order_2--${wbase#smack17k--}" slub_min_order=2 \
	"- Kernel: slub, options: none beyond the defaults, slub_min_order=2" ref__kmem_cache footprint_kib
row W TARGET=x86_64-6.1 "$wbase--target-x86_64-6.1" target=x86_64-6.1 \
	"- Target: x86_64-6.1 (kernel era 6.1)" ref__traced sim_time_ms
row W CPUS=8 "smack17k--cpus-8--${wbase#smack17k--}" cpus=8 "- CPUs: 8 (" ref__traced footprint_kib
row W "TOPOLOGY=synth:pack:2 numa:2 core:4 pu:1" "$wbase--topology-synth_pack_2,numa_2,core_4,pu_1" \
	"topology=synth:pack:2 numa:2 core:4 pu:1: 2 packages, 4 NUMA nodes, 16 cores, 16 PUs; map identity" \
	"- CPUs: 16 (synth:pack:2 numa:2 core:4 pu:1" ref__traced footprint_kib
row W "MODELS=traced traced+P" "smack17k--labels-30--models-traced,traced+P--rules-300" \
	"summary:slub_debug=P" "- Models (slub_debug): traced (-), traced+P (P)" ref__traced+P/ref__traced footprint_kib
row W COSTS="$costs" "smack17k--costs-${costs//\//_}--${wbase#smack17k--}" "costs=$costs" \
	"- Cost table: $costs" ref__traced sim_time_ms
row W SEED=2 "$wbase--seed-2" "trace=$D/smack17k--labels-30--rules-300--seed-2/ref.trace" \
	"- Traces from: $D/smack17k--labels-30--rules-300--seed-2/" ref__traced sim_time_ns
row W RULES=400 "smack17k--labels-30--models-traced,kmem_cache--rules-400" \
	"trace=$D/smack17k--labels-30--rules-400/ref.trace" \
	"- Traces from: $D/smack17k--labels-30--rules-400/" ref__traced footprint_kib
row HB MAP=scatter "hackbench--hb_groups-2--hb_loops-3--map-scatter--${hbase#hackbench--hb_groups-2--hb_loops-3--}" \
	"topology=synth:pack:1 numa:2 core:2 pu:1: 1 package, 2 NUMA nodes, 4 cores, 4 PUs; map scatter" \
	"map scatter)" P-4.5__traced+P sim_time_ns

# ---- the capture ----
row C ALLOCATOR=slab "$cbase--allocator-slab" allocator=slab \
	"- Kernel: slab, options: CONFIG_MEMCG=y" trace__traced footprint_kib
# (SLAB has no sheaves: the capture's kernel's era with SLAB is 6.1, said so)
has "$R/$cbase--allocator-slab/report.md" "- Target chosen from the capture: its kernel 6.18.44-fc-v1300 (x86_64): the newest x86_64 target of an era with SLAB not after it (6.1)"
has "$R/$cbase--allocator-slab/report.md" "- Initial state: none: the caches start empty"
row C CONFIG=CONFIG_RANDOM_KMALLOC_CACHES=y "$cbase--config-CONFIG_RANDOM_KMALLOC_CACHES_y" \
	"config=CONFIG_MEMCG=y,CONFIG_RANDOM_KMALLOC_CACHES=y,CONFIG_SLAB_BUCKETS=y,sheaf_capacity.maple_node=32,sheaf_capacity.vm_area_struct=32" \
	"CONFIG_RANDOM_KMALLOC_CACHES=y" trace__traced footprint_kib
if [ -z "$quick" ]; then
	grep -qx random_kmalloc_initial=kept "$R/$cbase--config-CONFIG_RANDOM_KMALLOC_CACHES_y/runs/trace__traced/kernel.txt" ||
		fail "CONFIG_RANDOM_KMALLOC_CACHES=y on the capture: kernel.txt does not say the snapshot's objects stay"
	has "$R/$cbase--config-CONFIG_RANDOM_KMALLOC_CACHES_y/report.md" "the snapshot's objects stay in kmalloc-N"
fi
row C CONFIG=slub_min_order=3 "$cbase--config-slub_min_order_3" slub_min_order=3 \
	"slub_min_order=3" trace__traced footprint_kib
[ -n "$quick" ] ||
	[ "$(awk '$1 == "kmalloc-512" { print $5 }' "$R/$cbase--config-slub_min_order_3/runs/trace__traced/slabinfo")" = 64 ] ||
	fail "CONFIG=slub_min_order=3: kmalloc-512 is not 64 objects a slab (order 3)"
# slab_nomerge keeps apart the caches kmem_cache creates; the capture's
# caches stay as the kernel merged them (the trace names them so), said
row C CONFIG=slab_nomerge "$cbase--config-slab_nomerge" nomerge_scope=model \
	"slab_nomerge=y,sheaf_capacity.maple_node=32,sheaf_capacity.vm_area_struct=32; no merging of the caches the model creates only: the trace's caches are as the kernel merged them" \
	trace__kmem_cache footprint_kib
# CONFIG_MEMCG=n: accounted kmallocs leave kmalloc-cg-*; the trace's own
# obj_exts vectors are replayed still, and the header says so
row C CONFIG=CONFIG_MEMCG=n "$cbase--config-CONFIG_MEMCG_n" memcg_vectors_replayed=2 \
	"obj_exts vectors replayed, though a kernel without CONFIG_MEMCG makes none" trace__traced footprint_kib
row C TARGET=x86_64-6.x "$cbase--target-x86_64-6.x" target=x86_64-6.x \
	"- The capture's own target would be x86_64-6.18" trace__traced sim_time_ns
row C CPUS=8 "$cbase--cpus-8" cpus=8 "- CPUs: 8 (" trace__kmem_cache footprint_kib
# ... and the kernel's own caches with it: every cache of each run has the
# layout calculate_order() gives its stride at the run's CPUs
# (min_objects 4 * (fls(N) + 1): 12 at the capture's 2, 20 at 8), the
# snapshot's laid out anew (kmalloc-512: 16 objects a slab, then 32)
if [ -z "$quick" ]; then # (the CPUS row ran)
	for r in "$cbase 2" "$cbase--cpus-8 8"; do
		set -- $r
		"$S" validate --slabinfo "$R/$1/runs/trace__traced/slabinfo" --cpus "$2" --target x86_64-6.18 |
			tail -1 | grep -q ' 0 mismatch,' || fail "CPUS=$2: a cache of $1 is not laid out as calculate_order() says"
	done
	per_slab() { awk '$1 == "kmalloc-512" { print $5 }' "$R/$1/runs/trace__traced/slabinfo"; }
	[ "$(per_slab "$cbase")" = 16 ] && [ "$(per_slab "$cbase--cpus-8")" = 32 ] ||
		fail "CPUS=8: kmalloc-512 objects a slab $(per_slab "$cbase") -> $(per_slab "$cbase--cpus-8"), want 16 -> 32"
	grep -q '^initial_relaid=[1-9]' "$R/$cbase--cpus-8/runs/trace__traced/kernel.txt" ||
		fail "CPUS=8: kernel.txt says no cache was laid out anew"
	grep -qx 'initial_relaid=0' "$R/$cbase/runs/trace__traced/kernel.txt" ||
		fail "the capture's own CPUs laid a cache out anew"
fi
row C "TOPOLOGY=synth:pack:1 numa:2 core:2 pu:1" "$cbase--topology-synth_pack_1,numa_2,core_2,pu_1" \
	"topology=synth:pack:1 numa:2 core:2 pu:1: 1 package, 2 NUMA nodes, 4 cores, 4 PUs; map identity" \
	"2 NUMA nodes" trace__kmem_cache footprint_kib
CT=("${C[@]}" "TOPOLOGY=synth:pack:1 numa:2 core:2 pu:1")
ctbase=$cbase--topology-synth_pack_1,numa_2,core_2,pu_1
row CT MAP=scatter "$cbase--map-scatter--topology-synth_pack_1,numa_2,core_2,pu_1" \
	"topology=synth:pack:1 numa:2 core:2 pu:1: 1 package, 2 NUMA nodes, 4 cores, 4 PUs; map scatter" \
	"map scatter)" trace__traced sim_time_ns
row C "MODELS=traced traced+P" "$cbase--models-traced,traced+P" "summary:slub_debug=P" \
	"- Models (slub_debug): traced (-), traced+P (P)" trace__traced+P/trace__traced footprint_kib
row C COSTS="$costs" "$cbase--costs-${costs//\//_}" "costs=$costs" "- Cost table: $costs" trace__traced sim_time_ms
row C SEED=3 "$cbase--seed-3" draw_seed=3 "- Draw of the initial state (--draw-seed): 3" \
	trace__kmalloc-buckets sim_time_ns
row C INITIAL= "$cbase--initial-none" "!initial_state=" "- Initial state: none: the caches start empty" \
	trace__traced footprint_kib
row C "IMPORT_FLAGS=--cpus 4" "$cbase--import_flags---cpus,4" \
	"trace=$D/import/$cbase--import_flags---cpus,4/trace.sbt.zst" "- CPUs: 4 (" trace__kmem_cache footprint_kib

# ---- refused: what the workload does not read, nothing written ----
for set in INITIAL=x IMPORT_FLAGS=--drop-untraced; do
	before=$(ls "$R" "$D" | sort)
	expect_rc 2 mk sim "${W[@]}" "$set"
	grep -q "${set%%=*}=.* refused: workload smack17k does not read ${set%%=*}" "$tmp/err" ||
		fail "$set on a workload: $(cat "$tmp/err")"
	[ "$(ls "$R" "$D" | sort)" = "$before" ] || fail "$set on a workload wrote something"
done
expect_rc 2 mk sim WORKLOAD=hackbench TARGET=x86_64-6.1
grep -q "TARGET=x86_64-6.1 refused: workload hackbench does not read TARGET" "$tmp/err" ||
	fail "TARGET on hackbench: $(cat "$tmp/err")"
expect_rc 2 mk sim WORKLOAD=audit SEED=2
grep -q "SEED=2 refused: workload audit does not read SEED" "$tmp/err" || fail "SEED on audit: $(cat "$tmp/err")"
# ---- refused: memcg_kmem_online on a capture whose kernel charged (its
# trace holds the kernel's obj_exts vectors): =y is the capture's own
# kernel, =n would replay vectors such a kernel never makes ----
for v in y n; do
	snapshot "$cbase" "$D/import/$cbase" > "$tmp/before"
	expect_rc 2 mk sim "${C[@]}" CONFIG=memcg_kmem_online=$v
	grep -q "slabsim run: --config memcg_kmem_online=$v: .* holds its kernel's obj_exts vectors (meta slab_vectors [1-9]" "$tmp/err" ||
		fail "CONFIG=memcg_kmem_online=$v on the capture: $(cat "$tmp/err")"
	[ ! -e "$R/$cbase--config-memcg_kmem_online_$v" ] || fail "CONFIG=memcg_kmem_online=$v on the capture left a report directory"
	snapshot "$cbase" "$D/import/$cbase" > "$tmp/after"
	cmp -s "$tmp/before" "$tmp/after" || fail "CONFIG=memcg_kmem_online=$v: the default's files changed"
done
echo "whatif_table: $n rows ok${quick:+ (quick: the ALLOCATOR and INITIAL rows)}"
