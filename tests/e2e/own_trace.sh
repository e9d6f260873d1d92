#!/bin/bash
# own_trace.sh - your own workload end to end (docs/own-trace.md): a small
# command captured with `make capture` (raw pointers) and simulated with
# `make sim TRACE=`: the report has the live-kernel section, kernel.csv a
# row per cache with signed changes, the command the report prints works
# and then has nothing to redo; a trace-cmd trace.dat of the same kernel
# imports with the totals of its `trace-cmd report` text.  Needs root and
# tracefs (CI runs as root): SKIP (exit 77) otherwise.
. "$(dirname "$0")/lib/common.bash"
declare -F skip > /dev/null || skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root"
grep -qw tracefs /proc/filesystems || skip "no tracefs"
[ -d /sys/kernel/slab ] || skip "no /sys/kernel/slab"
command -v zstd > /dev/null || skip "no zstd"
command -v gnuplot > /dev/null || skip "no gnuplot"

# ---- make capture, then make sim TRACE= ----
caps=$tmp/caps
make -s --no-print-directory -C "$root" capture CAPTURE_DIR="$caps" SETTLE=1 \
	NAME=own CMD="mkdir -p $tmp/x && for i in \$(seq 300); do : > $tmp/x/f\$i; done && rm -rf $tmp/x" \
	> "$tmp/cap.out" 2>&1 || { cat "$tmp/cap.out"; fail "make capture"; }
# raw pointers by default: each object's slab for the replay
grep -qx "hashed_pointers=no" "$caps/own/meta" || fail "make capture: hashed pointers by default"
args=(TRACE="$caps/own" SLABSIM="$S" DATA="$tmp/data" REPORT="$tmp/rep")
make -C "$root" --no-print-directory sim "${args[@]}" > "$tmp/sim.out" 2>&1 ||
	{ grep -E "slabsim [a-z]+: |Error" "$tmp/sim.out" | head -5; tail -20 "$tmp/sim.out"; fail "make sim TRACE="; }
rep=$tmp/rep
for f in report.md summary.csv kernel.csv change.png timeline.png latency.png; do
	[ -s "$rep/$f" ] || fail "$f missing"
done
for m in traced kmalloc-buckets kmem_cache; do
	[ -s "$rep/runs/trace__$m/summary.csv" ] || fail "no run of $m"
	[ -s "$rep/runs/trace__$m/prior.csv" ] || fail "$m: no prior.csv (initial state)"
	# sites.csv: the kernel's objects as their own rows; the trace's rows
	# count every allocation replayed (the run itself checked that the
	# running byte totals, initial state and prior frees included, end
	# where the model's caches do)
	s=$rep/runs/trace__$m/sites.csv
	grep -q '^(initial state),' "$s" || fail "$m: sites.csv has no (initial state) rows"
	allocs=$(awk -F, 'NR > 1 && $1 != "(initial state)" { n += $3 } END { print n + 0 }' "$s")
	ops=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["alloc_ops"] }' \
		"$rep/runs/trace__$m/summary.csv")
	[ "$allocs" = "$ops" ] || fail "$m: sites.csv allocs $allocs, summary alloc_ops $ops"
done
grep -q '^## The live kernel and the simulator$' "$rep/report.md" || fail "no live-kernel section"
# the capture's meta reaches the section: what the trace cannot show
ut=$(sed -n 's/^untraced_tasks=//p' "$caps/own/meta")
case $ut in
unknown) grep -q '^The capture (`.*meta`) did not check' "$rep/report.md" ;;
0) grep -q '^Every task that ran during the capture was seen' "$rep/report.md" ;;
*) grep -q "^$ut tasks\{0,1\} ran [0-9.]* ms during the capture with no tracepoint" "$rep/report.md" ;;
esac || fail "report.md does not say what the capture's meta says (untraced_tasks=$ut)"
"$S" convert "$tmp/data/trace.sbt.zst" "$tmp/own.trace" > /dev/null
# raw pointers: the free slots of each CPU's first slab, before the events
awk '/^meta cpu_slab_free [^ ]+:[0-9]+:[0-9]+\+? / { m = NR } /^[af] / { first = NR; exit }
     END { exit !(m && m < first) }' "$tmp/own.trace" ||
	fail "the imported raw-pointer trace has no meta cpu_slab_free before its events"
