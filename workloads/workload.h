/* workload.h - the workloads `slabsim gen` knows: one table entry each.
 *
 * A workload generates its own inputs (rule files, traces) with its own
 * options; `slabsim gen NAME ...` hands it argv starting at NAME.  Adding a
 * workload is its folder workloads/NAME/ and one row in workloads/registry.c
 * (docs/adding-a-workload.md).
 */
#ifndef SS_WORKLOAD_H
#define SS_WORKLOAD_H

#include <stddef.h>

#include "report_extras.h"

struct ss_workload {
	const char *name;    /* `slabsim gen NAME` */
	const char *summary; /* one line for `slabsim gen --help` */
	/* argv[0] is NAME; returns the exit code (0 ok, 1 failed, 2 usage) */
	int (*gen)(int argc, char **argv);
	/* what it adds to report.md and the plot data, or NULL */
	const struct ss_report_extra *report;
};

/* The table, in listing order; *nr gets its length. */
const struct ss_workload *ss_workloads(size_t *nr);
/* The workload called name, or NULL. */
const struct ss_workload *ss_workload_find(const char *name);

#endif
