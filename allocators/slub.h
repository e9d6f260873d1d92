/* slub.h - SLUB's allocation and free paths (mm/slub.c: slab_alloc_node,
 * ___slab_alloc, get_partial_node, deactivate_slab, __slab_free,
 * put_cpu_partial, unfreeze_partials) for the target's era.  A cache with
 * slub_debug flags takes the paths of slub_debug.h instead; each function
 * names the kernel function it models.
 */
#ifndef SS_SLUB_H
#define SS_SLUB_H

#include "slab.h"

/* slab_alloc_node() / slab_free(): returns the slab the object came from. */
struct ss_slab *ss_kcache_alloc(struct ss_kcache *s, unsigned cpu,
				struct ss_op *op);
void ss_kcache_free(struct ss_kcache *s, unsigned cpu, struct ss_slab *slab,
		    struct ss_op *op);

#endif