awk '/^meta cpus / { cpus = NR } /^[af] / { first = NR; exit } END { exit !(cpus && cpus < first) }' \
	"$tmp/own.trace" || fail "the imported trace does not state its CPUs before the events"
# objects allocated without an event (raw pointers, a snapshot): each one
# the import replays is an allocation at site untraced_alloc in the trace,
# freed once; none is replayed that was not counted
tcol() { awk -F, -v n="$1" 'NR==1{for(i=1;i<=NF;i++) if($i==n) c=i} NR==2{print $c}' "$tmp/data/totals.csv"; }
placed=$(tcol untraced_placed)
[ -n "$placed" ] || fail "totals.csv has no untraced_placed column"
[ "$placed" -le "$(tcol untraced_allocs)" ] || fail "more untraced objects replayed ($placed) than counted"
[ "$(awk '$1 == "a" && $4 == "untraced_alloc"' "$tmp/own.trace" | wc -l)" = "$placed" ] ||
	fail "the trace's untraced_alloc allocations are not totals.csv's untraced_placed $placed"
# page frees (make capture's default with raw pointers): the import's
# count of kernel slabs seen freed is the trace's `d` lines, and every run
# says what their slabs here gave up (prior.csv prior_freed_unseen)
if [[ " $(sed -n 's/^kmem_events=//p' "$caps/own/meta") " == *" mm_page_free "* ]]; then
	[ "$(tcol page_frees)" -gt 0 ] || fail "totals.csv: no page frees read from a capture with them"
	[ "$(grep -c '^d ' "$tmp/own.trace" || true)" = "$(tcol kslabs_freed)" ] ||
		fail "totals.csv kslabs_freed $(tcol kslabs_freed), the trace has $(grep -c '^d ' "$tmp/own.trace" || true) d lines"
	head -1 "$rep/runs/trace__traced/prior.csv" | grep -Eq ',prior_freed_unseen(,|$)' ||
		fail "prior.csv has no prior_freed_unseen column"
fi
# the node partial and CPU slabs one by one (slab-fill): make sim TRACE=
# imports and replays with them, and prior.csv says how many kernel slabs
# were listed ones and how many CPU slabs started as listed
if [ -e "$caps/own/slab-fill-before.txt" ]; then
	grep -q -- '--slab-fill' "$rep/run-params" || fail "make sim TRACE= did not replay with the slab-fill"
	grep -Eq '^meta slab_fill [0-9a-f]{16}$' "$tmp/own.trace" || fail "the import did not number kernel slabs by the slab-fill"
	head -1 "$rep/runs/trace__traced/prior.csv" |
		grep -q ',kslabs_listed,prior_listed_unseen,cpu_slabs_listed,cpu_free_end,initial_objects,initial_slabs$' ||
		fail "prior.csv has no kslabs_listed, prior_listed_unseen, cpu_slabs_listed, cpu_free_end, initial_objects, initial_slabs columns"
	# the kernel's own geometry: each cache started with the snapshot's slabs
	awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[FILENAME, $i] = i; next }
		FILENAME ~ /kernel.csv$/ { k[$1] = $c[FILENAME, "kernel_slabs_before"]; next }
		$c[FILENAME, "from_snapshot"] == 1 && ($1 in k) { n++; bad += $c[FILENAME, "initial_slabs"] != k[$1] }
		END { exit bad > 0 || n == 0 }' "$rep/kernel.csv" "$rep/runs/trace__traced/prior.csv" ||
		fail "prior.csv: a cache of the kernel's geometry did not start with the snapshot's slabs"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpu_slabs_listed") c = i; next }
		{ n += $c } END { exit !(n > 0) }' "$rep/runs/trace__traced/prior.csv" ||
		fail "no CPU slab started as the slab-fill listed it"
	# and read again after the after-snapshot: kernel.csv gives both
	# sides' CPU slabs' free slots at the end for most caches
	[ "$(sed -n 's/^slab_fill_after=//p' "$caps/own/meta")" = yes ] || fail "meta slab_fill_after"
	prior_end=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cpu_free_end") c = i; next }
		{ n += $c } END { print n + 0 }' "$rep/runs/trace__traced/prior.csv")
	[ "$prior_end" -gt 0 ] || fail "prior.csv: no free slot on any CPU slab at the end"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ rows++; k += $c["kernel_cpu_free_after"] != ""; m += $c["model_cpu_free_after"] != "" }
		END { exit !(rows > 0 && k * 10 >= rows * 8 && m > 0) }' "$rep/kernel.csv" ||
		fail "kernel.csv: CPU slabs' free slots after missing for most caches"
