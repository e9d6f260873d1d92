/* report_plot.c - waste.dat, latency.dat and pooled histograms. */
#include "report_plot.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t ss_report_hist_total(const struct ss_report_hist *h)
{
	uint64_t t = 0;

	for (size_t i = 0; i < h->n; i++)
		t += h->b[i].count;
	return t;
}

double ss_report_hist_quantile(const struct ss_report_hist *h, double q)
{
	uint64_t total = ss_report_hist_total(h), cum = 0;
	double rank;

	if (!total)
		return NAN;
	/* The epsilon keeps 0.99 * 100 from rounding up to 100 operations. */
	rank = ceil(q * (double)total - 1e-9);
	if (rank < 1)
		rank = 1;
	for (size_t i = 0; i < h->n; i++) {
		cum += h->b[i].count;
		if ((double)cum >= rank)
			return h->b[i].ns;
	}
	return h->b[h->n - 1].ns;
}

/* The index of run k among the runs of its model (its bar in the model's
 * panel: panels hold only the runs that exist). */
static unsigned slot_of(const struct ss_report_results *res, size_t k)
{
	unsigned n = 0;

	for (size_t j = 0; j < k; j++)
		n += res->runs[j].mi == res->runs[k].mi;
	return n;
}

int ss_report_write_waste_dat(FILE *fp, const struct ss_report_results *res)
{
	/* one axis for every run (compare/waste.png): a cluster of bar pairs
	 * per variant, one bar apart */
	double cx = -3, centre = 0;

	fprintf(fp, "# waste.dat - where the slab bytes go, KiB, per (variant, model) at the end of the run and at its peak; slabsim report\n"
		    "# vi, mi = variant and model index; slot = the run's index among its model's runs; peak = 0 end, 1 peak\n"
		    "# x = the end bar's position with every run on one axis, clusters by variant; centre = its cluster's middle\n"
		    "# variant model moment requested rounding align debug free_slot slab_tail total vi mi slot peak x centre\n");
	for (size_t k = 0; k < res->nruns; k++) {
		const struct ss_report_run *run = &res->runs[k];

		if (!k || run->vi != res->runs[k - 1].vi) {
			size_t n = 0;

			for (size_t j = k; j < res->nruns && res->runs[j].vi == run->vi; j++)
				n++;
			cx += 3; /* a gap of one bar between clusters */
			centre = cx + (2.0 * (double)n - 1) / 2;
		} else {
			cx += 2;
		}

		for (int peak = 0; peak <= 1; peak++) {
			double total = 0;

			fprintf(fp, "%s %s %s", run->variant, run->model, peak ? "peak" : "end");
			for (int p = 0; p < SS_REPORT_NR_PARTS; p++) {
				double kib = (peak ? ss_report_peak_part_bytes(&run->s, (enum ss_report_part)p)
						   : ss_report_part_bytes(&run->s, (enum ss_report_part)p)) / 1024;

				total += kib;
				if (isnan(kib))
					fputs(" NaN", fp);
				else
					fprintf(fp, " %.3f", kib);
			}
			if (isnan(total))
				fputs(" NaN", fp);
			else
				fprintf(fp, " %.3f", total);
			fprintf(fp, " %u %u %u %d %.0f %.1f\n", run->vi, run->mi,
				slot_of(res, k), peak, cx + peak, centre);
		}
	}
	return ferror(fp) ? -1 : 0;
}

static const char *const op_names[SS_REPORT_NR_OPS] = {"alloc", "free"};

/* The run of (variant vi, model mi) if it has operations of kind op. */
static const struct ss_report_run *curve_run(const struct ss_report_results *res,
				      unsigned vi, unsigned mi, enum ss_report_op op)
{
	const struct ss_report_run *run = ss_report_find(res, vi, mi);

	return run && ss_report_hist_total(&run->lat[op]) ? run : NULL;
}

/* One run's CCDF: each bucket's upper bound and the fraction of the
 * run's operations in it or a slower one (1 at the first bucket), then
 * the last bound again with 0: nothing is slower (the curve's last drop,
 * drawn even for a run whose operations all fall in one bucket). */
static void write_ccdf(FILE *fp, const struct ss_report_run *run, enum ss_report_op op)
{
	const struct ss_report_hist *h = &run->lat[op];
	uint64_t total = ss_report_hist_total(h), before = 0;

	fprintf(fp, "\n\n\"%s %s\" %s %s %s\n", run->variant, run->model,
		run->variant, run->model, op_names[op]);
	for (size_t i = 0; i < h->n; i++) {
		fprintf(fp, "%.6g %.9g %llu\n", h->b[i].ns,
			(double)(total - before) / (double)total,
			(unsigned long long)h->b[i].count);
		before += h->b[i].count;
	}
	fprintf(fp, "%.6g 0 0\n", h->b[h->n - 1].ns);
}

/* The curves in block order: panel (model, op) after panel, variants in
 * order within one.  `what` 0 writes the panel table, 1 the block table,
 * 2 the curves. */
static void write_blocks(FILE *fp, const struct ss_report_results *res, int what)
{
	unsigned block = 2;

	for (unsigned mi = 0; mi < res->models.n; mi++)
		for (int op = 0; op < SS_REPORT_NR_OPS; op++) {
			unsigned first = block;

			for (unsigned vi = 0; vi < res->variants.n; vi++) {
				const struct ss_report_run *run = curve_run(res, vi, mi, (enum ss_report_op)op);

				if (!run)
					continue;
				if (what == 1)
					fprintf(fp, "%u %u %u %d \"%s\"\n", block, mi, vi,
						op, run->variant);
				else if (what == 2)
					write_ccdf(fp, run, (enum ss_report_op)op);
				block++;
			}
			if (what == 0)
				fprintf(fp, "%u %d %u %u \"%s\"\n", mi, op, first,
					block - first, res->models.v[mi]);
		}
}

int ss_report_write_latency_dat(FILE *fp, const struct ss_report_results *res)
{
	fprintf(fp, "# latency.dat - latency CCDFs (1 - CDF), one curve per run (variant and\n"
		    "# model, never pooled); slabsim report.  Blocks (gnuplot index):\n"
		    "#   0: one row per panel (model, op): model op first_block blocks name\n"
		    "#   1: one row per curve block: block model variant op (indexes) name\n"
		    "#   2 on: the curves, panel after panel; header \"VARIANT MODEL\" VARIANT\n"
		    "#      MODEL OP, then rows: ns above count = bucket upper bound, fraction\n"
		    "#      of the run's operations in this bucket or a slower one, operations\n"
		    "#      in the bucket\n"
		    "model op first_block blocks name\n");
	write_blocks(fp, res, 0);
	fprintf(fp, "\n\nblock model variant op name\n");
	write_blocks(fp, res, 1);
	write_blocks(fp, res, 2);
	return ferror(fp) ? -1 : 0;
}
