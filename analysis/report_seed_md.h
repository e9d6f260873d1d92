/* report_seed_md.h - section 2 of report.md: the seed's table beside the
 * model's figures (footprints, savings, load times), for the runs of the
 * report's own target and again for each alternative target's runs
 * (rp_report_in.alt: e.g. smack17k under arm32-3.10-v7).  Differences are
 * stated, never judged pass or fail: a seed figure is a check, not a
 * target. */
#ifndef SS_REPORT_SEED_MD_H
#define SS_REPORT_SEED_MD_H

#include <stdio.h>

#include "report_figures.h"
#include "report_md.h"

/* 0, or -1 when out of memory or on a write error. */
int ss_report_write_seed_section(FILE *fp, const struct ss_report_report_in *in);

/* The seed-compared headline figures: each seed row's simulated load
 * time (model compare_model), "sim_ms:VARIANT", and its change from the
 * row above, "delta_ms:VARIANT".  0 or -1. */
int ss_report_seed_figures(const struct ss_report_report_in *in, struct ss_report_figures *out);

#endif
