/* multi.h - decode once, replay many, on every core: one pass over a
 * trace feeds several runs (models, allocators, options, cost tables,
 * targets), each with its own state and outputs.
 *
 * The runs are split into groups, a thread each.  One reader decodes the
 * trace into a ring of blocks (SS_MULTI_BATCH events each) that every
 * group reads, in order, without copying: a block is decoded by whichever
 * group first needs it (no decoding thread of its own), and its slot is
 * reused once every group has replayed it.  No group waits for another
 * except when it runs SS_MULTI_RING blocks ahead of the slowest (a
 * descheduled thread on a shared machine holds the others up only that
 * far behind, unlike a lockstep barrier per block), or when the block it
 * needs is being decoded.  Memory is the ring plus each run's own state
 * (O(live objects)).
 *
 * The reader's tables (names, caches, meta) grow as it decodes; each
 * group's runs read a copy of them (ss_multi_group.tables), brought up to
 * the reader's, under the ring's lock and between decodes, before the
 * group replays a block whose decoding changed them (a name or a
 * declaration more).  A run thus never reads what another thread
 * writes.
 *
 * A run that fails (its error kept in its slot) stops; the others go on.
 * A trace that cannot be read to its end fails every run still going.
 * Each run's outputs are those it gives replayed alone (sim/replay.h
 * ss_replay_batch takes any batch boundaries).
 */
#ifndef SS_MULTI_H
#define SS_MULTI_H

#include "replay.h"

struct ss_multi_slot {
	struct ss_run *run;	/* set up, ss_replay_start not yet called */
	int failed;		/* out: the run stopped at an error ... */
	struct ss_error err;	/* ... this one */
};

/* The runs of one thread. */
struct ss_multi_group {
	struct ss_multi_slot *slots;
	unsigned n;
	/* what its runs' models and results read as the trace's tables
	 * (ss_multi_tables_init before the runs are set up), and how far
	 * into the reader's tables they are (names + declarations) */
	struct ss_trace_tables tables;
	uint64_t tables_gen;
};

/* Each group's tables as the reader's are now: 0, or -1 (out of memory). */
int ss_multi_tables_init(struct ss_multi_group *groups, unsigned nr_groups,
			 const struct ss_trace_reader *r, struct ss_error *err);
void ss_multi_tables_release(struct ss_multi_group *groups, unsigned nr_groups);

/* Called by the caller's thread after each block it replayed, with the
 * events of the trace decoded so far (a progress line). */
typedef void ss_multi_tick_fn(void *arg, uint64_t events);

/* Replay the trace of r through every group (a thread each, the caller
 * taking the first and any whose thread could not start), finishing
 * every run (the closing on_phase), each group's tables brought up to
 * the reader's end first.  Returns 0, or -1 with err out of memory
 * (nothing replayed); run failures, a trace read error included, are in
 * the slots. */
int ss_replay_multi(struct ss_trace_reader *r, struct ss_multi_group *groups,
		    unsigned nr_groups, ss_multi_tick_fn *tick, void *tick_arg,
		    struct ss_error *err);

/* Events per decoded block, and blocks in the ring. */
#define SS_MULTI_BATCH 4096
#define SS_MULTI_RING 64

#endif
