/* slub_debug.c - the alloc and free paths of a cache with slub_debug
 * flags, in three eras (reference/slub.md §4):
 *   3.10-4.5  every alloc: ___slab_alloc takes a slab, alloc_debug_processing,
 *             deactivate_slab; every free: free_debug_processing under
 *             list_lock + slab_lock, then __slab_free (list_lock again on
 *             a list change); checks for any flag; no cmpxchg_double.
 *   4.6-6.0   the same paths; checks only with F; cmpxchg kept for P/Z.
 *   6.1+      single objects from the node partial list under list_lock
 *             (alloc_single_from_partial / _new_slab, free_to_partial_list).
 */
#include "slub_debug.h"

/* init_object(): poison (P) and red zone (Z) of one object. */
static void init_object(struct ss_kcache *s, struct ss_op *op)
{
	if (s->geo.debug & SS_DBG_P) {
		ss_step(op, SS_STEP_POISON_WRITE, 1);
		ss_step(op, SS_STEP_POISON_WRITE_BYTES, s->geo.object_size);
	}
	if (s->geo.debug & SS_DBG_Z)
		ss_step(op, SS_STEP_REDZONE_WRITE, 1);
}

/* alloc_debug_processing(): check_slab + check_object (which verifies the
 * free poison when P) if checks run, set_track with U, init_object. */
static void alloc_debug_processing(struct ss_kcache *s, struct ss_op *op)
{
	double start = op->cycles;

	ss_step(op, SS_STEP_DEBUG_ALLOC, 1);
	if (s->debug_checks) {
		ss_step(op, SS_STEP_CHECK_SLAB, 1);
		ss_step(op, SS_STEP_CHECK_OBJECT, 1);
		if (s->geo.debug & SS_DBG_P) {
			ss_step(op, SS_STEP_POISON_CHECK, 1);
			ss_step(op, SS_STEP_POISON_CHECK_BYTES, s->geo.object_size);
		}
	}
	if (s->geo.debug & SS_DBG_U)
		ss_step(op, SS_STEP_SET_TRACK, 1);
	init_object(s, op);
	ss_fn_done(s->fns, SS_FN_ALLOC_DEBUG, op, start);
}

/* free_debug_processing(): check_slab, on_freelist (walks the slab's free
 * objects looking for a double free), check_object, set_track, then
 * init_object poisons the freed object. */
static void free_debug_processing(struct ss_kcache *s, struct ss_slab *sl,
				  struct ss_op *op)
{
	double start = op->cycles;

	ss_step(op, SS_STEP_DEBUG_FREE, 1);
	if (s->debug_checks) {
		ss_step(op, SS_STEP_CHECK_SLAB, 1);
		ss_step(op, SS_STEP_FREELIST_WALK, sl->objects - sl->inuse);
		ss_step(op, SS_STEP_CHECK_OBJECT, 1);
	}
	if (s->geo.debug & SS_DBG_U)
		ss_step(op, SS_STEP_SET_TRACK, 1);
	init_object(s, op);
	ss_fn_done(s->fns, SS_FN_FREE_DEBUG, op, start);
}

static void add_full(struct ss_kcache *s, struct ss_slab *sl)
{
	ss_list_add(&s->node[sl->node].full, &sl->link, false);
	sl->where = SS_SLAB_FULL;
}

/* add_full() returns at once without SLAB_STORE_USER, in 3.10 and 4.5 as
 * in 6.x: only U keeps full slabs on n->full. */
static bool keeps_full_list(const struct ss_kcache *s)
{
	return (s->geo.debug & SS_DBG_U) != 0;
}

static void leave_list(struct ss_kcache *s, struct ss_slab *sl)
{
	if (sl->where == SS_SLAB_NODE_PARTIAL)
		ss_slab_remove_partial(s, sl);
	else if (sl->where == SS_SLAB_FULL)
		ss_list_del(&s->node[sl->node].full, &sl->link);
	sl->where = SS_SLAB_NONE;
}

