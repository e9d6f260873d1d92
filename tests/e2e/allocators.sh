#!/bin/bash
# allocators.sh - `slabsim run --allocator/--config/--label` on the real
# 6.18 capture and a small smack17k trace: each allocator and option set
# gives its own figures and says what it ran (kernel.txt, slabinfo
# tunables), accounted allocations land in kmalloc-cg-N with their
# obj_cgroup vectors, impossible kernels exit 3, bad options exit 1 or 2;
# and `make compare ALLOCATORS= CONFIGS=` builds one report across them.
. "$(dirname "$0")/lib/common.bash"

cap=$root/tests/data/import/ls-etc-6.18.ftrace.zst
"$S" import --target x86_64-6.18 -o "$tmp/ls.trace" "$cap" >/dev/null
"$S" gen smack17k --rules 300 --labels 30 --variant ref -o "$tmp/smack.trace" >/dev/null

run() { # DIR ARGS...: a run of model traced into $tmp/DIR
	local d=$1
	shift
	"$S" run --trace "$tmp/smack.trace" --model traced --out "$tmp/$d" "$@" >/dev/null
}

# ---- three allocators on one trace: their own footprints ------------------------
run slub --target arm32-6.6
run slab --target arm32-6.6 --allocator slab --label traced.slab
run tiny --target arm32-6.6 --allocator slub-tiny
for d in slub slab tiny; do [ -s "$tmp/$d/summary.csv" ] || fail "$d: no summary"; done
expect_eq "slab label" "$(col "$tmp/slab/summary.csv" model)" traced.slab
grep -qx "allocator=slab" "$tmp/slab/kernel.txt" || fail "slab: kernel.txt"
grep -qx "allocator=slub-tiny" "$tmp/tiny/kernel.txt" || fail "tiny: kernel.txt"
# their own layouts: kmalloc-32 holds 128 per SLUB slab, 124 per SLAB slab
# (4.6+ freelist of one byte per object at the slab's end)
expect_eq "slub kmalloc-32" "$(awk -F, '$1 == "kmalloc-32" { print $4 }' "$tmp/slub/caches.csv")" 128
expect_eq "slab kmalloc-32" "$(awk -F, '$1 == "kmalloc-32" { print $4 }' "$tmp/slab/caches.csv")" 124
# SLAB's tunables in slabinfo (limit 120, batchcount 60, shared 8 for 32 B)
grep -Eq "^kmalloc-32 .* tunables +120 +60 +8 " "$tmp/slab/slabinfo" || fail "slab tunables"
grep -Eq "^kmalloc-32 .* tunables +0 +0 +0 " "$tmp/slub/slabinfo" || fail "slub tunables"
# SLUB_TINY has no per-CPU fast path
expect_eq "tiny fast path" "$(col "$tmp/tiny/summary.csv" fastpath_pct)" 0.00

# ---- KFENCE: its pool in the footprint, the running totals agreeing ----------------
# (the pool's leading guard pair is slab tail of no slot: before it was
# counted so in the running totals, every KFENCE run ended in "internal
# error: ... running byte totals ... differ")
run kfence --target x86_64-6.x --config CONFIG_KFENCE=y
[ -s "$tmp/kfence/summary.csv" ] || fail "kfence: no summary"
grep -q '^kfence,' "$tmp/kfence/caches.csv" || fail "kfence: no kfence cache"
# 256 page pairs reserved whatever is used: at least 2 MiB of footprint
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	 { if ($h["footprint_kib"] < 2048) exit 1 }' "$tmp/kfence/summary.csv" ||
	fail "kfence: footprint below the 2 MiB pool"

# ---- the audit seed's kernel: 2.6.16 SLAB, size-N caches --------------------------
run s2616 --target x86_64-2.6.16
grep -q "^size-32 " "$tmp/s2616/slabinfo" || fail "2.6.16: no size-32"
grep -qx "era=2.6.16" "$tmp/s2616/kernel.txt" || fail "2.6.16: era"

# ---- random kmalloc caches: more caches, more memory ------------------------------
"$S" run --trace "$tmp/ls.trace" --model traced --target x86_64-6.18 --out "$tmp/ls" >/dev/null
"$S" run --trace "$tmp/ls.trace" --model traced --target x86_64-6.18 \
	--config CONFIG_RANDOM_KMALLOC_CACHES=y --out "$tmp/lsr" >/dev/null
grep -q "^kmalloc-rnd-" "$tmp/lsr/caches.csv" || fail "no kmalloc-rnd-* cache"
grep -q "^kmalloc-rnd-" "$tmp/ls/caches.csv" && fail "kmalloc-rnd-* without the option"
awk -v a="$(col "$tmp/ls/summary.csv" footprint_kib)" -v b="$(col "$tmp/lsr/summary.csv" footprint_kib)" \
	'BEGIN { exit !(b > a) }' || fail "random caches cost nothing"

