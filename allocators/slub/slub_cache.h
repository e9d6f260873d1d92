/* slub_cache.h - a simulated kmem_cache and its slabs: the state and the slab
 * operations shared by the SLUB paths (slub.c: per-CPU fast and slow
 * paths; slub_debug.c: the paths of caches with slub_debug flags).
 *
 * Objects are counted, not placed: a slab knows how many of its objects
 * are in use, how many sit on its owner CPU's freelist, and the rest are
 * on the slab's own freelist (remote frees).  That is all the kernel's
 * list decisions depend on.
 */
#ifndef SS_SLAB_H
#define SS_SLAB_H

#include <stdbool.h>
#include <stdint.h>

#include "costs.h"
#include "geometry.h"
#include "list.h"
#include "model.h"
#include "resource.h"
#include "steps.h"
#include "target.h"
#include "topology.h"

struct ss_recon_cache; /* reconcile/slab_prior.h */
struct ss_sheaves;     /* sheaf.h */

enum ss_slab_where {
	SS_SLAB_NONE,	     /* full, on no list (non-debug caches) */
	SS_SLAB_ACTIVE,	     /* c->slab of CPU `owner` (frozen) */
	SS_SLAB_CPU_PARTIAL, /* on c->partial of CPU `owner` */
	SS_SLAB_NODE_PARTIAL,/* on n->partial */
	SS_SLAB_FULL,	     /* on n->full (debug caches) */
};

struct ss_slab {
	struct ss_link link;	     /* on the list `where` says; pool: free list */
	uint32_t objects;	     /* slab->objects */
	uint32_t inuse;		     /* slab->inuse: objects not on slab->freelist */
	uint32_t cpu_free;	     /* of those, free on the owner's c->freelist */
	uint16_t node;		     /* slab_nid() */
	uint16_t owner;		     /* CPU for ACTIVE / CPU_PARTIAL */
	uint16_t line_cpu;	     /* last CPU to write slab->freelist and
				      * counters (SS_NO_LINE_CPU: none yet) */
	uint8_t order;
	uint8_t where;		     /* enum ss_slab_where */
	/* Two marks that the initial state (reconcile/) sets on the slabs
	 * it makes, for a kernel slab the replica stands for:
	 *  - kept: the descriptor is the initial state's, named by it for
	 *    the whole run: discard_slab() frees the slab's pages (the
	 *    accounting) and leaves the descriptor, empty, on no list,
	 *    instead of recycling it (ss_slab_adopt);
	 *  - pinned: the kernel's slab held objects no event shows (it
	 *    outlived the capture): SLUB frees a slab only once it is empty
	 *    (__slab_free() -> discard_slab(), 3.10 - 6.18), and the kernel's
	 *    was not, so an emptied replica is never discarded
	 *    (ss_slab_should_discard). */
	bool kept, pinned;
	struct ss_resource lock;     /* slab_lock() */
	struct ss_resource freelist; /* cmpxchg_double on freelist + counters */
};

#define SS_NO_LINE_CPU UINT16_MAX

struct ss_kcache_cpu { /* struct kmem_cache_cpu */
	struct ss_slab *slab;	    /* c->slab, the active slab */
	struct ss_list partial;    /* c->partial */
	uint32_t pobjects;	    /* 3.10-5.15: free objects counted at push */
};

/* Slab descriptors come from per-cache chunks, so that a cache's release
 * frees them all (full slabs of non-debug caches are on no list) and the
 * replay loop does not call malloc per slab. */
struct ss_slab_pool {
	void *chunks;		 /* singly linked chunks of descriptors */
	struct ss_slab *free;	 /* recycled descriptors, linked by link.next */
	unsigned used_in_chunk;	 /* descriptors handed out of the newest chunk */
};

struct ss_kcache_node { /* struct kmem_cache_node */
	struct ss_list partial;
	struct ss_list full;	    /* debug caches only */
	uint64_t nr_slabs;	    /* slabs whose pages are on this node */
	uint64_t total_objects;	    /* their object slots (inc_slabs_node) */
	struct ss_resource list_lock; /* n->list_lock */
};

