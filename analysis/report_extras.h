/* report_extras.h - what one workload adds to its report: more sections
 * of report.md and more plot-data files.  A workload defines one in its
 * own folder and names it in its row of workloads/registry.c, so adding
 * a workload touches no shared report code. */
#ifndef SS_REPORT_EXTRAS_H
#define SS_REPORT_EXTRAS_H

#include <stdio.h>

#include "report_figures.h"
#include "report_md.h"

#define SS_REPORT_MAX_EXTRA_DAT 8

struct ss_report_extra {
	/* Appended to report.md after the generic sections; 0 or -1. */
	int (*write_md)(FILE *fp, const struct ss_report_report_in *in);
	/* Extra files in the report directory (e.g. "breakdown.dat"),
	 * written atomically with the others by write_dat(k, ...). */
	const char *dat_names[SS_REPORT_MAX_EXTRA_DAT];
	int (*write_dat)(unsigned k, FILE *fp, const struct ss_report_report_in *in);
	/* The workload's headline figures (report_figures.h), added to the
	 * generic ones; NULL: none.  0 or -1. */
	int (*figures)(const struct ss_report_report_in *in, struct ss_report_figures *out);
	/* NULL: report.md leads with the variants' slab memory, then the
	 * headline figures.  Else the seed asks for time: this sentence says
	 * why, and the headline figures lead. */
	const char *time_first;
};

#endif
