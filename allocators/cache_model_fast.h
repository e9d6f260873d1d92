/* cache_model_fast.h - the cache model's common alloc and free, inline,
 * for its model operations (cache_model.c) and its batch replay
 * (cache_model_batch.c), which call them directly instead of through the
 * backend's function pointers: at a few dozen instructions per event, a
 * call and a function prologue are a large share (docs/bench.md).  They
 * apply to a SLUB cache without
 * sheaves (the backend's plain()) in a model with no per-object hook
 * (ss_cmodel.fast: no memcg, whose vectors follow each slab on the CPU of
 * the operation, which slub.c's cache does not know): the object goes
 * straight to slub.c.  Everything else
 * -- a route not yet memoized, SLAB, SLUB_TINY, sheaves, memcg charges,
 * KFENCE, init_on_*, zero-size and kmalloc_large -- goes through the
 * model ops.
 */
#ifndef SS_CACHE_MODEL_FAST_H
#define SS_CACHE_MODEL_FAST_H

#include "cache_model_int.h"
#include "slub.h"

/* The cache of ev without the placement: its api's (a declared cache),
 * or its size class (a kmalloc with no family flag, in a model whose
 * kmallocs go by size); -1 when not known yet. */
static inline int ss_cmodel_route_of(const struct ss_cmodel *m, uint32_t api, uint32_t gfp,
				     uint64_t size)
{
	if (api != SS_API_KMALLOC)
		return api < m->api_memo.nr ? m->api_memo.slot[api] - 1 : -1;
	if (!m->kmalloc_by_size || (gfp & SS_GFP_ALL) || size - 1 >= SS_SIZE_MEMO_MAX)
		return -1; /* (size 0 wraps: ZERO_SIZE_PTR) */
	return m->size_memo[(size - 1) >> 3] - 1;
}

static inline int ss_cmodel_memo_route(const struct ss_cmodel *m, const struct ss_event *ev)
{
	return ss_cmodel_route_of(m, ev->api, ev->gfp, ev->value);
}

/* The plain SLUB cache ev goes to, or NULL: the model ops decide. */
static inline struct ss_kcache *ss_cmodel_fast_cache(const struct ss_cmodel *m,
						     const struct ss_event *ev, int *c)
{
	*c = ss_cmodel_memo_route(m, ev);
	return *c >= 0 ? m->plain[*c] : NULL;
}

/* The object (its size set) is in plain cache k (index c), on slab sl:
 * the record and the cache's bytes. */
static inline void ss_cmodel_placed(struct ss_kcache *k, int c, struct ss_obj *obj,
				    struct ss_slab *sl)
{
	obj->slab = sl;
	obj->mflags = 0;
	obj->cache = (uint32_t)c;
	obj->state = SS_OBJ_LIVE;
	k->requested_live += obj->size;
}

/* The object into plain cache k (index c). */
static inline int ss_cmodel_alloc_plain(struct ss_kcache *k, int c, const struct ss_event *ev,
					struct ss_obj *obj, struct ss_op *op, struct ss_error *err)
{
	struct ss_slab *sl = ss_kcache_alloc(k, ev->cpu, op);

	if (!sl)
		return ss_errorf(err, "out of memory for slab descriptors");
	/* after the alloc: a byte store may alias anything, and before it
	 * made gcc load op's fields again */
	ss_cmodel_placed(k, c, obj, sl);
	return 0;
}

/* kfree() / kmem_cache_free() of a live object, inline when its cache is
 * plain and the model hooked nothing to it; false: use the model ops. */
static inline bool ss_cmodel_free_plain(struct ss_cmodel *m, unsigned cpu, struct ss_obj *obj,
					struct ss_op *op)
{
	struct ss_kcache *k = m->plain[obj->cache];

	if (!k || obj->mflags)
		return false;
	k->requested_live -= obj->size;
	if (obj->cpu != cpu) { /* perf kmem's "ping-pong": a cache line moves */
		op->stats = k->stats;
		ss_step(op, SS_STEP_REMOTE_FREE, 1);
	}
	ss_kcache_free(k, cpu, obj->slab, op);
	return true;
}

/* The plain cache of live object obj when the model hooked nothing to
 * it (ss_cmodel_free_plain's test), else NULL. */
static inline struct ss_kcache *ss_cmodel_plain_of(const struct ss_cmodel *m,
						   const struct ss_obj *obj)
{
	struct ss_kcache *k = m->plain[obj->cache];

	return k && !obj->mflags ? k : NULL;
}

/* The free of obj from its plain cache k (ss_cmodel_plain_of) on prices
 * alone (f->cycles from 0; remote: obj->cpu != cpu, a constant where the
 * caller inlines each case), where SLUB takes a lock-free path (slub.h
 * ss_kcache_free_plain); false, nothing changed, for any other path
 * (ss_cmodel_free_declined then). */
static inline __attribute__((always_inline)) bool
ss_cmodel_free_priced(struct ss_kcache *k, unsigned cpu, struct ss_obj *obj, bool remote,
		      const double *cost, struct ss_lockfree *f)
{
	f->cycles = remote ? ss_price_from_0(cost[SS_STEP_REMOTE_FREE]) : 0;
	if (!ss_kcache_free_plain(k, cpu, obj->slab, cost, f))
		return false;
	k->requested_live -= obj->size;
	k->stats[SS_STEP_REMOTE_FREE] += remote;
	return true;
}

/* That free where ss_cmodel_free_priced() declined, on op:
 * ss_cmodel_free_plain() without the lock-free test a second time. */
static inline void ss_cmodel_free_declined(struct ss_kcache *k, unsigned cpu, struct ss_obj *obj,
					   bool remote, struct ss_op *op)
{
	k->requested_live -= obj->size;
	if (remote) { /* perf kmem's "ping-pong": a cache line moves */
		op->stats = k->stats;
		ss_step(op, SS_STEP_REMOTE_FREE, 1);
	}
	ss_kcache_free_declined(k, cpu, obj->slab, op);
}

#endif
