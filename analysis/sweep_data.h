/* sweep_data.h - `slabsim sweep`: one workload run at several values of a
 * parameter, gathered from each value's summary.csv (written by
 * `slabsim report` in DIR/VALUE/) into sweep.csv, sweep.md and one plot
 * data file per figure (docs/outputs.md, "Sweeping a parameter").
 */
#ifndef SS_SWEEP_DATA_H
#define SS_SWEEP_DATA_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "report_runs.h"

/* One summary row of one value. */
struct ss_sweep_row {
	unsigned vi, mi;	/* indexes into sweep variants / models */
	char **f;		/* fields, in header order */
};

struct ss_sweep_point {
	const char *value;	/* as given on the command line */
	double x;		/* its number, or its index when not numeric */
	struct ss_sweep_row *rows;
	size_t n;
};

struct ss_sweep {
	const char *workload, *param, *dir, *command;
	struct ss_report_names variants, models; /* output order */
	bool only_variants, only_models;  /* given: drop the others */
	char **header;			  /* summary.csv columns */
	unsigned ncols;
	struct ss_sweep_point *pt;
	unsigned npt;
	bool numeric;			  /* every value is a number */
};

/* Read DIR/VALUE/summary.csv for each value.  sw->variants / models may be
 * preset (with only_* set) to fix the order and drop other rows;
 * otherwise they are filled in the order first seen.  Every file must have
 * the same header, name the workload, and have no (variant, model) twice. */
int ss_sweep_load(struct ss_sweep *sw, char **values, unsigned nvalues,
	    struct ss_error *err);
void ss_sweep_free(struct ss_sweep *sw);

/* Column index of a numeric summary column usable as a figure, or -1
 * (with err set) when missing or not a number in some row. */
int ss_sweep_figure_col(const struct ss_sweep *sw, const char *figure,
		  struct ss_error *err);
/* "slab footprint (KiB)", "simulated time (ms)", else "NAME (unit)". */
void ss_sweep_figure_label(const char *figure, char *buf, size_t n);

int ss_sweep_write_csv(FILE *fp, const struct ss_sweep *sw);
int ss_sweep_write_dat(FILE *fp, const struct ss_sweep *sw, const char *figure, int col);
int ss_sweep_write_md(FILE *fp, const struct ss_sweep *sw, char **figures,
		const int *cols, unsigned nfig);

/* title.gp: the plots' title head (report_md.h, rp_plot_title) over
 * every value's runs. */
int ss_sweep_write_title(FILE *fp, const struct ss_sweep *sw);

/* The row of (variant vi, model mi) at point p, or NULL. */
const struct ss_sweep_row *ss_sweep_find(const struct ss_sweep *sw, unsigned p, unsigned vi,
			     unsigned mi);

#endif
