#!/bin/bash
# sensitivity.sh - `slabsim costs` (the cost table's ranges, tables with
# steps moved to an end), `slabsim sensitivity` (gathering), and a small
# `make sensitivity` end to end: sensitivity.csv, the tornado plot, and the
# intervals in report.md.
. "$(dirname "$0")/lib/common.bash"

# ---- slabsim costs ----
"$S" costs --list > "$tmp/list" || fail "costs --list"
grep -qx 'cmpxchg_double 20 15 40 cost' "$tmp/list" || fail "costs --list: cmpxchg_double"
grep -q '^alloc_refill ' "$tmp/list" && fail "costs --list: a counter without a range listed"
"$S" costs --list --target arm32-3.10 | grep -qx 'clock_mhz 1400 1000 1700 clock' ||
	fail "costs --list: the target's clock range"
"$S" costs --set alloc_fastpath=high --set list_lock=low -o "$tmp/t1" || fail "costs --set"
grep -Eq '^alloc_fastpath +30$' "$tmp/t1" || fail "costs --set: alloc_fastpath not 30"
grep -Eq '^list_lock +34$' "$tmp/t1" || fail "costs --set: list_lock not 34"
grep -Eq '^free_fastpath +21$' "$tmp/t1" || fail "costs --set: free_fastpath moved"
"$S" costs --clock-mhz 700 --target arm32-3.10 -o "$tmp/t2" || fail "costs --clock-mhz"
grep -Eq '^alloc_fastpath +42$' "$tmp/t2" || fail "costs --clock-mhz 700 on a 1400 MHz target: not x2"
"$S" costs --all low -o "$tmp/t3" && grep -Eq '^set_track +200$' "$tmp/t3" || fail "costs --all low"
# the written table reads back, and changes a run
"$S" run --trace "$root/tests/bad/trace/size_zero_and_large.trace" --model traced \
	--target x86_64-6.x --costs "$tmp/t1" --out "$tmp/r1" > /dev/null || fail "run --costs (costs -o)"
expect_rc 2 "$S" costs --set list_lock=middle -o "$tmp/x"
expect_rc 2 "$S" costs --set no_such_step=low -o "$tmp/x"
expect_rc 2 "$S" costs --set alloc_refill=low -o "$tmp/x"   # no range
expect_rc 2 "$S" costs --clock-mhz 700 -o "$tmp/x"            # needs --target
expect_rc 2 "$S" costs --list -o "$tmp/x"
expect_rc 2 "$S" costs
[ ! -e "$tmp/x" ] || fail "costs: a refused command wrote its output"

# ---- slabsim sensitivity: a missing setting is an error, nothing written ----
mkdir -p "$tmp/s/base"
printf 'figure,unit,value,what\nf,ms,1,x\n' > "$tmp/s/base/figures.csv"
echo 'alloc_fastpath 21 15 30 cost' > "$tmp/s/params"
expect_rc 1 "$S" sensitivity --dir "$tmp/s" -o "$tmp/s.csv" --tornado "$tmp/s.dat"
grep -q 'alloc_fastpath-low/figures.csv' "$tmp/err" || fail "sensitivity: $(cat "$tmp/err")"
[ ! -e "$tmp/s.csv" ] && [ ! -e "$tmp/s.dat" ] || fail "sensitivity: wrote half its output"
expect_rc 2 "$S" sensitivity --dir "$tmp/s"

# ---- gen --estimate: the workloads' estimated constants, by name ----
"$S" gen smack17k --rules 300 --labels 30 --write-rules "$tmp/r.txt" || fail "gen smack17k rules"
"$S" gen smack17k --from-rules "$tmp/r.txt" --variant ref -o "$tmp/e0.trace" || fail "gen smack17k"
"$S" gen smack17k --from-rules "$tmp/r.txt" --variant ref --estimate SMACK_LABEL_CMP_CYCLES=40 \
	-o "$tmp/e1.trace" || fail "gen smack17k --estimate"
cmp -s "$tmp/e0.trace" "$tmp/e1.trace" && fail "gen smack17k --estimate: the trace did not change"
"$S" gen audit --variant on-cached --estimate AUDIT_LINE_BOUNCE_CYCLES=60 -o "$tmp/a1.trace" ||
	fail "gen audit --estimate"
