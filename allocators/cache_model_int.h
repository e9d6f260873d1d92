/* cache_model_int.h - the cache model's state, shared by its files:
 * cache_model.c (caches, routing, the model operations), cm_memcg.c
 * (obj_cgroup vectors), cm_kfence.c (the KFENCE pool),
 * cache_model_fast.h (the inline paths) and cache_model_batch.c (the
 * batch replay).  Nothing else includes it.
 */
#ifndef SS_CACHE_MODEL_INT_H
#define SS_CACHE_MODEL_INT_H

#include "backend.h"
#include "cache_model.h"
#include "kmalloc_type.h"
#include "slub_cache.h"
#include "strtab.h"

#define SS_SIZE_MEMO_MAX 8192

/* ss_obj.mflags */
#define SS_CM_ACCOUNTED 0x1u /* charged to a memcg */
#define SS_CM_KFENCE 0x2u	  /* from the KFENCE pool */

struct ss_cm_cache {
	char name[64];
	struct ss_cache_spec spec;
	void *be;		 /* the backend's cache; NULL for the KFENCE pool */
	unsigned stride, debug;	 /* for find_mergeable() */
	bool nomerge;
	bool account;		 /* SLAB_ACCOUNT: a vector with every slab */
	/* bytes asked for by live objects, but for what the backend counts
	 * itself (its report's requested_live: cm_requested()) */
	uint64_t requested_live;
	/* the allocator's own objects in this cache (cm_internal_kmalloc) */
	uint64_t internal_live, internal_requested;
};

/* slab -> its memcg vector (open addressing, linear probing). */
struct ss_cm_vec {
	void *slab;
	struct ss_iobj vec;
};
struct ss_cm_vecmap {
	struct ss_cm_vec *e;
	size_t cap, nr;
};

/* Sites below this have a route memo (a binary trace's ALLOC8 names at
 * most 2^12 sites: trace_bin.h). */
#define SS_ROUTE_MEMO_SITES 4096

/* Where the last alloc of a site went (cache_model_batch.c): an alloc
 * with the same api and size and no gfp flag goes to the same cache (its
 * route memos and plain caches never change once set) and the same
 * account pair (pairs keep their index; one model, one run's account).
 * key 0: empty. */
struct ss_site_route {
	uint64_t key;
	struct ss_kcache *k;
	uint32_t pair;
	int32_t ci;
};

struct ss_cm_kfence {
	int cache;		/* the pool's cache index, -1 until first use */
	double next_ns;		/* when the sample gate opens next */
	uint64_t live;
	uint64_t stats[SS_NR_STEPS];
};

struct ss_cmodel {
	struct ss_model_config cfg;
	const struct ss_placement *policy;
	const struct ss_backend_ops *be;
	struct ss_backend_env env;
	struct ss_cm_cache **caches;
	/* per cache: the SLUB cache the replay may call inline
	 * (ss_backend_ops.plain: no sheaves, not SLUB_TINY, not
	 * SLAB_ACCOUNT), else NULL */
	struct ss_kcache **plain;
	unsigned nr_caches, cap_caches;
	/* the inline paths apply to this model at all: no hook runs on
	 * allocations, frees or slabs (KFENCE, init_on_alloc/free, memcg) */
	bool fast;
	/* a kmalloc's cache is its size class's whenever its gfp has no
	 * family flag: no random copies, no buckets, no placement by site */
	bool kmalloc_by_size;
	/* trace api -> cache index + 1 (0 unknown): a named cache's route
	 * depends on its api alone in every placement */
	struct ss_route_memo api_memo;
	/* cache names -> the first cache of that name: a named lookup costs
	 * one hash probe, not a strcmp per cache (kmem_cache --no-merge at
	 * 80k sites was 61 s) */
	struct ss_strtab names;
	int32_t *name_cache;	/* names index -> cache index */
	uint8_t *prior_placed;	/* per trace api: its kernel objects placed */
	uint32_t nr_prior_placed;
	/* pages the model gave to slabs outside an operation (an initial
	 * state's, the KFENCE pool at boot): the next operation reports them
	 * (ss_op.slab_pages) */
	int64_t pending_pages;
	/* a cache changed outside an operation (initial state, a merge's
	 * larger object_size): the next operation says so (ss_op.resync) */
	bool resync_pending;
	void **timed;		/* the backend caches, for cpu_timer() */
	int32_t *kcache[SS_NR_KT]; /* per family: class index -> cache index */
	int nr_classes;
	int32_t *size_memo;	/* kmalloc-N by (size - 1) >> 3, + 1 */
	uint8_t *site_type;	/* per site: ss_kmalloc_site_type() + 1 */
	uint32_t nr_site_type;
	struct ss_route_memo memo; /* the placement's memo */
	struct ss_ov_state *ov;	   /* placement overrides (`run --place`), or NULL */
	struct ss_large_report large;
	struct ss_cm_vecmap vecs;
	struct ss_cm_kfence kfence;
	bool timed_work;	/* tick() has something to do */
	double *now_ns;		/* per CPU: its clock at its last event */
	double *timer_ns;	/* per CPU: when cpu_timer() is due; < 0 not started */
	/* SLAB_ALLOC_NO_RECURSE in flight (backend.h no_recurse) */
	bool sheaf_no_recurse;
	/* the batch replay's route of an alloc by site (NULL until its first
	 * call: SS_ROUTE_MEMO_SITES entries) */
	struct ss_site_route *route_memo;
};

