/* report_extras.c - the table of per-workload report extras. */
#include "report_extras.h"

#include <string.h>

static const struct rp_extra extras[] = {
	/* {"audit", ...}, {"hackbench", ...}: one row per workload module */
	{NULL, NULL, {NULL}, NULL},
};

const struct rp_extra *rp_extra_find(const char *workload)
{
	for (const struct rp_extra *e = extras; e->workload; e++)
		if (!strcmp(e->workload, workload))
			return e;
	return NULL;
}
