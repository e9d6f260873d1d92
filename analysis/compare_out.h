/* compare_out.h - the outputs of `slabsim compare` (docs/outputs.md,
 * "Comparing models"): compare.md, timeline.dat, phases.dat and
 * top_caches.csv (waste.dat and latency.dat come from report_plot.h).
 */
#ifndef SS_COMPARE_OUT_H
#define SS_COMPARE_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare_runs.h"
#include "report_runs.h"
#include "run_settings.h"

/* What was read of one (variant, model) slot beyond its summary. */
struct cmp_slot {
	bool have;		/* the run exists */
	struct cmp_timeline tl;
	struct cmp_caches cc;
	struct cmp_sites ss;
};

struct cmp_in {
	const char *workload, *command, *dir;
	const struct rp_results *res;	/* arranged: variant-major */
	struct cmp_slot *slot;		/* [vi * models + mi] */
	unsigned top;			/* caches per run in the loss table */
	/* each run's kernel.txt (res->runs order; run_settings.h), NULL:
	 * none read */
	const struct rp_settings *settings;
};

/* Read every slot's timeline.csv (each row also goes to `tl_out` as
 * timeline.dat) and caches.csv.  Missing runs get a placeholder block. */
int cmp_load_slots(struct cmp_in *in, FILE *tl_out, struct ss_error *err);
void cmp_free_slots(struct cmp_in *in);

int cmp_write_phases_dat(FILE *fp, const struct cmp_in *in);
/* Some run started from an initial state: timeline.dat holds the change
 * since the start (timeline_dat.h), and title.gp says so. */
bool cmp_timeline_change(const struct cmp_in *in);
int cmp_write_top_caches(FILE *fp, const struct cmp_in *in,
			 struct ss_error *err);
int cmp_write_md(FILE *fp, const struct cmp_in *in);
/* compare.md §1's list of the kernels the labels ran, when they differ
 * (compare_kernels.c). */
void cmp_write_kernels(FILE *fp, const struct cmp_in *in);

#endif
