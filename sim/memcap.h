/* memcap.h - a cap on the memory a simulated kernel holds, so that a trace
 * (or a fuzzer) asking for terabytes gets a clear error naming the event
 * instead of a run that eats the host: every simulated slab costs a host
 * descriptor.
 *
 * Simulated memory = pages in slabs + kmalloc_large pages.  Slab pages are
 * followed per model cache from the SLUB_STATS page counters the
 * operation just updated (alloc_slab/free_slab pages: op->stats of the
 * object's cache), so the check costs O(1) per event.
 */
#ifndef SS_MEMCAP_H
#define SS_MEMCAP_H

#include <stdint.h>

#include "model.h"

/* 64 GiB of simulated slab: ~16 Mi order-0 slabs, under 1 GiB of host
 * memory for their descriptors. */
#define SS_MEMCAP_DEFAULT (64ull << 30)

struct ss_memcap {
	uint64_t max_bytes;	/* the cap; 0 until ss_memcap_init */
	uint64_t page_size;
	uint64_t *cache_pages;	/* the cache's page counter (allocated -
				 * freed pages, modulo 2^64), per model cache */
	uint8_t *seen;		/* the cache was counted in slab_pages */
	uint64_t *held;		/* pages counted for the cache in slab_pages */
	uint32_t nr_caches;
	uint64_t slab_pages, large_bytes;
};

/* max_bytes 0 = SS_MEMCAP_DEFAULT. */
void ss_memcap_init(struct ss_memcap *m, uint64_t max_bytes, unsigned page_size);
void ss_memcap_release(struct ss_memcap *m);

/* The rare cases of ss_memcap_note: kmalloc_large, a new cache index. */
int ss_memcap_note_slow(struct ss_memcap *m, const struct ss_model_desc *desc,
			const struct ss_model *model, const struct ss_obj *obj,
			const struct ss_op *op);

/* After the model allocated or freed obj (state not yet cleared on a free)
 * with op: bring the totals up to date.  -1 when out of memory.  Inline:
 * it runs for every replayed event. */
static inline int ss_memcap_note(struct ss_memcap *m,
				 const struct ss_model_desc *desc,
				 const struct ss_model *model,
				 const struct ss_obj *obj, const struct ss_op *op)
{
	uint64_t pages;

	if (obj->state != SS_OBJ_LIVE || !op->stats || obj->cache >= m->nr_caches ||
	    !m->seen[obj->cache] || op->resync)
		return ss_memcap_note_slow(m, desc, model, obj, op);
	pages = op->stats[SS_STEP_PAGE_ALLOC] - op->stats[SS_STEP_PAGE_FREE];
	m->slab_pages += pages - m->cache_pages[obj->cache];
	m->held[obj->cache] += pages - m->cache_pages[obj->cache];
	m->cache_pages[obj->cache] = pages;
	return 0;
}

static inline uint64_t ss_memcap_bytes(const struct ss_memcap *m)
{
	return m->slab_pages * m->page_size + m->large_bytes;
}

static inline int ss_memcap_over(const struct ss_memcap *m)
{
	return ss_memcap_bytes(m) > m->max_bytes;
}

#endif
