#!/bin/bash
# run-tests.sh [-j N] [-x "NAME ..."] SUITE [VAR=VALUE...] TEST... [--- SUITE ...]...
#
# Run test programs (cmocka) and e2e scripts (*.sh, run with bash), N at
# a time (default: the number of CPUs), each with its output kept apart
# and printed in the order given, one line per test with its seconds:
#   PASS suite name 1.2s cpu 0.9s     exit 0 (seconds of wall clock and of CPU)
#   PASS suite name 1.2s cpu 0.9s (skipped in part: REASON; ...)
#   SKIP suite name (REASON)          exit 77, the test's "SKIP: REASON" line
#   FAIL suite name (exit N) 1.2s cpu 0.9s, and the last 40 lines of its output
# A cmocka program whose tests all skipped (cmocka's skip()) is a SKIP;
# one with some skipped is a PASS naming them.  A suite's VAR=VALUE words
# go into its tests' environment.  The tests named by -x (file names,
# whatever their suite) never run at the same time: each starts when
# none of the others runs (they share something of the machine's that
# cannot be made private).  Each suite ends with
#   SUITE: N passed, N failed, N skipped
# Exit 1 if a test failed, or if a suite ran no test at all (every one
# skipped).  A test running longer than TEST_TIMEOUT seconds (default
# 1200) is killed and fails.
set -u
# Each test runs as from a user's shell: not inside make test's make,
# whose flags (-s for the one-line steps, the jobserver) a test's own
# `make` would inherit through the environment.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

jobs=$(nproc 2>/dev/null || echo 1)
declare -A apart # names of tests never run two at a time (-x)
while [ $# -gt 0 ]; do
	case $1 in
	-j) jobs=$2; shift 2 ;;
	-j[0-9]*) jobs=${1#-j}; shift ;;
	-x) for a in ${2//,/ }; do apart[$a]=1; done; shift 2 ;; # (names: spaces or commas between)
	*) break ;;
	esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run-tests.sh: bad -j '$jobs'" >&2; exit 2; }
