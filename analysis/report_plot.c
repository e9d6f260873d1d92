/* report_plot.c - waste.dat, latency.dat and pooled histograms. */
#include "report_plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_bucket(const void *a, const void *b)
{
	const struct rp_bucket *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

int rp_pool_hist(const struct rp_results *res, unsigned mi, enum rp_op op,
		 struct rp_hist *out)
{
	size_t n = 0, k = 0;

	memset(out, 0, sizeof(*out));
	for (size_t r = 0; r < res->nruns; r++)
		if (res->runs[r].mi == mi)
			n += res->runs[r].lat[op].n;
	if (!n)
		return 0;
	out->b = malloc(n * sizeof(*out->b));
	if (!out->b)
		return -1;
	for (size_t r = 0; r < res->nruns; r++) {
		const struct rp_hist *h = &res->runs[r].lat[op];

		if (res->runs[r].mi != mi)
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

int rp_write_waste_dat(FILE *fp, const struct rp_results *res)
{
	unsigned nm = res->models.n;

	fprintf(fp, "# waste.dat - where the slab bytes go, KiB, per (variant, model); slabsim report\n"
		    "# x = bar position (variant index * (models + 1) + model index), centre = middle of the variant's bars\n"
		    "# variant model requested rounding align debug free_slot slab_tail total x centre\n");
	for (size_t k = 0; k < res->nruns; k++) {
		const struct rp_run *run = &res->runs[k];
		double total = 0;

		fprintf(fp, "%s %s", run->variant, run->model);
		for (int p = 0; p < RP_NR_PARTS; p++) {
			double kib = rp_part_bytes(&run->s, (enum rp_part)p) / 1024;

			total += kib;
			fprintf(fp, " %.3f", kib);
		}
		fprintf(fp, " %.3f %u %.1f\n", total, run->vi * (nm + 1) + run->mi,
			run->vi * (nm + 1) + (nm - 1) / 2.0);
	}
	return ferror(fp) ? -1 : 0;
}

static const char *const op_names[RP_NR_OPS] = {"alloc", "free"};

static int write_block(FILE *fp, const struct rp_results *res, unsigned mi,
		       enum rp_op op)
{
	struct rp_hist h;
	uint64_t total, cum = 0;

	if (rp_pool_hist(res, mi, op, &h))
		return -1;
	total = rp_hist_total(&h);
	if (!total) {
		fprintf(fp, "\"%s (no data)\" %s\nNaN NaN 0\n",
			res->models.v[mi], op_names[op]);
	} else {
		fprintf(fp, "%s %s\n", res->models.v[mi], op_names[op]);
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
	fprintf(fp, "# latency.dat - latency CDFs per model, all variants pooled; slabsim report\n"
		    "# blocks: index 2m = model m alloc, 2m+1 = model m free; each opens with a \"MODEL OP\" header line\n"
		    "# ns cum_fraction count\n");
	for (unsigned mi = 0; mi < res->models.n; mi++)
		for (int op = 0; op < RP_NR_OPS; op++) {
			fputs("\n\n", fp);
			if (write_block(fp, res, mi, (enum rp_op)op))
				return -1;
		}
	return ferror(fp) ? -1 : 0;
}
