#!/bin/bash
# make_sim.sh - the README's `make sim WORKLOAD=smack17k`, at small scale and
# into a temporary directory: every promised output appears, the seed table
# is in the report, and a second make does nothing.
. "$(dirname "$0")/lib/common.bash"
command -v gnuplot >/dev/null || { echo "make_sim: gnuplot missing, skipped"; exit 0; }

args=(WORKLOAD=smack17k RULES=300 LABELS=30 SLABSIM="$S" DATA="$tmp/data" REPORT="$tmp/rep")
make -C "$root" --no-print-directory sim "${args[@]}" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make sim"; }
for f in report.md summary.csv waste.png waste.svg latency.png latency.svg waste.dat latency.dat; do
	[ -s "$tmp/rep/$f" ] || fail "$f missing"
done
rows=$(($(wc -l < "$tmp/rep/summary.csv") - 1))
[ "$rows" = 20 ] || fail "summary.csv has $rows rows, want 5 variants x 4 models"
grep -q '^| ref  *|  *1946 |' "$tmp/rep/report.md" || fail "seed table not in report.md"
grep -q 'SMACK_SYSTEM_SLAB_KIB' "$tmp/rep/report.md" || fail "fitted constants not reported"
head -c 8 "$tmp/rep/waste.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "waste.png is not a PNG"
# nothing to redo: no generation, replay or report the second time
make -C "$root" --no-print-directory sim "${args[@]}" > "$tmp/log2" 2>&1 || fail "second make sim"
if grep -E 'slabsim (gen|run|report)' "$tmp/log2"; then fail "second make sim redid work"; fi

# ---- plots: each gnuplot draws into its own temporary file ----
plots="waste.png waste.svg latency.png latency.svg"
no_temporaries() {
	local left
	left=$(find "$tmp/rep" -maxdepth 1 -name '*.tmp.*')
	[ -z "$left" ] || fail "$1 left temporary files: $left"
}
# Two makes at once into the same report, both drawing every plot: with a
# temporary name shared between them, one renames the file the other is
# about to rename ("mv: cannot stat"), or draws into it half-way.
for round in 1 2 3; do
	(cd "$tmp/rep" && rm -f $plots)
	make -C "$root" --no-print-directory sim "${args[@]}" >"$tmp/log.a" 2>&1 & a=$!
	make -C "$root" --no-print-directory sim "${args[@]}" >"$tmp/log.b" 2>&1 & b=$!
	wait $a || { cat "$tmp/log.a"; fail "round $round: the first of two make sim at once"; }
	wait $b || { cat "$tmp/log.b"; fail "round $round: the second of two make sim at once"; }
	for f in $plots; do
		[ -s "$tmp/rep/$f" ] || fail "round $round: $f missing after two make sim at once"
	done
	no_temporaries "two make sim at once"
done
head -c 8 "$tmp/rep/latency.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "latency.png is not a PNG"
grep -q '</svg>' "$tmp/rep/latency.svg" || fail "latency.svg is cut short"
# A failing gnuplot leaves neither the plot nor its temporary file.
rm -f "$tmp/rep/waste.png"
if make -C "$root" --no-print-directory "$tmp/rep/waste.png" "${args[@]}" GNUPLOT=false \
	>"$tmp/log3" 2>&1; then fail "make with a failing gnuplot succeeded"; fi
[ ! -e "$tmp/rep/waste.png" ] || fail "a failed plot left waste.png"
no_temporaries "a failed plot"
echo "make_sim: ok"
