/* slub.h - SLUB's allocation and free paths (mm/slub.c: slab_alloc_node,
 * ___slab_alloc, get_partial_node, deactivate_slab, __slab_free,
 * put_cpu_partial, unfreeze_partials) for the target's era.  A cache with
 * slub_debug flags takes the paths of slub_debug.h instead; each function
 * names the kernel function it models.
 */
#ifndef SS_SLUB_H
#define SS_SLUB_H

#include "slab.h"

/* The paths past the inline ones below (slub.c): ___slab_alloc(), the
 * part of __slab_free() that moves the slab or takes list_lock, and
 * every path of a debug cache. */
struct ss_slab *ss_kcache_alloc_slow(struct ss_kcache *s, unsigned cpu,
				     struct ss_op *op);
void ss_kcache_free_slow(struct ss_kcache *s, unsigned cpu, struct ss_slab *slab,
			 struct ss_op *op);
void ss_slab_free_listed(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl,
			 bool was_full, struct ss_op *op);

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

/* __slab_free(): the object is not on this CPU's active slab.  Its one
 * freelist update is cmpxchg_double_slab(), priced apart from
 * free_slowpath: cmpxchg_double, or without it the fallback that saves
 * irqs and takes slab_lock (cmpxchg_locked).  Inline up to where the slab
 * would move or list_lock be taken (ss_slab_free_listed): most frees of a
 * many-CPU trace are remote, and most of those end before that.
 * always_inline: gcc 12 left it a call from the replay loop, whose
 * prologue and epilogue were a fifth of it (docs/bench.md, speed5). */
static inline __attribute__((always_inline)) void
ss_slab_free(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl, struct ss_op *op)
{
	double start = op->cycles;
	bool was_full = sl->inuse == sl->objects; /* prior == NULL */

	ss_step(op, SS_STEP_FREE_SLOWPATH, 1);
	if (sl->node != s->topo->cpu_node[cpu])
		ss_step(op, SS_STEP_NODE_REMOTE, 1);
	ss_slab_touch(sl, cpu, op);
	/* the cmpxchg_double_slab() loop (3.10 - 6.x): one lock-free
	 * cmpxchg_double, or without it the irq-saving slab_lock fallback */
	ss_slab_cmpxchg_irqsave(s, sl, op);
	sl->inuse--;
	/* Active slab of another CPU (frozen in every era): the object joins
	 * slab->freelist and nothing moves.  Up to 6.7 CPU-partial slabs
	 * are frozen too (ss_slab_free_listed has the 6.8 rule). */
	if (sl->where == SS_SLAB_ACTIVE ||
	    (sl->where == SS_SLAB_CPU_PARTIAL && s->t->era < SS_ERA_6_8))
		ss_step(op, SS_STEP_FREE_FROZEN, 1);
	/* a slab that does not become empty stays where it is unless it was
	 * full (on no list); a CPU-partial one stays anyway */
	else if (!sl->inuse || (was_full && sl->where != SS_SLAB_CPU_PARTIAL))
		ss_slab_free_listed(s, cpu, sl, was_full, op);
	ss_fn_done(s->fns, SS_FN_SLAB_FREE, op, start);
}

/* slab_free(): do_slab_free()'s fast path (the object's slab is the
 * CPU's active slab), else __slab_free(); a debug cache's paths are in
 * slub_debug.c. */
static inline void ss_kcache_free(struct ss_kcache *s, unsigned cpu,
				  struct ss_slab *slab, struct ss_op *op)
{
	if (s->debug_paths) {
		ss_kcache_free_slow(s, cpu, slab, op);
		return;
	}
	op->stats = s->stats;
	s->live--;
	if (slab != s->cpu[cpu].slab) {
		ss_slab_free(s, cpu, slab, op);
		return;
	}
	slab->cpu_free++;
	ss_step(op, SS_STEP_FREE_FASTPATH, 1);
}

#endif
