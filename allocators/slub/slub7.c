/* slub7.c - SLUB's slab paths of 7.0 - 7.2 (slub7.h), mm/slub.c of 7.2.13.
 *
 * The simulation is single-threaded: a slab taken off the partial list
 * by a refill is emptied and its remainder returned within the same
 * operation, so no other CPU ever frees to a slab that is on no list and
 * not full, and __slab_try_return_freelist() always succeeds.  The
 * kernel's branches for those races are not modelled; nor are
 * pfmemalloc slabs, node-bound requests (the trace has no node) and
 * allocations that may not spin (kmalloc_nolock()).
 */
#include "slub7.h"

#include "slub_debug.h"

/* The remote-node passes run unless the defrag ratio says stay local. */
static bool try_other_nodes(struct ss_kcache *s)
{
	return s->topo->nr_nodes > 1 && s->remote_node_defrag_ratio &&
	       ss_kcache_defrag_coin(s) <= s->remote_node_defrag_ratio;
}

/* ---- allocation ---- */

/* get_from_partial_node(): under list_lock, one object from the first
 * partial slab by a cmpxchg of its freelist (__slab_update_freelist(),
 * irqs off); a slab left without free objects leaves the list.  NULL
 * when the node has none. */
static struct ss_slab *from_partial_node(struct ss_kcache *s, unsigned cpu,
					 struct ss_kcache_node *n, struct ss_op *op)
{
	struct ss_slab *sl = ss_slab_of(n->partial.head);

	if (!sl)
		return NULL;
	ss_list_lock(s, n, op);
	ss_slab_touch(sl, cpu, op);
	ss_slab_cmpxchg_irqoff(s, sl, op, 1);
	if (++sl->inuse == sl->objects)
		ss_slab_remove_partial(s, sl);
	ss_list_unlock(n, op);
	return sl;
}

/* get_from_any_partial(): the nearest other node (zonelist order) with
 * more than min_partial partial slabs. */
static struct ss_slab *from_any_partial(struct ss_kcache *s, unsigned cpu, unsigned local,
					struct ss_op *op)
{
	const uint16_t *zonelist;

	if (!try_other_nodes(s))
		return NULL;
	zonelist = ss_topology_zonelist(s->topo, local);
	for (unsigned i = 1; i < s->topo->nr_nodes; i++) {
		struct ss_kcache_node *n = &s->node[zonelist[i]];
		struct ss_slab *sl;

		if (n->partial.nr <= s->geo.min_partial)
			continue;
		if ((sl = from_partial_node(s, cpu, n, op))) {
			ss_step(op, SS_STEP_NODE_REMOTE, 1);
			return sl;
		}
	}
	return NULL;
}

/* alloc_from_new_slab(): count objects off a new slab; one that keeps
 * free objects goes to the head of its node's partial list (under
 * list_lock). */
static void take_new(struct ss_kcache *s, struct ss_slab *sl, unsigned cpu, unsigned count,
		     struct ss_op *op)
{
	struct ss_kcache_node *n = &s->node[sl->node];

	ss_slab_touch(sl, cpu, op);
	sl->inuse = count;
	if (count < sl->objects) {
		ss_list_lock(s, n, op);
		ss_slab_add_partial(s, sl, false);
		ss_list_unlock(n, op);
	}
}

struct ss_slab *ss7_slab_alloc(struct ss_kcache *s, unsigned cpu, struct ss_op *op)
{
	unsigned node = s->cpu_node[cpu];
	double start = op->cycles;
	struct ss_slab *sl;

	op->stats = s->stats;
	if (s->debug_paths) {
		sl = ss_slub_debug_alloc(s, cpu, op);
		if (sl)
			s->live++;
		return sl;
	}
	ss_step(op, SS_STEP_ALLOC_SLOWPATH, 1);
	sl = from_partial_node(s, cpu, &s->node[node], op);
	if (!sl)
		sl = from_any_partial(s, cpu, node, op);
	if (!sl && (sl = ss_slab_new(s, node, op)))
		take_new(s, sl, cpu, 1, op);
	if (sl)
		s->live++;
	ss_fn_done(s->fns, SS_FN_SLAB_ALLOC, op, start);
	return sl;
}

/* ---- the sheaves' bulk refill ---- */

/* get_partial_node_bulk() and the rest of __refill_objects_node(): under
 * list_lock, slabs off the head of n's partial list until their free
 * objects reach max (with min == max, as refill_sheaf() asks, the test
 * for overshooting after min is never reached first); then, unlocked,
 * each slab's whole freelist taken by one cmpxchg
 * (get_freelist_nofreeze(): it is full, on no list), its objects into
 * out[] until max, and the last slab's remainder given back to the tail
 * of the partial list (__slab_try_return_freelist(): list_lock and a
 * cmpxchg).  Returns the objects had. */
