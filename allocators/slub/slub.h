/* slub.h - SLUB's allocation and free paths (mm/slub.c: slab_alloc_node,
 * ___slab_alloc, get_partial_node, deactivate_slab, __slab_free,
 * put_cpu_partial, unfreeze_partials) for the target's era.  A cache with
 * slub_debug flags takes the paths of slub_debug.h instead; each function
 * names the kernel function it models.
 */
#ifndef SS_SLUB_H
#define SS_SLUB_H

#include "slub_cache.h"

/* The paths past the inline ones below (slub.c): ___slab_alloc(), and
 * every path of a debug cache. */
struct ss_slab *ss_kcache_alloc_slow(struct ss_kcache *s, unsigned cpu,
				     struct ss_op *op);
void ss_kcache_free_slow(struct ss_kcache *s, unsigned cpu, struct ss_slab *slab,
			 struct ss_op *op);

/* What an operation along a lock-free path did, for its caller to place:
 * the operation's cycles (in: so far), and the one cmpxchg_double on a
 * slab's freelist it made, if the contention engine is to see it (with
 * one CPU it is not: ss_slab_cmpxchg), read `read_at` into the
 * operation (ss_op_cmpxchg's use.at; its window and retry are the
 * cmpxchg_double and cmpxchg_retry prices). */
struct ss_lockfree {
	double cycles;
	double read_at;
	struct ss_slab *swapped;
};

/* One lock-free cmpxchg_double_slab() on sl, priced onto c: the step,
 * and the use for the caller (f). */
static inline double ss_lockfree_cmpxchg(struct ss_kcache *s, struct ss_slab *sl,
					 const double *cost, double c, struct ss_lockfree *f)
{
	c = ss_step_on(s->stats, cost, SS_STEP_CMPXCHG_DOUBLE, c);
	f->read_at = c - cost[SS_STEP_CMPXCHG_DOUBLE];
	f->swapped = sl;
	return c;
}

/* The operation's cycles and its use into op (ss_slab_cmpxchg's use). */
static inline void ss_lockfree_to_op(struct ss_kcache *s, const struct ss_lockfree *f,
				     struct ss_op *op)
{
	op->cycles = f->cycles;
	if (f->swapped && s->notes_swaps)
		ss_op_cmpxchg_at(op, &f->swapped->freelist, &s->res[SS_KRES_CMPXCHG], f->read_at,
				 op->cost[SS_STEP_CMPXCHG_DOUBLE], op->cost[SS_STEP_CMPXCHG_RETRY]);
}

/* The CPU's active slab when slab_alloc_node()'s fast path applies (an
 * object on the CPU's freelist, c->freelist, of a non-debug cache), else
 * NULL; nothing changes. */
static inline struct ss_slab *ss_kcache_fast_slab(const struct ss_kcache *s, unsigned cpu)
{
	struct ss_slab *sl = s->cpu[cpu].slab;

	return !s->debug_paths && sl && sl->cpu_free ? sl : NULL;
}

/* That fast path, from sl = ss_kcache_fast_slab(s, cpu): its one step
 * counted, its price returned (what the operation's cycles gain: the
 * whole of a new operation's, ss_price_from_0). */
static inline double ss_kcache_alloc_fast(struct ss_kcache *s, struct ss_slab *sl,
					  const double *cost)
{
	sl->cpu_free--;
	s->live++;
	s->stats[SS_STEP_ALLOC_FASTPATH]++;
	return cost[SS_STEP_ALLOC_FASTPATH];
}

/* The CPU's active slab when ___slab_alloc() takes its first way out
 * (3.10 - 6.x): no object on c->freelist, but remote frees on the slab's
 * own freelist, which get_freelist() takes with one lock-free
 * cmpxchg_double (alloc_refill); else NULL.  Nothing changes. */
static inline struct ss_slab *ss_kcache_refill_slab(const struct ss_kcache *s, unsigned cpu)
{
	struct ss_slab *sl = s->cpu[cpu].slab;

	return s->lockfree && sl && !sl->cpu_free && sl->inuse != sl->objects ? sl : NULL;
}

