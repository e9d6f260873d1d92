/* totals.c - sum the per-cache reports into the waste decomposition. */
#include "totals.h"

#include <string.h>

/* a - b, or 0 with the first negative part noted */
static uint64_t part(struct ss_totals *tot, uint64_t a, uint64_t b,
		     const char *what, const char *cache)
{
	if (a >= b)
		return a - b;
	if (!tot->negative) {
		tot->negative = what;
		tot->negative_cache = cache;
	}
	return 0;
}

void ss_totals_compute(const struct ss_model_desc *desc,
		       const struct ss_model *m, const struct ss_target *t,
		       struct ss_totals *tot)
{
	unsigned n = desc->ops->nr_caches(m);
	struct ss_large_report large;

	memset(tot, 0, sizeof(*tot));
	for (unsigned i = 0; i < n; i++) {
		struct ss_cache_report r;
		uint64_t alloc;

		memset(&r, 0, sizeof(r));
		desc->ops->cache_report(m, i, &r);
		tot->internal_requested += r.internal_requested;
		tot->internal_allocated += r.internal_live * r.object_size;
		if (r.size_nodebug >= r.object_size && r.slab_size >= r.size_nodebug) {
			tot->internal_align += r.internal_live * (r.size_nodebug - r.object_size);
			tot->internal_debug += r.internal_live * (r.slab_size - r.size_nodebug);
		}
		alloc = r.live * r.object_size;
		tot->requested += r.requested_live;
		tot->allocated += alloc;
		/* per cache, so a cache that requested more than it holds
		 * is named, not hidden in a sum */
		part(tot, alloc, r.requested_live, "rounding_bytes", r.name);
		tot->align += r.live * part(tot, r.size_nodebug, r.object_size, "align_bytes", r.name);
		tot->debug += r.live * part(tot, r.slab_size, r.size_nodebug, "debug_bytes", r.name);
		tot->free_slot += part(tot, r.total_objects, r.live, "free_slot_bytes", r.name) *
				  r.slab_size;
		tot->slab_tail += part(tot, r.slab_bytes, r.total_objects * r.slab_size,
				       "slab_tail_bytes", r.name);
		tot->footprint_bytes += r.slab_bytes;
		tot->live_objects += r.live;
		tot->slabs += r.nr_slabs;
		tot->partial_slabs += r.partial_slabs;
		tot->cpu_slabs += r.cpu_slabs;
		tot->caches += r.live || r.nr_slabs;
		for (int s = 0; s < SS_NR_STEPS; s++)
			tot->stats[s] += r.stats[s];
	}
	desc->ops->large_report(m, &large);
	tot->large_bytes = large.page_bytes;
	if (t->large_in_slab_stat) {
		tot->requested += large.requested_live;
		tot->allocated += large.page_bytes;
		tot->footprint_bytes += large.page_bytes;
		tot->live_objects += large.live;
	}
	tot->rounding = part(tot, tot->allocated, tot->requested, "rounding_bytes", "(all)");
	tot->slab_pages = tot->footprint_bytes / t->page_size;
}

int ss_totals_check(const struct ss_totals *tot, struct ss_error *err)
{
	if (!tot->negative)
		return 0;
	return ss_errorf(err, "internal error: %s of cache %s came out negative (a model bug): no results written",
			 tot->negative, tot->negative_cache);
}
