/* slub.c - SLUB per-CPU and per-node dynamics for non-debug caches
 * (mm/slub.c: slab_alloc_node, ___slab_alloc, get_partial_node,
 * deactivate_slab, __slab_free, put_cpu_partial, unfreeze_partials).
 * Debug caches take the paths in slub_debug.c.
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
 * change nr_partial, so the decisions are the same. */
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
		if (sl->inuse == 0 && ss_slab_should_discard(s, n)) {
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
	bool over;

	if (s->t->era < SS_ERA_5_16)
		over = c->pobjects > s->geo.cpu_partial;
	else
		over = c->partial.nr >= s->geo.cpu_partial_slabs;
	if (drain && c->partial.nr && over) {
		unfreeze_partials(s, c, cpu, op);
		ss_step(op, SS_STEP_CPU_PARTIAL_DRAIN, 1);
	}
	ss_list_add(&c->partial, &sl->link, false);
	c->pobjects += sl->objects - sl->inuse;
	sl->where = SS_SLAB_CPU_PARTIAL;
	sl->owner = (uint16_t)cpu;
}

/* ---- allocation ---- */

/* get_partial_node(): under list_lock, the first slab becomes the active
 * one; more go to the CPU partial list until half its limit is reached. */
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
	return first;
}

/* get_cycles() % 1024 in get_any_partial(), made reproducible: a hash of
 * a per-cache counter, uniform over 0..1023 like the low TSC bits. */
static unsigned defrag_coin(struct ss_kcache *s)
{
	uint32_t x = ++s->defrag_tick;

	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x % 1024;
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
	    defrag_coin(s) > s->remote_node_defrag_ratio)
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

/* deactivate_slab(): hand c->freelist back to the slab, then put the slab
 * where its fill level says. */
static void deactivate_slab(struct ss_kcache *s, struct ss_kcache_cpu *c,
			    unsigned cpu, struct ss_op *op)
{
	struct ss_slab *sl = c->slab;
	struct ss_kcache_node *n = &s->node[sl->node];
	bool remote = sl->objects > sl->inuse; /* slab->freelist not empty */
	double start = op->cycles;

	c->slab = NULL;
	ss_slab_touch(sl, cpu, op);
	ss_step(op, SS_STEP_DEACTIVATE, 1);
	ss_step(op, SS_STEP_DEACTIVATE_OBJECT, sl->cpu_free);
	if (!s->cmpxchg_ok)
		ss_step(op, SS_STEP_CMPXCHG_LOCKED, sl->cpu_free + 1);
	if (remote)
		ss_step(op, SS_STEP_DEACTIVATE_REMOTE_FREES, 1);
	sl->inuse -= sl->cpu_free;
	sl->cpu_free = 0;
	sl->where = SS_SLAB_NONE;
	if (sl->inuse == 0 && ss_slab_should_discard(s, n)) {
		ss_step(op, SS_STEP_DEACTIVATE_EMPTY, 1);
		ss_slab_discard(s, sl, op);
	} else if (sl->inuse < sl->objects) {
		ss_list_lock(s, n, op);
		ss_slab_add_partial(s, sl, remote);
		ss_step(op, remote ? SS_STEP_DEACTIVATE_TO_TAIL
				   : SS_STEP_DEACTIVATE_TO_HEAD, 1);
		ss_list_unlock(n, op);
	} else {
		ss_step(op, SS_STEP_DEACTIVATE_FULL, 1);
	}
	ss_fn_done(s->fns, SS_FN_DEACTIVATE, op, start);
}

/* ___slab_alloc(): the slow path. */
static struct ss_slab *slab_alloc_paths(struct ss_kcache *s, unsigned cpu,
					struct ss_op *op)
{
	struct ss_kcache_cpu *c = &s->cpu[cpu];
	struct ss_slab *sl = c->slab;
	unsigned node = s->topo->cpu_node[cpu];

