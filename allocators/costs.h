/* costs.h - the cost table: cycles per step (docs/cost-model.md).
 *
 * Defaults come from allocators/costs/default.costs, each line citing
 * reference/costs.md or marked as an estimate, with the range (low, high)
 * the price may take and why; `--costs FILE` overrides any subset, and a
 * calibration run can write a measured table (its range: the measured
 * spread).  `make sensitivity` varies every step with a range.
 */
#ifndef SS_COSTS_H
#define SS_COSTS_H

#include "error.h"
#include "steps.h"

struct ss_costs {
	double cycles[SS_NR_STEPS]; /* per unit of the step */
	double low[SS_NR_STEPS];    /* the range the price may take; */
	double high[SS_NR_STEPS];   /* low == high == cycles: no range given */
	char origin[SS_NR_STEPS];   /* 'd' default file, 'u' user file, 0 unset */
	char path[512];		    /* the user file, or "" */
};

/* Load the default table (path of default.costs resolved like targets),
 * then, if user_path is not NULL, the user's file on top. */
int ss_costs_load(struct ss_costs *c, const char *user_path,
		  struct ss_error *err);
/* Parse one file into c (lines "step cycles [low high] [# comment]";
 * low <= cycles <= high).  A line without a range sets low = high =
 * cycles. */
int ss_costs_parse_file(struct ss_costs *c, const char *path, char origin,
			struct ss_error *err);

/* The step has a range to vary over (low < high). */
static inline int ss_costs_ranged(const struct ss_costs *c, int step)
{
	return c->low[step] < c->high[step];
}

#endif