expect_rc 2 "$S" gen smack17k --from-rules "$tmp/r.txt" --variant ref --estimate NO_SUCH=1 -o "$tmp/x"
expect_rc 2 "$S" gen audit --variant off --estimate AUDIT_COPY_BYTES_PER_CYCLE=0 -o "$tmp/x"
expect_rc 2 "$S" gen audit --variant off --estimate AUDIT_MLS_BIT_CYCLES -o "$tmp/x"
[ ! -e "$tmp/x" ] || fail "gen --estimate: a refused command wrote its output"
# every estimate with a stated range is a sensitivity parameter
make -C "$root" --no-print-directory -s sens-params WORKLOAD=audit SLABSIM="$S" \
	REPORT="$tmp/arep" > /dev/null 2>&1 || fail "make sens-params WORKLOAD=audit"
grep -qx 'AUDIT_LINE_BOUNCE_CYCLES 150 60 300 gen' "$tmp/arep/sensitivity/params" ||
	fail "audit params: no AUDIT_LINE_BOUNCE_CYCLES"
[ "$(grep -c ' gen$' "$tmp/arep/sensitivity/params")" -eq 11 ] || fail "audit params: want 11 estimates"

# ---- make sensitivity, small: smack17k at 300 rules, three parameters ----
[ -z "${SLABSIM_QUICK:-}" ] || skip_rest "make sensitivity (SLABSIM_QUICK: slabsim costs and sensitivity ran above)"
args=(WORKLOAD=smack17k RULES=300 LABELS=30 SLABSIM="$S" DATA="$tmp/data"
	REPORT="$tmp/rep" SENS_ONLY="alloc_fastpath clock_mhz SMACK_LABEL_CMP_CYCLES" SENS_JOBS=2)
make -C "$root" --no-print-directory sensitivity "${args[@]}" > "$tmp/log" 2>&1 ||
	{ tail -20 "$tmp/log"; fail "make sensitivity"; }
csv="$tmp/rep/sensitivity.csv"
[ -s "$csv" ] && [ -s "$tmp/rep/tornado.png" ] && [ -s "$tmp/rep/tornado.svg" ] ||
	fail "make sensitivity: sensitivity.csv or the tornado plot missing"
head -1 "$csv" | grep -qx 'figure,step,low,high,figure_at_low,figure_at_high,figure_base' ||
	fail "sensitivity.csv header"
nfig=$(($(wc -l < "$tmp/rep/figures.csv") - 1))
# each figure: three parameters and the corners
[ "$(($(wc -l < "$csv") - 1))" -eq $((4 * nfig)) ] || fail "sensitivity.csv: want $((4 * nfig)) rows"
# a faster fast path lowers every time figure; the slower clock raises it;
# a dearer label compare (a new trace) raises it
awk -F, '$1 == "sim_ms:ref" && $2 == "alloc_fastpath" && !($5 < $7 && $6 > $7) { bad = 1 }
	$1 == "sim_ms:ref" && $2 == "clock_mhz" && !($5 > $7 && $6 < $7) { bad = 1 }
	$1 == "sim_ms:ref" && $2 == "SMACK_LABEL_CMP_CYCLES" && !($3 == 20 && $4 == 40 && $5 < $7 && $6 > $7) { bad = 1 }
	END { exit bad }' "$csv" || fail "sensitivity.csv: a figure moved the wrong way"
grep -q '^sim_ms:ref,all,,,' "$csv" || fail "sensitivity.csv: no corner row"
grep -Eq '^\| sim_ms:ref \(ms\) \| .* \| .*–.* \| (alloc_fastpath 15–30|clock_mhz 1000–1700|SMACK_LABEL_CMP_CYCLES 20–40)' \
	<(tr -s ' ' < "$tmp/rep/report.md") || fail "report.md: no interval for sim_ms:ref"
# a second make sensitivity redoes nothing
make -C "$root" --no-print-directory sensitivity "${args[@]}" > "$tmp/log2" 2>&1 || fail "second make sensitivity"
if grep -E '^ *(GEN|RUN) ' "$tmp/log2"; then fail "second make sensitivity replayed"; fi
echo "sensitivity.sh: ok"
