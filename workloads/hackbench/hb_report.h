/* hb_report.h - what the hackbench workload adds to its report:
 * the seed's run times beside the simulated ones (the P-4.5 / P-4.6 ratio
 * stated against the seed's, with its interval when `make sensitivity`
 * ran: a comparison, not a pass or fail), the cost of slub_debug=P
 * against no debugging in each era, and the share of deactivate_slab() in
 * ___slab_alloc(); plus time.dat for workloads/hackbench/time.gp and the
 * headline figures (report_figures.h).
 *
 * Per run it reads, besides what report_runs.c loads, counters.csv (the
 * slow-path allocations and remote frees), functions.csv (the cycles the
 * model spent in ___slab_alloc and deactivate_slab) and summary.json (the
 * clock) from DIR/runs/<variant>__<model>/: it prices nothing itself.
 */
#ifndef SS_REPORT_HACKBENCH_H
#define SS_REPORT_HACKBENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report_extras.h"

/* The seed's figures (shared/seeds/003_*; v1 = the series' RFC). */
#define SS_REPORT_HB_SEED_P45_S 15.607	   /* v2, slub_debug=P before the series */
#define SS_REPORT_HB_SEED_P46_S 10.836	   /* v2, slub_debug=P after */
#define SS_REPORT_HB_SEED_NONE45_S 7.437  /* v1, slub_debug=-, same machine */
#define SS_REPORT_HB_SEED_P45_V1_S 15.366 /* v1, slub_debug=P, same session as 7.437 */

/* The report extras named in workloads/registry.c. */
extern const struct ss_report_extra ss_hackbench_report;

#endif
