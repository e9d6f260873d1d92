/* report_extras.c - the table of per-workload report extras. */
#include "report_extras.h"

#include <string.h>

#include "report_audit.h"
#include "report_hackbench.h"

static const struct rp_extra extras[] = {
	/* {"audit", ...}, {"hackbench", ...}: one row per workload module */
	{"hackbench", rp_hackbench_md, {"time.dat"}, rp_hackbench_dat},
	{"audit", rp_audit_write_md, {RP_AUDIT_DAT_NAMES}, rp_audit_write_dat},
	{NULL, NULL, {NULL}, NULL},
};

const struct rp_extra *rp_extra_find(const char *workload)
{
	for (const struct rp_extra *e = extras; e->workload; e++)
		if (!strcmp(e->workload, workload))
			return e;
	return NULL;
}
