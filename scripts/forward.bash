# forward.bash - sourced by a bash script or a make recipe, never run:
#
#   . scripts/forward.bash
#   forward CMD [ARG...]
#
# runs CMD and waits for it as a foreground command would (its exit
# status, its standard input), except that a SIGTERM, SIGHUP or SIGINT to
# this shell reaches CMD too: CMD is sent the same signal, this shell
# waits for it to end (its own clean-up: slabsim removes what it was
# writing, a make stops its recipes) and then dies of the signal it got,
# so that its own caller sees it (make: "Terminated", "Interrupt") and
# its EXIT trap runs.
#
# Why: make, terminated, sends SIGTERM to each running recipe's shell and
# no further, and bash dies of it at once, leaving the command it was
# waiting for running on after make is gone (writing its temporary files
# later, or a sub-make all its recipes).  A recipe that is one simple
# command needs none of this (bash execs it, or `exec CMD > FILE` with a
# redirection); a recipe that does more (clean up after a failure, rename
# a temporary file) runs its long command through forward.
#
# CMD runs as a process group of its own (job control for that one fork),
# and the signal goes to the whole group: CMD and all it started, a
# make's $(shell ...) commands too, which make itself never signals.  A
# ^C reaches the terminal's foreground group -- make's, this shell's --
# and from here CMD's group.

forward() {
	local pid rc signals=0 seen sig=
	set -m
	"$@" <&0 &
	pid=$!
	set +m
	trap 'sig=TERM; signals=$((signals + 1)); kill -TERM -- "-$pid" 2>/dev/null' TERM
	trap 'sig=HUP; signals=$((signals + 1)); kill -HUP -- "-$pid" 2>/dev/null' HUP
	trap 'sig=INT; signals=$((signals + 1)); kill -INT -- "-$pid" 2>/dev/null' INT
	# wait returns early (above 128) when a trapped signal comes: then
	# wait again, for CMD's own end and status (bash keeps it once reaped)
	while :; do
		seen=$signals
		wait "$pid" && rc=0 || rc=$? # (so under set -e too)
		[ "$signals" != "$seen" ] || break
	done
	trap - TERM HUP INT
	[ -z "$sig" ] || kill -s "$sig" "$BASHPID"
	return "$rc"
}
