/* latency_table.c - the per-run latency table (latency_table.h). */
#include "latency_table.h"

#include <math.h>

#include "md_table.h"
#include "report_plot.h"

static const double quantiles[] = {0.50, 0.90, 0.99, 0.999};
static const char *const qnames[] = {"p50", "p90", "p99", "p99.9"};
#define NQ (sizeof(quantiles) / sizeof(quantiles[0]))

static void quantile_cell(struct md_table *t, const struct rp_hist *h, double q)
{
	double v = rp_hist_quantile(h, q);

	if (isnan(v))
		mdt_cell(t, "n/a");
	else
		mdt_cell(t, "≤ %.*f", v < 100 && v != rint(v) ? 1 : 0, v);
}

int rp_latency_table(FILE *fp, const struct rp_results *res)
{
	static const char *const ops[RP_NR_OPS] = {"alloc", "free"};
	struct md_table t;

	mdt_init(&t, "llrrrrrrrrrr");
	mdt_cell(&t, "variant");
	mdt_cell(&t, "model");
	for (int op = 0; op < RP_NR_OPS; op++)
		for (unsigned q = 0; q < NQ; q++)
			mdt_cell(&t, "%s %s", ops[op], qnames[q]);
	mdt_cell(&t, "allocs");
	mdt_cell(&t, "frees");
	for (unsigned v = 0; v < res->variants.n; v++)
		for (unsigned m = 0; m < res->models.n; m++) {
			const struct rp_run *run = rp_find(res, v, m);

			if (!run)
				continue;
			mdt_cell(&t, "%s", run->variant);
			mdt_cell(&t, "%s", run->model);
			for (int op = 0; op < RP_NR_OPS; op++)
				for (unsigned q = 0; q < NQ; q++)
					quantile_cell(&t, &run->lat[op], quantiles[q]);
			for (int op = 0; op < RP_NR_OPS; op++)
				mdt_cell(&t, "%llu", (unsigned long long)rp_hist_total(&run->lat[op]));
		}
	return mdt_print(fp, &t);
}
