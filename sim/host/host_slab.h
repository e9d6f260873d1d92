/* host_slab.h - a real SLUB-shaped slab allocator for host mode
 * (docs/host-mode.md): slabs are mmap'd pages laid out with a model
 * cache's geometry, objects are handed out and freed for real, and
 * slub_debug P / Z write and check real poison and red-zone bytes.
 *
 * Structure (mm/slub.c, 6.x, without the lock-free cmpxchg):
 *   per PU:   c->slab, c->freelist, c->partial   touched by its thread only
 *   per node: list_lock (a spin lock), n->partial
 *   per slab: a bit lock guarding slab->freelist, inuse and where
 * Lock order is list_lock, then slab lock.  Free links are 32-bit object
 * indexes stored at fp_offset, so 32-bit targets' layouts fit too.
 */
#ifndef SS_HOST_SLAB_H
#define SS_HOST_SLAB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "list.h"
#include "geometry.h"
#include "model.h"
#include "topology.h"

#define SS_HOSTSLAB_NIL 0xffffffffu
#define SS_HOSTSLAB_POISON_INUSE 0x5a /* include/linux/poison.h */
#define SS_HOSTSLAB_POISON_FREE 0x6b
#define SS_HOSTSLAB_POISON_END 0xa5
#define SS_HOSTSLAB_RED_INACTIVE 0xbb
#define SS_HOSTSLAB_RED_ACTIVE 0xcc

/* How an operation went, for the measured path mix. */
enum ss_hostslab_path {
	SS_HOSTSLAB_FAST,	/* c->freelist pop / push */
	HS_REFILL,	/* alloc: remote frees taken from the active slab */
	SS_HOSTSLAB_CPU_PARTIAL, /* alloc: next per-CPU partial slab */
	HS_NODE_PARTIAL,/* alloc: node partial list (local or remote node) */
	SS_HOSTSLAB_NEW_SLAB,	/* alloc: mmap'd a new slab */
	HS_FREE_SLOW,	/* free: object not in this CPU's active slab */
	SS_HOSTSLAB_NR_PATHS
};

struct ss_hostslab_geometry {
	unsigned object_size, size, objs, order, page_size;
	unsigned fp_offset;	/* free link (uint32) position in a slot */
	unsigned min_partial;	    /* the model's s->min_partial */
	unsigned cpu_partial;	    /* per-CPU partial limit in objects (< 5.16) */
	unsigned cpu_partial_slabs; /* or in slabs (5.16+); both 0: none */
	bool poison, redzone, checks;
};

enum ss_hostslab_where { SS_HOSTSLAB_ON_NONE, HS_ON_ACTIVE, SS_HOSTSLAB_ON_CPU_PARTIAL, HS_ON_NODE_PARTIAL, SS_HOSTSLAB_ON_FULL };

struct ss_hostslab_slab {
	char *mem;
	struct ss_link link;	/* on the list `where` says */
	struct ss_link all;	/* on the cache's list of every slab */
	atomic_flag lock;
	uint32_t freelist; /* slab->freelist (index), remote frees */
	uint32_t inuse;	   /* objects not on slab->freelist */
	uint16_t node;
	uint8_t where;
};

struct ss_hostslab_cpu { /* kmem_cache_cpu, a cache line of its own */
	_Alignas(64) struct ss_hostslab_slab *slab;
	uint32_t freelist;
	uint32_t pobjects; /* free objects on c->partial when pushed (< 5.16) */
	struct ss_list partial;
};

struct ss_hostslab_node { /* kmem_cache_node */
	_Alignas(64) pthread_spinlock_t list_lock;
	struct ss_list partial;
};

/* Per-thread counters: no shared writes on the hot path. */
struct ss_hostslab_ctx {
	uint64_t alloc_path[SS_HOSTSLAB_NR_PATHS], free_path[SS_HOSTSLAB_NR_PATHS];
	uint64_t slabs_mapped, slabs_unmapped;
	uint64_t poison_written, poison_checked; /* bytes */
	const char *corrupt; /* first failed check, NULL if none */
	int over_cap;	     /* a slab was refused: hs_cache.max_bytes */
};

struct ss_hostslab_cache {
	char name[64];
	struct ss_hostslab_geometry g;
	const struct ss_topology *topo;
	struct ss_hostslab_cpu *cpu;   /* nr_cpus */
	struct ss_hostslab_node *node; /* nr_nodes */
	pthread_mutex_t all_lock;
	struct ss_list all;   /* every slab, for ss_hostslab_cache_destroy() */
	_Atomic int64_t *mapped_bytes, *peak_bytes; /* shared by all caches */
	/* --max-memory: no new slab once mapped_bytes would pass it, 0 = no
	 * cap (PUs racing may each map one slab past it) */
	int64_t max_bytes;
};

/* Layout and list limits of a model cache, as the model computed them
 * for its target and era (nothing is derived again here). */
void ss_hostslab_geometry_from_model(struct ss_hostslab_geometry *g, const struct ss_cache_report *r,
			    unsigned page_size);
/* The same for a cache created with spec on target t (the model's rules
 * through a throw-away model cache): calibration and tests. */
int ss_hostslab_geometry_for_spec(struct ss_hostslab_geometry *g, const struct ss_target *t,
			 const struct ss_topology *topo,
			 const struct ss_cache_spec *spec, struct ss_error *err);

int ss_hostslab_cache_init(struct ss_hostslab_cache *s, const char *name,
		  const struct ss_hostslab_geometry *g, const struct ss_topology *topo,
		  _Atomic int64_t *mapped_bytes, _Atomic int64_t *peak_bytes,
		  struct ss_error *err);
/* munmap every slab; live objects die with them. */
void ss_hostslab_cache_destroy(struct ss_hostslab_cache *s);

/* kmem_cache_alloc() on PU cpu: the object, its slab, and the path. */
void *ss_hostslab_alloc(struct ss_hostslab_cache *s, unsigned cpu, struct ss_hostslab_slab **slab,
	       enum ss_hostslab_path *path, struct ss_hostslab_ctx *ctx);
/* kmem_cache_free() on PU cpu. */
void ss_hostslab_free(struct ss_hostslab_cache *s, unsigned cpu, void *obj, struct ss_hostslab_slab *slab,
	     enum ss_hostslab_path *path, struct ss_hostslab_ctx *ctx);

/* memchr_inv(): first byte of [p, p+n) that is not c, or NULL; word-wise. */
const void *ss_hostslab_memchr_inv(const void *p, int c, size_t n);

/* slab_lock() / slab_unlock(): a bit spin lock. */
static inline void hs_bitlock(atomic_flag *f)
{
	while (atomic_flag_test_and_set_explicit(f, memory_order_acquire))
		;
}

static inline void hs_bitunlock(atomic_flag *f)
{
	atomic_flag_clear_explicit(f, memory_order_release);
}

#endif
