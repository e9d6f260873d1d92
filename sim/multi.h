/* multi.h - decode once, replay many: one pass over a trace feeds several
 * runs (models, targets, debug settings), each with its own state and
 * outputs.
 *
 * The runs are split into groups, one per thread; each group has its own
 * reader, so a thread reads and decodes the trace once, a batch at a time,
 * and hands every batch to each of its runs in turn.  The threads share
 * nothing and never wait for one another: on a machine shared with other
 * work a descheduled thread holds up no one (a lockstep design, one
 * decoder feeding every thread, lost more to its barriers than the second
 * decode costs: decoding is a few percent of a replay).  A run that fails
 * (its error kept in its slot) stops; the others go on.  A trace that
 * cannot be read fails every run of the group still going.
 */
#ifndef SS_MULTI_H
#define SS_MULTI_H

#include "replay.h"

struct ss_multi_slot {
	struct ss_run *run;	/* set up, ss_replay_start not yet called */
	int failed;		/* out: the run stopped at an error ... */
	struct ss_error err;	/* ... this one */
};

/* The runs of one thread and the reader they were set up with. */
struct ss_multi_group {
	struct ss_trace_reader *reader;
	struct ss_multi_slot *slots;
	unsigned n;
};

/* Replay each group (a thread each, the caller taking the first and any
 * whose thread could not start), finishing every run (the closing
 * on_phase).  Returns 0, or -1 with err out of memory (nothing replayed);
 * run failures, a trace read error included, are in the slots. */
int ss_replay_multi(struct ss_multi_group *groups, unsigned nr_groups,
		    struct ss_error *err);

/* Events per decoded batch of the multi replay. */
#define SS_MULTI_BATCH 4096

#endif