/* The requested-bytes counter of cache c (see cm_cache.requested_live). */
static inline uint64_t *cm_requested(struct ss_cmodel *m, unsigned c)
{
	return m->plain[c] ? &m->plain[c]->requested_live : &m->caches[c]->requested_live;
}

/* kmalloc(bytes) of the normal family, for the allocator's own objects
 * (ss_backend_env.kmalloc), and its kfree. */
int ss_cm_internal_kmalloc(void *ctx, uint64_t bytes, const char *site, unsigned cpu,
			struct ss_iobj *out, struct ss_op *op);
void ss_cm_internal_kfree(void *ctx, struct ss_iobj *obj, unsigned cpu, struct ss_op *op);

/* cm_memcg.c */
void ss_cm_slab_event(void *ctx, int cache, void *slab, unsigned objects,
		   bool created, unsigned cpu, struct ss_op *op);
/* After an allocation with __GFP_ACCOUNT or from a SLAB_ACCOUNT cache:
 * the charge, and the slab's vector if it has none yet.  0, or -1 with
 * err (out of memory, or a vector no kmalloc class holds). */
int ss_cm_memcg_charge(struct ss_cmodel *m, struct ss_cm_cache *fc, struct ss_obj *obj,
		    struct ss_op *op, struct ss_error *err);
void ss_cm_vecmap_release(struct ss_cm_vecmap *v);

/* cm_kfence.c */
/* Whether this allocation is KFENCE's (the gate open, the pool not full). */
bool ss_cm_kfence_wants(const struct ss_cmodel *m, unsigned cpu, uint64_t size);
/* The pool (at boot, as the kernel reserves it).  0 or -1 with err. */
int ss_cm_kfence_init(struct ss_cmodel *m, struct ss_error *err);
/* kfence_alloc() / kfence_free(). */
void ss_cm_kfence_alloc(struct ss_cmodel *m, unsigned cpu, struct ss_obj *obj,
		     struct ss_op *op);
void ss_cm_kfence_free(struct ss_cmodel *m, struct ss_obj *obj, struct ss_op *op);
void ss_cm_kfence_report(const struct ss_cmodel *m, struct ss_cache_report *r);

/* cache_model_batch.c: the model's batch replay (model.h batch), for a
 * model whose plain caches take no hook (fast); NULL otherwise. */
const struct ss_model_batch *ss_cmodel_batch(struct ss_model *m);

/* Append a cache (backend NULL: the KFENCE pool); its index or -1 with err. */
int ss_cm_add_cache(struct ss_cmodel *m, const char *name, const struct ss_cache_spec *spec,
		 bool with_backend, struct ss_error *err);

#endif
