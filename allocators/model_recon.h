/* model_recon.h - the initial-state interface: what a model offers the
 * reconciliation layer (reconcile/recon.h) so that its caches can start
 * as a kernel's and give up the objects that kernel allocated before the
 * trace, and what that layer hands the model to be told when it makes a
 * cache.  Optional (model.h ss_model_ops.recon): a model without it
 * starts its caches empty and takes nothing out for a prior free.
 *
 * The rules -- which slabs the kernel's cache had and how full, which
 * slab a prior free takes its object from -- are the reconciliation
 * layer's; the model only finds its caches and frees an object as its
 * allocator frees one.  The caches' state is SLUB's (slub_cache.h struct
 * ss_kcache), which reconcile/ fills: the cache model offers it for a
 * SLUB backend (backend.h kcache), with or without sheaves.
 */
#ifndef SS_MODEL_RECON_H
#define SS_MODEL_RECON_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

struct ss_kcache; /* slub_cache.h */

/* What the model asks of the reconciliation layer (ss_model_config
 * recon).  Called while the model makes or merges caches, outside any
 * operation: the pages they give to slabs go with the model's next
 * operation (ss_op.slab_pages), and *changed says the cache's objects or
 * geometry moved (ss_op.resync). */
struct ss_recon_hooks {
	void *ctx;
	/* A cache was made under `name` (kmem_cache_create()) on SLUB cache
	 * s: it starts as the kernel's cache of that name, when the kernel
	 * had one.  0, or -1 with err. */
	int (*created)(void *ctx, const char *name, struct ss_kcache *s, bool *changed,
		       struct ss_error *err);
	/* The model's placement put the kernel's cache `kname` into s, a
	 * cache of another name (kmalloc-buckets: dentry into kmalloc-192),
	 * on its first route: the kernel's objects of kname join s.  0, or
	 * -1 with err. */
	int (*joined)(void *ctx, const char *kname, struct ss_kcache *s, bool *changed,
		      struct ss_error *err);
	/* __kmem_cache_alias() is about to grow s's object_size to
	 * object_size (a merge): the kernel's objects, counted at
	 * object_size, grow with it. */
	void (*grows)(void *ctx, struct ss_kcache *s, unsigned object_size);
};

/* What the reconciliation layer asks of the model (ss_model_ops recon). */
struct ss_model_recon {
	/* The model cache the object of prior free ev (SS_EV_FREE_PRIOR) was
	 * in, made if new: a kmalloc's the class of its size and of the
	 * family its flags pick (kmalloc_type(); never a random copy or a
	 * bucket: a free says nothing of the allocation's site), a declared
	 * cache's wherever the placement puts its allocations.  *cache -1:
	 * none (ZERO_SIZE_PTR, kmalloc_large).  With op, as a free of that
	 * object: a declared cache's first route brings the kernel's objects
	 * (hooks joined) and the pages the model gave to slabs outside an
	 * operation go with op; op NULL: the cache is only found.  0, or -1
	 * with err. */
	int (*prior_cache)(struct ss_model *m, const struct ss_event *ev, struct ss_op *op,
			   int *cache, struct ss_error *err);
	/* The SLUB cache under model cache `cache`, or NULL where the
	 * initial state has none to fill (SLAB, SLUB_TINY, KFENCE's pool);
	 * *sheaves (may be NULL): a free goes to the CPU's sheaf first
	 * (6.18 free_to_pcs()), not to the slab. */
	struct ss_kcache *(*slub_cache)(struct ss_model *m, uint32_t cache, bool *sheaves);
	/* One object of cache `cache` on slab `slab` freed on cpu as the
	 * allocator frees it (slab_free(), or a sheaf first); an object of
	 * no trace event: none of the model's own hooks run. */
	void (*free_on_slab)(struct ss_model *m, uint32_t cache, unsigned cpu, void *slab,
			     struct ss_op *op);
};

#endif
