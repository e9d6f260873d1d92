/* names_opt.h - a command-line list of variant or model names,
 * "a b c" -> struct rp_names, for `slabsim report`, `compare` and `sweep`. */
#ifndef SS_NAMES_OPT_H
#define SS_NAMES_OPT_H

#include "opts.h"
#include "report_runs.h"

/* Split arg, the value of option id of set, on whitespace; every name
 * must pass ss_report_name_ok() and appear once, and the list must not have been
 * given before.  On error reports "slabsim CMD: --OPT: ..." as a usage
 * error and returns -1. */
int ss_names_opt_parse(const struct ss_opt_set *set, int id, const char *arg,
		    struct ss_report_names *l);

#endif
