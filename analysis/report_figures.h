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

#define SS_REPORT_FIGURE_NAME_MAX 64

struct ss_report_figure {
	char name[SS_REPORT_FIGURE_NAME_MAX]; /* [A-Za-z0-9._+/:-]+, e.g. "ratio:P-4.5/P-4.6" */
	char unit[16];
	double value;
	char what[192];		       /* a line of prose: what it is */
};

struct ss_report_figures {
	struct ss_report_figure *v;
	size_t n, cap;
};

/* Append a figure; 0, or -1 (out of memory, or a bad name). */
int ss_report_figures_add(struct ss_report_figures *f, const char *name, const char *unit,
		   double value, const char *what);
const struct ss_report_figure *ss_report_figures_find(const struct ss_report_figures *f,
					const char *name);
void ss_report_figures_free(struct ss_report_figures *f);
int ss_report_write_figures_csv(FILE *fp, const struct ss_report_figures *f);
int ss_report_figures_load(const char *path, struct ss_report_figures *f,
		    struct ss_error *err);

/* One row of sensitivity.csv. */
struct ss_report_sens_row {
	char figure[SS_REPORT_FIGURE_NAME_MAX];
	char step[48];
	double low, high;     /* the step's range; NAN for the corners */
	double at_low, at_high, base;
};

struct ss_report_sensitivity {
	struct ss_report_sens_row *rows;
	size_t n, cap;
};

int ss_report_sens_add(struct ss_report_sensitivity *s, const struct ss_report_sens_row *r);
int ss_report_sensitivity_load(const char *path, struct ss_report_sensitivity *s,
			struct ss_error *err);
int ss_report_write_sensitivity_csv(FILE *fp, const struct ss_report_sensitivity *s);
void ss_report_sensitivity_free(struct ss_report_sensitivity *s);

/* A figure's interval: the lowest and highest value over every setting
 * (each step at either end, and the corners), the base value, and its
 * steps ordered by swing |at_high - at_low|, largest first (at most k,
 * corners left out).  0, or -1 when sensitivity.csv has no row for it. */
struct ss_report_interval {
	double lo, hi, base;
	const struct ss_report_sens_row *top[16];
	unsigned ntop;
};
int ss_report_sens_interval(const struct ss_report_sensitivity *s, const char *figure,
		     unsigned k, struct ss_report_interval *iv);

/* "[lo, hi]" and "step (a–b), ..." for a figure, for prose. */
void ss_report_interval_str(const struct ss_report_interval *iv, char *buf, size_t n);
void ss_report_top_steps_str(const struct ss_report_interval *iv, unsigned k, char *buf,
		      size_t n);

#endif
