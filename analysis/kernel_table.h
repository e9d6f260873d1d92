/* kernel_table.h - the live kernel and the simulator over several
 * captures: the held caches of each capture's report (its kernel.csv,
 * report_kernel.h) in one table, and the acceptance count over all of
 * them (docs/own-trace.md, "Checking your own captures").  What
 * `slabsim kernel-table` writes and `make check-captures` runs.
 *
 * With draws, each capture was also replayed with other draw seeds
 * (run --draw-seed S, reports REPORT.drawS): a held cache then has the
 * range of its errors over the draws and how many of them are within,
 * so that a miss the draw makes is told from one the model makes.
 *
 * A kernel.csv is read back strictly: its changes, `held` and `within`
 * must be what its before/after figures give under report_kernel.h's
 * rules, so a file edited by hand or written by another version of the
 * rules is refused (file:line) rather than counted.
 */
#ifndef SS_KERNEL_TABLE_H
#define SS_KERNEL_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "report_kernel.h"

/* A held cache over the draws (the default one included). */
struct ss_ktable_spread {
	unsigned within;	/* draws within the bounds */
	double obj_min, obj_max, slab_min, slab_max; /* errors, % (NaN: none) */
};

struct ss_ktable_capture {
	char name[256];	   /* the report directory's last component */
	char csv[4200];	   /* its kernel.csv */
	struct ss_report_kernel_row *rows;
	struct ss_ktable_spread *spread; /* per row */
	size_t n;
	size_t held, settled, within, within_unsettled;
	size_t within_all, within_none; /* over every draw (unsettled rows) */
};

struct ss_ktable_table {
	struct ss_ktable_capture *c;
	size_t n, cap;
	unsigned draws; /* other draw seeds per capture: 1 .. draws */
};

/* Add report directory dir (its kernel.csv) to t, and, with t->draws,
 * dir.draw1 .. dir.drawN (the same capture, other draw seeds: the same
 * caches and kernel figures).  Errors name the file and line. */
int ss_ktable_add_report(struct ss_ktable_table *t, const char *dir, struct ss_error *err);
void ss_ktable_free(struct ss_ktable_table *t);

/* The totals over every capture of t. */
struct ss_ktable_totals {
	size_t held, settled, within, within_unsettled;
	size_t within_all, within_none; /* with draws: within under every draw, none */
};
struct ss_ktable_totals ss_ktable_totals(const struct ss_ktable_table *t);

/* kernel-table.md: the rule, the count, a line per capture, the misses,
 * every held cache; command is the one shown (NULL: none).  0, or -1
 * when out of memory or on a write error. */
int ss_ktable_write_md(FILE *fp, const struct ss_ktable_table *t, const char *command);
/* kernel-table.csv: one row per held cache of every capture. */
int ss_ktable_write_csv(FILE *fp, const struct ss_ktable_table *t);

#endif