fi
# kernel.csv: one row per cache, signed changes, the header's field count
awk -F, 'NR == 1 { n = NF } NF != n { print "row " NR ": " NF " fields"; bad = 1 } END { exit bad }' \
	"$rep/kernel.csv" || fail "kernel.csv rows"
awk -F, 'NR > 1 && ($5 != $3 - $2 || $6 != $4 - $2) { print $1; bad = 1 } END { exit bad }' \
	"$rep/kernel.csv" || fail "kernel.csv: a change is not after - before"
grep -q '^ext4_inode_cache,\|^dentry,' "$rep/kernel.csv" || fail "kernel.csv lacks the touched caches"
# settling reads the after-snapshot: a settled cache is never `within`, and
# the replay before the rule is kept for the figure without settling
[ -s "$rep/runs/trace__traced/slabinfo.unsettled" ] || fail "no slabinfo.unsettled"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	 $c["settled"] > 0 && $c["within"] == 1 { print $1; bad = 1 } END { exit bad }' \
	"$rep/kernel.csv" || fail "kernel.csv: a settled cache counted within"
grep -q "^No cache's objects changed\|Without settling" "$rep/report.md" ||
	fail "report.md: no figure without settling"
# the command the report prints is a command that works
cmd=$(sed -n 's/^- Command: `\(.*\)`$/\1/p' "$rep/report.md")
case $cmd in
"make sim TRACE=$caps/own "*) ;;
*) fail "report command '$cmd'" ;;
esac
(cd "$root" && eval "$cmd") > "$tmp/sim2.out" 2>&1 || fail "the report's command failed: $cmd"
if grep -E '^ *(IMPORT|RUN|REPORT) ' "$tmp/sim2.out"; then fail "second make sim redid work"; fi
# make compare TRACE= on the same runs
make -C "$root" --no-print-directory compare "${args[@]}" > "$tmp/cmp.out" 2>&1 ||
	{ tail -5 "$tmp/cmp.out"; fail "make compare TRACE="; }
grep -qF "make compare TRACE=$caps/own" "$rep/compare/compare.md" || { head -12 "$rep/compare/compare.md"; fail "compare.md command"; }
# titled by the capture's report name, not the workload `import`
expect_eq "compare.md's title" "$(head -1 "$rep/compare/compare.md")" "# $(basename "$rep"): models compared"
grep -q "$(basename "$rep")" "$rep/compare/title.gp" || fail "title.gp: not the capture's name: $(cat "$rep/compare/title.gp")"

# ---- make check-captures: the captures' held caches in one table ----
expect_rc 2 make -s -C "$root" --no-print-directory check-captures SLABSIM="$S"
grep -q 'check-captures needs CAPTURES=' "$tmp/err" || fail "check-captures without CAPTURES: $(cat "$tmp/err")"
mkdir "$tmp/empty"
expect_rc 2 make -s -C "$root" --no-print-directory check-captures CAPTURES="$tmp/empty" SLABSIM="$S" # (make: 2 for any failed recipe)
grep -q "empty: no capture in it" "$tmp/err" || fail "check-captures of a directory without captures: $(cat "$tmp/err")"
kt=$tmp/kt
make -C "$root" --no-print-directory check-captures CAPTURES="$caps" SLABSIM="$S" DRAWS=1 \
	REPORTS="$tmp/reports" DATASETS="$tmp/datasets" CHECK_OUT="$kt" > "$tmp/check.out" 2>&1 ||
	{ tail -20 "$tmp/check.out"; fail "make check-captures"; }