[ $# -ge 1 ] || { echo "usage: run-tests.sh [-j N] [-x "NAME ..."] SUITE [VAR=VALUE...] TEST... [--- SUITE ...]" >&2; exit 2; }
timeout_s=${TEST_TIMEOUT:-1200}

# ---- the test list: suite, environment, path of each ----
# suites[s] and envs[s] (words, NUL-free) per suite; per test its suite
# index and path.
suites=() envs=() t_suite=() t_path=()
s=-1 want_suite=1
for a in "$@"; do
	if [ "$a" = --- ]; then
		want_suite=1
		continue
	fi
	if [ $want_suite = 1 ]; then
		s=$((s + 1))
		suites[s]=$a envs[s]=''
		want_suite=0
		continue
	fi
	if [[ $a =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; then
		envs[s]+="$a"$'\n'
		continue
	fi
	t_suite+=("$s") t_path+=("$a")
done
n=${#t_path[@]}

work=$(mktemp -d "${TMPDIR:-/tmp}/run-tests.XXXXXX")
declare -A index_of # a running test's index by the PID of its timeout
pids=() t0=() rcs=() secs=()
cleanup() {
	local p
	# timeout(1) passes the signal on to the test's process group
	for p in "${pids[@]}"; do [ -n "$p" ] && kill -TERM "$p" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start I: the test in the background under timeout(1) (a process group
# of its own: a timeout or an interrupt ends all the test started), its
# output in $work/I.log.
start() {
	local i=$1 t=${t_path[$1]} e=${envs[${t_suite[$1]}]}
	local -a env_words=() cmd
	[ -n "$e" ] && mapfile -t env_words <<<"${e%$'\n'}"
	if [[ $t == *.sh ]]; then cmd=(bash "$t"); else cmd=("$t"); fi
	t0[i]=$EPOCHREALTIME
	# (bash's `times`: the CPU the test used, its children included)
	timeout -k 10 "$timeout_s" bash -c 'c=$1; shift; "$@"; rc=$?; times >"$c"; exit $rc' \
		run-test "$work/$i.cpu" env "${env_words[@]}" "${cmd[@]}" >"$work/$i.log" 2>&1 </dev/null &
	pids[i]=$!
	index_of[$!]=$i
}

# finished: wait for any running test; its exit status and seconds.
finished() {
	local pid rc i
	wait -n -p pid
	rc=$?
	i=${index_of[$pid]}
	last_done=$i
	unset "index_of[$pid]"
	pids[i]=''
	[ $rc -eq 124 ] && echo "run-tests.sh: killed after $timeout_s s (TEST_TIMEOUT)" >>"$work/$i.log"
	rcs[i]=$rc
	secs[i]=$(awk -v a="${t0[i]}" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1fs", b - a }')
	# "0m1.250s 0m0.500s": user and system time
	[ -s "$work/$i.cpu" ] && secs[i]+=$(awk 'NR == 2 { for (f = 1; f <= 2; f++) { split($f, t, /[ms]/); c += t[1] * 60 + t[2] } }
		END { printf " cpu %.1fs", c }' "$work/$i.cpu")
}

pass=() fail=() skip=()
for ((k = 0; k <= s; k++)); do pass[k]=0 fail[k]=0 skip[k]=0; done
failed=0

# join_lines SEP: the lines of stdin on one line, SEP between them.
join_lines() { awk -v sep="$1" 'NR > 1 { printf "%s", sep } { printf "%s", $0 }'; }

# report I: its line (and output when it failed), counted in its suite.
report() {
	local i=$1 rc=${rcs[$1]} name suite log=$work/$1.log why parts=''
	local k=${t_suite[$1]}
	name=$(basename "${t_path[i]}")
	suite=${suites[k]}
	if [[ ${t_path[i]} != *.sh && $rc -eq 0 ]] && grep -q '^\[  SKIPPED \] [^0-9]' "$log"; then
		# cmocka: "[  SKIPPED ] name" per skipped test after the summary
		why=$(grep '^\[  SKIPPED \] [^0-9]' "$log" | sed 's/^\[  SKIPPED \] //' | sort -u | join_lines ', ')
		if grep -q '^\[  PASSED  \] [1-9]' "$log"; then
			parts=$why
		else
			rc=77
			echo "SKIP: every test skipped: $why" >>"$log"
		fi
	fi
	if [ "$rc" -eq 0 ]; then
		pass[k]=$((pass[k] + 1))
		[ -z "$parts" ] && parts=$(sed -n 's/^SKIP part: //p' "$log" | join_lines '; ')
		[ -n "$parts" ] && parts=" (skipped in part: $parts)"
		echo "PASS $suite $name ${secs[i]}$parts"
	elif [ "$rc" -eq 77 ]; then
		skip[k]=$((skip[k] + 1))
		why=$(sed -n 's/^SKIP: //p' "$log" | tail -1)
		echo "SKIP $suite $name (${why:-no reason given})"
	else
		fail[k]=$((fail[k] + 1))
		failed=1
		echo "FAIL $suite $name (exit $rc) ${secs[i]}"
		sed 's/^/    /' "$log" | tail -40
	fi
}

# suite_end K: the suite's closing line.
suite_end() {
	local k=$1
	echo "${suites[k]}: ${pass[k]} passed, ${fail[k]} failed, ${skip[k]} skipped"
	if [ $((pass[k] + fail[k])) -eq 0 ]; then
		echo "${suites[k]}: no test ran (every one skipped)"
		failed=1
	fi
}

# ---- the pool: N running; results printed in order as they come ----
# started[i] once started; apart_running: how many -x tests run (0 or 1).
# The next to start is the first not started that may start now.
started=() apart_running=0
may_start() { [ -z "${apart[$(basename "${t_path[$1]}")]:-}" ] || [ $apart_running -eq 0 ]; }
shown=0 running=0 first=0
while [ $shown -lt $n ]; do
	for ((i = first; i < n && running < jobs; i++)); do
		[ -z "${started[i]:-}" ] && may_start $i || continue
		start $i
		started[i]=1 running=$((running + 1))
		[ -z "${apart[$(basename "${t_path[i]}")]:-}" ] || apart_running=1
	done
	while [ $first -lt $n ] && [ -n "${started[first]:-}" ]; do first=$((first + 1)); done
	finished
	running=$((running - 1))
	[ -z "${apart[$(basename "${t_path[last_done]}")]:-}" ] || apart_running=0
	while [ $shown -lt $n ] && [ -n "${rcs[shown]:-}" ]; do
		report $shown
		k=${t_suite[shown]}
		shown=$((shown + 1))
		if [ $shown -eq $n ] || [ "${t_suite[shown]}" != "$k" ]; then suite_end "$k"; fi
	done
done
# a suite given with no test at all
for ((k = 0; k <= s; k++)); do
	[ $((pass[k] + fail[k] + skip[k])) -eq 0 ] && suite_end $k
done
[ $failed -eq 0 ]
