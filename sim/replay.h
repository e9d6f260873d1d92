/* replay.h - the replay loop: events in, model steps and accounting out.
 *
 * One struct ss_run is the whole mutable state of a run (no globals): the
 * model instance, the object table, per-CPU simulated clocks, latency
 * histograms and totals.  Memory grows with live objects only.
 */
#ifndef SS_REPLAY_H
#define SS_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "contention.h"
#include "costs.h"
#include "histogram.h"
#include "memcap.h"
#include "model.h"
#include "model_batch.h"
#include "objtable.h"
#include "recon.h"
#include "target.h"
#include "topology.h"
#include "trace.h"

struct ss_run;

/* Called at each phase marker (phase name) and at the end (NULL). */
typedef int (*ss_phase_fn)(struct ss_run *run, const char *phase,
			   struct ss_error *err);
/* Called every `sample_every` events, for the timeline. */
typedef int (*ss_sample_fn)(struct ss_run *run, struct ss_error *err);

struct ss_run {
	/* configuration (not owned) */
	const struct ss_target *target;
	const struct ss_topology *topo;
	const struct ss_costs *costs;
	const struct ss_model_desc *desc;
	struct ss_model *model;
	/* what fits a capture to the model: prior frees and kernel slabs
	 * seen freed go there (reconcile/recon.h); NULL: none */
	struct ss_recon *recon;
	const struct ss_trace_tables *tables;
	ss_phase_fn on_phase;
	ss_sample_fn on_sample;
	uint64_t sample_every;
	void *user;
	/* state: the books a model's batch replay keeps too (model_batch.h:
	 * object table, memory total, account, clocks, contention,
	 * histograms, cycles, events; books.mem.max_bytes is set before
	 * ss_run_init, 0 the default cap) */
	struct ss_books books;
	uint64_t zero_allocs, large_allocs; /* (allocs, frees: ss_run_allocs) */
	uint64_t zero_live, large_live; /* live objects of those two kinds */
	/* frees of objects allocated before the trace (SS_EV_FREE_PRIOR):
	 * applied to the initial state, and with no such object left */
	uint64_t prior_frees, prior_missing;
	double work_cycles;
	double timer_cycles; /* the model's timed work (model.h tick) */
	double *label_cycles;	 /* work cycles per label (trace name index) */
	uint64_t *label_events;	 /* work events per label */
	uint32_t nr_labels;	 /* slots in the two arrays above */
	const char *phase; /* current phase name */
	uint64_t phase_index;
	/* set by ss_run_init / ss_replay_start (replay.c) */
	const struct ss_trace_reader *trace; /* errors name its file and position */
	uint64_t until_sample;	 /* events left before the next on_sample */
	bool ticks;		 /* the model has timed work (model.h tick) */
	/* the model's batch replay (model.h batch), when it has one for this
	 * run and no timed work; NULL: every event through replay.c */
	const struct ss_model_batch *batch;
};

/* Footprint and live objects as ss_totals_compute() counts them, in O(1)
 * from what the replay keeps up to date (the memory cap's page counts,
 * the live counters): the timeline samples them every few thousand events,
 * and a pass over every cache there would make a run's cost grow with the
 * number of caches (2M under kmem_cache --no-merge). */
uint64_t ss_run_footprint_bytes(const struct ss_run *run);
uint64_t ss_run_live_objects(const struct ss_run *run);

/* The allocations and the frees replayed (a prior free counts when the
 * model had such an object): each adds its cycles to its histogram once,
 * so the histograms count them (no second counter per operation). */
static inline uint64_t ss_run_allocs(const struct ss_run *run)
{
	return run->books.alloc_hist.total;
}

static inline uint64_t ss_run_frees(const struct ss_run *run)
{
	return run->books.free_hist.total;
}

/* Set up run state for a model already created in run->model. */
int ss_run_init(struct ss_run *run, uint64_t max_objects, struct ss_error *err);
void ss_run_release(struct ss_run *run);

/* Replay every event of r.  Trace errors name file:line. */
int ss_replay(struct ss_run *run, struct ss_trace_reader *r,
	      struct ss_error *err);

/* The same in steps, for a driver that feeds one decoded batch to several
 * runs (sim/multi.c): start once (path names the trace in errors), then
 * every batch in order, then finish (the closing on_phase call).  The
 * batch is only read: runs can share it. */
void ss_replay_start(struct ss_run *run, const struct ss_trace_reader *r);
int ss_replay_batch(struct ss_run *run, const struct ss_event *ev, unsigned n,
		    struct ss_error *err);
int ss_replay_finish(struct ss_run *run, struct ss_error *err);

/* Events per ss_trace_next_batch() call of the replays.  A batch array
 * holds SS_REPLAY_PAD more initialised events after the last one passed
 * to ss_replay_batch (read, never used: the object-table prefetch looks
 * that far ahead without a bounds check). */
#define SS_REPLAY_BATCH 512
#define SS_REPLAY_PAD SS_PREFETCH_AHEAD

/* Simulated run time: the busiest CPU's clock, in cycles. */
double ss_run_sim_cycles(const struct ss_run *run);
/* cycles -> nanoseconds at the target clock */
double ss_run_ns(const struct ss_run *run, double cycles);

#endif
