# shellcheck shell=bash
# capture-children.sh - the commands scripts/capture.sh waits for (the
# snapshots, CMD), and ending them when the capture is interrupted
# (sourced, not run).
#
# Bash runs a signal's trap only once the foreground command has ended: a
# SIGTERM (make passes its own to capture.sh) during a CMD of an hour
# would wait that hour, and the tracing instances with it.  So each such
# command runs in the background and the script waits for it with `wait`,
# which a trapped signal ends at once; the clean-up then ends the command
# (children_stop).  A command started so would ignore SIGINT (bash does
# that to background commands without job control); each gets it back
# (env --default-signal), so that a Ctrl-C reaches it as it would a
# foreground command, and its end ends the wait even where bash let a
# SIGINT that came with another child's end wait for the next one
# (seen: 1 in ~5 Ctrl-Cs during the before-snapshot, bash 5.2).

CHILD_PID="" CHILD_LAST_PID="" CMD_PID="" CMD_LAST_PID=""
# (coreutils 8.31+)
CHILD_DEFAULT_SIGNALS=()
if env --default-signal=INT,QUIT true 2> /dev/null; then
	CHILD_DEFAULT_SIGNALS=(env --default-signal=INT,QUIT)
fi

# run_child CMD...: run CMD (no standard input, SIGINT as it was) and
# wait for it; returns its status.
run_child() {
	local rc=0
	"${CHILD_DEFAULT_SIGNALS[@]}" "$@" < /dev/null &
	CHILD_PID=$! CHILD_LAST_PID=$!
	wait "$CHILD_PID" || rc=$?
	CHILD_PID=""
	return $rc
}

# cmd_start IN GO "FD..." COMMAND: start the user's COMMAND (`bash -c
# COMMAND`), waiting, before the tracing window: its process (and, with
# CMD_REAPER set, `slabsim reap` above it) forked and exec'd now, so that
# none of that is in the window.  It waits for a line on descriptor GO
# (cmd_go), then execs `bash -c COMMAND` in the same process, with
# standard input from IN, the descriptors FD... (the script's own)
# closed, and SIGINT as it was.  CMD_PID is the process waited for
# (slabsim reap, or CMD's) until cmd_wait (cmd_release with a hold);
# CMD_LAST_PID stays.
CMD_REAPER=()
cmd_start() {
	local in=$1 go=$2 close="$3 $CMD_DONE_R $CMD_HOLD_W" cmd=$4
	{
		for fd in $close; do exec {fd}>&-; done
		# shellcheck disable=SC2016
		exec "${CHILD_DEFAULT_SIGNALS[@]}" "${CMD_REAPER[@]}" bash -c \
			'go=$1; read -r _ <&"$go" || exit 125; exec {go}<&-; exec bash -c "$2"' \
			slabsim-capture "$go" "$cmd" <&"$in" {in}<&-
	} &
	CMD_PID=$! CMD_LAST_PID=$!
	# the reaper's ends are its own: the done pipe's end-of-file is then
	# its end, the hold pipe's the script's
	if [ -n "$CMD_DONE_W" ]; then
		exec {CMD_DONE_W}>&- {CMD_HOLD_R}<&-
		CMD_DONE_W="" CMD_HOLD_R=""
	fi
}

# cmd_hold DIR: `slabsim reap --done FD --hold FD` for cmd_start (with
# CMD_REAPER set after it: CMD_HOLD_ARGS), so that the reaper's exit
# (its address space, files and pages freed: ~550 kmem events) is out
# of the tracing window: it says CMD's status on the done pipe and exits
# once cmd_release writes a line on the hold pipe, or the script is gone
# (end-of-file).  Two pipes (FIFOs in DIR, removed at once), each end
# opened on its own: end-of-file comes when the other side's processes
# have all closed theirs.
CMD_DONE_R="" CMD_DONE_W="" CMD_HOLD_R="" CMD_HOLD_W="" CMD_HOLD_ARGS=()
cmd_hold() {
	local dir=$1 rw
	mkfifo "$dir/.done" "$dir/.hold"
	# (a FIFO's read-only open waits for a writer: one opened first)
	exec {rw}<> "$dir/.done"
	exec {CMD_DONE_R}< "$dir/.done" {CMD_DONE_W}> "$dir/.done" {rw}>&-
	exec {rw}<> "$dir/.hold"
	exec {CMD_HOLD_R}< "$dir/.hold" {CMD_HOLD_W}> "$dir/.hold" {rw}>&-
	rm -f "$dir/.done" "$dir/.hold"
	CMD_HOLD_ARGS=(--done "$CMD_DONE_W" --hold "$CMD_HOLD_R")
}

