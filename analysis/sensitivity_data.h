/* sensitivity_data.h - gathering `make sensitivity` (mk/sensitivity.mk).
 *
 * DIR/params lists what was varied, one per line:
 *   NAME VALUE LOW HIGH KIND
 * (KIND cost: a cost-table step; clock: the target's clock_mhz; gen: a
 * workload parameter such as HB_QUANTUM).  Each setting is a report
 * directory holding figures.csv: DIR/base, DIR/NAME-low, DIR/NAME-high
 * for every param, and the corners DIR/all-low (every cost at its low end,
 * the clock at its high end: the fastest allocator) and DIR/all-high.
 * Gathered into sensitivity.csv (report_figures.h) and tornado.dat: for
 * the first RP_TORNADO_FIGURES figures, the steps that move each most, as
 * percent of the base value at either end.
 */
#ifndef SS_SENSITIVITY_DATA_H
#define SS_SENSITIVITY_DATA_H

#include <stdio.h>

#include "error.h"
#include "report_figures.h"

#define SS_REPORT_TORNADO_FIGURES 4
#define SS_REPORT_TORNADO_STEPS 10

/* Read DIR's params and settings into *s (figures in base order: the
 * base figures.csv's).  0, or -1 with err naming the file. */
int ss_report_sens_gather(const char *dir, struct ss_report_sensitivity *s,
		   struct ss_report_figures *base, struct ss_error *err);

/* tornado.dat: one block per figure (gnuplot index), separated by two
 * blank lines; rows "RANK STEP PCT_AT_LOW PCT_AT_HIGH". */
int ss_report_write_tornado_dat(FILE *fp, const struct ss_report_sensitivity *s,
			 const struct ss_report_figures *base);

#endif
