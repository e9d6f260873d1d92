/* report_md.h - report.md: a markdown report readable in a terminal.
 *
 * Sections: 1 what was run, 2 seed vs simulator (with a seed table),
 * 3 fitted constants, 4 where the bytes go, 5 latency, 6 strategies
 * compared.  Tables are padded so their columns line up in plain text.
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
};

/* 0, or -1 when out of memory or on a write error. */
int rp_write_report(FILE *fp, const struct rp_report_in *in);

#endif