	ss_step(op, SS_STEP_ALLOC_SLOWPATH, 1);
	if (sl) {
		if (sl->objects > sl->inuse) { /* get_freelist(): remote frees */
			sl->cpu_free += sl->objects - sl->inuse;
			sl->inuse = sl->objects;
			ss_slab_touch(sl, cpu, op);
			ss_step(op, SS_STEP_ALLOC_REFILL, 1);
			ss_slab_cmpxchg(s, sl, op);
			return sl;
		}
		deactivate_slab(s, c, cpu, op);
	}
	while ((sl = ss_slab_of(c->partial.head))) { /* slub_percpu_partial() */
		ss_list_del(&c->partial, &sl->link);
		ss_step(op, SS_STEP_CPU_PARTIAL_ALLOC, 1);
		if (sl->objects > sl->inuse) {
			activate(c, sl, cpu, op);
			return sl;
		}
		/* a full slab cannot be on c->partial; keep the books anyway */
		sl->where = SS_SLAB_NONE;
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

struct ss_slab *ss_kcache_alloc(struct ss_kcache *s, unsigned cpu,
				struct ss_op *op)
{
	struct ss_slab *sl;

	op->stats = s->stats;
	if (s->debug_paths) {
		sl = ss_slub_debug_alloc(s, cpu, op);
	} else {
		sl = s->cpu[cpu].slab;
		if (sl && sl->cpu_free) {
			ss_step(op, SS_STEP_ALLOC_FASTPATH, 1);
		} else {
			sl = slab_alloc_slow(s, cpu, op);
			if (!sl)
				return NULL;
		}
		sl->cpu_free--;
	}
	if (sl)
		s->live++;
	return sl;
}

/* ---- free ---- */

/* __slab_free(): the object is not on this CPU's active slab. */
static void slab_free_paths(struct ss_kcache *s, unsigned cpu,
			    struct ss_slab *sl, struct ss_op *op)
{
	struct ss_kcache_node *n = &s->node[sl->node];
	bool was_full = sl->inuse == sl->objects; /* prior == NULL */

	ss_step(op, SS_STEP_FREE_SLOWPATH, 1);
	if (sl->node != s->topo->cpu_node[cpu])
		ss_step(op, SS_STEP_NODE_REMOTE, 1);
	ss_slab_touch(sl, cpu, op);
	/* the cmpxchg_double loop (its price is in free_slowpath's) */
	ss_slab_cmpxchg(s, sl, op);
	sl->inuse--;
	/* Active slab of another CPU, or on a CPU partial list: the object
	 * joins slab->freelist and nothing moves.  (6.8+ no longer freezes
	 * CPU-partial slabs, but it moves them no more than this either.) */
	if (sl->where == SS_SLAB_ACTIVE || sl->where == SS_SLAB_CPU_PARTIAL) {
		ss_step(op, SS_STEP_FREE_FROZEN, 1);
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
	if (!sl->inuse && ss_slab_should_discard(s, n)) {
		if (!was_full) {
			ss_slab_remove_partial(s, sl);
			ss_step(op, SS_STEP_FREE_REMOVE_PARTIAL, 1);
		}
		/* slab_empty: spin_unlock_irqrestore, then discard_slab */
		ss_list_unlock(n, op);
		ss_slab_discard(s, sl, op);
		return;
	}
	if (was_full) {
		ss_slab_add_partial(s, sl, true);
		ss_step(op, SS_STEP_FREE_ADD_PARTIAL, 1);
	}
	ss_list_unlock(n, op);
}

static void slab_free_slow(struct ss_kcache *s, unsigned cpu,
			   struct ss_slab *sl, struct ss_op *op)
{
	double start = op->cycles;

	slab_free_paths(s, cpu, sl, op);
	ss_fn_done(s->fns, SS_FN_SLAB_FREE, op, start);
}

void ss_kcache_free(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl,
		    struct ss_op *op)
{
	op->stats = s->stats;
	s->live--;
	if (s->debug_paths) {
		ss_slub_debug_free(s, cpu, sl, op);
		return;
	}
	if (sl == s->cpu[cpu].slab) { /* do_slab_free() fast path */
		sl->cpu_free++;
		ss_step(op, SS_STEP_FREE_FASTPATH, 1);
		return;
	}
	slab_free_slow(s, cpu, sl, op);
}
