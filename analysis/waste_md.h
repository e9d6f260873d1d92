/* waste_md.h - waste rankings for report.md and compare.md: the caches
 * and the allocation sites that hold the most bytes no caller asked for,
 * with rounding and alignment counted (slabinfo's Loss leaves rounding to
 * the kmalloc class out: kmalloc-32 holding 16-byte requests loses half
 * its objects and shows no Loss).
 *
 * A table has a row per (run, rank); `label` names each run in its first
 * columns (variant and model, or the model alone).
 */
#ifndef SS_WASTE_MD_H
#define SS_WASTE_MD_H

#include <stdio.h>

#include "compare_runs.h"

struct ss_wastemd_run {
	const char *variant, *model;	/* variant NULL: the model alone */
	const struct ss_compare_caches *cc;	/* sorted by waste (cmp_read_caches) */
	const struct ss_compare_sites *ss;	/* sorted by waste (cmp_read_sites) */
};

/* Caches: Name, Objects, Objsize, requested, rounding, align, debug, free
 * slots, slab tail, waste (KiB), waste % of Space, slabinfo's Loss (KiB). */
int ss_wastemd_caches_table(FILE *fp, const struct ss_wastemd_run *runs, unsigned n,
		    unsigned top);
/* Sites: site, cache, live objects (peak), allocs, live requested,
 * rounding, align, debug, waste (KiB), and perf kmem's Frag % over every
 * allocation.  Sites without waste at the end are left out. */
int ss_wastemd_sites_table(FILE *fp, const struct ss_wastemd_run *runs, unsigned n,
		   unsigned top);

#endif
