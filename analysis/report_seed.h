/* report_seed.h - a workload's seed table and the seed-vs-model checks.
 *
 * A seed table (workloads/<workload>.seed.csv) holds the measurements of
 * the document a workload was built from, one row per variant:
 *   variant,what_changed,diff_avg_kib,diff_min_kib,diff_max_kib,time_avg_s
 * and, in comment lines, two directives:
 *   # noise_kib: N [TEXT]     noise of one seed mean (KiB) and what it is
 *                             (TEXT, e.g. "one 5-run mean (smack.md)"),
 *                             cited in the explanations
 *   # saving: FROM TO [EST]   a saving the seed claims (FROM minus TO), with
 *                             the author's own estimate in KiB if any
 *   # time_noise_ms: N [TEXT] noise of a difference of two seed time means
 * Other comment lines are free text (the citation of the source).
 */
#ifndef SS_REPORT_SEED_H
#define SS_REPORT_SEED_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "report_runs.h"

struct ss_report_seed_row {
	char variant[SS_REPORT_NAME_MAX];
	char what[256];
	double avg, min, max; /* KiB */
	double time_s;
};

struct ss_report_saving {
	char from[SS_REPORT_NAME_MAX], to[SS_REPORT_NAME_MAX];
	double estimate;    /* KiB; < 0 = none */
	unsigned long line; /* of the directive, for messages */
};

struct ss_report_seed {
	struct ss_report_seed_row *rows;
	unsigned nrows;
	struct ss_report_saving *savings;
	unsigned nsavings;
	double noise_kib;     /* < 0 = not stated */
	char noise_what[128]; /* what the noise is of, e.g. "one 5-run mean" */
	double time_noise_ms; /* < 0 = not stated */
	char time_noise_what[128];
};

int ss_report_seed_load(const char *path, struct ss_report_seed *seed, struct ss_error *err);
void ss_report_seed_free(struct ss_report_seed *seed);
const struct ss_report_seed_row *ss_report_seed_find(const struct ss_report_seed *seed,
				       const char *variant);

/* One seed figure against the model's: a footprint (avg with its min-max
 * range over the seed's runs) or a saving (FROM avg - TO avg, range from
 * the extreme runs).  A comparison, not a verdict: a seed's figure is a
 * check on the model, never a target it has to reach, so no tolerance
 * turns the difference into pass or fail. */
struct ss_report_check {
	double seed, lo, hi; /* seed value and its run-to-run range */
	double model;
	double diff;	     /* model - seed */
	double pct;	     /* diff * 100 / |seed| */
};

void ss_report_check_footprint(const struct ss_report_seed_row *s, double model_kib,
			struct ss_report_check *c);
void ss_report_check_saving(const struct ss_report_seed_row *from,
		     const struct ss_report_seed_row *to, double model_from_kib,
		     double model_to_kib, struct ss_report_check *c);

/* Sentences explaining a check from its numbers.  The seed's noise is
 * left out when not stated; a saving's noise is that of a difference of two
 * independent means (sqrt(2) x noise_kib); estimate < 0 = no author's
 * estimate. */
void ss_report_explain_footprint(const struct ss_report_check *c, const struct ss_report_seed *seed,
			  char *buf, size_t n);
void ss_report_explain_saving(const struct ss_report_check *c, const struct ss_report_seed *seed,
		       double estimate, char *buf, size_t n);

#endif
