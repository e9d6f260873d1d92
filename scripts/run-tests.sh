#!/bin/bash
# run-tests.sh SUITE TEST... - run each test program or e2e script, print a
# line per test and a closing "SUITE: N passed, N failed" line.  Exit 1 if any
# test failed.
set -u
suite=$1; shift
pass=0; fail=0; failed=()
for t in "$@"; do
	log=$(mktemp)
	if [[ $t == *.sh ]]; then bash "$t" >"$log" 2>&1; else "$t" >"$log" 2>&1; fi
	rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "PASS $suite $(basename "$t")"
	else
		fail=$((fail + 1)); failed+=("$t"); echo "FAIL $suite $(basename "$t") (exit $rc)"
		sed 's/^/    /' "$log" | tail -40
	fi
	rm -f "$log"
done
echo "$suite: $pass passed, $fail failed"
[ $fail -eq 0 ]
