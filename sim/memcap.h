/* memcap.h - a cap on the memory a simulated kernel holds, so that a trace
 * (or a fuzzer) asking for terabytes gets a clear error naming the event
 * instead of a run that eats the host: every simulated slab costs a host
 * descriptor.
 *
 * Simulated memory = pages in slabs + kmalloc_large pages.  Slab pages
 * move by what each operation says it gave to slabs or took back
 * (op->slab_pages, steps.h), in any cache: an allocation that makes a
 * slab elsewhere too (a memcg vector, SLAB's off-slab descriptor, a
 * sheaf), SLAB's cache_reap on a tick, an initial state's slabs.  O(1)
 * per event.
 */
#ifndef SS_MEMCAP_H
#define SS_MEMCAP_H

#include <stdint.h>

#include "model.h"
#include "model_batch.h"

/* 64 GiB of simulated slab: ~16 Mi order-0 slabs, under 1 GiB of host
 * memory for their descriptors. */
#define SS_MEMCAP_DEFAULT (64ull << 30)

/* The error when ss_memcap_note() refuses. */
#define SS_MEMCAP_LOST "more slab pages freed than the model held (it lost count)"

/* max_bytes 0 = SS_MEMCAP_DEFAULT. */
void ss_memcap_init(struct ss_memcap *m, uint64_t max_bytes, unsigned page_size);
void ss_memcap_release(struct ss_memcap *m);

/* kmalloc_large: the model's page total, as it is. */
void ss_memcap_note_large(struct ss_memcap *m, const struct ss_model_desc *desc,
			  const struct ss_model *model);

/* After the model allocated or freed obj (state not yet cleared on a free;
 * NULL for work of no object, a tick) with op: bring the totals up to
 * date.  -1 when op gave back more pages than slabs held (a model that
 * lost count).  Inline: it runs for every event that moves pages. */
static inline int ss_memcap_note(struct ss_memcap *m,
				 const struct ss_model_desc *desc,
				 const struct ss_model *model,
				 const struct ss_obj *obj, const struct ss_op *op)
{
	if (op->slab_pages < 0 && (uint64_t)-op->slab_pages > m->slab_pages)
		return -1;
	m->slab_pages += (uint64_t)op->slab_pages;
	if (obj && obj->state == SS_OBJ_LARGE)
		ss_memcap_note_large(m, desc, model);
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
