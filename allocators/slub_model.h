/* slub_model.h - a model made of SLUB caches plus a placement policy that
 * decides which cache each allocation goes to (traced, kmalloc-buckets,
 * kmem_cache).  Placements see this header only. */
#ifndef SS_SLUB_MODEL_H
#define SS_SLUB_MODEL_H

#include "geometry.h"
#include "model.h"

struct ss_slub_model;

/* Return the cache index for ev (>= 0), SS_ROUTE_KMALLOC to let the model
 * pick the kmalloc class for ev->value, or -1 with err set. */
#define SS_ROUTE_KMALLOC (-2)
struct ss_placement {
	int (*route)(struct ss_slub_model *m, const struct ss_event *ev,
		     struct ss_error *err);
	/* a kmalloc's cache depends on its site, not on its size alone
	 * (the model's size-class memo does not apply) */
	bool kmalloc_by_site;
};

const struct ss_model_config *ss_slub_model_config(const struct ss_slub_model *m);
/* The kmalloc class cache a request of `size` bytes goes to; -1 with err
 * for sizes that have no class (0 and large are handled by the model). */
int ss_slub_model_kmalloc_cache(struct ss_slub_model *m, uint64_t size,
				struct ss_error *err);
/* Find or create a dedicated cache (kmem_cache_create), merged into an
 * existing one when the model's configuration merges. */
int ss_slub_model_named_cache(struct ss_slub_model *m, const char *name,
			      const struct ss_cache_spec *spec,
			      struct ss_error *err);
/* The same with merging decided by the caller. */
int ss_slub_model_cache(struct ss_slub_model *m, const char *name,
			const struct ss_cache_spec *spec, bool merge,
			struct ss_error *err);

/* Per-key memo for routes: slot i holds cache index + 1 (0 = unknown). */
struct ss_route_memo {
	int32_t *slot;
	uint32_t nr;
};
struct ss_route_memo *ss_slub_model_memo(struct ss_slub_model *m);
int ss_route_memo_get(const struct ss_route_memo *memo, uint32_t key);
int ss_route_memo_set(struct ss_route_memo *memo, uint32_t key, int cache);
void ss_route_memo_release(struct ss_route_memo *memo);

extern const struct ss_model_ops ss_slub_model_ops;

#endif
