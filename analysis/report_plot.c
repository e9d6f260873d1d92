/* report_plot.c - waste.dat, latency.dat and pooled histograms. */
#include "report_plot.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_bucket(const void *a, const void *b)
{
	const struct rp_bucket *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

uint64_t rp_hist_total(const struct rp_hist *h)
{
	uint64_t t = 0;

	for (size_t i = 0; i < h->n; i++)
		t += h->b[i].count;
	return t;
}

double rp_hist_quantile(const struct rp_hist *h, double q)
{
	uint64_t total = rp_hist_total(h), cum = 0;
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
static unsigned slot_of(const struct rp_results *res, size_t k)
{
	unsigned n = 0;

	for (size_t j = 0; j < k; j++)
		n += res->runs[j].mi == res->runs[k].mi;
	return n;
}

int rp_write_waste_dat(FILE *fp, const struct rp_results *res)
{
	/* one axis for every run (compare/waste.png): a cluster of bar pairs
	 * per variant, one bar apart */
	double cx = -3, centre = 0;

	fprintf(fp, "# waste.dat - where the slab bytes go, KiB, per (variant, model) at the end of the run and at its peak; slabsim report\n"
		    "# vi, mi = variant and model index; slot = the run's index among its model's runs; peak = 0 end, 1 peak\n"
		    "# x = the end bar's position with every run on one axis, clusters by variant; centre = its cluster's middle\n"
		    "# variant model moment requested rounding align debug free_slot slab_tail total vi mi slot peak x centre\n");
	for (size_t k = 0; k < res->nruns; k++) {
		const struct rp_run *run = &res->runs[k];

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
			for (int p = 0; p < RP_NR_PARTS; p++) {
				double kib = (peak ? rp_peak_part_bytes(&run->s, (enum rp_part)p)
						   : rp_part_bytes(&run->s, (enum rp_part)p)) / 1024;

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

/* ---- latency series ---------------------------------------------------- */

/* Runs pool into one series when they share the model and the kernel
 * (summary.csv target): the variants of one kernel exercise the same
 * allocator paths, those of different kernels (hackbench's 4.5, 4.6, 6.1)
 * are the comparison itself and are never pooled. */
static int target_col(const struct rp_results *res)
{
	for (unsigned i = 0; i < res->ncols; i++)
		if (!strcmp(res->header[i], "target"))
			return (int)i;
	return -1;
}

static bool same_series(int tc,
			const struct rp_run *a, const struct rp_run *b)
{
	return a->mi == b->mi &&
	       (tc < 0 || !strcmp(a->row[tc], b->row[tc]));
}

int rp_lat_series(const struct rp_results *res, struct rp_series **out,
		  unsigned *n)
{
	int tc = target_col(res);
	struct rp_series *sv = calloc(res->nruns ? res->nruns : 1, sizeof(*sv));
	unsigned ns = 0;

	*out = sv;
	*n = 0;
	if (!sv)
		return -1;
	/* model order first, then the order of the runs (variant order) */
	for (unsigned mi = 0; mi < res->models.n; mi++)
		for (size_t k = 0; k < res->nruns; k++) {
			const struct rp_run *r = &res->runs[k];
			unsigned s = 0;

			if (r->mi != mi)
				continue;
			while (s < ns && !same_series(tc, &res->runs[sv[s].first], r))
				s++;
			if (s == ns)
				sv[ns++].first = k;
			sv[s].nruns++;
		}
	for (unsigned s = 0; s < ns; s++) {
		const struct rp_run *r = &res->runs[sv[s].first];

		sv[s].mi = r->mi;
		if (ns == res->models.n) /* one series per model */
			snprintf(sv[s].title, sizeof(sv[s].title), "%s", r->model);
		else if (sv[s].nruns == 1)
			snprintf(sv[s].title, sizeof(sv[s].title), "%s %s", r->variant, r->model);
		else
			snprintf(sv[s].title, sizeof(sv[s].title), "%s on %s", r->model, r->row[tc]);
	}
	*n = ns;
	return 0;
}

bool rp_series_has(const struct rp_results *res, const struct rp_series *s,
		   const struct rp_run *r)
{
	return same_series(target_col(res), &res->runs[s->first], r);
}

int rp_pool_series(const struct rp_results *res, const struct rp_series *s,
		   enum rp_op op, struct rp_hist *out)
{
	size_t n = 0, k = 0;

	memset(out, 0, sizeof(*out));
	for (size_t r = 0; r < res->nruns; r++)
		if (rp_series_has(res, s, &res->runs[r]))
			n += res->runs[r].lat[op].n;
	if (!n)
		return 0;
	out->b = malloc(n * sizeof(*out->b));
	if (!out->b)
		return -1;
	for (size_t r = 0; r < res->nruns; r++) {
		const struct rp_hist *h = &res->runs[r].lat[op];

		if (!rp_series_has(res, s, &res->runs[r]))
			continue;
		memcpy(out->b + k, h->b, h->n * sizeof(*h->b));
		k += h->n;
	}
	qsort(out->b, n, sizeof(*out->b), cmp_bucket);
	/* Merge equal upper bounds. */
	for (size_t i = 0; i < n; i++) {
		if (out->n && out->b[out->n - 1].ns == out->b[i].ns)
			out->b[out->n - 1].count += out->b[i].count;
		else
			out->b[out->n++] = out->b[i];
	}
	return 0;
}

static const char *const op_names[RP_NR_OPS] = {"alloc", "free"};

static int write_block(FILE *fp, const struct rp_results *res,
		       const struct rp_series *sr, enum rp_op op)
{
	struct rp_hist h;
	uint64_t total, cum = 0;

	if (rp_pool_series(res, sr, op, &h))
		return -1;
	total = rp_hist_total(&h);
	if (!total) {
		fprintf(fp, "\"%s (no data)\" %s\nNaN NaN 0\n", sr->title, op_names[op]);
	} else {
		fprintf(fp, "\"%s\" %s\n", sr->title, op_names[op]);
		for (size_t i = 0; i < h.n; i++) {
			cum += h.b[i].count;
			fprintf(fp, "%.6g %.6f %llu\n", h.b[i].ns,
				(double)cum / (double)total,
				(unsigned long long)h.b[i].count);
		}
	}
	free(h.b);
	return 0;
}

int rp_write_latency_dat(FILE *fp, const struct rp_results *res)
{
	struct rp_series *sv;
	unsigned ns;

	if (rp_lat_series(res, &sv, &ns))
		return -1;
	fprintf(fp, "# latency.dat - latency CDFs per series: a model's runs on one kernel target pooled; slabsim report\n"
		    "# blocks: index 2s = series s alloc, 2s+1 = series s free; each opens with a \"SERIES\" OP header line\n"
		    "# ns cum_fraction count\n");
	for (unsigned s = 0; s < ns; s++)
		for (int op = 0; op < RP_NR_OPS; op++) {
			fputs("\n\n", fp);
			if (write_block(fp, res, &sv[s], (enum rp_op)op)) {
				free(sv);
				return -1;
			}
		}
	free(sv);
	return ferror(fp) ? -1 : 0;
}
