/* totals.c - sum the per-cache reports into the waste decomposition. */
#include "totals.h"

#include <string.h>

/* a - b for a part that cannot be negative: checked, in signed 64-bit
 * (every operand is below 2^62: bytes of simulated memory under the cap) */
static uint64_t part(struct ss_totals *tot, const char *what, const char *cache,
		     uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)a - (int64_t)b;

	if (d >= 0)
		return (uint64_t)d;
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

		desc->ops->cache_report(m, i, &r);
		alloc = r.live * r.object_size;
		tot->requested += r.requested_live;
		tot->allocated += alloc;
		part(tot, "rounding_bytes", r.name, alloc, r.requested_live);
		tot->align += r.live * part(tot, "align_bytes", r.name, r.size_nodebug, r.object_size);
		tot->debug += r.live * part(tot, "debug_bytes", r.name, r.slab_size, r.size_nodebug);
		tot->free_slot += part(tot, "free_slot_bytes", r.name, r.total_objects, r.live) *
				  r.slab_size;
		tot->slab_tail += part(tot, "slab_tail_bytes", r.name, r.slab_bytes,
				       r.total_objects * r.slab_size);
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
	tot->rounding = part(tot, "rounding_bytes", "(all)", tot->allocated, tot->requested);
	tot->slab_pages = tot->footprint_bytes / t->page_size;
}
