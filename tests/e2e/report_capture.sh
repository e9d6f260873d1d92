#!/bin/bash
# report_capture.sh - a capture's report.md answers its question first
# (analysis/report_capture.h): `make sim TRACE=tests/data/capture/ls-etc-6.18`
# then, before "## 1. What was run": the capture's name as title, the net
# change of slab memory with the kernel's and the model's figures, the
# caches and call sites that changed most (the initial state's pseudo-
# sites apart), every run with its change; the live kernel's comparison
# before section 2; plots of the change over the trace (timeline.png,
# from 0 to the model's change) and no waste.png; no "sheaves not
# modelled" on the 6.18 target, which models them; the tool's own events
# said when the meta counts them and not otherwise; MODELS without traced
# reports against the first model; the default's report, made before a
# what-if, sets it beside its runs at the next make sim.
. "$(dirname "$0")/lib/common.bash"
command -v gnuplot > /dev/null || { echo "SKIP: gnuplot missing"; exit 77; }

R=$tmp/reports
D=$tmp/datasets
cap=$root/tests/data/capture/ls-etc-6.18
mk() { make -C "$root" --no-print-directory SLABSIM="$S" REPORTS="$R" DATASETS="$D" "$@"; }
mk sim TRACE="$cap" > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "make sim TRACE=$cap"; }
md=$R/ls-etc-6.18/report.md
lead=$tmp/lead
sed -n '1,/^## 1\. What was run/p' "$md" > "$lead"

[ "$(head -1 "$md")" = "# ls-etc-6.18: slab memory report" ] || fail "title '$(head -1 "$md")'"
net=$(tr '\n' ' ' < "$lead" | grep -o '\*\*Your command changed slab memory by [^*]*\*\* (kernel: [^;]*; \*\*model `traced`: [^*]*\*\*')
[ -n "$net" ] || fail "no net change line with the kernel's and the model's figures: $(head -12 "$md")"
n=$(grep -oE '[-+]?[0-9]+(\.[0-9]+)? (MiB|KiB)' <<< "$net" | wc -l)
[ "$n" -ge 4 ] || fail "net change line: $n figures, want the change, before, after and the model's: $net"
has "$lead" "### The caches that changed most"
has "$lead" "### The call sites that changed most"
has "$lead" "### Every run and what-if of this capture"
first_cache=$(sed -n '/^### The caches that changed most/,/^###/p' "$lead" | grep -m1 -A2 '^| cache' | tail -1)
[[ $first_cache =~ ^\|\ [a-z] ]] || fail "first changed cache row: '$first_cache'"
if sed -n '/^### The call sites that changed most/,/^###/p' "$lead" | grep -q '^| (initial state)'; then
	fail "the initial state's pseudo-sites lead the call sites"
fi
grep -Eq '^\| traced +\| the kernel.s caches +\|' "$lead" || fail "no traced run from the kernel's caches in the runs table"
grep -Eq '^\| kmem_cache +\|.*\| [-+][0-9.]+ [KM]iB +\|$' "$lead" || fail "kmem_cache: no difference against the baseline: $(grep '^| kmem_cache' "$lead")"
kline=$(grep -n -m1 '^## The live kernel and the simulator' "$md" | cut -d: -f1)
s2=$(grep -n -m1 '^## 2\. ' "$md" | cut -d: -f1)
[ -n "$kline" ] && [ "$kline" -lt "$s2" ] || fail "the live kernel's comparison is not before section 2"
grep -q '^- Target: x86_64-6.18' "$md" || fail "not on x86_64-6.18"
if grep -q 'sheaves ([0-9]*) not modelled' "$md"; then fail "'sheaves not modelled' on a target that models them"; fi
if grep -q "capture tool's own" "$md"; then fail "the tool's own events said, the meta does not count them"; fi
[ -s "$R/ls-etc-6.18/change.png" ] && [ -s "$R/ls-etc-6.18/change.dat" ] || fail "no change.png"
grep -q '^"all caches" ' "$R/ls-etc-6.18/change.dat" || fail "change.dat: no all-caches row"
# the plots draw the window's change: timeline.png from 0, no waste.png of
# the whole machine; its traced line ends where report.md's change does
[ -s "$R/ls-etc-6.18/timeline.png" ] && [ -s "$R/ls-etc-6.18/timeline.dat" ] || fail "no timeline.png"
for x in waste.png waste.dat; do [ ! -e "$R/ls-etc-6.18/$x" ] || fail "a capture's report has $x"; done
grep -q 'change.png, timeline.png, latency.png written' "$tmp/log" || fail "the written line: $(tail -1 "$tmp/log")"
traced=$(awk '/^trace / { n++; next } /^$/ || /^#/ { next } n == 1' "$R/ls-etc-6.18/timeline.dat")
expect_eq "timeline.dat: traced starts at 0" "$(head -1 <<< "$traced" | cut -d' ' -f2)" "0.00"
expect_eq "timeline.dat: traced ends at change.dat's model change" \
	"$(tail -1 <<< "$traced" | awk '{ printf "%.1f", $2 }')" \
	"$(awk '/^"all caches"/ { print $NF }' "$R/ls-etc-6.18/change.dat")"