# ---- memcg: the capture's accounted=true kmallocs in kmalloc-cg-N, and each
# such slab's obj_cgroup vector an object of its own kmalloc cache -------------
"$S" run --trace "$tmp/ls.trace" --model traced --target x86_64-6.18 \
	--config CONFIG_MEMCG=n --out "$tmp/lsn" >/dev/null
grep -c "gfp=account" "$tmp/ls.trace" >/dev/null || fail "import: no gfp=account"
# two lsm_blob_alloc objects of 11 bytes, accounted: kmalloc-cg-16 (16 B)
expect_eq "kmalloc-cg-16 objects" "$(awk -F, '$1 == "kmalloc-cg-16" { print $6 }' "$tmp/ls/caches.csv")" 2
expect_eq "kmalloc-16 without memcg" "$(awk -F, '$1 == "kmalloc-16" { print $6 }' "$tmp/lsn/caches.csv")" 2
# an imported trace that holds the kernel's own obj_exts vectors (kmallocs
# at alloc_slab_obj_exts: meta slab_vectors above 0) gets none from the
# model; one whose kernel made none in the window (slab_vectors 0) gets the
# model's for the slabs it makes (docs/own-trace.md): never both, never neither
grep -qx "meta slab_vectors 0" "$tmp/ls.trace" || fail "import: meta slab_vectors 0 expected of ls-etc"
grep -q "memcg_vector,slab" "$tmp/ls/counters.csv" || fail "slab_vectors 0: the model made no vectors"
sed 's/^meta slab_vectors 0$/meta slab_vectors 2/' "$tmp/ls.trace" >"$tmp/lsv.trace"
"$S" run --trace "$tmp/lsv.trace" --model traced --target x86_64-6.18 --out "$tmp/lsv" >/dev/null
grep -q "memcg_vector" "$tmp/lsv/counters.csv" && fail "the kernel's own vectors in the trace, and the model's too"
# the same events as a synthetic trace: the model makes them, its two
# slabs' vectors: 256 objects x 8 bytes = 2048 -> two kmalloc-2k objects
grep -v "^meta workload import" "$tmp/ls.trace" >"$tmp/lssyn.trace"
"$S" run --trace "$tmp/lssyn.trace" --model traced --target x86_64-6.18 --out "$tmp/lssyn" >/dev/null
grep -qx "kmalloc-cg-16,memcg_vector,slab,2" "$tmp/lssyn/counters.csv" || fail "kmalloc-cg-16: vectors"
expect_eq "kmalloc-2k objects" "$(awk -F, '$1 == "kmalloc-2k" { print $6 }' "$tmp/lssyn/caches.csv")" 2
expect_eq "kmalloc-2k without memcg" "$(awk -F, '$1 == "kmalloc-2k" { print $6 }' "$tmp/lsn/caches.csv")" 0
grep -q "^kmalloc-cg-" "$tmp/lsn/caches.csv" && fail "kmalloc-cg-* without CONFIG_MEMCG"

# ---- sheaves on the 6.18 target ----------------------------------------------------
grep -q "^maple_node,alloc_cpu_sheaf," "$tmp/ls/counters.csv" || fail "maple_node: no sheaf allocations"
# A free can take pages: freed maple_nodes fill sheaves, and the barn's
# empty ones are kmalloc'ed (alloc_empty_sheaf) into a kmalloc-512 whose
# one slab 12 objects of the trace's own filled.  The footprint then grows
# after the last alloc; the peak once stayed below it (only allocs looked
# at it), and `run` now refuses such a peak.
{
	echo "slabsim-trace 1"
	echo "cache maple_node size=256 align=256"
	for i in $(seq 1 100); do echo "a 0 $i mas_alloc_nodes maple_node 256"; done
	for i in $(seq 1 12); do echo "a 0 $((1000 + i)) fill kmalloc 512"; done
	echo "p allocated"
	for i in $(seq 1 100); do echo "f 0 $i"; done
} >"$tmp/sheafpeak.trace"
"$S" run --trace "$tmp/sheafpeak.trace" --model traced --target x86_64-6.18 \
	--out "$tmp/sheafpeak" >/dev/null
at_phase=$(awk -F, '$2 == "allocated" { print $3; exit }' "$tmp/sheafpeak/timeline.csv")
end=$(col "$tmp/sheafpeak/summary.csv" footprint_kib)
peak=$(col "$tmp/sheafpeak/summary.csv" peak_footprint_kib)
awk -v a="$at_phase" -v e="$end" 'BEGIN { exit !(e > a) }' ||
	fail "sheaf frees: the footprint did not grow after the allocs ($at_phase -> $end KiB): the case is not made"
