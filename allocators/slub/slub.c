/* slub.c - SLUB per-CPU and per-node dynamics for non-debug caches
 * (mm/slub.c: slab_alloc_node, ___slab_alloc, get_freelist,
 * get_partial_node, __slab_free, put_cpu_partial, unfreeze_partials).
 * Debug caches take the paths in slub_debug.c.
 *
 * deactivate_slab() is never reached here: a CPU slab that runs out is
 * dropped by get_freelist() (DEACTIVATE_BYPASS), and the kernel's other
 * callers -- a NUMA node or pfmemalloc mismatch, flush_slab() on a race
 * or a cache flush -- do not occur in a replay (no node-bound allocation,
 * no preemption inside the allocator, no shrink).
 */
#include "slub.h"

#include "slub_debug.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Make sl the CPU's active slab and move its free objects to c->freelist
 * (acquire_slab / get_freelist). */
static void activate(struct ss_kcache_cpu *c, struct ss_slab *sl,
		     unsigned cpu, struct ss_op *op)
{
	ss_slab_touch(sl, cpu, op);
	sl->cpu_free = sl->objects - sl->inuse;
	sl->inuse = sl->objects;
	sl->where = SS_SLAB_ACTIVE;
	sl->owner = (uint16_t)cpu;
	c->slab = sl;
}

/* ---- per-CPU partial lists ---- */

/* unfreeze_partials() / __put_partials(): every slab of c->partial back to
 * its node's partial list, empty ones discarded beyond min_partial.  The
 * kernel (4.x-6.x) takes list_lock per node switch and discards the empty
 * slabs after the last unlock ("discard_page" list): discarding does not
 * change nr_partial, so the decisions are the same.  Up to 6.7 each slab
 * is unfrozen with one __cmpxchg_double_slab(); from 6.8 (delayed
 * freezing) CPU-partial slabs are not frozen and take none. */
static void unfreeze_partials(struct ss_kcache *s, struct ss_kcache_cpu *c,
			      unsigned cpu, struct ss_op *op)
{
	struct ss_slab *sl;
	struct ss_list discard = {0};
	struct ss_kcache_node *locked = NULL;
	double start = op->cycles;

	while ((sl = ss_slab_of(c->partial.head))) {
		struct ss_kcache_node *n = &s->node[sl->node];

		ss_list_del(&c->partial, &sl->link);
		if (locked != n) { /* lock taken per node switch */
			if (locked)
				ss_list_unlock(locked, op);
			ss_list_lock(s, n, op);
			locked = n;
		}
		ss_slab_touch(sl, cpu, op);
		if (s->t->era < SS_ERA_6_8)
			ss_slab_cmpxchg_irqoff(s, sl, op, 1);
		if (sl->inuse == 0 && ss_slab_should_discard(s, n, sl)) {
			ss_step(op, SS_STEP_DEACTIVATE_EMPTY, 1);
			ss_list_add(&discard, &sl->link, true);
		} else {
			ss_slab_add_partial(s, sl, true);
			ss_step(op, SS_STEP_FREE_ADD_PARTIAL, 1);
		}
	}
	if (locked)
		ss_list_unlock(locked, op);
	while ((sl = ss_slab_of(discard.head))) {
		ss_list_del(&discard, &sl->link);
		ss_slab_discard(s, sl, op);
	}
	c->pobjects = 0;
	ss_fn_done(s->fns, SS_FN_UNFREEZE, op, start);
}

/* put_cpu_partial(): push on the CPU's partial list; with drain, flush
 * the list first when it is over the limit (objects before 5.16, slabs
 * after). */
static void put_cpu_partial(struct ss_kcache *s, unsigned cpu,
			    struct ss_slab *sl, bool drain, struct ss_op *op)
{
	struct ss_kcache_cpu *c = &s->cpu[cpu];

	if (drain && ss_cpu_partial_drains(s, c)) {
		unfreeze_partials(s, c, cpu, op);
		ss_step(op, SS_STEP_CPU_PARTIAL_DRAIN, 1);
	}
	ss_cpu_partial_push(c, cpu, sl);
}

/* ---- allocation ---- */

/* get_partial_node(): under list_lock, the first slab becomes the active
 * one; more go to the CPU partial list until half its limit is reached.
 * Up to 6.7 acquire_slab() freezes every slab taken with one
 * __cmpxchg_double_slab(); from 6.8 only the one that becomes active is
 * frozen (freeze_slab(), one update), the others are just removed. */
static struct ss_slab *get_partial_node(struct ss_kcache *s, unsigned cpu,
					struct ss_kcache_node *n,
					struct ss_op *op)
{
	struct ss_slab *first = NULL, *sl;
	unsigned available = 0, partial_slabs = 0;

