/* slub_model_fast.h - the SLUB model's state and its common alloc and
 * free, inline, for slub_model.c and for the replay loop (sim/replay.c),
 * which calls them directly for a SLUB model instead of through the
 * model's function pointers: at a few dozen instructions per event, a
 * call and a function prologue are a large share (docs/bench.md).
 * Everything else -- a route not yet memoized, a slow path, a debug
 * cache, zero-size and kmalloc_large -- goes through the model ops. */
#ifndef SS_SLUB_MODEL_FAST_H
#define SS_SLUB_MODEL_FAST_H

#include "slub.h"
#include "strtab.h"
#include "slub_model.h"

#define SS_SIZE_MEMO_MAX 8192

struct ss_slub_model {
	struct ss_model_config cfg;
	const struct ss_placement *policy;
	struct ss_kcache **caches;
	unsigned nr_caches, cap_caches;
	int32_t *kmalloc_cache; /* class index -> cache index, -1 none yet */
	/* (size - 1) >> 3 -> cache index + 1 (0 unknown), for sizes up to
	 * SS_SIZE_MEMO_MAX: every kmalloc class boundary is a multiple of 8,
	 * so one slot per 8 bytes is exact.  Saves the class lookup per alloc. */
	int32_t size_memo[SS_SIZE_MEMO_MAX / 8];
	/* trace api -> cache index + 1 (0 unknown): a named cache's route
	 * depends on its api alone in every placement */
	struct ss_route_memo api_memo;
	struct ss_route_memo memo; /* the placement's memo */
	uint8_t *prior_placed;	  /* per trace api: its kernel objects placed */
	uint32_t nr_prior_placed;
	bool resync_pending;	  /* start_as_kernel() filled a new cache, or a merge grew one */
	struct ss_large_report large;
	/* cache names (as stored, so cut names match as before) -> the first
	 * cache of that name: a named lookup costs one hash probe, not a
	 * strcmp per cache (kmem_cache --no-merge at 80k sites was 61 s) */
	struct ss_strtab names;
	int32_t *name_cache; /* names index -> cache index */
};

/* The cache of ev without the placement: its api's (a declared cache),
 * or its size class (kmalloc, placements that do not look at the site);
 * -1 when not known yet. */
static inline int ss_slub_memo_route(const struct ss_slub_model *m,
				     const struct ss_event *ev)
{
	if (ev->api != SS_API_KMALLOC)
		return ev->api < m->api_memo.nr ? m->api_memo.slot[ev->api] - 1 : -1;
	if (m->policy->kmalloc_by_site || ev->value - 1 >= SS_SIZE_MEMO_MAX)
		return -1; /* (size 0 wraps: ZERO_SIZE_PTR) */
	return m->size_memo[(ev->value - 1) >> 3] - 1;
}

/* The object into its cache c (known), any path. */
static inline int ss_slub_alloc_in(struct ss_slub_model *m, int c,
				   const struct ss_event *ev, struct ss_obj *obj,
				   struct ss_op *op, struct ss_error *err)
{
	struct ss_kcache *s = m->caches[c];

	obj->slab = ss_kcache_alloc(s, ev->cpu, op);
	if (!obj->slab)
		return ss_errorf(err, "out of memory for slab descriptors");
	obj->cache = (uint32_t)c;
	obj->state = SS_OBJ_LIVE;
	s->requested_live += obj->size;
	return 0;
}

/* kfree() / kmem_cache_free() of a slab object (state SS_OBJ_LIVE). */
static inline void ss_slub_free_live(struct ss_slub_model *m, unsigned cpu,
				     struct ss_obj *obj, struct ss_op *op)
{
	struct ss_kcache *s = m->caches[obj->cache];

	s->requested_live -= obj->size;
	if (obj->cpu != cpu) { /* perf kmem's "ping-pong": a cache line moves */
		op->stats = s->stats;
		ss_step(op, SS_STEP_REMOTE_FREE, 1);
	}
	ss_kcache_free(s, cpu, obj->slab, op);
}

#endif