/* That way, from sl = ss_kcache_refill_slab(s, cpu), on prices alone:
 * ___slab_alloc() -> get_freelist(), and the object off the refilled
 * c->freelist.  f->cycles in: the operation's so far. */
static inline __attribute__((always_inline)) void
ss_kcache_alloc_refill(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl, const double *cost,
		       struct ss_lockfree *f)
{
	double c = f->cycles, start = c;

	c = ss_step_on(s->stats, cost, SS_STEP_ALLOC_SLOWPATH, c);
	c = ss_slab_touch_on(sl, cpu, s->stats, cost, c);
	c = ss_lockfree_cmpxchg(s, sl, cost, c, f);
	sl->cpu_free += sl->objects - sl->inuse;
	sl->inuse = sl->objects;
	c = ss_step_on(s->stats, cost, SS_STEP_ALLOC_REFILL, c);
	s->fns[SS_FN_SLAB_ALLOC].calls++;
	s->fns[SS_FN_SLAB_ALLOC].cycles += c - start;
	sl->cpu_free--;
	s->live++;
	f->cycles = c;
}

/* slab_alloc_node(): returns the slab the object came from.  The fast
 * path is inline: it is most allocations of a replay. */
static inline struct ss_slab *ss_kcache_alloc(struct ss_kcache *s, unsigned cpu,
					      struct ss_op *op)
{
	struct ss_slab *sl = ss_kcache_fast_slab(s, cpu);

	if (!sl)
		return ss_kcache_alloc_slow(s, cpu, op);
	op->stats = s->stats;
	op->cycles += ss_kcache_alloc_fast(s, sl, op->cost);
	return sl;
}

/* put_cpu_partial() with drain: whether c->partial is flushed first
 * (over the limit: objects before 5.16, slabs after). */
static inline bool ss_cpu_partial_drains(const struct ss_kcache *s, const struct ss_kcache_cpu *c)
{
	if (!c->partial.nr)
		return false;
	if (s->t->era < SS_ERA_5_16)
		return c->pobjects > s->geo.cpu_partial;
	return c->partial.nr >= s->geo.cpu_partial_slabs;
}

/* put_cpu_partial()'s push, after any drain: sl on CPU cpu's partial
 * list (c). */
static inline void ss_cpu_partial_push(struct ss_kcache_cpu *c, unsigned cpu, struct ss_slab *sl)
{
	ss_list_add(&c->partial, &sl->link, false);
	c->pobjects += sl->objects - sl->inuse;
	sl->where = SS_SLAB_CPU_PARTIAL;
	sl->owner = (uint16_t)cpu;
}


/* __slab_free() up to its freelist update: free_slowpath, a slab on
 * another node, the slab's line moving (counted in s->stats, priced onto
 * c). */
static inline __attribute__((always_inline)) double
ss_slab_free_head(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl, const double *cost,
		  double c)
{
	c = ss_step_on(s->stats, cost, SS_STEP_FREE_SLOWPATH, c);
	if (sl->node != s->cpu_node[cpu])
		c = ss_step_on(s->stats, cost, SS_STEP_NODE_REMOTE, c);
	return ss_slab_touch_on(sl, cpu, s->stats, cost, c);
}

/* The rest of slab_free() (slub.c): __slab_free() where the slab moves or
 * list_lock is taken, and every free of a cache without cmpxchg_double,
 * whose fallback locks the slab. */
void ss_kcache_free_rest(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl,
			 struct ss_op *op);

/* Where a lock-free __slab_free() leaves its slab (ss_kcache_free_plain). */
enum ss_free_end {
	SS_FREE_STAYS,	     /* neither emptied nor full before: stays put */
	SS_FREE_FROZEN,	     /* frozen: free_frozen */
	SS_FREE_CPU_PARTIAL, /* was full: to the CPU partial list, no drain */
};

/* __slab_free() along one lock-free path (ends, a constant where it is
 * inlined: each path its own straight code). */
static inline __attribute__((always_inline)) bool
ss_slab_free_lockfree(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl, const double *cost,
		      struct ss_lockfree *f, enum ss_free_end ends)
{
	double c = f->cycles, start = c;