	if (!n->partial.nr)
		return NULL;
	ss_list_lock(s, n, op);
	while ((sl = ss_slab_of(n->partial.head))) {
		available += sl->objects - sl->inuse;
		ss_slab_remove_partial(s, sl);
		if (s->t->era < SS_ERA_6_8)
			ss_slab_cmpxchg_irqoff(s, sl, op, 1);
		if (!first) {
			first = sl;
			activate(&s->cpu[cpu], sl, cpu, op);
			ss_step(op, SS_STEP_ALLOC_FROM_PARTIAL, 1);
			if (!s->has_cpu_partial)
				break;
		} else {
			put_cpu_partial(s, cpu, sl, false, op);
			ss_step(op, SS_STEP_CPU_PARTIAL_NODE, 1);
			partial_slabs++;
		}
		if (s->t->era < SS_ERA_5_16 ? available > s->geo.cpu_partial / 2
					    : partial_slabs > s->geo.cpu_partial_slabs / 2)
			break;
	}
	ss_list_unlock(n, op);
	if (s->t->era >= SS_ERA_6_8) /* freeze_slab(), after the unlock */
		ss_slab_cmpxchg_irqoff(s, first, op, 1);
	return first;
}

/* get_any_partial(): the local node had nothing; unless the defrag ratio
 * says stay local this time, take partial slabs from the nearest other
 * node that has more than min_partial (the zonelist order).  The refill
 * crosses nodes: list_lock and slab lines are remote (node_remote). */
static struct ss_slab *get_any_partial(struct ss_kcache *s, unsigned cpu,
				       unsigned local, struct ss_op *op)
{
	const uint16_t *zonelist = ss_topology_zonelist(s->topo, local);

	if (s->topo->nr_nodes == 1 || !s->remote_node_defrag_ratio ||
	    ss_kcache_defrag_coin(s) > s->remote_node_defrag_ratio)
		return NULL;
	for (unsigned i = 1; i < s->topo->nr_nodes; i++) {
		struct ss_kcache_node *n = &s->node[zonelist[i]];
		struct ss_slab *sl;

		if (n->partial.nr <= s->geo.min_partial)
			continue;
		sl = get_partial_node(s, cpu, n, op);
		if (sl) {
			ss_step(op, SS_STEP_NODE_REMOTE, 1);
			return sl;
		}
	}
	return NULL;
}

/* get_freelist(): one update takes the slab's freelist (remote frees)
 * for the CPU; with none left the slab is unfrozen there and then, full
 * and on no list. */
static bool get_freelist(struct ss_kcache *s, struct ss_slab *sl,
			 unsigned cpu, struct ss_op *op)
{
	ss_slab_touch(sl, cpu, op);
	ss_slab_cmpxchg_irqoff(s, sl, op, 1);
	if (sl->objects == sl->inuse) {
		sl->where = SS_SLAB_NONE;
		return false;
	}
	sl->cpu_free += sl->objects - sl->inuse;
	sl->inuse = sl->objects;
	return true;
}

/* ___slab_alloc(): the slow path (3.10 - 6.x). */
static struct ss_slab *slab_alloc_paths(struct ss_kcache *s, unsigned cpu,
					struct ss_op *op)
{
	struct ss_kcache_cpu *c = &s->cpu[cpu];
	struct ss_slab *sl = c->slab;
	unsigned node = s->topo->cpu_node[cpu];

	ss_step(op, SS_STEP_ALLOC_SLOWPATH, 1);
	if (sl) {
		if (get_freelist(s, sl, cpu, op)) { /* remote frees came back */
			ss_step(op, SS_STEP_ALLOC_REFILL, 1);
			return sl;
		}
		/* "c->slab = NULL; stat(s, DEACTIVATE_BYPASS); goto
		 * new_slab": no deactivate_slab() */
		c->slab = NULL;
		ss_step(op, SS_STEP_DEACTIVATE_BYPASS, 1);
	}
	while ((sl = ss_slab_of(c->partial.head))) { /* slub_percpu_partial() */
		ss_list_del(&c->partial, &sl->link);
		ss_step(op, SS_STEP_CPU_PARTIAL_ALLOC, 1);
		/* The slab becomes c->slab and get_freelist() takes its
		 * objects: up to 6.7 by `goto redo`, which counts
		 * ALLOC_REFILL; from 6.8 directly, which does not. */
		sl->owner = (uint16_t)cpu;
		c->slab = sl;
		sl->where = SS_SLAB_ACTIVE;
		if (get_freelist(s, sl, cpu, op)) {
			if (s->t->era < SS_ERA_6_8)
				ss_step(op, SS_STEP_ALLOC_REFILL, 1);
			return sl;
		}
		/* a full slab cannot be on c->partial; keep the books anyway */
		c->slab = NULL;
	}
	sl = get_partial_node(s, cpu, &s->node[node], op);
	if (!sl)
		sl = get_any_partial(s, cpu, node, op);
	if (sl)
		return sl;
	sl = ss_slab_new(s, node, op);
	if (sl)
		activate(c, sl, cpu, op);
	return sl;
}