/* A cache's shared resources, one report row each (locks.csv). */
enum ss_kres { SS_KRES_LIST_LOCK, SS_KRES_SLAB_LOCK, SS_KRES_CMPXCHG, SS_NR_KRES };
extern const char *const ss_kres_names[SS_NR_KRES];

struct ss_kcache {
	char name[64];
	struct ss_cache_spec spec;
	struct ss_geometry geo;
	const struct ss_target *t;
	const struct ss_topology *topo;
	bool debug_paths;     /* kmem_cache_debug(s): debug alloc/free paths */
	bool debug_checks;    /* consistency checks run (era and F) */
	bool cmpxchg_ok;      /* lock-free cmpxchg_double allowed */
	bool poisons_object;  /* __OBJECT_POISON: P, no RCU, no ctor */
	bool has_cpu_partial; /* kmem_cache_has_cpu_partial(s) */
	/* the lock-free paths apply (slub.h ss_kcache_free_plain): not
	 * debug_paths, and cmpxchg_ok; one test instead of two */
	bool lockfree;
	/* topo's, read on every remote free: one load less each */
	const uint16_t *cpu_node; /* topo->cpu_node */
	bool notes_swaps;	  /* topo->nr_cpus > 1: ss_slab_cmpxchg */
	struct ss_kcache_cpu *cpu;
	struct ss_kcache_node *node;
	struct ss_slab_pool pool;
	unsigned remote_node_defrag_ratio; /* 1000, as kmem_cache_open() sets */
	/* Told of each new slab and of each slab about to be freed (the
	 * cache model's memcg vectors); NULL: nobody listens. */
	void (*on_slab)(void *ctx, struct ss_slab *sl, bool created, struct ss_op *op);
	void *on_slab_ctx;
	uint32_t defrag_tick;	  /* drives the get_cycles() stand-in */
	/* accounting */
	uint64_t live;		  /* objects handed out and not freed */
	uint64_t requested_live;  /* bytes requested by the live objects */
	uint64_t nr_slabs;	  /* slabs held */
	uint64_t total_objects;	  /* object slots in held slabs */
	uint64_t slab_bytes;	  /* PAGE << order summed over held slabs */
	uint64_t peak_slab_bytes;
	uint64_t stats[SS_NR_STEPS];
	struct ss_fn_stat fns[SS_NR_FNS]; /* calls and cycles per kernel function */
	/* what the reconciliation layer keeps of this cache (reconcile/:
	 * its initial state from a kernel snapshot, the objects allocated
	 * before the trace), opaque here; NULL: none.  Owned and freed by
	 * reconcile/. */
	struct ss_recon_cache *recon;
	/* the cache's per-CPU sheaves (sheaf.h; 6.18's that ask, 7.x's
	 * all), NULL for none: owned by the backend, which made them */
	struct ss_sheaves *sheaves;
	struct ss_res_stat res[SS_NR_KRES]; /* uses and waits (sim/contention.c) */
};

/* The slab of a list link (NULL for NULL): c->partial.head and the like. */
static inline struct ss_slab *ss_slab_of(struct ss_link *l)
{
	return ss_list_entry(l, struct ss_slab, link);
}

/* ---- locks, cmpxchg and the slab's cache line (resource.h) ---- */

/* spin_lock(&n->list_lock): the step prices the lock and unlock pair; the
 * hold runs from here to ss_list_unlock(), so it spans the pair's price
 * and every step priced under the lock. */
static inline void ss_list_lock(struct ss_kcache *s, struct ss_kcache_node *n,
				struct ss_op *op)
{
	ss_op_lock(op, &n->list_lock, &s->res[SS_KRES_LIST_LOCK]);
	ss_step(op, SS_STEP_LIST_LOCK, 1);
}

static inline void ss_list_unlock(struct ss_kcache_node *n, struct ss_op *op)
{
	ss_op_unlock(op, &n->list_lock);
}

/* slab_lock(slab) ... slab_unlock(slab) around `nr` of step `step`, held
 * back to back (the cmpxchg_double fallback, or the lock itself). */
