/* report_build.h - `slabsim report` from a request to its files: read and
 * arrange everything a report needs (the runs, the seed table, the other
 * targets' runs, sensitivity.csv, each run's settings, a capture's target
 * pick and its comparison with the live kernel), then write every output
 * at once, all or nothing (docs/outputs.md).  cli/cmd_report.c parses the
 * options into a request and calls these. */
#ifndef SS_REPORT_BUILD_H
#define SS_REPORT_BUILD_H

#include <stdbool.h>

#include "error.h"
#include "report_extras.h"
#include "report_figures.h"
#include "report_md.h"
#include "report_runs.h"

#define SS_REPORT_MAX_CALIB 64
#define SS_REPORT_MAX_ALT 4

/* Append to *out (*n entries) the parameters the runs' targets declare
 * inferred: their target files are read above this layer.  0 or -1. */
typedef int ss_report_inferred_fn(const struct ss_report_results *res, struct ss_report_inferred **out,
				  unsigned *n, struct ss_error *err);

/* What the report is asked for (slabsim report's options). */
struct ss_report_request {
	const char *workload, *dir, *seed_path, *command;
	const char *compare_model; /* NULL: the default, which ss_report_load sets */
	const char *baseline;	   /* --baseline: overhead_pct against this variant */
	const char *sens_path;	   /* --sensitivity */
	const char *alt[SS_REPORT_MAX_ALT]; /* --alt-runs */
	unsigned nalt;
	const char *kernel_before, *kernel_after; /* slab snapshots of a capture */
	const char *ss_capture_meta;		  /* its meta file */
	const char *kernel_fill_after;		  /* its slab-fill-after.txt */
	const char *capture_target;		  /* slabsim pick-target's output */
	const char *era_base;			  /* --era-base: the runs under 6.18's rules */
	struct ss_report_names variants, models; /* empty = not given */
	struct ss_report_calib calib[SS_REPORT_MAX_CALIB];
	unsigned ncalib;
	bool plot_data_only; /* write only the plot data */
	bool figures_only;   /* read to price figures (--reprice): no waste ranking */
	bool window;	     /* the runs replay a capture: plot what its window changed */
	const struct ss_report_extra *extra;	 /* the workload's own sections and files, or NULL */
	ss_report_inferred_fn *inferred; /* NULL: none listed */
};

/* Everything read, arranged for the writers. */
struct ss_report;

/* Read what rq names (rq->compare_model gets its default).  NULL with err
 * set: a bad input file (file:line), or out of memory. */
struct ss_report *ss_report_load(struct ss_report_request *rq, struct ss_error *err);
/* What the writers read; its runs, which --reprice prices in turn. */
const struct ss_report_report_in *ss_report_input(const struct ss_report *r);
struct ss_report_results *ss_report_runs(struct ss_report *r);
/* The headline figures of in: the seed's, then the workload's own. */
int ss_report_collect_figures(const struct ss_report_report_in *in, struct ss_report_figures *f,
		      struct ss_error *err);
/* Every output of the request, written to temporary files and renamed
 * together; a capture's report (window) removes an older waste plot.  0,
 * or -1 with err set. */
int ss_report_write(struct ss_report *r, struct ss_error *err);
/* A failed report removes the outputs it would have written, so an older
 * report.md or summary.csv cannot pass for this one. */
void ss_report_remove_outputs(const struct ss_report_request *rq);
void ss_report_free(struct ss_report *r);

#endif
