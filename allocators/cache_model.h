/* cache_model.h - a model made of one allocator's caches (SLUB, SLUB_TINY
 * or SLAB, backend.h: the target's allocator) plus a placement policy
 * that decides which cache each allocation goes to (traced,
 * kmalloc-buckets, kmem_cache).  Around the caches it does what the
 * kernel does around any allocator: kmalloc classes and their families
 * (kmalloc_type.h), kmalloc_large, zero-size requests, cache merging,
 * memcg obj_cgroup vectors, KFENCE, init_on_alloc/free.
 * Placements see this header only.
 */
#ifndef SS_CACHE_MODEL_H
#define SS_CACHE_MODEL_H

#include "geometry.h"
#include "model.h"

struct ss_cmodel;

/* Return the cache index for ev (>= 0), SS_ROUTE_KMALLOC to let the model
 * pick the kmalloc cache for the request, or -1 with err set. */
#define SS_ROUTE_KMALLOC (-2)
/* From a placement override: no rule for this site, ask the placement. */
#define SS_ROUTE_BASE (-3)
struct ss_placement {
	int (*route)(struct ss_cmodel *m, const struct ss_event *ev,
		     struct ss_error *err);
	/* a kmalloc's cache depends on its site, not on its size alone
	 * (the model's size-class memo does not apply) */
	bool kmalloc_by_site;
};

const struct ss_model_config *ss_cmodel_config(const struct ss_cmodel *m);
/* The plain kmalloc class cache (kmalloc-N) a request of `size` bytes
 * goes to; -1 with err for sizes that have no class (0 and large are
 * handled by the model). */
int ss_cmodel_kmalloc_cache(struct ss_cmodel *m, uint64_t size,
			    struct ss_error *err);
/* Find or create a dedicated cache (kmem_cache_create), merged into an
 * existing one when the model's configuration merges. */
int ss_cmodel_named_cache(struct ss_cmodel *m, const char *name,
			  const struct ss_cache_spec *spec, struct ss_error *err);
/* The same with merging decided by the caller. */
int ss_cmodel_cache(struct ss_cmodel *m, const char *name, const struct ss_cache_spec *spec,
		    bool merge, struct ss_error *err);

/* The target's plain kmalloc class of class index idx (kmalloc.h). */
int ss_cmodel_kmalloc_class(struct ss_cmodel *m, int idx, struct ss_error *err);
/* A dedicated cache never merged (SLAB_NO_MERGE, `run --place`): a
 * cache of that name made with other arguments is an error. */
int ss_cmodel_own_cache(struct ss_cmodel *m, const char *name,
			const struct ss_cache_spec *spec, struct ss_error *err);

/* Per-key memo for routes: slot i holds cache index + 1 (0 = unknown). */
struct ss_route_memo {
	int32_t *slot;
	uint32_t nr;
};
struct ss_route_memo *ss_cmodel_memo(struct ss_cmodel *m);
int ss_route_memo_get(const struct ss_route_memo *memo, uint32_t key);
int ss_route_memo_set(struct ss_route_memo *memo, uint32_t key, int cache);
void ss_route_memo_release(struct ss_route_memo *memo);

extern const struct ss_model_ops ss_cache_model_ops;

#endif
