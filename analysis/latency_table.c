/* latency_table.c - the per-run latency table (latency_table.h). */
#include "latency_table.h"

#include <math.h>

#include "md_table.h"
#include "report_plot.h"

static const double quantiles[] = {0.50, 0.90, 0.99, 0.999};
static const char *const qnames[] = {"p50", "p90", "p99", "p99.9"};
#define NQ (sizeof(quantiles) / sizeof(quantiles[0]))

static void quantile_cell(struct ss_md_table *t, const struct ss_report_hist *h, double q)
{
	double v = ss_report_hist_quantile(h, q);

	if (isnan(v))
		ss_mdtable_cell(t, "n/a");
	else
		ss_mdtable_cell(t, "≤ %.*f", v < 100 && v != rint(v) ? 1 : 0, v);
}

int ss_report_latency_table(FILE *fp, const struct ss_report_results *res)
{
	static const char *const ops[SS_REPORT_NR_OPS] = {"alloc", "free"};
	struct ss_md_table t;

	ss_mdtable_init(&t, "llrrrrrrrrrr");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "model");
	for (int op = 0; op < SS_REPORT_NR_OPS; op++)
		for (unsigned q = 0; q < NQ; q++)
			ss_mdtable_cell(&t, "%s %s", ops[op], qnames[q]);
	ss_mdtable_cell(&t, "allocs");
	ss_mdtable_cell(&t, "frees");
	for (unsigned v = 0; v < res->variants.n; v++)
		for (unsigned m = 0; m < res->models.n; m++) {
			const struct ss_report_run *run = ss_report_find(res, v, m);

			if (!run)
				continue;
			ss_mdtable_cell(&t, "%s", run->variant);
			ss_mdtable_cell(&t, "%s", run->model);
			for (int op = 0; op < SS_REPORT_NR_OPS; op++)
				for (unsigned q = 0; q < NQ; q++)
					quantile_cell(&t, &run->lat[op], quantiles[q]);
			for (int op = 0; op < SS_REPORT_NR_OPS; op++)
				ss_mdtable_cell(&t, "%llu", (unsigned long long)ss_report_hist_total(&run->lat[op]));
		}
	return ss_mdtable_print(fp, &t);
}
