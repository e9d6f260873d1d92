#!/bin/bash
# sensitivity_priced.sh - make sensitivity prices the cost settings of a
# one-CPU workload from the base's runs (slabsim report --reprice) and
# gets the sensitivity.csv that replaying every setting gets; it says why
# when it cannot price (two CPUs: tests/e2e/sensitivity.sh); a progress
# line per finished setting.  (An interrupted make sensitivity:
# tests/e2e/interrupt_jobs.sh.)
. "$(dirname "$0")/lib/common.bash"
args=(WORKLOAD=hackbench HB_GROUPS=2 HB_LOOPS=20 SLABSIM="$S" DATA="$tmp/data"
	SENS_ONLY="alloc_slowpath list_lock poison_write_byte clock_mhz HB_QUANTUM" SENS_JOBS=2)
make -C "$root" --no-print-directory sensitivity "${args[@]}" REPORT="$tmp/priced" \
	>"$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "make sensitivity"; }
grep -q "the cost settings are replayed" "$tmp/log" && fail "priced: $(cat "$tmp/priced/sensitivity/not-priced.txt")"
# priced: a figures.csv and its costs, no runs
d=$tmp/priced/sensitivity/list_lock-high
[ -s "$d/figures.csv" ] && [ ! -e "$d/runs" ] || fail "list_lock-high: not priced alone"
grep -Eq '^sensitivity: [0-9]+ of 6 done \(base\), .*left$' "$tmp/log" || fail "no progress line: $(grep sensitivity: "$tmp/log")"
grep -Eq '^sensitivity: 6 units in ' "$tmp/log" || fail "no closing progress line"
# the sanitizer pass (SLABSIM_QUICK): the pricing ran under them; the
# replays are the plain pass's
[ -z "${SLABSIM_QUICK:-}" ] || skip_rest "every setting replayed (SLABSIM_QUICK: the plain pass)"
# every setting replayed: the same sensitivity.csv
make -C "$root" --no-print-directory sensitivity "${args[@]}" REPORT="$tmp/replayed" \
	SENS_REPLAY_ALL=1 >"$tmp/log2" 2>&1 || { tail -20 "$tmp/log2"; fail "make sensitivity, replayed"; }
[ -d "$tmp/replayed/sensitivity/list_lock-high/runs" ] || fail "SENS_REPLAY_ALL=1 priced"
grep -Eq '^sensitivity: 13 units in ' "$tmp/log2" || fail "replayed: no closing progress line for 13 settings"
cmp "$tmp/priced/sensitivity.csv" "$tmp/replayed/sensitivity.csv" ||
	fail "priced and replayed sensitivity.csv differ: $(diff "$tmp/priced/sensitivity.csv" "$tmp/replayed/sensitivity.csv")"

echo "sensitivity_priced: ok"
