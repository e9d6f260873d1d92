/* slub.h - SLUB's allocation and free paths (mm/slub.c: slab_alloc_node,
 * ___slab_alloc, get_partial_node, deactivate_slab, __slab_free,
 * put_cpu_partial, unfreeze_partials) for the target's era.  A cache with
 * slub_debug flags takes the paths of slub_debug.h instead; each function
 * names the kernel function it models.
 */
#ifndef SS_SLUB_H
#define SS_SLUB_H

#include "slab.h"

/* The paths past the fast ones below (slub.c): ___slab_alloc(),
 * __slab_free() and every path of a debug cache. */
struct ss_slab *ss_kcache_alloc_slow(struct ss_kcache *s, unsigned cpu,
				     struct ss_op *op);
void ss_kcache_free_slow(struct ss_kcache *s, unsigned cpu, struct ss_slab *slab,
			 struct ss_op *op);

/* slab_alloc_node(): returns the slab the object came from.  The fast
 * path -- an object on the CPU's freelist (c->freelist) of a non-debug
 * cache -- is inline: it is most allocations of a replay. */
static inline struct ss_slab *ss_kcache_alloc(struct ss_kcache *s, unsigned cpu,
					      struct ss_op *op)
{
	struct ss_slab *sl = s->cpu[cpu].slab;

	if (s->debug_paths || !sl || !sl->cpu_free)
		return ss_kcache_alloc_slow(s, cpu, op);
	op->stats = s->stats;
	ss_step(op, SS_STEP_ALLOC_FASTPATH, 1);
	sl->cpu_free--;
	s->live++;
	return sl;
}

/* slab_free(): do_slab_free()'s fast path (the object's slab is the
 * CPU's active slab) inline, the rest in slub.c. */
static inline void ss_kcache_free(struct ss_kcache *s, unsigned cpu,
				  struct ss_slab *slab, struct ss_op *op)
{
	if (s->debug_paths || slab != s->cpu[cpu].slab) {
		ss_kcache_free_slow(s, cpu, slab, op);
		return;
	}
	op->stats = s->stats;
	s->live--;
	slab->cpu_free++;
	ss_step(op, SS_STEP_FREE_FASTPATH, 1);
}

#endif
