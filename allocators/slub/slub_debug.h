/* slub_debug.h - the alloc and free paths of a cache with slub_debug
 * flags (kmem_cache_debug()), per era: slub_debug.c. */
#ifndef SS_SLUB_DEBUG_H
#define SS_SLUB_DEBUG_H

#include "slub_cache.h"

struct ss_slab *ss_slub_debug_alloc(struct ss_kcache *s, unsigned cpu,
				    struct ss_op *op);
void ss_slub_debug_free(struct ss_kcache *s, unsigned cpu,
			struct ss_slab *slab, struct ss_op *op);

#endif
