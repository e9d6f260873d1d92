/* slub_debug.c - the alloc and free paths of a cache with slub_debug
 * flags, in three eras (reference/slub.md §4):
 *   3.10-4.5  every alloc: ___slab_alloc takes a slab, alloc_debug_processing,
 *             deactivate_slab; every free: free_debug_processing under
 *             list_lock + slab_lock, then __slab_free (list_lock again on
 *             a list change); checks for any flag; no cmpxchg_double.
 *   4.6-6.0   the same paths; checks only with F; cmpxchg kept for P/Z.
 *             From 5.12 deactivate_slab splices the freelist back whole.
 *   6.1+      single objects from the node partial list under list_lock
 *             (alloc_single_from_partial / _new_slab, free_to_partial_list).
 */
#include "slub_debug.h"

/* init_object(): the free poison with __OBJECT_POISON (not for RCU or
 * ctor caches: calculate_sizes()), the red zone with Z. */
static void init_object(struct ss_kcache *s, struct ss_op *op)
{
	if (s->poisons_object) {
		ss_step(op, SS_STEP_POISON_WRITE, 1);
		ss_step(op, SS_STEP_POISON_WRITE_BYTES, s->geo.object_size);
	}
	if (s->geo.debug & SS_DBG_Z)
		ss_step(op, SS_STEP_REDZONE_WRITE, 1);
}

/* check_slab(): the slab's fields, then slab_pad_check(). */
static void check_slab(struct ss_kcache *s, struct ss_op *op)
{
	ss_step(op, SS_STEP_CHECK_SLAB, 1);
	ss_slab_pad_check(s, op);
}

/* alloc_debug_processing(): if checks run (3.10 - 4.5 any flag, then F:
 * alloc_consistency_checks()), check_slab, check_valid_pointer (whose
 * `(object - base) % s->size` is a 64-bit division) and
 * check_object(SLUB_RED_INACTIVE), which verifies the free poison and
 * the object's free pointer: the next free object, NULL when the object
 * was its slab's last (fp_set false); then set_track with U, init_object. */
static void alloc_debug_processing(struct ss_kcache *s, bool fp_set,
				   struct ss_op *op)
{
	double start = op->cycles;

	ss_step(op, SS_STEP_DEBUG_ALLOC, 1);
	if (s->debug_checks) {
		check_slab(s, op);
		ss_step(op, SS_STEP_CHECK_VALID_POINTER, 1);
		ss_check_object(s, false, fp_set, op);
	}
	if (s->geo.debug & SS_DBG_U)
		ss_step(op, SS_STEP_SET_TRACK, 1);
	init_object(s, op);
	ss_fn_done(s->fns, SS_FN_ALLOC_DEBUG, op, start);
}

/* free_debug_processing(): if checks run, check_slab, check_valid_pointer,
 * on_freelist (walks the slab's free objects looking for a double free,
 * check_valid_pointer on each), check_object(SLUB_RED_ACTIVE) (no poison
 * verify: the object is in use; its free pointer, when outside the object,
 * is checked too); then set_track with U, and init_object poisons the
 * freed object.  That pointer is the one the object held when it was
 * allocated, NULL only if it was then its slab's last free object; the
 * model does not follow single objects, so it counts the pointer as set:
 * an upper bound on check_object's check_valid_pointer() calls. */
static void free_debug_processing(struct ss_kcache *s, struct ss_slab *sl,
				  struct ss_op *op)
{
	double start = op->cycles;