/* After an object left or joined sl, file it as its fill level says. */
static void file_slab(struct ss_kcache *s, struct ss_slab *sl, bool tail)
{
	leave_list(s, sl);
	if (sl->inuse == sl->objects) {
		if (keeps_full_list(s))
			add_full(s, sl);
	} else {
		ss_slab_add_partial(s, sl, tail);
	}
}

/* 3.10-6.0: ___slab_alloc() for a debug cache.  The slab is taken whole
 * (its freelist becomes the CPU's), one object is checked and handed out,
 * and deactivate_slab() returns the rest one object at a time. */
static struct ss_slab *debug_alloc_legacy(struct ss_kcache *s, unsigned cpu,
					  struct ss_op *op)
{
	struct ss_kcache_node *n = &s->node[s->topo->cpu_node[cpu]];
	struct ss_slab *sl = ss_slab_of(n->partial.head);
	unsigned handed_back;
	double deactivate_start;

	ss_step(op, SS_STEP_ALLOC_SLOWPATH, 1);
	if (sl) { /* get_partial_node() -> acquire_slab(), under list_lock */
		ss_list_lock(s, n, op);
		ss_slab_remove_partial(s, sl);
		ss_step(op, SS_STEP_ALLOC_FROM_PARTIAL, 1);
		ss_slab_touch(sl, cpu, op);
		if (!s->cmpxchg_ok)
			ss_slab_locked(s, sl, SS_STEP_CMPXCHG_LOCKED, 1, op);
		ss_list_unlock(n, op);
	} else {
		sl = ss_slab_new(s, s->topo->cpu_node[cpu], op);
		if (!sl)
			return NULL;
		ss_slab_touch(sl, cpu, op);
	}
	alloc_debug_processing(s, op);
	handed_back = sl->objects - sl->inuse - 1;
	sl->inuse++;
	deactivate_start = op->cycles;
	/* deactivate_slab(): the per-CPU freelist goes back object by object
	 * (stage one: one cmpxchg per object but the last), then one cmpxchg
	 * unfreezes the slab with the last object (stage two): handed_back
	 * cmpxchgs, or one when nothing is handed back. */
	ss_step(op, SS_STEP_DEACTIVATE, 1);
	ss_step(op, SS_STEP_DEACTIVATE_OBJECT, handed_back);
	/* The slab_lock holds of both stages as one (held back to back; the
	 * list_lock of stage two is priced after them, as before). */
	if (!s->cmpxchg_ok)
		ss_slab_locked(s, sl, SS_STEP_CMPXCHG_LOCKED,
			       handed_back ? handed_back : 1, op);
	n = &s->node[sl->node];
	ss_list_lock(s, n, op);
	if (sl->inuse == sl->objects) {
		ss_step(op, SS_STEP_DEACTIVATE_FULL, 1);
		if (keeps_full_list(s))
			add_full(s, sl);
	} else {
		ss_slab_add_partial(s, sl, false);
		ss_step(op, SS_STEP_DEACTIVATE_TO_HEAD, 1);
	}
	ss_list_unlock(n, op);
	ss_fn_done(s->fns, SS_FN_DEACTIVATE, op, deactivate_start);
	return sl;
}

/* 6.1+: alloc_single_from_partial() / alloc_single_from_new_slab(). */
static struct ss_slab *debug_alloc_single(struct ss_kcache *s, unsigned cpu,
					  struct ss_op *op)
{
	struct ss_kcache_node *n = &s->node[s->topo->cpu_node[cpu]];
	struct ss_slab *sl = ss_slab_of(n->partial.head);

