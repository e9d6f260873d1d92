/* run_diff.h - `slabsim diff RUN_A RUN_B`: two runs' caches side by side
 * (caches.csv, summary.csv of each run directory): per cache the change
 * in objects, slabs, footprint and waste (bytes no caller asked for), and
 * the totals, largest change first.  A cache in one run only counts as 0
 * in the other (a model that merged it away, a variant that never made
 * it). */
#ifndef SS_RUN_DIFF_H
#define SS_RUN_DIFF_H

#include <stdio.h>

#include "error.h"

/* Read both runs (file:line on bad input) and print the comparison.
 * 0, or -1 with err. */
int ss_rundiff_diff(FILE *fp, const char *run_a, const char *run_b, struct ss_error *err);

#endif
