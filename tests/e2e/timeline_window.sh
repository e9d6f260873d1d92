#!/bin/bash
# timeline_window.sh - a replay from the kernel's caches (run
# --initial-state) records what the trace changed over time: timeline.csv's
# initial_kib, the snapshot's slabs of the caches loaded so far, with a
# row before the first event and the settling rule as a phase of its own
# (its marker row where the trace ended, then the row after it); a run
# without an initial state keeps its five columns and its rows.  The
# plot data of a capture start at 0 and end at the run's change:
# `slabsim compare`'s timeline.dat, and `slabsim report --window`'s, which
# draws no waste.png (docs/outputs.md, timeline.csv and timeline.dat).
. "$(dirname "$0")/lib/common.bash"
cd "$tmp"
# kmalloc-cg-64 full (10 slabs of one page); kmalloc-64 never touched
cat > snap.txt <<'SNAP'
slabinfo - version: 2.1
kmalloc-cg-64 640 640 64 64 1 : tunables 0 0 0 : slabdata 10 10 0
kmalloc-64 640 640 64 64 1 : tunables 0 0 0 : slabdata 10 10 0
SNAP
{
	echo "slabsim-trace 1"
	echo "meta workload import"
	echo "meta variant trace"
	echo "meta cpus 2"
	for i in $(seq 1 100); do echo "a 0 $i alloc_y kmalloc 64 gfp=account"; done
	echo "p end"
	for i in $(seq 1 30); do echo "f 0 $i"; done
} > t.trace
run() { "$S" run --trace t.trace --target x86_64-6.x --sample-every 16 "$@" > /dev/null; }
tl() { echo "$1/runs/trace__$2/timeline.csv"; }

mkdir -p cap/runs plain/runs
run --model traced --initial-state snap.txt --final-state snap.txt --out cap/runs/trace__traced
run --model kmem_cache --initial-state snap.txt --final-state snap.txt --out cap/runs/trace__kmem_cache
run --model traced --out plain/runs/trace__traced

# ---- timeline.csv ----
f=$(tl cap traced)
expect_eq "header with an initial state" "$(head -1 "$f")" \
	"events,phase,footprint_kib,live_objects,sim_time_ms,initial_kib"
expect_eq "the row before the first event" "$(sed -n 2p "$f")" "0,start,0.00,0,0.000,0.00"
# the snapshot's kmalloc-cg-64 only: 10 one-page slabs; kmalloc-64 never loaded
expect_eq "initial_kib at the end" "$(tail -1 "$f" | cut -d, -f6)" "40.00"
expect_eq "the last row: after the settling rule" "$(tail -1 "$f" | cut -d, -f2)" "settling rule"
expect_eq "its footprint: summary.csv's" "$(tail -1 "$f" | cut -d, -f3)" \
	"$(col cap/runs/trace__traced/summary.csv footprint_kib)"
expect_eq "the settling rule's marker row: where the trace ended" \
	"$(tail -2 "$f" | head -1 | cut -d, -f1,3-)" "$(tail -3 "$f" | head -1 | cut -d, -f1,3-)"
expect_eq "the settling rule's marker row" "$(tail -2 "$f" | head -1 | cut -d, -f2)" "settling rule"
# the change at the end: the run's slabinfo (pages) less the snapshot's
# slabs of the caches it used
slab_kib=$(awk 'NR > 2 { k += $15 * $6 * 4 } END { printf "%.2f", k }' cap/runs/trace__traced/slabinfo)
change=$(tail -1 "$f" | awk -F, '{ printf "%.2f", $3 - $6 }')
expect_eq "footprint - initial at the end" "$change" "$(awk -v s="$slab_kib" 'BEGIN { printf "%.2f", s - 40 }')"
# 100 objects need new slabs beside the full ones: the window added some
awk -v c="$change" 'BEGIN { exit !(c > 0) }' || fail "no change at the end: $change"
awk -F, 'NR > 2 && $6 + 0 < p { exit 1 } NR > 1 { p = $6 }' "$f" || fail "initial_kib fell"

