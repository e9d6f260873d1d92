/* backend.h - one slab allocator's caches behind the cache model
 * (cache_model.c).  SLUB (slub_backend.c, with sheaves), SLUB_TINY
 * (slub_tiny.c) and SLAB (slab.c) each implement these operations on
 * their own cache type; the cache model does the rest the same way for
 * all of them: placement, kmalloc types, random copies and buckets, memcg
 * vectors, KFENCE, init_on_alloc/free.
 *
 * A backend names slabs by opaque pointers (struct ss_obj.slab).  What it
 * allocates for itself with kmalloc (SLAB's off-slab management, a
 * sheaf) it asks the cache model for, so that those objects land in
 * kmalloc caches like the kernel's.
 */
#ifndef SS_BACKEND_H
#define SS_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "geometry.h"
#include "model.h"

struct ss_kcache;

/* Cache flags the cache model adds to the SS_CF_* of a spec (never in a
 * trace): SLAB_RECLAIM_ACCOUNT (kmalloc-rcl-N; SLAB stops its order loop
 * there), and "the normal kmalloc class" (SLAB creates kmalloc-128 while
 * slab_early_init is set). */
#define SS_CF_RECLAIM_ACCOUNT 0x100u
#define SS_CF_KMALLOC_NORMAL 0x200u
#define SS_CF_MODEL_ONLY (SS_CF_RECLAIM_ACCOUNT | SS_CF_KMALLOC_NORMAL)

/* An object the allocator kmalloc'ed for itself: where it went. */
struct ss_iobj {
	void *slab;
	int32_t cache;	/* the cache model's index; -1: none */
	uint32_t bytes; /* asked for */
};

/* What a backend may ask of the cache model.  The calls may allocate
 * slabs in other caches: they save and restore op->stats. */
struct ss_backend_env {
	void *ctx;
	/* kmalloc(bytes) from call site `site` on cpu; 0, or -1 (out of
	 * memory or no class). */
	int (*kmalloc)(void *ctx, uint64_t bytes, const char *site, unsigned cpu,
		       struct ss_iobj *out, struct ss_op *op);
	void (*kfree)(void *ctx, struct ss_iobj *obj, unsigned cpu, struct ss_op *op);
	/* a slab of cache `cache` was made (created) or is about to go */
	void (*slab_event)(void *ctx, int cache, void *slab, unsigned objects,
			   bool created, unsigned cpu, struct ss_op *op);
	/* SLAB_ALLOC_NO_RECURSE in flight (7.x __alloc_empty_sheaf() of a
	 * kmalloc cache's sheaf): set while that kmalloc runs, so that the
	 * caches it reaches allocate no empty sheaf of their own (sheaf.c).
	 * The model's, shared by its caches; NULL: never set. */
	bool *no_recurse;
};

struct ss_backend_ops {
	enum ss_allocator allocator;
	/* The stride and alignment kmem_cache_create() would give spec
	 * (find_mergeable() compares them).  -1 with err. */
	int (*layout)(const struct ss_target *t, const struct ss_cache_spec *spec,
		      unsigned *size, unsigned *align, struct ss_error *err);
	/* Whether the era merges caches (__kmem_cache_alias()). */
	bool (*merges)(const struct ss_target *t);
	/* A cache; `index` is what slab_event() reports it by.  NULL with err. */
	void *(*create)(const char *name, const struct ss_cache_spec *spec,
			const struct ss_target *t, const struct ss_topology *topo,
			const struct ss_backend_env *env, int index,
			struct ss_error *err);
	/* An object: its slab, or NULL (out of memory for descriptors). */
	void *(*alloc)(void *cache, unsigned cpu, struct ss_op *op);
	/* cross_cpu: freed on another CPU than the one that allocated it
	 * (perf kmem's "ping-pong": the object's cache lines move). */
	void (*free)(void *cache, unsigned cpu, void *slab, bool cross_cpu,
		     struct ss_op *op);
	/* requested_live: only what the backend counted itself (an initial
	 * state's objects, a plain() cache's); the cache model adds its own. */
	void (*report)(const void *cache, struct ss_cache_report *r);
	/* Optional (NULL: report's slab_bytes): that figure alone. */
	uint64_t (*slab_bytes)(const void *cache);
	void (*destroy)(void *cache);
	/* Optional: timed work on one CPU over every cache (SLAB's
	 * cache_reap()).  Called at the CPU's first event (first = true,
	 * nothing is due yet) and then whenever the CPU's clock passes the
	 * time the last call returned (ns). */
	double (*cpu_timer)(void *const *caches, unsigned nr, unsigned cpu,
			    double now_ns, bool first, struct ss_op *op);
	/* Optional (NULL: the allocator's caches cannot start as a kernel's;
	 * the cache model refuses --initial-state).  The SLUB cache under
	 * `cache`, which the initial state fills (model_recon.h), and whether
	 * a free goes to a sheaf first (*sheaves, may be NULL). */
	struct ss_kcache *(*kcache)(void *cache, bool *sheaves);
	/* __kmem_cache_alias(): a cache of object_size merged into this one
	 * (the object size grows to the larger of the two). */
	void (*alias)(void *cache, unsigned object_size);
	/* Optional: the SLUB cache under `cache` when its alloc and free are
	 * plain ss_kcache_alloc() / ss_kcache_free() (no sheaves, not
	 * SLUB_TINY), which the cache model then calls inline
	 * (cache_model_fast.h, cache_model_batch.c); NULL otherwise. */
	struct ss_kcache *(*plain)(void *cache);
};

extern const struct ss_backend_ops ss_backend_slub;
extern const struct ss_backend_ops ss_backend_slub_tiny;
extern const struct ss_backend_ops ss_backend_slab;

/* The backend of the target's allocator. */
const struct ss_backend_ops *ss_backend_for(const struct ss_target *t);

#endif
