/* latency_table.c - the pooled latency table (latency_table.h). */
#include "latency_table.h"

#include <math.h>
#include <stdlib.h>

#include "md_table.h"
#include "report_plot.h"

static void quantile_cell(struct md_table *t, const struct rp_hist *h, double q)
{
	double v = rp_hist_quantile(h, q);

	if (isnan(v))
		mdt_cell(t, "n/a");
	else
		mdt_cell(t, "≤ %.0f", v);
}

int rp_latency_table(FILE *fp, const struct rp_results *res)
{
	struct md_table t;
	struct rp_series *sv = NULL;
	unsigned ns = 0;

	mdt_init(&t, "lrrrrrr");
	if (rp_lat_series(res, &sv, &ns))
		t.oom = true;
	/* a run's own row when the runs of a model are on several targets */
	mdt_cell(&t, "%s", ns == res->models.n ? "model" : "run");
	mdt_cell(&t, "alloc p50");
	mdt_cell(&t, "alloc p99");
	mdt_cell(&t, "free p50");
	mdt_cell(&t, "free p99");
	mdt_cell(&t, "allocs");
	mdt_cell(&t, "frees");
	for (unsigned si = 0; si < ns; si++) {
		struct rp_hist h[RP_NR_OPS];

		/* A histogram that could not be pooled is empty: the table
		 * is still filled, then refused by mdt_print. */
		for (int op = 0; op < RP_NR_OPS; op++)
			if (rp_pool_series(res, &sv[si], (enum rp_op)op, &h[op]))
				t.oom = true;
		mdt_cell(&t, "%s", sv[si].title);
		for (int op = 0; op < RP_NR_OPS; op++) {
			quantile_cell(&t, &h[op], 0.50);
			quantile_cell(&t, &h[op], 0.99);
		}
		for (int op = 0; op < RP_NR_OPS; op++) {
			mdt_cell(&t, "%llu", (unsigned long long)rp_hist_total(&h[op]));
			free(h[op].b);
		}
	}
	free(sv);
	return mdt_print(fp, &t);
}
