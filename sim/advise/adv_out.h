/* adv_out.h - the advisor's outputs: advice.csv (one row per replayed
 * proposal, ranked by the replayed saving), advice.md (the ranking and
 * each kernel change in words), proposals/NN.place (each proposal as a
 * placement file for `slabsim run --place`).  All written to temporary
 * names and renamed together; a failure leaves none of them. */
#ifndef SS_ADV_OUT_H
#define SS_ADV_OUT_H

#include "adv_gen.h"
#include "adv_replay.h"
#include "adv_scan.h"
#include "advise.h"

struct ss_advise_report {
	const struct ss_advise_opts *opts;
	const struct ss_target *target;
	const char *cpus_from;		  /* the run set-up's: "trace", "--cpus", ... */
	const struct ss_advise_scan *scan;
	const struct ss_advise_props *props;
	const struct ss_advise_result *base;	  /* the baseline replay */
	const struct ss_advise_result *res;	  /* per proposal (props->p[i]) */
	const int *replayed;		  /* per proposal: 1 replayed */
};

int ss_advise_write_outputs(const struct ss_advise_report *r, struct ss_error *err);

#endif
