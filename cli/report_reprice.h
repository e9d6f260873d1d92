/* report_reprice.h - `slabsim report --reprice`: the headline figures of
 * make sensitivity's cost settings, priced from one setting's runs (the
 * base) instead of replayed (sim/reprice.h): each run's simulated time
 * taken from its counted steps under the setting's cost table, then the
 * figures computed as the report computes them.  Settings with full
 * replays of their own (--reprice-check: every cost at its low end, then
 * at its high end) are priced too and must give the figures their
 * replays gave, or nothing is priced. */
#ifndef SS_REPORT_REPRICE_H
#define SS_REPORT_REPRICE_H

#include "error.h"
#include "report_figures.h"
#include "report_md.h"
#include "report_runs.h"

struct ss_report_reprice {
	const char *dir;      /* the settings' directory: DIR/SETTING/costs */
	const char *settings; /* "S1 S2 ...": write DIR/S/figures.csv */
	const char *checks;   /* "C1 C2 ...": compare with DIR/C/figures.csv */
};

/* The report's figures for in (in->res the base's runs, which this
 * changes and puts back). */
typedef int report_figures_fn(const struct ss_report_report_in *in, struct ss_report_figures *f,
			      struct ss_error *err);

enum ss_report_reprice_result {
	REPRICE_DONE,
	REPRICE_FAILED,	      /* err: a file could not be read or written */
	REPRICE_NOT_PRICEABLE, /* err: which run or figure rules it out */
};

enum ss_report_reprice_result ss_report_reprice(const struct ss_report_reprice *rp,
					  const struct ss_report_report_in *in, struct ss_report_results *res,
					  report_figures_fn *figures, struct ss_error *err);

#endif
