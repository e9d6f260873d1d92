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
struct sw_row {
	unsigned vi, mi;	/* indexes into sweep variants / models */
	char **f;		/* fields, in header order */
};

struct sw_point {
	const char *value;	/* as given on the command line */
	double x;		/* its number, or its index when not numeric */
	struct sw_row *rows;
	size_t n;
};

struct sweep {
	const char *workload, *param, *dir, *command;
	struct rp_names variants, models; /* output order */
	bool only_variants, only_models;  /* given: drop the others */
	char **header;			  /* summary.csv columns */
	unsigned ncols;
	struct sw_point *pt;
	unsigned npt;
	bool numeric;			  /* every value is a number */
};

/* Read DIR/VALUE/summary.csv for each value.  sw->variants / models may be
 * preset (with only_* set) to fix the order and drop other rows;
 * otherwise they are filled in the order first seen.  Every file must have
 * the same header, name the workload, and have no (variant, model) twice. */
int sw_load(struct sweep *sw, char **values, unsigned nvalues,
	    struct ss_error *err);
void sw_free(struct sweep *sw);

/* Column index of a numeric summary column usable as a figure, or -1
 * (with err set) when missing or not a number in some row. */
int sw_figure_col(const struct sweep *sw, const char *figure,
		  struct ss_error *err);
/* "slab footprint (KiB)", "simulated time (ms)", else "NAME (unit)". */
void sw_figure_label(const char *figure, char *buf, size_t n);

int sw_write_csv(FILE *fp, const struct sweep *sw);
int sw_write_dat(FILE *fp, const struct sweep *sw, const char *figure, int col);
int sw_write_md(FILE *fp, const struct sweep *sw, char **figures,
		const int *cols, unsigned nfig);

/* title.gp: the plots' title head (report_md.h, rp_plot_title) over
 * every value's runs. */
int sw_write_title(FILE *fp, const struct sweep *sw);

/* The row of (variant vi, model mi) at point p, or NULL. */
const struct sw_row *sw_find(const struct sweep *sw, unsigned p, unsigned vi,
			     unsigned mi);

#endif
