/* names_opt.h - a command-line list of variant or model names,
 * "a b c" -> struct rp_names, for `slabsim compare` and `slabsim sweep`. */
#ifndef SS_NAMES_OPT_H
#define SS_NAMES_OPT_H

#include "report_runs.h"

/* Split arg on whitespace; every name must pass rp_name_ok() and appear
 * once, and the list must not have been given before.  On error prints
 * "slabsim CMD: OPT: ..." to stderr and returns -1. */
int names_opt_parse(const char *cmd, const char *opt, const char *arg,
		    struct rp_names *l);

#endif
