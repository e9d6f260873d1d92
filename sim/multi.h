/* multi.h - decode once, replay many: one pass over a trace feeds several
 * runs (models, targets, debug settings), each with its own state and
 * outputs, on up to `jobs` threads.
 *
 * The trace is read and decoded once, a batch at a time, by the calling
 * thread; then every run replays that batch (the runs split over the
 * threads, the caller taking a share); then the next batch.  Decoding and
 * replaying never overlap, so the trace's tables (names, caches), which
 * grow as declarations are read, are never read while they change.  A run
 * that fails (its error kept in its slot) stops; the others go on.  A
 * trace that cannot be read fails every run still going.
 */
#ifndef SS_MULTI_H
#define SS_MULTI_H

#include "replay.h"

struct ss_multi_slot {
	struct ss_run *run;	/* set up, ss_replay_start not yet called */
	int failed;		/* out: the run stopped at an error ... */
	struct ss_error err;	/* ... this one */
};

/* Replay r through every slot's run, finishing each (the closing
 * on_phase).  Returns 0 when the trace was read to its end (runs may
 * still have failed: see the slots), -1 with err when it could not be. */
int ss_replay_multi(struct ss_trace_reader *r, struct ss_multi_slot *slots,
		    unsigned n, unsigned jobs, struct ss_error *err);

/* Events per decoded batch of the multi replay. */
#define SS_MULTI_BATCH 8192

#endif
