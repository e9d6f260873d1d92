#!/bin/bash
# capture_untraced.sh - the detector of tasks no tracepoint reports
# (scripts/capture-untraced.sh) on a /proc tree of its own: CPU times
# read per task, a task listed when it ran at least the floor and was
# never switched out in a sched_switch event, born-in-window tasks
# counted whole, the list ordered by CPU time.  No root, no tracefs.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
die() { fail "$*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

UT_PROC=$tmp/proc
# shellcheck source=scripts/capture-untraced.sh
. "$here/scripts/capture-untraced.sh"

task() { # PID TID COMM NS
	mkdir -p "$UT_PROC/$1/task/$2"
	echo "$4 77 3" > "$UT_PROC/$1/task/$2/schedstat"
	echo "$3" > "$UT_PROC/$1/task/$2/comm"
}
task 1 1 init 1000000000
task 1 76 "tokio worker" 5000000
task 1 80 damon 7000000
task 300 300 bash 40000000
task 301 301 sleepy 100
ut_tasks > "$tmp/before"
[ "$(wc -l < "$tmp/before")" = 5 ] || fail "ut_tasks: $(cat "$tmp/before")"
[ "$(sed -n 2p "$tmp/before")" = "76 1 5000000 tokio_worker" ] || fail "ut_tasks line: $(sed -n 2p "$tmp/before")"

# the window: init's main thread runs 0.9 ms (under the floor), worker 76
# 2 ms and damon 9 ms unseen, bash 30 ms seen, a task born in the window
# (400) 1.5 ms unseen, sleepy 0
task 1 1 init 1000900000
task 1 76 "tokio worker" 7000000
task 1 80 damon 16000000
task 300 300 bash 70000000
task 400 400 newborn 1500000
ut_tasks > "$tmp/after"
printf '300\n12\n' > "$tmp/seen"
ut_meta "$tmp/before" "$tmp/after" "$tmp/seen" 0 > "$tmp/meta"
m() { sed -n "s/^$1=//p" "$tmp/meta"; }
[ "$(m untraced_tasks)" = 3 ] || fail "untraced_tasks: $(cat "$tmp/meta")"
[ "$(m untraced_cpu_ms)" = 12.5 ] || fail "untraced_cpu_ms: $(m untraced_cpu_ms)"
[ "$(m untraced_task_list)" = "80/damon@1:9.0 76/tokio_worker@1:2.0 400/newborn@400:1.5" ] ||
	fail "untraced_task_list: $(m untraced_task_list)"
[ "$(m untraced_sched_lost)" = 0 ] || fail "untraced_sched_lost"

# every task seen: none listed; lost events are reported as given
printf '1\n76\n80\n300\n400\n' > "$tmp/seen"
ut_meta "$tmp/before" "$tmp/after" "$tmp/seen" 5 > "$tmp/meta"
[ "$(m untraced_tasks)" = 0 ] && [ -z "$(m untraced_task_list)" ] || fail "all seen: $(cat "$tmp/meta")"
[ "$(m untraced_sched_lost)" = 5 ] || fail "lost not reported"

# more than ten: the count is whole, the list the ten longest
for t in $(seq 500 511); do task 500 "$t" w 0; done
ut_tasks > "$tmp/before"
for t in $(seq 500 511); do task 500 "$t" w $(( (t - 499) * 1000000 )); done
ut_tasks > "$tmp/after"
: > "$tmp/seen"
ut_meta "$tmp/before" "$tmp/after" "$tmp/seen" 0 > "$tmp/meta"
[ "$(m untraced_tasks)" = 12 ] || fail "12 tasks: $(m untraced_tasks)"
[ "$(m untraced_task_list | wc -w)" = 10 ] || fail "list not cut at ten"
[ "$(m untraced_task_list | cut -d' ' -f1)" = "511/w@500:12.0" ] || fail "longest first: $(m untraced_task_list)"
echo "capture_untraced.sh: ok"
