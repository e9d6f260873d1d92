/* adv_replay.h - full replays of the baseline and of every proposal, all
 * from one pass over the trace on every core (sim/pass.h: each its own
 * run set-up and model; results land in their job's slot, so the output
 * order never depends on which thread finished first). */
#ifndef SS_ADV_REPLAY_H
#define SS_ADV_REPLAY_H

#include <stdint.h>

#include "error.h"
#include "override.h"
#include "run.h"

/* What one replay measured (summary.csv's definitions). */
struct ss_advise_result {
	double footprint_kib;	/* footprint_kib at the end */
	double peak_kib;	/* the largest footprint after any event */
	uint64_t slab_pages;	/* slab_pages at the end */
	double sim_ms;		/* sim_time_ms: the busiest CPU's clock */
};

struct ss_advise_job {
	const struct ss_overrides *ov; /* NULL: the baseline */
	const char *config;	       /* its --config, NULL: the spec's */
	struct ss_advise_result res;
};

/* Replay spec's trace for every job from one pass, on `threads` threads
 * (0: one per CPU this process may use).  -1 with the error of the first
 * job (in job order) that failed. */
int ss_advise_replay_all(const struct ss_run_spec *spec, struct ss_advise_job *jobs,
		   unsigned n, unsigned threads, struct ss_error *err);

#endif