grep -qx 'change = 1' "$R/ls-etc-6.18/title.gp" || fail "title.gp: no change = 1"
# the runs table: kmalloc-buckets, which repacks the kernel's objects, has a change
grep -Eq '^\| kmalloc-buckets +\| the kernel.s objects, repacked +\| +[0-9.]+ MiB \| +[0-9.]+ MiB \| +[-+][0-9.]+ [KM]iB \|' "$lead" ||
	fail "kmalloc-buckets: no change in the runs table: $(grep '^| kmalloc-buckets' "$lead")"

# the tool's own events, when the meta counts them
cp "$cap/meta" "$tmp/meta"
printf 'tool_pids=11 12\ntool_events=1200\n' >> "$tmp/meta"
"$S" report --workload import --dir "$R/ls-etc-6.18" --variants trace \
	--models "traced kmalloc-buckets kmem_cache" --kernel-before "$cap/slab-before.txt" \
	--kernel-after "$cap/slab-after.txt" --capture-meta "$tmp/meta" \
	--capture-target "$D/import/ls-etc-6.18/target-slub.txt" 2> "$tmp/err" || fail "report: $(cat "$tmp/err")"
tr '\n' ' ' < "$md" | grep -q "The capture tool's own processes (meta tool_pids: 11 12) made 1200 of the capture's 1209576 events (0.10%" ||
	fail "the tool's own events not said: $(grep -m1 -A2 'tool' "$md")"

# MODELS without traced: the first model is the baseline and the kernel's comparison
mk sim TRACE="$cap" MODELS=kmem_cache > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "make sim MODELS=kmem_cache"; }
md=$R/ls-etc-6.18--models-kmem_cache/report.md
tr '\n' ' ' < "$md" | grep -q '\*\*model `kmem_cache`: ' || fail "MODELS=kmem_cache: no net change of model kmem_cache"
has "$md" "beside model \`kmem_cache\`"

# the default's report, made before that what-if, sets it beside its own
# runs at the next `make sim` (its runs are the report's inputs), its CSVs
# as they were; and a make after that has nothing to redo
base=$R/ls-etc-6.18
cp -a "$base" "$tmp/base-before"
grep -q 'ls-etc-6.18--models-kmem_cache' "$base/report.md" && fail "the default's report names a what-if made after it"
mk sim TRACE="$cap" > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "make sim TRACE=$cap again"; }
grep -Eq '^\| ls-etc-6\.18--models-kmem_cache \(slub, x86_64-6\.18, [0-9]+ CPUs\), kmem_cache +\|' "$base/report.md" ||
	fail "the default's report does not set the later what-if beside it: $(sed -n '/^| run /,/^$/p' "$base/report.md")"
for f in $(cd "$tmp/base-before" && find . -name '*.csv'); do
	cmp -s "$tmp/base-before/$f" "$base/$f" || fail "the default's $f changed with a what-if beside it"
done
mk sim TRACE="$cap" > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "make sim TRACE=$cap a third time"; }
if grep -q '^ *REPORT ' "$tmp/log"; then fail "nothing changed, yet report.md was made again"; fi

# a what-if's row is the run it adds, never a repeat of the report's own
# (MODELS="traced traced+P": traced+P, its traced is the default's); a
# run that repacks the kernel's objects (CPUS=8) and one from the
# snapshot compare each from its own start, whichever is the baseline
mk sim TRACE="$cap" MODELS="traced traced+P" > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "make sim MODELS=traced traced+P"; }
mk sim TRACE="$cap" CPUS=8 > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "make sim CPUS=8"; }
mk sim TRACE="$cap" > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "make sim TRACE=$cap after the what-ifs"; }
grep -Eq '^\| ls-etc-6\.18--models-traced,traced\+P \(slub, x86_64-6\.18, [0-9]+ CPUs\), traced\+P +\|' "$base/report.md" ||
	fail "MODELS=\"traced traced+P\": not its traced+P beside the default: $(grep '^| ls-etc-6.18--models-traced,' "$base/report.md")"
c8=$R/ls-etc-6.18--cpus-8/report.md
grep -Eq '^\| traced +\| the kernel.s objects, repacked +\|' "$c8" || fail "CPUS=8's traced does not repack the kernel's objects"
grep -Eq '^\| ls-etc-6\.18 \(slub, x86_64-6\.18, 2 CPUs\), traced +\| the kernel.s caches +\|.*\| [-+][0-9.]+ [KM]iB \(each from its own start\) +\|' "$c8" ||
	fail "CPUS=8: the default not against its baseline: $(grep '^| ls-etc-6.18 (' "$c8")"
# a malformed snapshot: its file and line, non-zero, nothing left behind
bad=$tmp/bad-cap
cp -r "$cap" "$bad"
sed -i '5s/.*/garbage line/' "$bad/slab-before.txt"
if mk sim TRACE="$bad" > "$tmp/log" 2>&1; then fail "make sim TRACE= of a malformed snapshot exited 0"; fi
grep -q "bad-cap/slab-before.txt:5: " "$tmp/log" || fail "no file:line for the malformed snapshot: $(tail -3 "$tmp/log")"
for d in "$D/import/bad-cap" "$R/bad-cap"; do [ ! -e "$d" ] || fail "a failed make sim left $d: $(ls -A "$d")"; done
echo "report_capture.sh: ok"