static inline void ss_slab_locked(struct ss_kcache *s, struct ss_slab *sl,
				  enum ss_step step, uint64_t nr,
				  struct ss_op *op)
{
	ss_op_lock(op, &sl->lock, &s->res[SS_KRES_SLAB_LOCK]);
	ss_step(op, step, nr);
	ss_op_unlock(op, &sl->lock);
}

/* The lock-free cmpxchg_double on slab->freelist and counters that the
 * step just priced ended: its read came one cmpxchg_double (the price of
 * the cmpxchg_double step) before, and a failed try loops again at the
 * price of cmpxchg_retry (__slab_free, get_freelist: do { } while).  Only
 * another CPU can make it fail: with one CPU it is not noted (the replay
 * of one-CPU traces stays as cheap as it was). */
static inline void ss_slab_cmpxchg(struct ss_kcache *s, struct ss_slab *sl,
				   struct ss_op *op)
{
	if (s->notes_swaps)
		ss_op_cmpxchg(op, &sl->freelist, &s->res[SS_KRES_CMPXCHG],
			      op->cost[SS_STEP_CMPXCHG_DOUBLE],
			      op->cost[SS_STEP_CMPXCHG_RETRY]);
}

/* cpu writes slab->freelist / counters: that line moves when another CPU
 * wrote it last (slab_line_transfer).  Ownership follows the trace order,
 * as a cache line does; it needs no clock. */
static inline double ss_slab_touch_on(struct ss_slab *sl, unsigned cpu, uint64_t *stats,
				      const double *cost, double c)
{
	if (sl->line_cpu != cpu) {
		if (sl->line_cpu != SS_NO_LINE_CPU)
			c = ss_step_on(stats, cost, SS_STEP_SLAB_LINE, c);
		sl->line_cpu = (uint16_t)cpu;
	}
	return c;
}

static inline void ss_slab_touch(struct ss_slab *sl, unsigned cpu,
				 struct ss_op *op)
{
	op->cycles = ss_slab_touch_on(sl, cpu, op->stats, op->cost, op->cycles);
}

int ss_kcache_init(struct ss_kcache *s, const char *name,
		   const struct ss_cache_spec *spec, const struct ss_target *t,
		   const struct ss_topology *topo, struct ss_error *err);
void ss_kcache_release(struct ss_kcache *s);

/* Partial slabs on node lists and per-CPU lists, for reports. */
uint64_t ss_kcache_partial_slabs(const struct ss_kcache *s);
uint64_t ss_kcache_cpu_slabs(const struct ss_kcache *s);

/* The cache as reports see it (slabinfo, caches.csv) and host mode
 * lays it out. */
void ss_kcache_report(const struct ss_kcache *s, struct ss_cache_report *r);

/* allocate_slab() / discard_slab(), with their accounting and steps. */
struct ss_slab *ss_slab_new(struct ss_kcache *s, unsigned node, struct ss_op *op);
void ss_slab_discard(struct ss_kcache *s, struct ss_slab *sl, struct ss_op *op);
/* A slab the cache already held when the run began (the initial state,
 * reconcile/): sl, a zeroed descriptor of the caller's pool, accounted as
 * allocate_slab() accounts one, with no steps, on no list, marked kept
 * (discard_slab() does not recycle it). */
void ss_slab_adopt(struct ss_kcache *s, struct ss_slab *sl, unsigned node);
/* A pool's zeroed descriptor (NULL: out of memory), and the release of
 * every descriptor a pool handed out. */
struct ss_slab *ss_slab_pool_get(struct ss_slab_pool *p);
void ss_slab_pool_release(struct ss_slab_pool *p);
/* get_cycles() % 1024 of get_any_partial() (3.10 - 6.x) and
 * get_from_any_partial() / __refill_objects_any() (7.x), made
 * reproducible: a hash of a per-cache counter, uniform over 0..1023 like
 * the low TSC bits. */
unsigned ss_kcache_defrag_coin(struct ss_kcache *s);
/* The test before discarding an empty slab (nr_partial against min_partial). */
bool ss_slab_should_discard(const struct ss_kcache *s, const struct ss_kcache_node *n,
			    const struct ss_slab *sl);
