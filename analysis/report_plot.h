/* report_plot.h - plot data for gnuplot (analysis/waste.gp, latency.gp) and
 * the pooled latency histograms the reports print (latency_table.h).
 *
 * waste.dat: one row per (variant, model) in report order, whitespace
 * separated, '#' comments:
 *   variant model requested rounding align debug free_slot slab_tail
 *   total x centre
 * the six parts and their total in KiB; x = bar position
 * (variant index * (models + 1) + model index), centre = middle of the
 * variant's cluster of bars.
 *
 * latency.dat: gnuplot blocks (two blank lines apart), two per model in
 * model order: index 2m = alloc, 2m+1 = free.  Each block starts with a
 * column-header line "MODEL OP" (MODEL quoted with " (no data)" when the
 * model has no such operations, then one row "NaN NaN 0"), then rows
 *   ns cum_fraction count
 * = bucket upper bound, fraction of the model's operations (all variants
 * pooled) taking at most ns, operations in the bucket.
 */
#ifndef SS_REPORT_PLOT_H
#define SS_REPORT_PLOT_H

#include <stdio.h>

#include "report_runs.h"

/* The histogram of op pooled over every run of model mi: buckets with the
 * same upper bound are added.  0, or -1 when out of memory. */
int rp_pool_hist(const struct rp_results *res, unsigned mi, enum rp_op op,
		 struct rp_hist *out);
uint64_t rp_hist_total(const struct rp_hist *h);
/* Upper bound of the bucket holding the q-quantile (0 < q <= 1): the
 * smallest ns with at least ceil(q * total) operations at or below it.
 * NaN for an empty histogram. */
double rp_hist_quantile(const struct rp_hist *h, double q);

int rp_write_waste_dat(FILE *fp, const struct rp_results *res);
int rp_write_latency_dat(FILE *fp, const struct rp_results *res);

#endif
