/* totals.c - sum the per-cache reports into the waste decomposition. */
#include "totals.h"

#include <string.h>

void ss_totals_compute(const struct ss_model_desc *desc,
		       const struct ss_model *m, const struct ss_target *t,
		       struct ss_totals *tot)
{
	unsigned n = desc->ops->nr_caches(m);
	struct ss_large_report large;

	memset(tot, 0, sizeof(*tot));
	for (unsigned i = 0; i < n; i++) {
		struct ss_cache_report r;

		desc->ops->cache_report(m, i, &r);
		tot->requested += r.requested_live;
		tot->allocated += r.live * r.object_size;
		tot->align += r.live * (r.size_nodebug - r.object_size);
		tot->debug += r.live * (r.slab_size - r.size_nodebug);
		tot->free_slot += (r.total_objects - r.live) * r.slab_size;
		tot->slab_tail += r.slab_bytes - r.total_objects * r.slab_size;
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
	tot->rounding = tot->allocated - tot->requested;
	tot->slab_pages = tot->footprint_bytes / t->page_size;
}
