/* report_targets.h - what `slabsim report` needs from the target files of
 * the runs it reports: the parameters they declare inferred
 * (`inferred.KEY = evidence`, docs/targets.md), for section 3. */
#ifndef SS_REPORT_TARGETS_H
#define SS_REPORT_TARGETS_H

#include "error.h"
#include "report_md.h"
#include "report_runs.h"

/* Append to *out (realloc'd; *n entries) the inferred parameters of every
 * distinct target the runs name, skipping targets already listed.  A
 * target whose file cannot be found (a run made with a target path) adds
 * a row saying so.  0, or -1 (out of memory). */
int ss_report_find_inferred(const struct ss_report_results *res, struct ss_report_inferred **out,
		    unsigned *n, struct ss_error *err);

#endif
