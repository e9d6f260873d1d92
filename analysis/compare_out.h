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
struct ss_compare_slot {
	bool have;		/* the run exists */
	struct ss_compare_timeline tl;
	struct ss_compare_caches cc;
	struct ss_compare_sites ss;
};

struct ss_compare_in {
	const char *workload, *command, *dir;
	const char *title;	/* compare.md's and the plots' (the workload's or a capture's name) */
	const struct ss_report_results *res;	/* arranged: variant-major */
	struct ss_compare_slot *slot;		/* [vi * models + mi] */
	unsigned top;			/* caches per run in the loss table */
	/* each run's kernel.txt (res->runs order; run_settings.h), NULL:
	 * none read */
	const struct ss_report_settings *settings;
};

/* Read every slot's timeline.csv (each row also goes to `tl_out` as
 * timeline.dat) and caches.csv.  Missing runs get a placeholder block. */
int ss_compare_load_slots(struct ss_compare_in *in, FILE *tl_out, struct ss_error *err);
void ss_compare_free_slots(struct ss_compare_in *in);

int ss_compare_write_phases_dat(FILE *fp, const struct ss_compare_in *in);
/* Some run started from an initial state: timeline.dat holds the change
 * since the start (timeline_dat.h), and title.gp says so. */
bool ss_compare_timeline_change(const struct ss_compare_in *in);
int ss_compare_write_top_caches(FILE *fp, const struct ss_compare_in *in,
			 struct ss_error *err);
int ss_compare_write_md(FILE *fp, const struct ss_compare_in *in);
/* compare.md §1's list of the kernels the labels ran, when they differ
 * (compare_kernels.c). */
void ss_compare_write_kernels(FILE *fp, const struct ss_compare_in *in);

#endif
