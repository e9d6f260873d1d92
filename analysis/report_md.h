/* report_md.h - report.md: a markdown report readable in a terminal.
 *
 * Sections: 1 what was run, 2 seed vs simulator (with a seed table),
 * 3 fitted and inferred parameters, 4 where the bytes go, 5 latency,
 * 6 strategies compared, then the workload's own sections and the
 * headline figures with their intervals (report_figures.h).  Tables are padded so their columns line up in plain text.
 * Every explanation sentence is generated from the numbers it explains.
 */
#ifndef SS_REPORT_MD_H
#define SS_REPORT_MD_H

#include <stdio.h>

#include "report_runs.h"
#include "report_seed.h"

/* A fitted constant passed by make: NAME=VALUE. */
struct rp_calib {
	char name[64];
	char value[128];
};

/* A target parameter whose value was inferred, not known. */
struct rp_inferred {
	char target[64];
	char key[32];
	char value[32];
	char evidence[512];
};

struct rp_figures;
struct rp_sensitivity;

struct rp_report_in {
	const char *workload;
	const char *command;	  /* the make command that produced the runs */
	const char *dir;	  /* the report directory, for the header */
	const struct rp_results *res;
	const struct rp_seed *seed; /* NULL: no seed table */
	const char *seed_path;
	const char *compare_model; /* model checked against the seed */
	const struct rp_calib *calib;
	unsigned ncalib;
	const char *baseline;	  /* variant overhead_pct is measured against */
	/* The same seed table under other targets: runs of each directory
	 * (DIR/runs/...), compared like in->res (report_seed_md.h). */
	const struct rp_results *alt;
	const char *const *alt_dirs;
	unsigned nalt;
	/* Target parameters declared inferred (target files' inferred.KEY),
	 * listed in §3 beside the fitted constants. */
	const struct rp_inferred *inferred;
	unsigned ninferred;
	/* The headline figures (report_figures.h) and, when make passed
	 * sensitivity.csv, their intervals (else NULL). */
	const struct rp_figures *figs;
	const struct rp_sensitivity *sens;
};

/* 0, or -1 when out of memory or on a write error. */
int rp_write_report(FILE *fp, const struct rp_report_in *in);

#endif
