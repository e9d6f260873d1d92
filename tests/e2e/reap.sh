#!/bin/bash
# reap.sh - `slabsim reap` (cli/cmd_reap.c) and capture-orphans.sh: CMD's
# orphans come to the reaper, not to init; its exit status is CMD's; the
# report counts what it reaped and what it left; init's zombies are
# counted from a /proc tree of the test's own.  No root, no tracefs.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
S=${SLABSIM:-$here/build/slabsim}
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# three orphans (their parent, CMD, exits first) reaped here; CMD's status kept
rc=0; "$S" reap --report "$tmp/rep" -- sh -c '(sleep 0.2 &); (sleep 0.3 &); (sleep 0.1 &); exit 3' || rc=$?
[ $rc = 3 ] || fail "exit status $rc, want CMD's 3"
[ "$(cat "$tmp/rep")" = "$(printf 'orphans_reaped=3\norphans_left=0')" ] || fail "report: $(cat "$tmp/rep")"
# the orphan's parent is the reaper while it runs (PR_SET_CHILD_SUBREAPER)
"$S" reap -- sh -c '(sleep 0.2; grep ^PPid: /proc/self/status > '"$tmp/ppid"') & exit 0' &
rpid=$!
wait $rpid || fail "reap exited non-zero"
[ "$(cat "$tmp/ppid")" = "PPid:	$rpid" ] || fail "orphan's parent: $(cat "$tmp/ppid"), reaper $rpid"
# one left running past the grace: counted, and the reaper does not wait for it
# (sleep 20: a reaper that waited takes 20 s, one that did not well under
# that however loaded the machine)
start=$(date +%s%N)
"$S" reap --grace 0 --report "$tmp/rep" -- sh -c '(exec sleep 20 &); true' || fail "grace 0"
[ $(( ($(date +%s%N) - start) / 1000000 )) -lt 15000 ] || fail "the reaper waited for the one left"
grep -qx 'orphans_left=1' "$tmp/rep" || fail "left: $(cat "$tmp/rep")"
# by signal: 128 + N; a command that cannot run: 127; no command: usage, 2
rc=0; "$S" reap -- sh -c 'kill -TERM $$' || rc=$?
[ $rc = 143 ] || fail "killed CMD: $rc"
rc=0; "$S" reap -- /nonexistent/cmd 2> "$tmp/err" || rc=$?
[ $rc = 127 ] && grep -q '/nonexistent/cmd' "$tmp/err" || fail "missing CMD: $rc $(cat "$tmp/err")"
rc=0; "$S" reap 2> "$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q 'no command' "$tmp/err" || fail "no CMD: $rc"
rc=0; "$S" reap --grace 9999 -- true 2> "$tmp/err" || rc=$?
[ $rc = 2 ] || fail "grace out of range: $rc"
rc=0; "$S" reap --report /nonexistent/dir/rep -- true 2> "$tmp/err" || rc=$?
[ $rc = 1 ] && grep -q '/nonexistent/dir/rep' "$tmp/err" || fail "unwritable report: $rc"

# --done FD --hold FD (make capture, capture-children.sh cmd_hold): CMD's
# status on FD 3 once it and its grace are over, then the reaper waits,
# report unwritten, until a line comes on FD 4; CMD has neither
# descriptor (close on exec)
mkfifo "$tmp/done" "$tmp/hold"
"$S" reap --grace 0 --report "$tmp/rep2" --done 3 --hold 4 -- \
	sh -c '[ ! -e /proc/self/fd/3 ] && [ ! -e /proc/self/fd/4 ] || exit 9; exit 5' \
	3> "$tmp/done" 4< "$tmp/hold" &
rpid=$!
exec {dfd}< "$tmp/done" {hfd}> "$tmp/hold"
read -r -t 20 line <&"$dfd" || fail "--done: no status line"
expect_status() { [ "$line" = "$1" ] || fail "--done said '$line', want $1 ($2)"; }
expect_status 5 "CMD's status; 9: CMD had the descriptors"
sleep 0.3
kill -0 "$rpid" 2> /dev/null || fail "the reaper exited before --hold let it go"
[ ! -e "$tmp/rep2" ] || fail "report written before --hold let it go"
echo exit >&"$hfd"
rc=0; wait "$rpid" || rc=$?
[ $rc = 5 ] || fail "held reaper's exit status $rc, want CMD's 5"
grep -qx 'orphans_left=0' "$tmp/rep2" || fail "held reaper's report: $(cat "$tmp/rep2" 2> /dev/null)"
exec {dfd}<&- {hfd}>&-
# the caller gone (end-of-file on --hold, nothing written) lets it go too
"$S" reap --done 3 --hold 4 -- true 3> "$tmp/done" 4< "$tmp/hold" &
rpid=$!
exec {dfd}< "$tmp/done" {hfd}> "$tmp/hold"
read -r -t 20 line <&"$dfd" || fail "--done: no status line"
expect_status 0 "true"
exec {hfd}>&-
rc=0; timeout 20 tail --pid="$rpid" -f /dev/null || rc=$?
[ $rc = 0 ] || fail "the reaper did not exit at end-of-file on --hold"
wait "$rpid" || fail "reaper exit status $?, want 0"
exec {dfd}<&-
# one without the other, or a descriptor not open: usage
rc=0; "$S" reap --done 1 -- true 2> "$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q 'go together' "$tmp/err" || fail "--done alone: $rc $(cat "$tmp/err")"
rc=0; "$S" reap --done 1 --hold 57 -- true 2> "$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q -- '--hold 57' "$tmp/err" || fail "--hold on a closed descriptor: $rc $(cat "$tmp/err")"

# init's zombies, on a /proc tree of our own: only state Z with parent 1
ORPH_PROC=$tmp/proc
# shellcheck source=scripts/capture-orphans.sh
. "$here/scripts/capture-orphans.sh"
st() { mkdir -p "$ORPH_PROC/$1"; echo "$1 ($2) $3 $4 1 1 0" > "$ORPH_PROC/$1/stat"; }
st 1 init S 0
st 10 'a) Z 1 (b' S 1   # a name that looks like a zombie of init: sleeping
st 11 z1 Z 1
st 12 z2 Z 1
st 13 z3 Z 300          # another parent's zombie
[ "$(orph_init_zombies)" = 2 ] || fail "init's zombies: $(orph_init_zombies)"
ORPH_WAIT_S=0 orph_drain_init
[ "$ORPH_INIT_ZOMBIES" = 2 ] && [ "$ORPH_WAITED_MS" = 0 ] || fail "drain without a wait"
orph_meta "" > "$tmp/m"
grep -qx 'subreaper=no' "$tmp/m" && grep -qx 'init_zombies_before=2' "$tmp/m" || fail "meta: $(cat "$tmp/m")"
printf 'orphans_reaped=5\norphans_left=0\n' > "$tmp/rep"
orph_meta "$tmp/rep" > "$tmp/m"
grep -qx 'subreaper=yes' "$tmp/m" && grep -qx 'orphans_reaped=5' "$tmp/m" || fail "meta with reaper: $(cat "$tmp/m")"
echo "reap.sh: ok"