static unsigned refill_node(struct ss_kcache *s, unsigned cpu, struct ss_kcache_node *n,
			    unsigned max, struct ss_slab **out, struct ss_op *op)
{
	struct ss_list taken = {0};
	struct ss_slab *sl;
	unsigned total = 0, got = 0;

	if (!n->partial.nr)
		return 0;
	ss_list_lock(s, n, op);
	while (total < max && (sl = ss_slab_of(n->partial.head))) {
		total += sl->objects - sl->inuse;
		ss_slab_remove_partial(s, sl);
		ss_list_add(&taken, &sl->link, true);
	}
	ss_list_unlock(n, op);
	while ((sl = ss_slab_of(taken.head))) {
		unsigned count = sl->objects - sl->inuse, give;

		ss_list_del(&taken, &sl->link);
		ss_slab_touch(sl, cpu, op);
		ss_slab_cmpxchg_irqsave(s, sl, op);
		give = count < max - got ? count : max - got;
		sl->inuse += give;
		s->live += give;
		for (unsigned i = 0; i < give; i++)
			out[got++] = sl;
		if (give < count) { /* __slab_try_return_freelist() */
			ss_list_lock(s, n, op);
			ss_slab_cmpxchg_irqsave(s, sl, op);
			ss_slab_add_partial(s, sl, true);
			ss_list_unlock(n, op);
		}
	}
	return got;
}

/* __refill_objects_any(): other nodes' partial lists (more than
 * min_partial slabs), nearest first, until min is reached. */
static unsigned refill_any(struct ss_kcache *s, unsigned cpu, unsigned local, unsigned max,
			   struct ss_slab **out, struct ss_op *op)
{
	const uint16_t *zonelist;
	unsigned got = 0;

	if (!try_other_nodes(s))
		return 0;
	zonelist = ss_topology_zonelist(s->topo, local);
	for (unsigned i = 1; i < s->topo->nr_nodes && got < max; i++) {
		struct ss_kcache_node *n = &s->node[zonelist[i]];
		unsigned r;

		if (n->partial.nr <= s->geo.min_partial)
			continue;
		r = refill_node(s, cpu, n, max - got, out + got, op);
		if (r)
			ss_step(op, SS_STEP_NODE_REMOTE, 1);
		got += r;
	}
	return got;
}

unsigned ss7_refill(struct ss_kcache *s, unsigned cpu, unsigned n, struct ss_slab **out,
		    struct ss_op *op)
{
	unsigned node = s->cpu_node[cpu];
	unsigned got;

	op->stats = s->stats;
	got = refill_node(s, cpu, &s->node[node], n, out, op);
	if (got < n)
		got += refill_any(s, cpu, node, n - got, out + got, op);
	while (got < n) { /* new slabs, each taken up to what is missing */
		struct ss_slab *sl = ss_slab_new(s, node, op);
		unsigned take;

		if (!sl)
			break;
		op->stats = s->stats;
		take = n - got < sl->objects ? n - got : sl->objects;
		take_new(s, sl, cpu, take, op);
		s->live += take;
		for (unsigned i = 0; i < take; i++)
			out[got++] = sl;
	}
	return got;
}

/* ---- free ---- */

/* __slab_free() of cnt objects of sl (7.2): one cmpxchg of the slab's
 * freelist and counters; list_lock only when the slab was full (it goes
 * to the partial list's tail) or becomes empty (discarded when the node
 * has min_partial partial slabs or more, else it stays listed).  No
 * frozen slabs, no CPU partial lists. */
static void slab_free(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl, unsigned cnt,
		      struct ss_op *op)
{
	struct ss_kcache_node *n = &s->node[sl->node];
	bool was_full = sl->inuse == sl->objects;
	bool locked = was_full || sl->inuse == cnt;
	double start = op->cycles;

	if (sl->node != s->cpu_node[cpu])
		ss_step(op, SS_STEP_NODE_REMOTE, 1);
	ss_slab_touch(sl, cpu, op);
	if (locked) /* taken before the cmpxchg, speculatively */
		ss_list_lock(s, n, op);
	ss_slab_cmpxchg_irqsave(s, sl, op);
	sl->inuse -= cnt;
	s->live -= cnt;
	if (!locked)
		goto out;
	if (!was_full && sl->where != SS_SLAB_NODE_PARTIAL) {
		ss_list_unlock(n, op); /* (a slab being refilled from) */
		goto out;
	}
	ss_slab_free_locked(s, n, sl, was_full, op);
out:
	ss_fn_done(s->fns, SS_FN_SLAB_FREE, op, start);
}

void ss7_slab_free(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl, struct ss_op *op)
{
	op->stats = s->stats;
	if (s->debug_paths) {
		s->live--;
		ss_slub_debug_free(s, cpu, sl, op);
		return;
	}
	slab_free(s, cpu, sl, 1, op);
	ss_step(op, SS_STEP_FREE_SLOWPATH, 1);
}

void ss7_free_bulk(struct ss_kcache *s, unsigned cpu, struct ss_slab **p, unsigned size,
		   struct ss_op *op)
{
	op->stats = s->stats;
	while (size) { /* build_detached_freelist() */
		struct ss_slab *sl = p[--size];
		unsigned same = size, cnt = 1, lookahead = 3;

		while (size) {
			struct ss_slab *o = p[--size];

			if (o == sl) {
				cnt++;
				same--;
				if (size != same) {
					p[size] = p[same];
					p[same] = o;
				}
				continue;
			}
			if (!--lookahead)
				break;
		}
		size = same;
		slab_free(s, cpu, sl, cnt, op);
	}
}