expect_eq "sheaf frees: peak" "$peak" "$end"
[ "$(col "$tmp/sheafpeak/summary.csv" peak_event)" -gt 112 ] || fail "sheaf frees: the peak is not at a free"

# ---- kernels that do not exist, bad options ----------------------------------------
rc=0
run bad --target arm32-3.10 --allocator slub-tiny 2>"$tmp/err" || rc=$?
expect_eq "tiny on 3.10: exit" "$rc" 3
grep -q "SLUB_TINY" "$tmp/err" || fail "tiny on 3.10: message"
rc=0
run bad --target x86_64-6.x --allocator slab 2>"$tmp/err" || rc=$?
expect_eq "slab on 6.11: exit" "$rc" 3

# ---- 7.x: sheaves for every cache, no CPU slabs (docs/sheaves.md) -------------------
run s72 --target x86_64-7.2
grep -qx "era=7.2" "$tmp/s72/kernel.txt" || fail "7.2: era"
# every pop and push counts the fast paths; no CPU slab, CPU partial list,
# frozen slab or 6.18 sheaf statistic is left
grep -q "^kmalloc-32,alloc_fastpath," "$tmp/s72/counters.csv" || fail "7.2: no alloc_fastpath"
grep -q "^kmalloc-32,sheaf_refill," "$tmp/s72/counters.csv" || fail "7.2: no sheaf refills"
grep -Eq ",(alloc_cpu_sheaf|free_cpu_sheaf|cpu_partial_[a-z]+|deactivate_[a-z_]+|free_frozen|alloc_refill|alloc_from_partial)," \
	"$tmp/s72/counters.csv" && fail "7.2: a statistic 7.x does not have"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $h["cpu_slabs"] != 0 { exit 1 }' \
	"$tmp/s72/caches.csv" || fail "7.2: a CPU slab"
run t72 --target x86_64-7.2 --allocator slub-tiny
grep -qx "allocator=slub-tiny" "$tmp/t72/kernel.txt" || fail "7.2 tiny: kernel.txt"
expect_eq "7.2 tiny fast path" "$(col "$tmp/t72/summary.csv" fastpath_pct)" 0.00
"$S" list targets | grep -q "^x86_64-7.2 .*kernel 7.2" || fail "list targets: no 7.2"
"$S" list targets | grep -q "not modelled" && fail "list targets: a target said not modelled"
rc=0
run bad --target x86_64-6.x --config CONFIG_NO_SUCH=y 2>"$tmp/err" || rc=$?
expect_eq "unknown option: exit" "$rc" 3
grep -q "unknown option 'CONFIG_NO_SUCH'" "$tmp/err" || fail "unknown option: message"
rc=0
run bad --target x86_64-6.x --allocator slob 2>"$tmp/err" || rc=$?
expect_eq "unknown allocator: exit" "$rc" 2
rc=0
run bad --target x86_64-6.x --allocator slab --slub-debug P 2>"$tmp/err" || rc=$?
[ "$rc" -ne 0 ] || fail "slub_debug on SLAB accepted"
[ ! -e "$tmp/bad/summary.csv" ] || fail "a failed run left a summary"

# ---- make compare across allocators and options ----------------------------------
has_cmd gnuplot || skip_rest_unless_ci "make compare ALLOCATORS=: no gnuplot (Debian gnuplot-nox; make deps installs it)"
rep=$tmp/reports/smack17k
make -C "$root" --no-print-directory compare WORKLOAD=smack17k RULES=300 LABELS=30 \
	SLABSIM="$S" DATA="$tmp/data" REPORT="$rep" VARIANTS=ref MODELS=traced \
	TARGET=arm32-6.6 ALLOCATORS="slub slab slub-tiny" \
	CONFIGS="CONFIG_RANDOM_KMALLOC_CACHES=y" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "make compare ALLOCATORS"; }
c=$rep/kernels/compare
for f in compare.md waste.png latency.png timeline.png; do
	[ -s "$c/$f" ] || fail "kernels/compare/$f missing"
done
has "$c/compare.md" "traced.slab: slab, 6.6, options: the target's"
has "$c/compare.md" "traced.slub.c1: slub, 6.6, options: CONFIG_RANDOM_KMALLOC_CACHES=y"
has "$c/compare.md" "traced.slub-tiny.c1: not run:"
# no kernel had SLAB with random kmalloc caches (SLUB only, 6.6-6.7)
has "$c/compare.md" "traced.slab.c1: not run: slabsim run: slab: CONFIG_RANDOM_KMALLOC_CACHES depends on SLUB"
[ ! -e "$rep/kernels/runs/ref__traced.slab.c1" ] || fail "a skipped run left its directory"
# 4 of the 6 label pairs ran: the count and the pairs, said as such
has "$c/compare.md" "Runs: 4 from"
has "$c/compare.md" "of the 6 pairs of 1 variants and 6 models"
echo "allocators.sh: ok"
