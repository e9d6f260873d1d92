#!/bin/bash
# make_sim.sh - the README's `make sim WORKLOAD=smack17k`, at small scale and
# into a temporary directory: every promised output appears, the seed table
# is in the report, and a second make does nothing.
. "$(dirname "$0")/lib/common.bash"
need_gnuplot

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
if grep -E '^ *(GEN|RUN|REPORT) ' "$tmp/log2"; then fail "second make sim redid work"; fi

# What follows is make's and gnuplot's alone (plots drawn twice at once,
# what-if directories): the sanitizer pass has run slabsim's part above.
[ -z "${SLABSIM_QUICK:-}" ] ||
	skip_rest "plots drawn at once, what-ifs (SLABSIM_QUICK: make and gnuplot only; slabsim's gen, run and report ran above)"

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
# ---- what-ifs: their own directories; a failed one changes nothing ----------
w=(WORKLOAD=smack17k RULES=300 LABELS=30 MODELS=traced SLABSIM="$S"
	REPORTS="$tmp/reports" DATASETS="$tmp/datasets")
base=smack17k--labels-30--models-traced--rules-300
dbase=smack17k--labels-30--rules-300 # the traces do not depend on MODELS
make -C "$root" --no-print-directory sim "${w[@]}" >"$tmp/wlog" 2>&1 || { cat "$tmp/wlog"; fail "make sim, small"; }
[ -s "$tmp/reports/$base/report.md" ] || fail "no report in reports/$base: $(ls "$tmp/reports")"
[ -s "$tmp/datasets/$dbase/ref.trace" ] || fail "no traces in datasets/$dbase: $(ls "$tmp/datasets")"
snapshot() { find "$tmp/reports/$base" "$tmp/datasets/$dbase" -type f -printf '%p %s %T@\n' | sort; }
snapshot >"$tmp/before"
# an unknown target: refused before anything is written, the valid ones named
rc=0
make -C "$root" --no-print-directory sim "${w[@]}" TARGET=x86_64-6.2 >"$tmp/wlog" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "make sim TARGET=x86_64-6.2 succeeded"
grep -q "unknown TARGET 'x86_64-6.2'; known: arm32-3.10 .*x86_64-6.1" "$tmp/wlog" ||
	fail "unknown target: $(cat "$tmp/wlog")"
[ ! -e "$tmp/reports/$base--target-x86_64-6.2" ] || fail "a refused what-if left a directory"
# a what-if that fails in the replay: only its own directory sees it
rc=0
make -C "$root" --no-print-directory sim "${w[@]}" TOPOLOGY='synth:bogus' >"$tmp/wlog" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "make sim TOPOLOGY=synth:bogus succeeded"
snapshot >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || fail "a failed what-if touched the results: $(diff "$tmp/before" "$tmp/after")"
make -C "$root" --no-print-directory sim "${w[@]}" >"$tmp/wlog" 2>&1 || fail "plain make sim after a failed what-if"
if grep -E '^ *(GEN|RUN|REPORT) ' "$tmp/wlog"; then fail "a failed what-if made the next make sim redo work"; fi
# a what-if that works: its own report, named after what differs, saying so
make -C "$root" --no-print-directory sim "${w[@]}" TARGET=x86_64-6.1 >"$tmp/wlog" 2>&1 ||
	{ cat "$tmp/wlog"; fail "make sim TARGET=x86_64-6.1"; }
has "$tmp/reports/$base--target-x86_64-6.1/report.md" "- Target: x86_64-6.1"
has "$tmp/reports/$base--target-x86_64-6.1/report.md" "TARGET=x86_64-6.1"
case "$(ls "$tmp/datasets")" in
*target*) fail "a target what-if generated its own traces: $(ls "$tmp/datasets")" ;;
esac
snapshot >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || fail "a what-if touched the default results: $(diff "$tmp/before" "$tmp/after")"
# the same value as the default is no what-if; REPORT= puts it anywhere
make -C "$root" --no-print-directory sim "${w[@]}" TARGET=arm32-3.10 >"$tmp/wlog" 2>&1 || fail "TARGET=default"
if grep -E '^ *(GEN|RUN|REPORT) ' "$tmp/wlog"; then fail "TARGET=its default redid work"; fi
make -C "$root" --no-print-directory report "${w[@]}" REPORT="$tmp/elsewhere" >"$tmp/wlog" 2>&1 ||
	{ cat "$tmp/wlog"; fail "make report REPORT=..."; }
[ -s "$tmp/elsewhere/report.md" ] || fail "REPORT= did not put the report there"
echo "make_sim: ok"