static struct ss_slab *slab_alloc_slow(struct ss_kcache *s, unsigned cpu,
				       struct ss_op *op)
{
	double start = op->cycles;
	struct ss_slab *sl = slab_alloc_paths(s, cpu, op);

	ss_fn_done(s->fns, SS_FN_SLAB_ALLOC, op, start);
	return sl;
}

/* A debug cache, or no object on the CPU's freelist (the fast path is
 * in slub.h). */
struct ss_slab *ss_kcache_alloc_slow(struct ss_kcache *s, unsigned cpu,
				     struct ss_op *op)
{
	struct ss_slab *sl;

	op->stats = s->stats;
	if ((sl = ss_kcache_refill_slab(s, cpu))) { /* lock-free: slub.h */
		struct ss_lockfree f = {.cycles = op->cycles};

		ss_kcache_alloc_refill(s, cpu, sl, op->cost, &f);
		ss_lockfree_to_op(s, &f, op);
		return sl;
	}
	if (s->debug_paths) {
		sl = ss_slub_debug_alloc(s, cpu, op);
	} else {
		sl = slab_alloc_slow(s, cpu, op);
		if (!sl)
			return NULL;
		sl->cpu_free--;
	}
	if (sl)
		s->live++;
	return sl;
}

/* ---- free ---- */

/* __slab_free() past its lock-free part: the slab became empty, or was
 * full; the object is already counted off. */
static void slab_free_listed(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl,
			     bool was_full, struct ss_op *op)
{
	struct ss_kcache_node *n = &s->node[sl->node];

	if (sl->where == SS_SLAB_CPU_PARTIAL) {
		/* From 6.8 ("slub: Delay freezing of CPU partial slabs")
		 * CPU-partial slabs are not frozen: no stat at all, and the
		 * free that empties one takes list_lock, finds it off the
		 * node list (prior && !on_node_partial) and drops it again;
		 * the empty slab stays on the CPU partial list. */
		if (!sl->inuse) {
			ss_list_lock(s, n, op);
			ss_list_unlock(n, op);
		}
		return;
	}
	if (was_full && s->has_cpu_partial) {
		put_cpu_partial(s, cpu, sl, true, op);
		ss_step(op, SS_STEP_CPU_PARTIAL_FREE, 1);
		return;
	}
	if (!was_full && sl->inuse) /* stays on n->partial: no lock */
		return;
	ss_list_lock(s, n, op);
	ss_slab_free_locked(s, n, sl, was_full, op);
}

/* slab_free() of a non-debug cache where slub.h's ss_kcache_free_plain()
 * declines: __slab_free() that moves the slab or takes list_lock, or
 * any free of a cache without cmpxchg_double (the fallback saves irqs
 * and takes slab_lock: cmpxchg_locked), do_slab_free()'s fast path
 * included. */
void ss_kcache_free_rest(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl,
			 struct ss_op *op)
{
	double start = op->cycles;
	bool was_full = sl->inuse == sl->objects; /* prior == NULL */

	s->live--;
	if (sl == s->cpu[cpu].slab) {
		sl->cpu_free++;
		ss_step(op, SS_STEP_FREE_FASTPATH, 1);
		return;
	}
	op->cycles = ss_slab_free_head(s, cpu, sl, op->cost, op->cycles);
	/* the cmpxchg_double_slab() loop (3.10 - 6.x): one lock-free
	 * cmpxchg_double, or without it the irq-saving slab_lock fallback */
	ss_slab_cmpxchg_irqsave(s, sl, op);
	sl->inuse--;
	/* Active slab of another CPU (frozen in every era): the object joins
	 * slab->freelist and nothing moves.  Up to 6.7 CPU-partial slabs
	 * are frozen too (slab_free_listed has the 6.8 rule). */
	if (sl->where == SS_SLAB_ACTIVE ||
	    (sl->where == SS_SLAB_CPU_PARTIAL && s->t->era < SS_ERA_6_8))
		ss_step(op, SS_STEP_FREE_FROZEN, 1);
	/* a slab that does not become empty stays where it is unless it was
	 * full (on no list); a CPU-partial one stays anyway */
	else if (!sl->inuse || (was_full && sl->where != SS_SLAB_CPU_PARTIAL))
		slab_free_listed(s, cpu, sl, was_full, op);
	ss_fn_done(s->fns, SS_FN_SLAB_FREE, op, start);
}

/* A debug cache's free (the other paths are inline in slub.h). */
void ss_kcache_free_slow(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl,
			 struct ss_op *op)
{
	op->stats = s->stats;
	s->live--;
	ss_slub_debug_free(s, cpu, sl, op);
}
