#!/bin/bash
# sweep.sh - `make sweep -j2` at small scale into a temporary directory:
# each value runs with its own parameter, the gathered figures match each
# value's runs, the plots appear and are not trivial, a second make does
# nothing, bad parameters stop make with a message, and `slabsim sweep`
# handles values that are not numbers and rejects bad input.
. "$(dirname "$0")/lib/common.bash"
# fp FILE VARIANT MODEL: footprint_kib of that row of a summary.csv
fp() { awk -F, -v v="$2" -v m="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["variant"] == v && $c["model"] == m { print $c["footprint_kib"] }' "$1"; }
. "$root/tests/e2e/lib/plots.bash"
need_gnuplot

args=(WORKLOAD=smack17k LABELS=30 VARIANTS="ref patch4" MODELS="traced kmem_cache"
	SLABSIM="$S" DATA="$tmp/data" REPORT="$tmp/rep")
sw=$tmp/rep/sweep-rules
make -C "$root" --no-print-directory -j2 sweep PARAM=rules VALUES="100 200 400" "${args[@]}" \
	>"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make sweep"; }
for f in sweep.csv sweep.md footprint_kib.dat sim_time_ms.dat; do
	[ -s "$sw/$f" ] || fail "sweep-rules/$f missing"
done
check_plot "$sw/footprint_kib" "smack17k, arm32-3.10, 2 CPUs: slab footprint (KiB) against rules, one line per model" \
	"slab footprint (KiB)" rules ref patch4 traced kmem_cache
check_plot "$sw/sim_time_ms" "simulated time (ms)" rules

# each value was generated and replayed with its own rule count
for v in 100 200 400; do
	grep -q -- "--rules $v " "$sw/$v/data/gen-params" || fail "value $v: gen-params $(cat "$sw/$v/data/gen-params")"
	[ -s "$sw/$v/report.md" ] || fail "value $v: no report.md"
	# the point's command: one that makes this point again, pasteable
	# into a shell (nothing but the command inside the backticks), without
	# make's own variables
	grep -q "^- Command: \`make sweep-point WORKLOAD=smack17k RULES=$v [^\`(]*\`\$" "$sw/$v/report.md" ||
		fail "value $v: $(grep Command "$sw/$v/report.md")"
	if grep -E 'DEPS_OK|SWEEP_POINT|POINT_COMMAND' "$sw/$v/report.md"; then
		fail "value $v: make's internal variables in the report"
	fi
done
[ "$(wc -l <"$sw/sweep.csv")" = 13 ] || fail "sweep.csv: want 1 + 3 values x 2 variants x 2 models lines"
# gathered figures are the runs' own
for v in 100 400; do
	want=$(fp "$sw/$v/runs/patch4__kmem_cache/summary.csv" patch4 kmem_cache)
	got=$(awk -F, -v v="$v" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$2 == v && $c["variant"] == "patch4" && $c["model"] == "kmem_cache" { print $c["footprint_kib"] }' \
		"$sw/sweep.csv")
	[ -n "$want" ] && [ "$got" = "$want" ] || fail "sweep.csv rules=$v: footprint '$got', run says '$want'"
done
small=$(fp "$sw/100/summary.csv" ref traced)
big=$(fp "$sw/400/summary.csv" ref traced)
awk -v a="$small" -v b="$big" 'BEGIN { exit !(b > a) }' || fail "footprint did not grow: $small -> $big"
# the layout row: 2 variants, 2 models, numeric, linear x (400/100 < 20)
grep -qx '2 2 1 0 [01] "slab footprint (KiB)" "rules" "ref patch4" "traced kmem_cache"' \
	"$sw/footprint_kib.dat" || fail "footprint_kib.dat: bad layout row"
tr -s ' ' <"$sw/sweep.md" | grep -F "| 400 | patch4 |" >/dev/null || fail "sweep.md: no 400/patch4 row"

# ---- nothing to redo ------------------------------------------------------------------
make -C "$root" --no-print-directory -j2 sweep PARAM=rules VALUES="100 200 400" "${args[@]}" \
	>"$tmp/log2" 2>&1 || fail "second make sweep"
if grep -E '^ *(GEN|RUN|REPORT|SWEEP|GNUPLOT) ' "$tmp/log2"; then fail "second make sweep redid work"; fi

# ---- bad parameters: exit 2 and why -----------------------------------------------------
bad() { # bad "MESSAGE" MAKE-ARGS...
	local want=$1 rc=0
	shift
	make -C "$root" --no-print-directory sweep "${args[@]}" "$@" >"$tmp/log3" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "make sweep $*: exit $rc, want 2"
	grep -qF -- "$want" "$tmp/log3" || fail "make sweep $*: no '$want' in $(cat "$tmp/log3")"
}
bad "unknown PARAM 'nope' (known:" PARAM=nope VALUES="1 2"
bad "unknown PARAM 'groups' (known: costs cpus labels rules seed target)" PARAM=groups VALUES="1 2"
bad "VALUES is empty" PARAM=rules VALUES=
bad "PARAM is not set; VALUES is empty" VALUES=
bad "VALUES lists a value twice" PARAM=rules VALUES="100 100"

# ---- slabsim sweep: values that are not numbers, bad input -------------------------------
cat=$tmp/cat
mkdir -p "$cat/new" "$cat/old"
cp "$sw/400/summary.csv" "$cat/new/"
cp "$sw/100/summary.csv" "$cat/old/"
"$S" sweep --workload smack17k --param build --dir "$cat" --values "old new" \
	--figures footprint_kib --models "kmem_cache traced" || fail "slabsim sweep, categories"
grep -qx '2 2 0 0 [01] "slab footprint (KiB)" "build" "ref patch4" "kmem_cache traced"' \
	"$cat/footprint_kib.dat" || fail "categories: bad layout row"
grep -qx "1 new $(fp "$sw/400/summary.csv" ref kmem_cache)" "$cat/footprint_kib.dat" ||
	fail "categories: value 'new' is not at x = 1"
gnuplot -e "datafile='$cat/footprint_kib.dat'; outfile='$cat/fp.png'" "$root/analysis/sweep.gp"
gnuplot -e "datafile='$cat/footprint_kib.dat'; outfile='$cat/fp.svg'" "$root/analysis/sweep.gp"
check_plot "$cat/fp" "slab footprint (KiB) against build" old new
rc=0
"$S" sweep --workload smack17k --param build --dir "$cat" --values "old new" --figures variant 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] && grep -q "figure 'variant' is 'ref', not a number" "$tmp/err" || fail "non-numeric figure: exit $rc"
sed -i '2s/^smack17k,/other,/' "$cat/new/summary.csv"
rm -f "$cat/sweep.csv"
rc=0
"$S" sweep --workload smack17k --param build --dir "$cat" --values "old new" 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "other workload: exit $rc, want 1"
grep -qF "new/summary.csv:2: workload 'other', expected 'smack17k'" "$tmp/err" || fail "message: $(cat "$tmp/err")"
[ ! -e "$cat/sweep.csv" ] || fail "a failed sweep wrote sweep.csv"
rc=0
"$S" sweep --workload smack17k --dir "$cat" --values "a" 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "no --param: exit $rc, want 2"
echo "sweep: ok"