	s->live--;
	c = ss_slab_free_head(s, cpu, sl, cost, c);
	c = ss_lockfree_cmpxchg(s, sl, cost, c, f);
	sl->inuse--;
	if (ends == SS_FREE_FROZEN) {
		c = ss_step_on(s->stats, cost, SS_STEP_FREE_FROZEN, c);
	} else if (ends == SS_FREE_CPU_PARTIAL) {
		ss_cpu_partial_push(&s->cpu[cpu], cpu, sl);
		c = ss_step_on(s->stats, cost, SS_STEP_CPU_PARTIAL_FREE, c);
	}
	s->fns[SS_FN_SLAB_FREE].calls++;
	s->fns[SS_FN_SLAB_FREE].cycles += c - start;
	f->cycles = c;
	return true;
}

/* slab_free() on prices alone, for a non-debug cache, where it takes no
 * lock and moves no slab: do_slab_free()'s fast path (the object's slab
 * is the CPU's active slab), or __slab_free() whose one lock-free
 * cmpxchg_double_slab() leaves the slab frozen (the active slab of
 * another CPU, and up to 6.7 a CPU-partial one), or where it is (neither
 * emptied nor full before), or -- it was full -- puts it on this CPU's
 * partial list without a drain.  In a many-CPU trace most frees are
 * remote and end there.  false, with nothing changed, for any other
 * path (ss_kcache_free takes them).  always_inline: the replay loop
 * keeps the cycles in a register (docs/bench.md). */
static inline __attribute__((always_inline)) bool
ss_kcache_free_plain(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl, const double *cost,
		     struct ss_lockfree *f)
{
	unsigned where = sl->where;

	if (!s->lockfree) /* (ss_kcache_free_rest) */
		return false;
	if (sl == s->cpu[cpu].slab) {
		s->live--;
		sl->cpu_free++;
		f->cycles = ss_step_on(s->stats, cost, SS_STEP_FREE_FASTPATH, f->cycles);
		f->swapped = NULL;
		return true;
	}
	/* frozen in every era; up to 6.7 CPU-partial slabs are frozen too
	 * (ss_kcache_free_rest has the 6.8 rule).  Else a slab that was full
	 * (prior == NULL: on no list) goes to a CPU partial list, and one
	 * that becomes empty moves (slab_free_listed in slub.c: list_lock) */
	if (where == SS_SLAB_ACTIVE || (where == SS_SLAB_CPU_PARTIAL && s->t->era < SS_ERA_6_8))
		return ss_slab_free_lockfree(s, cpu, sl, cost, f, SS_FREE_FROZEN);
	if (sl->inuse == sl->objects && where != SS_SLAB_CPU_PARTIAL) {
		if (!s->has_cpu_partial || ss_cpu_partial_drains(s, &s->cpu[cpu]))
			return false;
		return ss_slab_free_lockfree(s, cpu, sl, cost, f, SS_FREE_CPU_PARTIAL);
	}
	if (sl->inuse == 1)
		return false;
	return ss_slab_free_lockfree(s, cpu, sl, cost, f, SS_FREE_STAYS);
}

/* slab_free() where ss_kcache_free_plain() declined: a debug cache's
 * paths (slub_debug.c), else ss_kcache_free_rest(). */
static inline void ss_kcache_free_declined(struct ss_kcache *s, unsigned cpu,
					   struct ss_slab *slab, struct ss_op *op)
{
	if (s->debug_paths) {
		ss_kcache_free_slow(s, cpu, slab, op);
		return;
	}
	op->stats = s->stats;
	ss_kcache_free_rest(s, cpu, slab, op);
}

/* slab_free(): the lock-free paths above, else slub.c's; a debug
 * cache's paths are in slub_debug.c. */
static inline void ss_kcache_free(struct ss_kcache *s, unsigned cpu,
				  struct ss_slab *slab, struct ss_op *op)
{
	struct ss_lockfree f = {.cycles = op->cycles};

	if (s->debug_paths) {
		ss_kcache_free_slow(s, cpu, slab, op);
		return;
	}
	op->stats = s->stats;
	if (!ss_kcache_free_plain(s, cpu, slab, op->cost, &f)) {
		ss_kcache_free_rest(s, cpu, slab, op);
		return;
	}
	ss_lockfree_to_op(s, &f, op);
}

#endif
