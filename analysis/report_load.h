/* report_load.h - how `slabsim report` arranges what it reads: the runs
 * in the report's order (--variants, else the seed table's rows;
 * --models), the compare model's default, and each run's caches and sites
 * for the waste ranking.  The command reads the files in turn and calls
 * these. */
#ifndef SS_REPORT_LOAD_H
#define SS_REPORT_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "compare_runs.h"
#include "error.h"
#include "report_runs.h"
#include "report_seed.h"
#include "waste_md.h"

/* Variant order: variants (only those) when given, else the seed table's
 * rows (seed NULL: none); models: `models` (only those) when given and not
 * all_models (an --alt-runs directory holds the compare model's runs
 * whatever --models lists).  Notes on runs left out, and on no run of
 * compare_model (NULL: not yet known) with a seed table, go to stderr.
 * 0, or -1 with err. */
int ss_report_report_arrange(struct ss_report_results *res, const struct ss_report_seed *seed,
		      const struct ss_report_names *variants, const struct ss_report_names *models,
		      bool all_models, const char *compare_model, struct ss_error *err);

/* --compare-model's default: the first model in the report's order
 * (--models', else traced first: rp_arrange), the baseline of every
 * table, and why in why; "traced" when there is none (the error then
 * names it). */
const char *ss_report_default_compare_model(const struct ss_report_results *res, char *why, size_t n);

/* Each run's caches.csv and sites.csv, for the waste ranking. */
struct ss_report_run_waste {
	struct ss_wastemd_run *w;
	struct ss_compare_caches *cc;
	struct ss_compare_sites *ss;
	size_t n;
};

/* A run without caches.csv or sites.csv (written before they existed) is
 * left out of the ranking, not refused. */
int ss_report_waste_load(const char *dir, const struct ss_report_results *res, struct ss_report_run_waste *rw,
		  struct ss_error *err);
void ss_report_waste_free(struct ss_report_run_waste *rw);

#endif
