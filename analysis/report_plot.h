/* report_plot.h - plot data for gnuplot (analysis/waste.gp, latency.gp) and
 * the pooled latency histograms the reports print (latency_table.h).
 *
 * waste.dat: two rows per (variant, model) in report order, the end of
 * the run and its peak, whitespace separated, '#' comments:
 *   variant model moment requested rounding align debug free_slot
 *   slab_tail total vi mi slot peak
 * moment "end" or "peak" (peak = 0 or 1), the six parts and their total
 * in KiB (NaN at the peak of a run without peak columns); vi, mi the
 * variant and model indexes; slot the run's index among its model's runs.
 *
 * latency.dat: gnuplot blocks (two blank lines apart), two per latency
 * series (below) in order: index 2s = alloc, 2s+1 = free.  Each block
 * starts with a column-header line "SERIES" OP (" (no data)" appended when
 * the series has no such operations, then one row "NaN NaN 0"), then rows
 *   ns cum_fraction count
 * = bucket upper bound, fraction of the series' operations taking at most
 * ns, operations in the bucket.
 */
#ifndef SS_REPORT_PLOT_H
#define SS_REPORT_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "report_runs.h"

/* A latency series: the runs of one model on one kernel target, pooled
 * (the variants of one kernel take the same allocator paths; runs on
 * different targets are never pooled).  title: the model when each model
 * is one series; else "VARIANT MODEL" for a single run, "MODEL on TARGET"
 * for several. */
struct rp_series {
	size_t first;	 /* its first run (index into res->runs) */
	unsigned nruns, mi;
	char title[2 * RP_NAME_MAX + 8];
};
/* The series in model order, then variant order.  -1 out of memory. */
int rp_lat_series(const struct rp_results *res, struct rp_series **out,
		  unsigned *n);
bool rp_series_has(const struct rp_results *res, const struct rp_series *s,
		   const struct rp_run *r);
/* The histogram of op pooled over the series' runs: buckets with the same
 * upper bound are added.  0, or -1 when out of memory. */
int rp_pool_series(const struct rp_results *res, const struct rp_series *s,
		   enum rp_op op, struct rp_hist *out);
uint64_t rp_hist_total(const struct rp_hist *h);
/* Upper bound of the bucket holding the q-quantile (0 < q <= 1): the
 * smallest ns with at least ceil(q * total) operations at or below it.
 * NaN for an empty histogram. */
double rp_hist_quantile(const struct rp_hist *h, double q);

int rp_write_waste_dat(FILE *fp, const struct rp_results *res);
int rp_write_latency_dat(FILE *fp, const struct rp_results *res);

#endif
