#!/bin/bash
# sensitivity_priced.sh - make sensitivity prices the cost settings of a
# one-CPU workload from the base's runs (slabsim report --reprice) and
# gets the sensitivity.csv that replaying every setting gets; it says why
# when it cannot price (two CPUs: tests/e2e/sensitivity.sh); a progress
# line per finished setting; and an interrupted make sensitivity leaves
# no temporary file behind.
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
# replays and the interrupt are the plain pass's
[ -z "${SLABSIM_QUICK:-}" ] || skip_rest "every setting replayed, and the interrupt (SLABSIM_QUICK: the plain pass)"
# every setting replayed: the same sensitivity.csv
make -C "$root" --no-print-directory sensitivity "${args[@]}" REPORT="$tmp/replayed" \
	SENS_REPLAY_ALL=1 >"$tmp/log2" 2>&1 || { tail -20 "$tmp/log2"; fail "make sensitivity, replayed"; }
[ -d "$tmp/replayed/sensitivity/list_lock-high/runs" ] || fail "SENS_REPLAY_ALL=1 priced"
grep -Eq '^sensitivity: 13 units in ' "$tmp/log2" || fail "replayed: no closing progress line for 13 settings"
cmp "$tmp/priced/sensitivity.csv" "$tmp/replayed/sensitivity.csv" ||
	fail "priced and replayed sensitivity.csv differ: $(diff "$tmp/priced/sensitivity.csv" "$tmp/replayed/sensitivity.csv")"

# interrupted (^C: SIGINT to make's process group) once the base is
# done and the corners and HB_QUANTUM's traces are under way: nothing
# *.tmp.* left, and a second make finishes.  (Job control: a background
# job of a script would otherwise start with SIGINT ignored.)
set -m
make -C "$root" --no-print-directory sensitivity "${args[@]}" HB_LOOPS=200 \
	REPORT="$tmp/int" DATA="$tmp/data-int" >"$tmp/log3" 2>&1 &
pid=$!
for _ in $(seq 1200); do
	grep -q "sensitivity: 1 of 6 done" "$tmp/log3" && break
	sleep 0.1
done
sleep 0.5
kill -INT -- -"$pid" 2>/dev/null || true
wait "$pid" && fail "make sensitivity was not interrupted: $(tail -3 "$tmp/log3")"
set +m
sleep 1
left=$(find "$tmp/int" "$tmp/data-int" -name '*.tmp.*' 2>/dev/null)
[ -z "$left" ] || fail "an interrupted make sensitivity left $left"
make -C "$root" --no-print-directory sensitivity "${args[@]}" HB_LOOPS=200 REPORT="$tmp/int" \
	DATA="$tmp/data-int" >"$tmp/log4" 2>&1 || { tail -20 "$tmp/log4"; fail "make sensitivity after an interrupt"; }
[ -s "$tmp/int/sensitivity.csv" ] || fail "after an interrupt: no sensitivity.csv"
echo "sensitivity_priced: ok"
