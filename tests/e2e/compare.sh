#!/bin/bash
# compare.sh - `make compare` at small scale into a temporary reports/ tree:
# every output and plot appears and is not trivial, the figures agree with
# the runs they come from, index.html links it all with balanced tags, a
# second make does nothing, a new model list redoes it, and bad input or
# usage fails cleanly.
. "$(dirname "$0")/lib/common.bash"
. "$root/tests/e2e/lib/plots.bash"
need_gnuplot

rep=$tmp/reports/smack17k
c=$rep/compare
args=(WORKLOAD=smack17k RULES=300 LABELS=30 SLABSIM="$S" DATA="$tmp/data" REPORT="$rep"
	VARIANTS="ref patch4")
make -C "$root" --no-print-directory compare "${args[@]}" MODELS="traced kmem_cache traced+FZPU" \
	>"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make compare"; }
for f in compare.md waste.dat latency.dat timeline.dat phases.dat top_caches.csv title.gp; do
	[ -s "$c/$f" ] || fail "compare/$f missing"
done

# ---- plots: titles, axes with units, legends ------------------------------------
# every title names the workload, the target and the CPUs
head="smack17k, arm32-3.10, 2 CPUs: "
check_plot "$c/waste" "${head}Where the slab bytes go (KiB)" "slab memory (KiB)" \
	"model: end of trace, peak (bars); variant (top axis)" requested "rounding padding" \
	"debug metadata" "slab tail" ref patch4 traced+FZPU peak
check_plot "$c/latency" "${head}Allocator latency CCDF of every run" \
	"latency per operation (ns, log scale" "fraction of operations slower (1 - CDF)" \
	"ref kmem_cache" "patch4 traced+FZPU" alloc free
check_plot "$c/timeline" "${head}Slab footprint over the trace" \
	"events replayed (trace position" "slab footprint (KiB)" system load traced+FZPU

# ---- figures against the runs they come from -------------------------------------
t=$(col "$rep/runs/ref__traced/summary.csv" footprint_kib)
k=$(col "$rep/runs/ref__kmem_cache/summary.csv" footprint_kib)
d=$(awk -v t="$t" -v k="$k" 'BEGIN { printf "%+.1f", 100 * (k - t) / t }')
has "$c/compare.md" "| ref | $(printf %.0f "$t") | $(printf %.0f "$k") ($d%) |"
has "$c/compare.md" "Runs: 6 (2 variants × 3 models)"
# the first of top_caches.csv for (ref, traced) is caches.csv's largest
# waste: space_bytes - requested_bytes, the rounding to kmalloc-32 included
best=$(awk -F, 'NR > 1 && $8 > 0 && $11 - $17 > m { m = $11 - $17; n = $1 } END { print n "," m }' \
	"$rep/runs/ref__traced/caches.csv")
top=$(awk -F, '$1 == "ref" && $2 == "traced" && $3 == 1 { print $4 "," $14 - $20 }' "$c/top_caches.csv")
[ "$top" = "$best" ] || fail "top cache by waste: '$top', caches.csv says '$best'"
has "$c/compare.md" "## 5. Top caches by waste"
has "$c/compare.md" "## 6. Top allocation sites by waste"
# the peak: summary.csv's exact figure, in the footprint table and §4
p=$(col "$rep/runs/ref__traced/summary.csv" peak_footprint_kib)
pe=$(col "$rep/runs/ref__traced/summary.csv" peak_event)
has "$c/compare.md" "| ref | traced | $(printf %.0f "$p") | $pe |"
# the load marker sits where the run's timeline first says load
ev=$(awk -F, '$2 == "load" { print $1; exit }' "$rep/runs/patch4__kmem_cache/timeline.csv")
grep -qx "patch4 $ev \"load\"" "$c/phases.dat" || fail "phases.dat: no load marker at $ev"
grep -qx 'ref 0 "system"' "$c/phases.dat" || fail "phases.dat: no system marker"
[ "$(grep -c '^ref traced$' "$c/timeline.dat")" = 1 ] || fail "timeline.dat: no ref traced block"