	ss_step(op, SS_STEP_ALLOC_SLOWPATH, 1);
	if (!sl) {
		sl = ss_slab_new(s, s->topo->cpu_node[cpu], op);
		if (!sl)
			return NULL;
	} else {
		ss_step(op, SS_STEP_ALLOC_FROM_PARTIAL, 1);
	}
	/* alloc_single_from_partial(): the checks and the poison under the
	 * node's list_lock (from a new slab the kernel checks before taking
	 * it; the hold here spans them too). */
	n = &s->node[sl->node];
	ss_list_lock(s, n, op);
	ss_slab_touch(sl, cpu, op);
	alloc_debug_processing(s, op);
	sl->inuse++;
	file_slab(s, sl, false);
	ss_list_unlock(n, op);
	return sl;
}

/* ___slab_alloc() of a debug cache: every allocation. */
struct ss_slab *ss_slub_debug_alloc(struct ss_kcache *s, unsigned cpu,
				    struct ss_op *op)
{
	double start = op->cycles;
	struct ss_slab *sl = s->t->era < SS_ERA_6_1 ? debug_alloc_legacy(s, cpu, op)
						      : debug_alloc_single(s, cpu, op);

	ss_fn_done(s->fns, SS_FN_SLAB_ALLOC, op, start);
	return sl;
}

/* Empty slab: discard beyond min_partial, else keep it on n->partial.
 * The list_lock held is released before discard_slab(). */
static void release_if_empty(struct ss_kcache *s, struct ss_slab *sl,
			     struct ss_op *op)
{
	struct ss_kcache_node *n = &s->node[sl->node];

	if (sl->inuse || !ss_slab_should_discard(s, n)) {
		ss_list_unlock(n, op);
		return;
	}
	if (sl->where == SS_SLAB_NODE_PARTIAL)
		ss_step(op, SS_STEP_FREE_REMOVE_PARTIAL, 1);
	leave_list(s, sl);
	ss_list_unlock(n, op);
	ss_slab_discard(s, sl, op);
}

/* Every debug free.  3.10-6.0: free_debug_processing() runs under
 * list_lock + slab_lock; the lock is dropped before __slab_free()'s
 * cmpxchg (at the top of its loop up to 4.5 -- "In actuallity, the lock is
 * dropped immediately in __slab_free", 282acb436176 -- inside
 * free_debug_processing() from 4.6), and taken again when the slab changes
 * lists; 6.1+: free_to_partial_list() does all under one list_lock. */
void ss_slub_debug_free(struct ss_kcache *s, unsigned cpu,
			struct ss_slab *sl, struct ss_op *op)
{
	struct ss_kcache_node *n = &s->node[sl->node];
	bool was_full = sl->inuse == sl->objects;
	bool legacy = s->t->era < SS_ERA_6_1;
	bool list_change;
	double start = op->cycles;

	ss_step(op, SS_STEP_FREE_SLOWPATH, 1);
	if (sl->node != s->topo->cpu_node[cpu])
		ss_step(op, SS_STEP_NODE_REMOTE, 1);
	ss_slab_touch(sl, cpu, op);
	ss_list_lock(s, n, op);
	if (legacy) {
		ss_op_lock(op, &sl->lock, &s->res[SS_KRES_SLAB_LOCK]);
		ss_step(op, SS_STEP_SLAB_LOCK, 1);
	}
	free_debug_processing(s, sl, op);
	if (legacy) { /* both dropped before __slab_free's cmpxchg */
		ss_op_unlock(op, &sl->lock);
		ss_list_unlock(n, op);
		if (!s->cmpxchg_ok)
			ss_slab_locked(s, sl, SS_STEP_CMPXCHG_LOCKED, 1, op);
		else
			ss_slab_cmpxchg(s, sl, op);
	}
	sl->inuse--;
	list_change = was_full || sl->inuse == 0;
	if (list_change && legacy)
		ss_list_lock(s, n, op);
	if (was_full) {
		ss_step(op, SS_STEP_FREE_ADD_PARTIAL, 1);
		file_slab(s, sl, true);
	}
	release_if_empty(s, sl, op);
	ss_fn_done(s->fns, SS_FN_SLAB_FREE, op, start);
}
