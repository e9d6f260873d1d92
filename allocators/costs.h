/* costs.h - the cost table: cycles per step (docs/cost-model.md).
 *
 * Defaults come from allocators/costs/default.costs, each line citing
 * reference/costs.md or marked as an estimate; `--costs FILE` overrides
 * any subset, and a calibration run can write a measured table.
 */
#ifndef SS_COSTS_H
#define SS_COSTS_H

#include "error.h"
#include "steps.h"

struct ss_costs {
	double cycles[SS_NR_STEPS]; /* per unit of the step */
	char origin[SS_NR_STEPS];   /* 'd' default file, 'u' user file, 0 unset */
	char path[512];		    /* the user file, or "" */
};

/* Load the default table (path of default.costs resolved like targets),
 * then, if user_path is not NULL, the user's file on top. */
int ss_costs_load(struct ss_costs *c, const char *user_path,
		  struct ss_error *err);
/* Parse one file into c (lines "step cycles [# comment]"). */
int ss_costs_parse_file(struct ss_costs *c, const char *path, char origin,
			struct ss_error *err);

#endif
