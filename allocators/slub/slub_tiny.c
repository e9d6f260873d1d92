/* slub_tiny.c - CONFIG_SLUB_TINY's allocation and free paths (slub_tiny.h).
 *
 * mm/slub.c with CONFIG_SLUB_TINY (6.2 .. 6.18): __slab_alloc_node()
 * calls get_partial() (get_partial_node() -> alloc_single_from_partial())
 * or new_slab() + alloc_single_from_new_slab(); do_slab_free() is
 * __slab_free().  "mm, slub: retain no free slabs on partial list with
 * CONFIG_SLUB_TINY" sets MIN_PARTIAL 0; "mm, slub: remove percpu slabs
 * with CONFIG_SLUB_TINY" removes struct kmem_cache_cpu.  Partial slabs of
 * other NUMA nodes (get_any_partial()) are not searched.  7.0 - 7.2: the
 * same allocation (___slab_alloc() -> get_from_partial_node() ->
 * alloc_single_from_partial(), no ALLOC_FROM_PARTIAL statistic), and
 * every free is free_to_partial_list(): under list_lock, whatever the
 * slab does (__slab_free()).
 */
#include "slub_tiny.h"

void ss_tiny_setup(struct ss_kcache *s)
{
	s->geo.min_partial = 0;
	s->geo.cpu_partial = 0;
	s->geo.cpu_partial_slabs = 0;
	s->has_cpu_partial = false;
}

struct ss_slab *ss_tiny_alloc(struct ss_kcache *s, unsigned cpu, struct ss_op *op)
{
	unsigned node = s->topo->cpu_node[cpu];
	struct ss_slab *sl = ss_slab_of(s->node[node].partial.head);
	double start = op->cycles;

	op->stats = s->stats;
	ss_step(op, SS_STEP_ALLOC_SLOWPATH, 1);
	if (sl) { /* alloc_single_from_partial(), under list_lock */
		ss_list_lock(s, &s->node[node], op);
		if (s->t->era < SS_ERA_7_0)
			ss_step(op, SS_STEP_ALLOC_FROM_PARTIAL, 1);
		ss_slab_touch(sl, cpu, op);
		sl->inuse++;
		if (sl->inuse == sl->objects)
			ss_slab_remove_partial(s, sl);
		ss_list_unlock(&s->node[node], op);
	} else { /* alloc_single_from_new_slab() */
		sl = ss_slab_new(s, node, op);
		if (!sl)
			return NULL;
		op->stats = s->stats;
		ss_slab_touch(sl, cpu, op);
		sl->inuse = 1;
		if (sl->inuse < sl->objects) {
			ss_list_lock(s, &s->node[node], op);
			ss_slab_add_partial(s, sl, false);
			ss_list_unlock(&s->node[node], op);
		}
	}
	s->live++;
	ss_fn_done(s->fns, SS_FN_SLAB_ALLOC, op, start);
	return sl;
}

void ss_tiny_free(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl,
		  struct ss_op *op)
{
	bool was_full = sl->inuse == sl->objects, discard;
	double start = op->cycles;

	op->stats = s->stats;
	s->live--;
	ss_step(op, SS_STEP_FREE_SLOWPATH, 1);
	if (sl->node != s->topo->cpu_node[cpu])
		ss_step(op, SS_STEP_NODE_REMOTE, 1);
	sl->inuse--;
	discard = !sl->inuse && ss_slab_should_discard(s, &s->node[sl->node], sl);
	/* up to 6.18 list_lock only when the slab moves (slab_empty:
	 * n->nr_partial >= min_partial (0) holds always; a full one goes
	 * to the list: !kmem_cache_has_cpu_partial(), add_partial());
	 * 7.0+ free_to_partial_list() takes it for every free */
	if (discard || was_full || s->t->era >= SS_ERA_7_0)
		ss_step(op, SS_STEP_LIST_LOCK, 1);
	if (discard) {
		if (!was_full) {
			ss_slab_remove_partial(s, sl);
			ss_step(op, SS_STEP_FREE_REMOVE_PARTIAL, 1);
		}
		ss_slab_discard(s, sl, op);
	} else if (was_full) {
		ss_slab_add_partial(s, sl, true);
		ss_step(op, SS_STEP_FREE_ADD_PARTIAL, 1);
	}
	ss_fn_done(s->fns, SS_FN_SLAB_FREE, op, start);
}
