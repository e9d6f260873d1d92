/* report_figures.h - a report's headline figures and their intervals.
 *
 * Headline figures are the time figures a report's conclusions rest on
 * (the seed-compared load times, hackbench's P-4.5 / P-4.6, audit's
 * overheads): `slabsim report` writes them to DIR/figures.csv
 *   figure,unit,value,what
 * and `make sensitivity` replays the workload with every estimated cost
 * (and the clock, and a workload's own estimated parameters) at its low
 * and at its high end, one at a time, then all at once, and gathers each
 * setting's figures.csv into DIR/sensitivity.csv
 *   figure,step,low,high,figure_at_low,figure_at_high,figure_base
 * (step "all": the two corners, low and high empty).  The report reads
 * sensitivity.csv when make passes it and gives every headline figure
 * with its interval and the three steps it depends on most.  Memory
 * figures never depend on costs and get no interval.
 */
#ifndef SS_REPORT_FIGURES_H
#define SS_REPORT_FIGURES_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

#define RP_FIGURE_NAME_MAX 64

struct rp_figure {
	char name[RP_FIGURE_NAME_MAX]; /* [A-Za-z0-9._+/:-]+, e.g. "ratio:P-4.5/P-4.6" */
	char unit[16];
	double value;
	char what[192];		       /* a line of prose: what it is */
};

struct rp_figures {
	struct rp_figure *v;
	size_t n, cap;
};

/* Append a figure; 0, or -1 (out of memory, or a bad name). */
int rp_figures_add(struct rp_figures *f, const char *name, const char *unit,
		   double value, const char *what);
const struct rp_figure *rp_figures_find(const struct rp_figures *f,
					const char *name);
void rp_figures_free(struct rp_figures *f);
int rp_write_figures_csv(FILE *fp, const struct rp_figures *f);
int rp_figures_load(const char *path, struct rp_figures *f,
		    struct ss_error *err);

/* One row of sensitivity.csv. */
struct rp_sens_row {
	char figure[RP_FIGURE_NAME_MAX];
	char step[48];
	double low, high;     /* the step's range; NAN for the corners */
	double at_low, at_high, base;
};

struct rp_sensitivity {
	struct rp_sens_row *rows;
	size_t n, cap;
};

int rp_sens_add(struct rp_sensitivity *s, const struct rp_sens_row *r);
int rp_sensitivity_load(const char *path, struct rp_sensitivity *s,
			struct ss_error *err);
int rp_write_sensitivity_csv(FILE *fp, const struct rp_sensitivity *s);
void rp_sensitivity_free(struct rp_sensitivity *s);

/* A figure's interval: the lowest and highest value over every setting
 * (each step at either end, and the corners), the base value, and its
 * steps ordered by swing |at_high - at_low|, largest first (at most k,
 * corners left out).  0, or -1 when sensitivity.csv has no row for it. */
struct rp_interval {
	double lo, hi, base;
	const struct rp_sens_row *top[16];
	unsigned ntop;
};
int rp_sens_interval(const struct rp_sensitivity *s, const char *figure,
		     unsigned k, struct rp_interval *iv);

/* "[lo, hi]" and "step (a–b), ..." for a figure, for prose. */
void rp_interval_str(const struct rp_interval *iv, char *buf, size_t n);
void rp_top_steps_str(const struct rp_interval *iv, unsigned k, char *buf,
		      size_t n);

#endif
