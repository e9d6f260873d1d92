/* report_md.h - report.md: a markdown report readable in a terminal.
 *
 * Sections, numbered as written: what was run, seed vs simulator (with a
 * seed table), fitted and inferred parameters, where the bytes go (end
 * and peak), where the waste is (caches and sites), latency, strategies
 * compared; then the workload's own.  The headline figures with their
 * intervals (report_figures.h) follow "What was run", unnumbered.  Tables
 * are padded so their columns line up in plain text.
 * Every explanation sentence is generated from the numbers it explains.
 */
#ifndef SS_REPORT_MD_H
#define SS_REPORT_MD_H

#include <stdbool.h>
#include <stdio.h>

#include "report_runs.h"
#include "run_settings.h"
#include "report_seed.h"
#include "waste_md.h"

/* A fitted constant passed by make: NAME=VALUE. */
struct ss_report_calib {
	char name[64];
	char value[128];
};

/* A target parameter whose value was inferred, not known. */
struct ss_report_inferred {
	char target[64];
	char key[32];
	char value[32];
	char evidence[512];
};

struct ss_report_figures;
struct ss_report_sensitivity;
struct ss_report_kernel;
struct ss_report_extra;

struct ss_report_report_in {
	const char *workload;
	const char *command;	  /* the make command that produced the runs */
	const char *dir;	  /* the report directory, for the header */
	const struct ss_report_results *res;
	const struct ss_report_seed *seed; /* NULL: no seed table */
	const char *seed_path;
	const char *compare_model; /* model checked against the seed */
	const struct ss_report_calib *calib;
	unsigned ncalib;
	const char *baseline;	  /* variant overhead_pct is measured against */
	const char *plots;	  /* the plots beside report.md, ", "-separated */
	/* the runs replay a capture whose plots draw the change (report
	 * --window): timeline.png, no waste.png */
	bool window;
	const struct ss_wastemd_run *waste; /* per run (res->runs order): caches, sites */
	unsigned *secno;	  /* sections written so far (rp_heading) */
	/* The same seed table under other targets: runs of each directory
	 * (DIR/runs/...), compared like in->res (report_seed_md.h). */
	const struct ss_report_results *alt;
	const char *const *alt_dirs;
	unsigned nalt;
	/* Target parameters declared inferred (target files' inferred.KEY),
	 * listed in §3 beside the fitted constants. */
	const struct ss_report_inferred *inferred;
	unsigned ninferred;
	/* The headline figures (report_figures.h) and, when make passed
	 * sensitivity.csv, their intervals (else NULL). */
	const struct ss_report_figures *figs;
	const struct ss_report_sensitivity *sens;
	/* Each run's kernel.txt (res->runs order; run_settings.h): the
	 * header's settings are these, read from the runs. */
	const struct ss_report_settings *settings;
	/* A capture's own target and why (slabsim pick-target, --capture-
	 * target), NULL when the runs are no capture's. */
	const char *pick_target, *pick_why;
	/* The report's title ("NAME: slab memory report"): a capture's
	 * name; NULL: the workload's. */
	const char *title;
	/* A capture's comparison with the live kernel (report_kernel.h),
	 * NULL when the runs have none: report.md leads with what the command
	 * changed (report_capture.h) and the comparison follows "What was
	 * run". */
	const struct ss_report_kernel *kernel;
	/* Why compare_model is the model it is ("" when given). */
	const char *compare_why;
	/* The workload's seed asks for time, not memory (struct rp_extra's
	 * time_first): this sentence, and the headline times lead. */
	const char *time_first;
	/* The workload's own sections, files and figures (report_extras.h),
	 * NULL: none. */
	const struct ss_report_extra *extra;
	/* The same runs under 6.18's rules (--era-base DIR: DIR/runs/...),
	 * for the runs of a 7.x target: report_era.h.  NULL: none. */
	const struct ss_report_results *era_base;
	const char *era_base_dir;
};

/* "## N. TITLE" with the next section number: sections are numbered as
 * written, whichever are left out (a report without seed table has no
 * seed section).  Workload sections use it too. */
void ss_report_heading(FILE *fp, const struct ss_report_report_in *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The "- Runs: ..." line of report.md and compare.md: "N (V variants × M
 * models)" when every pair ran, else N of the V × M pairs. */
void ss_report_runs_line(FILE *fp, const struct ss_report_results *res, const char *dir);

/* What every plot's title names: "W, TARGETS, N CPUs" (x86_64-4.5/4.6/6.1
 * for several; " (kernel ERA)" after them when a target's name does not
 * end in its era). */
void ss_report_plot_title(const struct ss_report_results *res, const char *workload,
		   char *buf, size_t n);
/* title.gp, which make loads into gnuplot before a plot script: one line
 * `workload = '...'` (the scripts head their title with it), escaped for
 * gnuplot's enhanced text. */
int ss_report_write_title_gp(FILE *fp, const char *title);

/* 0, or -1 when out of memory or on a write error. */
int ss_report_write_report(FILE *fp, const struct ss_report_report_in *in);

#endif