f=$(tl plain traced)
expect_eq "header without an initial state" "$(head -1 "$f")" \
	"events,phase,footprint_kib,live_objects,sim_time_ms"
awk -F, 'NF != 5 { exit 1 }' "$f" || fail "a row without an initial state has other than 5 fields"
[ "$(sed -n 2p "$f" | cut -d, -f1)" != 0 ] || fail "a row before the first event without an initial state"
if grep -q ',settling rule,' "$f"; then fail "a settling-rule row without --final-state"; fi

# ---- compare: timeline.dat holds the change ----
"$S" compare --workload import --dir cap > /dev/null 2> err || fail "compare: $(cat err)"
dat=cap/compare/timeline.dat
# blk FILE B: the rows of block B (0-based) of a timeline.dat
blk() { awk -v b="$2" '/^trace / { n++; next } /^$/ || /^#/ { next } n == b + 1 { print }' "$1"; }
expect_eq "traced's first plotted point" "$(blk "$dat" 0 | head -1)" "0 0.00 0 0.000"
expect_eq "traced's last plotted point: the change" "$(blk "$dat" 0 | tail -1 | cut -d' ' -f2)" "$change"
grep -qx 'change = 1' cap/compare/title.gp || fail "compare's title.gp: no change = 1"
grep -Eq "^\| trace +\| traced +\| +[0-9]+ \| +[0-9]+ \| +[0-9]+ \| +\+${change%.00} \|" cap/compare/compare.md ||
	fail "compare.md §4: no change of traced: $(grep '^| trace  *| traced' cap/compare/compare.md | tail -1)"
"$S" compare --workload import --dir plain > /dev/null 2> err || fail "compare plain: $(cat err)"
expect_eq "a run without an initial state: its footprint" \
	"$(blk plain/compare/timeline.dat 0 | cut -d' ' -f2 | tr '\n' ' ')" \
	"$(tail -n +2 "$(tl plain traced)" | cut -d, -f3 | tr '\n' ' ')"
if grep -q '^change' plain/compare/title.gp; then fail "change = 1 without an initial state"; fi

# ---- report --window: the change, no waste.dat, and an older waste.png goes ----
: > cap/waste.png
"$S" report --workload import --dir cap --window > /dev/null 2> err || fail "report --window: $(cat err)"
for x in timeline.dat phases.dat title.gp report.md; do [ -s "cap/$x" ] || fail "report --window: no $x"; done
for x in waste.dat waste.png; do [ ! -e "cap/$x" ] || fail "report --window left $x"; done
expect_eq "report's timeline.dat: traced's first point" "$(blk cap/timeline.dat 0 | head -1)" "0 0.00 0 0.000"
expect_eq "report's timeline.dat: kmem_cache's last point" \
	"$(blk cap/timeline.dat 1 | tail -1 | cut -d' ' -f2)" \
	"$(tail -1 "$(tl cap kmem_cache)" | awk -F, '{ printf "%.2f", $3 - $6 }')"
grep -qx 'change = 1' cap/title.gp || fail "report's title.gp: no change = 1"
grep -q '^- Plots: timeline.png, latency.png ' cap/report.md || fail "report.md's plots: $(grep '^- Plots' cap/report.md)"
"$S" report --workload import --dir plain > /dev/null 2> err || fail "report: $(cat err)"
[ -s plain/waste.dat ] && [ ! -e plain/timeline.dat ] || fail "report without --window: waste.dat, no timeline.dat"

# ---- a timeline whose initial state shrinks is refused, naming the line ----
awk -F, -v OFS=, 'NR == 5 { $6 = 1 } { print }' "$(tl cap traced)" > t.csv && mv t.csv "$(tl cap traced)"
expect_rc 1 "$S" compare --workload import --dir cap
grep -q 'trace__traced/timeline.csv:5: initial_kib 1.00' "$tmp/err" || fail "bad initial_kib: $(cat "$tmp/err")"
echo "timeline_window: ok"