# cmd_go GO: let the command started by cmd_start run.
cmd_go() { printf 'go\n' >&"$1"; }

# cmd_wait: wait for it; returns its status.  With a hold (cmd_hold), the
# status the reaper writes, the reaper left waiting; without one (a
# reaper gone before it wrote), the reaper's own.
cmd_wait() {
	local rc=0 line=""
	if [ -n "$CMD_DONE_R" ]; then
		if read -r line <&"$CMD_DONE_R" && [[ $line =~ ^[0-9]+$ ]]; then
			exec {CMD_DONE_R}<&-
			CMD_DONE_R=""
			return "$line"
		fi
		exec {CMD_DONE_R}<&-
		CMD_DONE_R=""
	fi
	wait "$CMD_PID" || rc=$?
	CMD_PID=""
	return $rc
}

# cmd_release: let a reaper held by cmd_hold exit, and wait for it (its
# --report written).
cmd_release() {
	if [ -n "$CMD_HOLD_W" ]; then
		{ printf 'exit\n' >&"$CMD_HOLD_W"; } 2> /dev/null || true
		exec {CMD_HOLD_W}>&-
		CMD_HOLD_W=""
	fi
	[ -z "$CMD_PID" ] || wait "$CMD_PID" || true
	CMD_PID=""
}

# The processes below PID (not PID itself), deepest last, one a line: from
# /proc/PID/stat's parent field, read after its last ")" (a name may hold
# blanks and parentheses).
descendants() {
	local f line rest pid ppid
	local -A kids=()
	for f in /proc/[0-9]*/stat; do
		{ read -r line < "$f"; } 2> /dev/null || continue
		pid=${line%% *}
		rest=${line##*) }
		ppid=${rest#* }
		ppid=${ppid%% *}
		kids[$ppid]+=" $pid"
	done
	local -a queue=("$1")
	while [ ${#queue[@]} -gt 0 ]; do
		pid=${queue[0]}
		queue=("${queue[@]:1}")
		for f in ${kids[$pid]:-}; do
			echo "$f"
			queue+=("$f")
		done
	done
}

# gone PID: PID has ended (no such process, or a zombie not yet reaped).
gone() {
	local s
	{ read -r s < "/proc/$1/stat"; } 2> /dev/null || return 0
	s=${s##*) }
	[ "${s%% *}" = Z ]
}

# end_child PID: TERM (and CONT: a stopped process keeps it pending) to
# PID, then KILL if it has not ended 5 s later.  For the clean-up: it
# never calls `wait`, which there may never return -- a trap that came
# while bash reaped a child can leave it counting that child as running
# (seen with the snapshot and a Ctrl-C, bash 5.2); the zombies left are
# init's once the script ends.
end_child() {
	kill -TERM "$1" 2> /dev/null && kill -CONT "$1" 2> /dev/null
	for _ in $(seq 50); do gone "$1" && return 0; sleep 0.1; done
	kill -KILL "$1" 2> /dev/null
	for _ in $(seq 20); do gone "$1" && return 0; sleep 0.1; done
	return 0
}

# kill_tree PID: end PID and everything it started: TERM to the processes
# below it first (PID, slabsim reap, is their child subreaper: they stay
# below it), then after up to 2 s KILL to what is left, then PID.
kill_tree() {
	local pid=$1 left
	# shellcheck disable=SC2046
	kill -TERM $(descendants "$pid") 2> /dev/null || true
	for _ in $(seq 20); do
		left=$(descendants "$pid")
		[ -n "$left" ] || break
		sleep 0.1
	done
	# shellcheck disable=SC2086
	[ -z "$left" ] || kill -KILL $left 2> /dev/null || true
	end_child "$pid"
}

# children_stop: end whatever run_child waits for and the command of
# cmd_start (from the clean-up trap).
children_stop() {
	if [ -n "$CMD_PID" ]; then
		kill_tree "$CMD_PID"
		CMD_PID=""
	fi
	if [ -n "$CHILD_PID" ]; then
		kill_tree "$CHILD_PID"
		CHILD_PID=""
	fi
}