[ -s "$kt/kernel-table.md" ] && [ -s "$kt/kernel-table.csv" ] || fail "check-captures: no table"
# its report is the capture's, under PARENT-NAME: the same kernel.csv as
# make sim TRACE= gave above (the same inputs, another directory)
cmp "$rep/kernel.csv" "$tmp/reports/caps-own/kernel.csv" || fail "check-captures: another kernel.csv than make sim's"
# a row per held cache, each with the report's verdict
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["held"] == 1 { print "caps-own," $1 "," $c["within"] }' "$rep/kernel.csv")
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $1 "," $2 "," $c["within"] }' "$kt/kernel-table.csv")
expect_eq "kernel-table.csv's held caches and verdicts" "$got" "$want"
n=$(printf '%s' "$want" | grep -c . || true)
grep -q "^\*\*[0-9]* of [0-9]* held caches within\*\* over 1 capture\|^| caps-own *| *$n |" "$kt/kernel-table.md" ||
	fail "kernel-table.md: no count line: $(head -12 "$kt/kernel-table.md")"
grep -q "^| caps-own  *| *$n |" "$kt/kernel-table.md" || fail "kernel-table.md: no line for the capture with $n held"
# DRAWS=1: the capture once more with draw seed 1, its import shared
grep -qx "draw_seed=1" "$tmp/reports/caps-own.draw1/runs/trace__traced/kernel.txt" ||
	fail "check-captures DRAWS=1: no run with --draw-seed 1"
[ ! -e "$tmp/datasets/import/caps-own.draw1" ] || fail "check-captures DRAWS=1: imported again"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["draws"] != 2 { bad = 1 } END { exit bad }' \
	"$kt/kernel-table.csv" || fail "kernel-table.csv: not 2 draws per held cache"

# ---- trace-cmd's trace.dat ----
command -v trace-cmd > /dev/null || skip "no trace-cmd (the capture part passed)"
# (the capture unmounts the tracefs it mounted: mounted here again, as it
# does, or this part was skipped on every machine that does not keep
# tracefs mounted)
tfs_mounted=0
if [ ! -d /sys/kernel/tracing/instances ] && mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null; then
	tfs_mounted=1
fi
inst=/sys/kernel/tracing/instances/slabsim-e2e-$$
mkdir "$inst" || skip "cannot make a tracing instance"
trap 'rmdir "$inst" 2> /dev/null || true; [ "$tfs_mounted" = 0 ] || umount /sys/kernel/tracing; rm -rf "$tmp"' EXIT
echo 512 > "$inst/buffer_size_kb"
# a full buffer drops the newest events, not the oldest: the marker comes
# first, and other processes' events on a busy machine would overwrite it
echo 0 > "$inst/options/overwrite"
for e in kmalloc kfree kmem_cache_alloc kmem_cache_free; do echo 1 > "$inst/events/kmem/$e/enable"; done
echo 1 > "$inst/tracing_on"
echo "slabsim-phase ls" > "$inst/trace_marker"
ls -la /etc > /dev/null
echo 0 > "$inst/tracing_on"
(cd "$tmp" && trace-cmd extract -B "$(basename "$inst")" -o "$tmp/t.dat") > /dev/null 2>&1 ||
	skip "trace-cmd extract failed (the capture part passed)"
"$S" import --totals "$tmp/dat.csv" -o "$tmp/dat.trace" "$tmp/t.dat" > /dev/null ||
	fail "import of a trace.dat"
trace-cmd report -i "$tmp/t.dat" > "$tmp/t.txt" 2> /dev/null
"$S" import --totals "$tmp/txt.csv" -o "$tmp/txt.trace" "$tmp/t.txt" > /dev/null ||
	fail "import of its trace-cmd report"
[ "$(col "$tmp/dat.csv" allocs)" -gt 0 ] || fail "no allocations in the trace.dat"
for k in allocs frees bytes_requested bytes_allocated null_frees unknown_frees realloc_live \
	 live_at_end phases; do
	expect_eq "trace.dat vs its report: $k" "$(col "$tmp/dat.csv" $k)" "$(col "$tmp/txt.csv" $k)"
done
grep -q '^p ls$' "$tmp/dat.trace" || fail "trace.dat: the marker is no phase"
echo "own_trace.sh: ok"