# ---- the report's own plots, and index.html (REPORT is ROOT/W: it is kept) -------
make -C "$root" --no-print-directory report "${args[@]}" MODELS="traced kmem_cache traced+FZPU" \
	>"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make report"; }
check_plot "$rep/waste" "${head}Where the slab bytes go (KiB), end of trace and peak" \
	KiB requested "slab tail" traced+FZPU end peak ref patch4
check_plot "$rep/latency" "${head}Allocator latency CCDF, one curve per variant and model" \
	"latency (ns)" "fraction of allocs slower" "fraction of frees slower" \
	"kmem_cache: alloc" "traced+FZPU: free" ref patch4
idx=$tmp/reports/index.html
[ -s "$idx" ] || fail "index.html missing"
check_html "$idx"
grep -qF '<h3><a href="smack17k/report.html">smack17k: slab memory report</a></h3>' "$idx" ||
	fail "index.html: no report card"
grep -qF 'src="smack17k/waste.png"' "$idx" || fail "index.html: no waste plot"
grep -qF '<h3><a href="smack17k/compare/compare.html">smack17k: models compared</a></h3>' "$idx" ||
	fail "index.html: no compare card"
grep -qF 'src="smack17k/compare/timeline.png"' "$idx" || fail "index.html: no timeline plot"
grep -qF 'href="smack17k/compare/timeline.svg"' "$idx" || fail "index.html: no SVG link"
for page in smack17k/report.html smack17k/compare/compare.html; do
	check_html "$tmp/reports/$page"
done

# ---- nothing to redo; a new model list redoes the comparison ----------------------
make -C "$root" --no-print-directory compare "${args[@]}" MODELS="traced kmem_cache traced+FZPU" \
	>"$tmp/log2" 2>&1 || fail "second make compare"
if grep -E '^ *(GEN|RUN|COMPARE|GNUPLOT) ' "$tmp/log2"; then fail "second make compare redid work"; fi
make -C "$root" --no-print-directory compare "${args[@]}" MODELS="kmem_cache traced" \
	>"$tmp/log3" 2>&1 || { cat "$tmp/log3"; fail "make compare, two models"; }
has "$c/compare.md" "Baseline: \`kmem_cache\`, the first model given"
if grep -q 'traced+FZPU' "$c/waste.dat"; then fail "waste.dat kept a model not asked for"; fi

# ---- without --models: traced first, the baseline, named ---------------------------
"$S" compare --workload smack17k --dir "$rep" --out "$tmp/nomodels" 2>/dev/null ||
	fail "compare without --models"
has "$tmp/nomodels/compare.md" "Baseline: \`traced\`, the first model given"
has "$tmp/nomodels/compare.md" "| variant | traced | kmem_cache | traced+FZPU |"
# kmem_cache against traced: the sign says which holds more
d=$(awk -v t="$t" -v k="$k" 'BEGIN { printf "%+.1f", 100 * (k - t) / t }')
has "$tmp/nomodels/compare.md" "| ref | $(printf %.0f "$t") | $(printf %.0f "$k") ($d%) |"

# ---- bad input: file:line, exit 1, nothing written ---------------------------------
sed -i '3s/.*/x,load,1,1,1/' "$rep/runs/ref__traced/timeline.csv"
rc=0
"$S" compare --workload smack17k --dir "$rep" --out "$tmp/bad" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "corrupt timeline: exit $rc, want 1"
grep -q 'runs/ref__traced/timeline.csv:3: ' "$tmp/err" || fail "no file:line in: $(cat "$tmp/err")"
[ -z "$(ls -A "$tmp/bad" 2>/dev/null)" ] || fail "a failed compare left files: $(ls "$tmp/bad")"
rc=0
"$S" compare --workload smack17k --dir "$rep" --top 0 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "--top 0: exit $rc, want 2"
echo "compare: ok"
