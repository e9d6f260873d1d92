/* report_plot.h - plot data for gnuplot (analysis/waste.gp, latency.gp,
 * cmp_latency.gp) and the histogram quantiles the reports print
 * (latency_table.h).
 *
 * waste.dat: two rows per (variant, model) in report order, the end of
 * the run and its peak, whitespace separated, '#' comments:
 *   variant model moment requested rounding align debug free_slot
 *   slab_tail total vi mi slot peak
 * moment "end" or "peak" (peak = 0 or 1), the six parts and their total
 * in KiB (NaN at the peak of a run without peak columns); vi, mi the
 * variant and model indexes; slot the run's index among its model's runs.
 *
 * latency.dat: gnuplot blocks (two blank lines apart), each opening with
 * a column-header line.  Index 0: one row per panel (model, op) in model
 * order, alloc before free: model op first_block blocks "name".  Index 1:
 * one row per curve: block model variant op (indexes into the report's
 * lists) "variant name".  Index 2 on: one curve per run with such operations (variant and
 * model, never pooled), panel after panel, variants in order; header
 * "VARIANT MODEL" VARIANT MODEL OP, then rows
 *   ns above count
 * = bucket upper bound, fraction of the run's operations in this bucket or
 * a slower one (the CCDF, 1 - CDF, read at the bucket below), operations
 * in the bucket; a last row "ns 0 0" repeats the last bound: nothing is
 * slower.
 */
#ifndef SS_REPORT_PLOT_H
#define SS_REPORT_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "report_runs.h"

uint64_t ss_report_hist_total(const struct ss_report_hist *h);
/* Upper bound of the bucket holding the q-quantile (0 < q <= 1): the
 * smallest ns with at least ceil(q * total) operations at or below it.
 * NaN for an empty histogram. */
double ss_report_hist_quantile(const struct ss_report_hist *h, double q);

int ss_report_write_waste_dat(FILE *fp, const struct ss_report_results *res);
int ss_report_write_latency_dat(FILE *fp, const struct ss_report_results *res);

#endif
