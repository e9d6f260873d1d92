/* report_load.c - how `slabsim report` arranges what it reads
 * (report_load.h). */
#include "report_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int ss_report_report_arrange(struct ss_report_results *res, const struct ss_report_seed *seed,
		      const struct ss_report_names *variants, const struct ss_report_names *models,
		      bool all_models, const char *compare_model, struct ss_error *err)
{
	struct ss_report_names seed_order = {0};
	int r;

	for (unsigned i = 0; seed && i < seed->nrows; i++)
		if (ss_report_names_add(&seed_order, seed->rows[i].variant)) {
			ss_report_names_free(&seed_order);
			return ss_errorf(err, "out of memory");
		}
	r = ss_report_arrange(res, variants->n ? variants : &seed_order,
		       variants->n > 0, models->n && !all_models ? models : NULL,
		       models->n > 0 && !all_models, err);
	ss_report_names_free(&seed_order);
	if (r)
		return -1;
	if (res->dropped)
		fprintf(stderr, "slabsim report: note: left out %zu runs not in --variants/--models\n",
			res->dropped);
	if (seed && compare_model && ss_report_names_find(&res->models, compare_model) < 0)
		fprintf(stderr, "slabsim report: note: no runs of model '%s' to compare with the seed\n",
			compare_model);
	return 0;
}

const char *ss_report_default_compare_model(const struct ss_report_results *res, char *why, size_t n)
{
	if (!res->models.n)
		return "traced";
	snprintf(why, n, "%s, the first model", res->models.v[0]);
	return res->models.v[0];
}

int ss_report_waste_load(const char *dir, const struct ss_report_results *res, struct ss_report_run_waste *rw,
		  struct ss_error *err)
{
	char path[4400];

	rw->n = res->nruns;
	rw->w = calloc(rw->n + 1, sizeof(*rw->w));
	rw->cc = calloc(rw->n + 1, sizeof(*rw->cc));
	rw->ss = calloc(rw->n + 1, sizeof(*rw->ss));
	if (!rw->w || !rw->cc || !rw->ss)
		return ss_errorf(err, "out of memory");
	for (size_t k = 0; k < rw->n; k++) {
		const struct ss_report_run *run = &res->runs[k];

		rw->w[k] = (struct ss_wastemd_run){.variant = run->variant, .model = run->model};
		/* runs written before sites.csv (or a caches.csv with the waste
		 * columns) existed are left out of the ranking, not refused */
		snprintf(path, sizeof(path), "%s/runs/%s__%s/caches.csv", dir,
			 run->variant, run->model);
		if (!access(path, F_OK)) {
			if (ss_compare_read_caches(path, &rw->cc[k], err))
				return -1;
			rw->w[k].cc = &rw->cc[k];
		}
		snprintf(path, sizeof(path), "%s/runs/%s__%s/sites.csv", dir,
			 run->variant, run->model);
		if (!access(path, F_OK)) {
			if (ss_compare_read_sites(path, &rw->ss[k], err))
				return -1;
			rw->w[k].ss = &rw->ss[k];
		}
	}
	return 0;
}

void ss_report_waste_free(struct ss_report_run_waste *rw)
{
	for (size_t k = 0; k < rw->n; k++) {
		if (rw->cc)
			ss_compare_caches_free(&rw->cc[k]);
		if (rw->ss)
			ss_compare_sites_free(&rw->ss[k]);
	}
	free(rw->w);
	free(rw->cc);
	free(rw->ss);
}
