/* totals.h - where the bytes go, summed over a model's caches.
 *
 * For every held slab byte exactly one of: requested (what callers asked
 * for), rounding (class or cache object size above the request), align
 * (stride above object size without debug: alignment and free pointer
 * placement), debug (stride added by slub_debug), free_slot (object slots
 * not in use), slab_tail (bytes after the last slot).  kmalloc_large pages
 * count in the footprint only where the era accounts them as slab memory
 * (their requested and rounding bytes then join those columns).
 */
#ifndef SS_TOTALS_H
#define SS_TOTALS_H

#include <stdint.h>

#include "model.h"

struct ss_totals {
	uint64_t footprint_bytes;
	uint64_t requested, allocated, rounding, align, debug;
	uint64_t free_slot, slab_tail, large_bytes;
	uint64_t slab_pages, live_objects, caches;
	uint64_t partial_slabs, cpu_slabs, slabs;
	uint64_t stats[SS_NR_STEPS];
	/* every part above is a difference of two counts; the first that
	 * came out negative (a model bug) is named here and its part set to
	 * 0: a writer refuses such totals rather than print a wrapped 2^64
	 * (ss_totals_check) */
	/* the part of requested, allocated, align and debug that is the
	 * allocator's own objects (ss_cache_report.internal_*) */
	uint64_t internal_requested, internal_allocated, internal_align, internal_debug;
	const char *negative;
	const char *negative_cache;
};

void ss_totals_compute(const struct ss_model_desc *desc,
		       const struct ss_model *m, const struct ss_target *t,
		       struct ss_totals *tot);
/* 0, or -1 with err naming the part that came out negative. */
int ss_totals_check(const struct ss_totals *tot, struct ss_error *err);

#endif
