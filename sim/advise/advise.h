/* advise.h - `slabsim advise`: propose slab placements for a trace and
 * price each one by replaying it (docs/advise.md).
 *
 *   scan the trace (adv_scan.h) -> proposals with estimates (adv_gen.h)
 *   -> the baseline and every proposal replayed in full (adv_replay.h)
 *   -> advice.csv, advice.md, proposals/NN.place (adv_out.h)
 */
#ifndef SS_ADVISE_H
#define SS_ADVISE_H

#include "error.h"
#include "run.h"

/* Site and group proposals replayed at most, by default. */
#define SS_ADVISE_MAX_PROPOSALS 24

struct ss_advise_opts {
	struct ss_run_spec spec; /* trace, model, target, costs, cpus, ... */
	const char *out;	 /* the output directory */
	unsigned max_proposals;	 /* 0: SS_ADVISE_MAX_PROPOSALS */
	unsigned jobs;		 /* replay threads; 0: ss_pass_default_jobs() */
};

int ss_advise(const struct ss_advise_opts *o, struct ss_error *err);

#endif