/* n updates of a slab's freelist and counters with interrupts already
 * off (__cmpxchg_double_slab() / __slab_update_freelist(): acquire_slab,
 * deactivate_slab, get_freelist, unfreeze_partials, freeze_slab):
 * lock-free cmpxchg_double (the contention engine sees the last as one
 * use), or, without it, the slab_lock fallback -- no irq save of its own,
 * so priced as the slab_lock pair, held over the n stores. */
static inline void ss_slab_cmpxchg_irqoff(struct ss_kcache *s, struct ss_slab *sl,
					  struct ss_op *op, uint64_t n)
{
	if (!s->cmpxchg_ok) { /* slab_lock held over the n stores */
		ss_slab_locked(s, sl, SS_STEP_SLAB_LOCK, n, op);
		return;
	}
	ss_step(op, SS_STEP_CMPXCHG_DOUBLE, n);
	ss_slab_cmpxchg(s, sl, op); /* the last of them, as one use */
}
/* __slab_free()'s update, cmpxchg_double_slab() (3.10 - 6.x): lock-free
 * cmpxchg_double, or without it the fallback that saves irqs itself and
 * takes slab_lock (cmpxchg_locked).  free_slowpath's price holds neither.
 * Inline: most frees of a many-CPU trace are remote and take it. */
static inline void ss_slab_cmpxchg_irqsave(struct ss_kcache *s, struct ss_slab *sl,
					   struct ss_op *op)
{
	if (!s->cmpxchg_ok) { /* local_irq_save + slab_lock around the store */
		ss_slab_locked(s, sl, SS_STEP_CMPXCHG_LOCKED, 1, op);
		return;
	}
	ss_step(op, SS_STEP_CMPXCHG_DOUBLE, 1);
	ss_slab_cmpxchg(s, sl, op);
}
/* The debug checks: slab_pad_check() (within check_slab() and before a
 * debug slab is freed) and check_object() of a free (!active) or
 * allocated (active) object whose free pointer is set (fp_set) or NULL. */
void ss_slab_pad_check(const struct ss_kcache *s, struct ss_op *op);
void ss_check_object(const struct ss_kcache *s, bool active, bool fp_set,
		     struct ss_op *op);
/* add_partial() / remove_partial(): the slab's node partial list
 * (inline: the slow paths take them tens of thousands of times). */
static inline void ss_slab_add_partial(struct ss_kcache *s, struct ss_slab *sl, bool tail)
{
	ss_list_add(&s->node[sl->node].partial, &sl->link, tail);
	sl->where = SS_SLAB_NODE_PARTIAL;
}

static inline void ss_slab_remove_partial(struct ss_kcache *s, struct ss_slab *sl)
{
	ss_list_del(&s->node[sl->node].partial, &sl->link);
	sl->where = SS_SLAB_NONE;
}

/* __slab_free()'s end under n->list_lock (3.10 - 7.2), the object
 * already counted off: an emptied slab is discarded when the node keeps
 * enough partial slabs (taken off the partial list unless it was full:
 * FREE_REMOVE_PARTIAL; slab_empty unlocks, then discard_slab()), a slab
 * that was full goes to the list's tail (FREE_ADD_PARTIAL); the lock is
 * released. */
static inline void ss_slab_free_locked(struct ss_kcache *s, struct ss_kcache_node *n,
				       struct ss_slab *sl, bool was_full, struct ss_op *op)
{
	if (!sl->inuse && ss_slab_should_discard(s, n, sl)) {
		if (!was_full) {
			ss_slab_remove_partial(s, sl);
			ss_step(op, SS_STEP_FREE_REMOVE_PARTIAL, 1);
		}
		ss_list_unlock(n, op);
		ss_slab_discard(s, sl, op);
		return;
	}
	if (was_full) {
		ss_slab_add_partial(s, sl, true);
		ss_step(op, SS_STEP_FREE_ADD_PARTIAL, 1);
	}
	ss_list_unlock(n, op);
}

#endif
