/* hb_report.h - what the hackbench workload adds to its report:
 * the seed's run times beside the simulated ones (the P-4.5 / P-4.6 ratio
 * is the acceptance check), the cost of slub_debug=P against no debugging
 * in each era, and the share of deactivate_slab() in ___slab_alloc(); plus
 * time.dat for workloads/hackbench/time.gp.
 *
 * Per run it reads, besides what report_runs.c loads, counters.csv (step
 * counts per cache), caches.csv (which caches had debug flags) and
 * summary.json (cost table and clock) from DIR/runs/<variant>__<model>/.
 */
#ifndef SS_REPORT_HACKBENCH_H
#define SS_REPORT_HACKBENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report_extras.h"
#include "steps.h"

/* The seed's figures (shared/seeds/003_*; v1 = the series' RFC). */
#define RP_HB_SEED_P45_S 15.607	   /* v2, slub_debug=P before the series */
#define RP_HB_SEED_P46_S 10.836	   /* v2, slub_debug=P after */
#define RP_HB_SEED_NONE45_S 7.437  /* v1, slub_debug=-, same machine */
#define RP_HB_SEED_P45_V1_S 15.366 /* v1, slub_debug=P, same session as 7.437 */
#define RP_HB_RATIO_TOL_PCT 10.0   /* acceptance: P-4.5 / P-4.6 within 10% */

/* Step counts of one cache of one run (counters.csv). */
struct rp_hb_cache {
	uint64_t n[SS_NR_STEPS];
	bool debug; /* caches.csv debug column is not "-" */
};

/* deactivate_slab()'s cycles in one cache: deactivate_slab and
 * deactivate_object; the list_lock it takes (a slab going to n->partial,
 * or any slab of a debug cache); and, in a cache without cmpxchg_double
 * (debug caches up to 4.5), its locked cmpxchgs: all of the cache's
 * cmpxchg_locked but one per alloc_from_partial (acquire_slab) and one per
 * free_slowpath (__slab_free).  Slabs discarded by deactivate_slab are not
 * counted (debug caches never discard there). */
double rp_hb_deactivate_cycles(const struct rp_hb_cache *c, const double *cost);

/* The report extras named in workloads/registry.c. */
extern const struct rp_extra ss_hackbench_report;

#endif
