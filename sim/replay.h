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

/* Sites below this have a route memo (a binary trace's ALLOC8 names at
 * most 2^12 sites: trace_bin.h). */
#define SS_ROUTE_MEMO_SITES 4096

/* Where the last alloc of a site went (replay_plain.c): an alloc with the
 * same api and size and no gfp flag goes to the same cache (its route
 * memos and plain caches never change once set) and the same account
 * pair (pairs keep their index).  key 0: empty. */
struct ss_site_route {
	uint64_t key;
	struct ss_kcache *k;
	uint32_t pair;
	int32_t ci;
};

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
	/* state */
	struct ss_objtable objs;
	struct ss_memcap mem; /* simulated memory vs --max-memory (set max_bytes
			       * before ss_run_init; 0 = the default cap) */
	struct ss_account acct; /* live bytes, the peak, per-site counts */
	double *cpu_cycles; /* simulated clock of each CPU */
	struct ss_contention cont; /* waits and retries (sim/contention.h) */
	struct ss_hist alloc_hist, free_hist;
	uint64_t events, zero_allocs, large_allocs; /* (allocs, frees: ss_run_allocs) */
	uint64_t zero_live, large_live; /* live objects of those two kinds */
	/* frees of objects allocated before the trace (SS_EV_FREE_PRIOR):
	 * applied to the initial state, and with no such object left */
	uint64_t prior_frees, prior_missing;
	double alloc_cycles, free_cycles, work_cycles;
	double timer_cycles; /* the model's timed work (model.h tick) */
	double *label_cycles;	 /* work cycles per label (trace name index) */
	uint64_t *label_events;	 /* work events per label */
	uint32_t nr_labels;	 /* slots in the two arrays above */
	const char *phase; /* current phase name */
	uint64_t phase_index;
	/* set by ss_run_init / ss_replay_start (replay.c) */
	const struct ss_trace_reader *trace; /* errors name its file and position */
	uint64_t until_sample;	 /* events left before the next on_sample */
	uint32_t same_cpus;	 /* trace CPUs below this are their own PU */
	/* the model, when a cache model whose plain SLUB caches the replay
	 * calls inline (allocators/cache_model_fast.h); else NULL */
	struct ss_cmodel *cm;
	bool ticks;		 /* the model has timed work (model.h tick) */
	/* replay_plain.c's in-place loop in its AVX build (set where the CPU
	 * has AVX; a test clears it for the baseline build) */
	bool plain_avx;
	/* replay_plain.c's route of an alloc by site (NULL until its first
	 * alloc of a plain cache: SS_ROUTE_MEMO_SITES entries) */
	struct ss_site_route *route_memo;
	double hist_memo_c[2];	 /* alloc, free: the last cycles added ... */
	size_t hist_memo_b[2];	 /* ... and their histogram bucket (an index
				  * as wide as an address: no widening per use) */
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
	return run->alloc_hist.total;
}

static inline uint64_t ss_run_frees(const struct ss_run *run)
{
	return run->free_hist.total;
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
#define SS_REPLAY_PAD 8

/* Simulated run time: the busiest CPU's clock, in cycles. */
double ss_run_sim_cycles(const struct ss_run *run);
/* cycles -> nanoseconds at the target clock */
double ss_run_ns(const struct ss_run *run, double cycles);

#endif
