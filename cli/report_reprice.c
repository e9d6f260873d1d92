/* report_reprice.c - the figures of make sensitivity's cost settings,
 * priced from the base's runs (report_reprice.h). */
#include "report_reprice.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "costs.h"
#include "parse.h"
#include "reprice.h"

/* A figure as figures.csv prints it (%.6f) or within a rounding of it:
 * the replay sums each operation's cycles one at a time, the price here
 * adds the differences at once. */
static bool same_figure(double a, double b)
{
	return fabs(a - b) <= 2e-6 + 1e-9 * fabs(a);
}

/* v as summary.csv prints it with `decimals` places, read back. */
static double as_printed(double v, int decimals)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return strtod(buf, NULL);
}

/* Each run's counts, checked against its own time under the base's
 * table: 0, or -1 (err: the run and why). */
static int load_runs(const char *dir, const struct ss_report_results *res, const struct ss_costs *base,
		     struct ss_reprice *rp, bool *priceable, struct ss_error *err)
{
	char path[4400];
	struct ss_error why;

	*priceable = true;
	for (size_t k = 0; k < res->nruns; k++) {
		const struct ss_report_run *run = &res->runs[k];

		snprintf(path, sizeof(path), "%s/runs/%s__%s", dir, run->variant, run->model);
		if (ss_reprice_load(&rp[k], path, err))
			return -1;
		rp[k].sim_ns = run->s.sim_time_ns;
		rp[k].work_ns = run->s.work_time_ms * 1e6;
		rp[k].cpus = run->s.cpus;
		rp[k].lock_waits = run->s.lock_waits;
		rp[k].cmpxchg_retries = run->s.cmpxchg_retries;
		if (!(run->s.sim_time_ns >= 0)) {
			ss_errorf(err, "%s: no sim_time_ns in summary.csv", path);
			*priceable = false;
			return 0;
		}
		if (ss_reprice_check(&rp[k], base, &why)) {
			ss_errorf(err, "%s: cannot be priced: %s", path, why.msg);
			*priceable = false;
			return 0;
		}
	}
	return 0;
}

/* The runs' times under table `to`, everything else of the summaries as
 * the base's but the other times, which pricing does not give (NaN: a
 * figure made of them shows, and fails the check). */
static void price_runs(struct ss_report_results *res, const struct ss_report_summary *base_s,
		       const struct ss_reprice *rp, const struct ss_costs *from,
		       const struct ss_costs *to)
{
	for (size_t k = 0; k < res->nruns; k++) {
		struct ss_report_summary *s = &res->runs[k].s;
		double ns = ss_reprice_ns(&rp[k], from, to);

		*s = base_s[k];
		s->sim_time_ns = as_printed(ns, 1);
		s->sim_time_ms = as_printed(ns / 1e6, 3);
		s->alloc_time_ms = NAN;
		s->p50_ns = s->p99_ns = s->alloc_p50_ns = s->alloc_p99_ns = NAN;
		s->free_p50_ns = s->free_p99_ns = s->lock_wait_ms = NAN;
	}
}

/* Setting name's figures, priced, against its replay's (check) or into
 * its figures.csv. */
static enum ss_report_reprice_result one_setting(const struct ss_report_reprice *rp, const char *name,
					      bool check, const struct ss_report_report_in *in,
					      report_figures_fn *figures, struct ss_error *err)
{
	struct ss_report_figures got = {0}, want = {0};
	struct ss_atomic_file f;
	char path[4200];
	enum ss_report_reprice_result r = REPRICE_FAILED;

	if (figures(in, &got, err))
		goto out;
	snprintf(path, sizeof(path), "%s/%s/figures.csv", rp->dir, name);
	if (check) {
		if (ss_report_figures_load(path, &want, err))
			goto out;
		r = REPRICE_NOT_PRICEABLE;
		if (want.n != got.n) {
			ss_errorf(err, "%s: %zu figures replayed, %zu priced", path, want.n, got.n);
			goto out;
		}
		for (size_t i = 0; i < got.n; i++)
			if (strcmp(got.v[i].name, want.v[i].name) ||
			    !same_figure(got.v[i].value, want.v[i].value)) {
				ss_errorf(err, "%s: %s is %.6f replayed, %.6f priced", path,
					  want.v[i].name, want.v[i].value, got.v[i].value);
				goto out;
			}
		r = REPRICE_DONE;
		goto out;
	}
	if (ss_atomic_open(&f, path, err))
		goto out;
	if (ss_report_write_figures_csv(f.fp, &got)) {
		ss_atomic_abort(&f);
		ss_errorf(err, "%s: write failed", path);
		goto out;
	}
	if (!ss_atomic_commit(&f, err))
		r = REPRICE_DONE;
out:
	ss_report_figures_free(&got);
	ss_report_figures_free(&want);
	return r;
}

/* Each setting of the list, checks first. */
static enum ss_report_reprice_result each_setting(const struct ss_report_reprice *rp, const char *list,
					       bool check, const struct ss_report_report_in *in,
					       struct ss_report_results *res, const struct ss_report_summary *base_s,
					       const struct ss_reprice *prices,
					       const struct ss_costs *from,
					       report_figures_fn *figures, struct ss_error *err)
{
	char buf[8192], *tok[512], path[4200];
	enum ss_report_reprice_result r = REPRICE_DONE;
	struct ss_costs to;
	int n;

	if (!list)
		return REPRICE_DONE;
	if (strlen(list) >= sizeof(buf) || (n = ss_split(strcpy(buf, list), tok, 512)) < 0) {
		ss_errorf(err, "--reprice: more than 512 settings");
		return REPRICE_FAILED;
	}
	for (int i = 0; i < n && r == REPRICE_DONE; i++) {
		snprintf(path, sizeof(path), "%s/%s/costs", rp->dir, tok[i]);
		if (ss_costs_load(&to, path, err))
			return REPRICE_FAILED;
		price_runs(res, base_s, prices, from, &to);
		r = one_setting(rp, tok[i], check, in, figures, err);
	}
	return r;
}

enum ss_report_reprice_result ss_report_reprice(const struct ss_report_reprice *rp,
					  const struct ss_report_report_in *in, struct ss_report_results *res,
					  report_figures_fn *figures, struct ss_error *err)
{
	struct ss_reprice *prices = calloc(res->nruns + 1, sizeof(*prices));
	struct ss_report_summary *base_s = calloc(res->nruns + 1, sizeof(*base_s));
	enum ss_report_reprice_result r = REPRICE_FAILED;
	struct ss_costs from;
	char path[4200];
	bool ok;

	if (!prices || !base_s) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < res->nruns; k++)
		base_s[k] = res->runs[k].s;
	snprintf(path, sizeof(path), "%s/costs", in->dir);
	if (ss_costs_load(&from, path, err) || load_runs(in->dir, res, &from, prices, &ok, err))
		goto out;
	if (!ok) {
		r = REPRICE_NOT_PRICEABLE;
		goto out;
	}
	r = each_setting(rp, rp->checks, true, in, res, base_s, prices, &from, figures, err);
	if (r == REPRICE_DONE)
		r = each_setting(rp, rp->settings, false, in, res, base_s, prices, &from, figures, err);
	for (size_t k = 0; k < res->nruns; k++)
		res->runs[k].s = base_s[k];
out:
	free(prices);
	free(base_s);
	return r;
}
