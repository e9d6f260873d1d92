# shellcheck shell=bash
# capture-orphans.sh - processes reaped where no tracepoint fires, for
# scripts/capture.sh (sourced, not run).
#
# A process is freed by the task that reaps it: release_task() ->
# __exit_signal() -> __cleanup_sighand() frees its sighand_cache object
# (kmem_cache_free, kernel/exit.c and kernel/fork.c 6.18) in the reaper's
# context.  An orphan (its parent exited first) is reaped by init, and on
# the sandboxes slabsim is built on init (PID 1, process_api) is a task no
# tracepoint fires for (capture-untraced.sh).  Measured here: 300 orphaned
# zombies reaped by it took 300 sighand_cache objects out of
# /proc/slabinfo with 6 kmem_cache_free events in the trace; after 15 s
# of `stress-ng --fork 2 --clone 2`, ~1000 of its zombies were still
# waiting for init 2 s after stress-ng returned.  So:
#   - before the before-snapshot, the capture waits (ORPH_WAIT_S at most)
#     until init has no zombie child left to reap: a capture started amid
#     its reaping of earlier work would see objects leave with no event;
#   - CMD runs under `slabsim reap` (cli/cmd_reap.c): its orphans are
#     reaped there, traced, as a traced init would.
# Needs nothing from the other capture scripts; ORPH_PROC (default /proc)
# is read, so that a test can give it a tree of its own.

ORPH_WAIT_S=${ORPH_WAIT_S:-10}
ORPH_PROC=${ORPH_PROC:-/proc}
ORPH_INIT_ZOMBIES=0 ORPH_WAITED_MS=0

# How many zombies have PID 1 for parent: /proc/PID/stat is "PID (COMM)
# STATE PPID ...", COMM may hold blanks and parentheses, so the fields
# are read after its last ")".
orph_init_zombies() {
	local f line rest n=0
	for f in "$ORPH_PROC"/[0-9]*/stat; do
		{ read -r line < "$f"; } 2> /dev/null || continue
		rest=${line##*) }
		[[ $rest == "Z 1 "* ]] && n=$((n + 1))
	done
	echo "$n"
}

# Wait until init has no zombie to reap, ORPH_WAIT_S at most, polling
# every 0.1 s: ORPH_INIT_ZOMBIES is what is left, ORPH_WAITED_MS the wait.
orph_drain_init() {
	local polls=0 max=$((ORPH_WAIT_S * 10))
	ORPH_INIT_ZOMBIES=$(orph_init_zombies)
	while [ "$ORPH_INIT_ZOMBIES" -gt 0 ] && [ $polls -lt $max ]; do
		sleep 0.1
		polls=$((polls + 1))
		ORPH_INIT_ZOMBIES=$(orph_init_zombies)
	done
	ORPH_WAITED_MS=$((polls * 100))
}

# The meta lines, from the drain and from reap's report (FILE, absent
# when CMD ran without `slabsim reap`):
#   init_zombies_before=N   init's zombies still unreaped at the snapshot
#   init_zombies_wait_ms=N  how long the capture waited for them
#   subreaper=yes|no        CMD ran under slabsim reap
#   orphans_reaped=N        CMD's descendants reaped by it (traced)
#   orphans_left=N          orphans still running when CMD ended and
#                           the grace was over (init reaps them and
#                           what they started, untraced)
orph_meta() {
	local report=$1
	echo "init_zombies_before=$ORPH_INIT_ZOMBIES"
	echo "init_zombies_wait_ms=$ORPH_WAITED_MS"
	if [ -n "$report" ] && [ -s "$report" ]; then
		echo "subreaper=yes"
		grep -E '^orphans_(reaped|left)=[0-9]+$' "$report"
	else
		echo "subreaper=no"
	fi
}
