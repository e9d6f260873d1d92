/* models_opt.h - --models of report, compare and sweep: a list of model
 * names (names_opt.h) in the registry's spelling (ss_model_canon), as
 * every run directory is named. */
#ifndef SS_MODELS_OPT_H
#define SS_MODELS_OPT_H

#include "opts.h"
#include "report_runs.h"

/* ss_names_opt_parse(), then each name respelled; -1 after a usage error. */
int ss_models_opt_parse(const struct ss_opt_set *set, int id, const char *arg,
		     struct ss_report_names *l);

#endif