	ss_step(op, SS_STEP_DEBUG_FREE, 1);
	if (s->debug_checks) {
		check_slab(s, op);
		ss_step(op, SS_STEP_CHECK_VALID_POINTER, 1 + sl->objects - sl->inuse);
		ss_step(op, SS_STEP_FREELIST_WALK, sl->objects - sl->inuse);
		ss_check_object(s, true, true, op);
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

/* deactivate_slab() handing the h objects left on the CPU freelist back.
 * Up to 5.11 stage one moves every object but the last with its own
 * __cmpxchg_double_slab() and stage two unfreezes the slab with one more
 * carrying the last: max(h, 1) updates.  From 5.12 ("mm, slub: splice cpu
 * and page freelists in deactivate_slab()") stage one only walks the list
 * to count it and stage two splices it whole: 1 update.  Each object is a
 * deactivate_object step either way (get_freepointer(), and up to 5.11
 * set_freepointer() into the slab's freelist). */
static void deactivate_freelist(struct ss_kcache *s, struct ss_slab *sl,
				uint64_t h, struct ss_op *op)
{
	ss_step(op, SS_STEP_DEACTIVATE_OBJECT, h);
	ss_slab_cmpxchg_irqoff(s, sl, op, s->t->era < SS_ERA_5_12 && h > 1 ? h : 1);
}

/* 3.10-6.0: ___slab_alloc() for a debug cache.  The slab is taken whole
 * (its freelist becomes the CPU's), one object is checked and handed out,
 * and deactivate_slab() returns the rest.  Every freelist update runs with
 * interrupts off (__slab_alloc's local_irq_save): lock-free cmpxchg_double
 * or the slab_lock fallback, never cmpxchg_locked's irq save. */
static struct ss_slab *debug_alloc_legacy(struct ss_kcache *s, unsigned cpu,
					  struct ss_op *op)
{
	struct ss_kcache_node *n = &s->node[s->topo->cpu_node[cpu]];
	struct ss_slab *sl = ss_slab_of(n->partial.head);
	unsigned handed_back;
	double deactivate_start;

	ss_step(op, SS_STEP_ALLOC_SLOWPATH, 1);
	if (sl) { /* get_partial_node() -> acquire_slab(), under list_lock:
		   * one update */
		ss_list_lock(s, n, op);
		ss_slab_remove_partial(s, sl);
		ss_step(op, SS_STEP_ALLOC_FROM_PARTIAL, 1);
		ss_slab_touch(sl, cpu, op);
		ss_slab_cmpxchg_irqoff(s, sl, op, 1);
		ss_list_unlock(n, op);
	} else { /* new_slab_objects(): no other reference, no cmpxchg */
		sl = ss_slab_new(s, s->topo->cpu_node[cpu], op);
		if (!sl)
			return NULL;
		ss_slab_touch(sl, cpu, op);
	}
	alloc_debug_processing(s, sl->objects - sl->inuse > 1, op);
	handed_back = sl->objects - sl->inuse - 1;
	sl->inuse++;
	deactivate_start = op->cycles;
	ss_step(op, SS_STEP_DEACTIVATE, 1);
	/* The updates of both stages as one use (a slab_lock held back to
	 * back without cmpxchg_double); then stage two's list_lock, for
	 * M_PARTIAL and for M_FULL of a debug cache ("if
	 * (kmem_cache_debug(s) && !lock)"). */
	deactivate_freelist(s, sl, handed_back, op);
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
	} else if (s->t->era < SS_ERA_7_0) { /* (a 6.x statistic) */
		ss_step(op, SS_STEP_ALLOC_FROM_PARTIAL, 1);
	}
	/* alloc_single_from_partial(): the checks and the poison under the
	 * node's list_lock (from a new slab the kernel checks before taking
	 * it; the hold here spans them too). */
	n = &s->node[sl->node];
	ss_list_lock(s, n, op);
	ss_slab_touch(sl, cpu, op);
	alloc_debug_processing(s, sl->objects - sl->inuse > 1, op);
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

	if (sl->inuse || !ss_slab_should_discard(s, n, sl)) {
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
 * lists; __slab_free()'s update is cmpxchg_double_slab(): without
 * __CMPXCHG_DOUBLE (any debug flag up to 4.5, kmem_cache_open()) its
 * irq-saving slab_lock fallback, lock-free from 4.6 for P.  6.1+:
 * free_to_partial_list() does all under one list_lock and writes
 * slab->freelist and inuse directly: no cmpxchg of any kind. */
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
		ss_slab_cmpxchg_irqsave(s, sl, op);
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
