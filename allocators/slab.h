/* slab.h - a simulated kmem_cache and its slabs: the state and the slab
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
	uint32_t prior;		     /* of the in-use objects, those from the
				      * initial state (slab_prior.h) */
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
	/* the initial state's slabs (ss_slab_new_prior): never recycled, as
	 * prior_slabs[] names each for the whole run (one recycled into a
	 * later add_prior() sat at two indices, and a what-if replay of
	 * find-usr-cold drew from the stale one and crashed) */
	struct ss_slab_pool prior_pool;
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
	/* the initial state (slab_prior.h): the slabs it filled, a Fenwick
	 * tree over their prior counts for picking one object at random,
	 * and the kernel slabs (slab= of prior frees) mapped onto them; a
	 * second tree counts only the slabs no kernel slab is mapped onto
	 * (`mapped` clear), from which a kernel slab's first free draws;
	 * spread_fill is spread_take()'s room for the re-spread fills */
	struct ss_slab **prior_slabs;
	uint32_t *prior_tree, *unmapped_tree, *spread_fill;
	uint8_t *mapped;	/* 1: one kernel slab mapped onto it, 2: more */
	uint64_t unmapped_live;
	uint32_t nr_prior_slabs, cap_prior_slabs;
	struct ss_kslab_map {
		uint32_t src_api, src_gfp; /* the kernel cache (ss_kslab_info) */
		uint64_t src_value;
		struct ss_kslab {
			uint32_t slab;	/* prior slab index + 1, 0 = not mapped */
			uint32_t taken; /* prior frees of the kernel slab so far */
			/* its slab ran out and it took another: it gave more
			 * than one slab of ours held (untraced allocations) */
			bool remapped;
		} *kslab;		/* by kernel slab id */
		uint32_t nr_kslab;
	} *kmaps;		  /* one per kernel cache whose objects are here */
	uint32_t nr_kmaps;
	uint64_t prior_rng;	  /* the pick's random state */
	uint64_t draw_seed;	  /* mixed into it (ss_model_config draw_seed) */
	uint64_t prior_live;	  /* such objects still allocated */
	uint64_t prior_freed;	  /* prior frees applied */
	uint64_t prior_missing;	  /* prior frees with no such object left (take_prior) */
	uint64_t kslabs_seen_freed; /* kernel slabs started as seen freed */
	/* initial objects the trace never freed, taken when it saw their
	 * kernel slab's pages freed (ss_kcache_kslab_left: kfree_bulk(),
	 * sheaf and other frees without an event) */
	uint64_t prior_freed_unseen;
	/* the free slots the initial state gave its CPU slabs: by SLUB's
	 * half-full estimate, and as the trace measured them */
	uint64_t prior_cpu_free_est, prior_cpu_free_meas;
	/* What the trace says of the kernel's slabs, for the report: how
	 * many it frees initial objects from, how many of those held a whole
	 * slab (ss_kslab_info cache_kslabs, by_held[objects]), and the
	 * initial slabs that were not full (CPU and node partial ones); the
	 * first two only while one kernel cache's objects are here
	 * (prior_kslabs_mixed: a what-if's several) */
	uint32_t prior_kslabs, prior_kslabs_whole;
	bool prior_kslabs_mixed;
	uint64_t prior_slabs_not_full;
	/* what the kernel slabs not mapped yet held at least, summed (the
	 * cache's ss_kslab_info cache_held less each one's as it maps) */
	uint64_t prior_needs;
	uint32_t prior_kslabs_left; /* those kernel slabs: how many */
	uint32_t prior_full_needs;  /* of them, those that held a whole slab */
	uint64_t prior_full_unmapped; /* unmapped slabs holding a whole slab */
	bool prior_needs_set;
	/* the slabs as the kernel listed them (slab-fill, slabsnap.h
	 * ss_snap_fill): prior slab index of each (UINT32_MAX: not used),
	 * node partial head first, then the CPU slabs; with fill_ids the
	 * trace's kernel slab ids 1..nr_fill_slab are these (slab_prior.c
	 * fill_slab_of).  fill_moved: objects the node fills were moved by to
	 * agree with the snapshot's counts (read moments apart) */
	uint32_t *fill_slab;
	uint32_t *fill_held;	  /* the objects each started with */
	uint32_t nr_fill_slab;
	/* initial slabs never discarded: listed kernel slabs the trace
	 * frees from and would have seen die, and did not (slab_prior.c
	 * kslab_slab): the kernel's outlived the capture, so an emptied
	 * replica stays on its node's partial list */
	struct ss_slab **pinned;
	uint32_t nr_pinned, cap_pinned;
	bool fill_ids;
	uint64_t fill_moved;
	/* kernel slabs mapped by their place, and the frees of them beyond
	 * what they held (objects allocated there with no event: dropped) */
	uint32_t kslabs_listed;
	uint64_t prior_listed_unseen;
	uint32_t cpu_slabs_listed; /* CPU slabs started as listed (slab-fill) */
	bool from_snapshot;	  /* geometry and state from a kernel snapshot */
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
/* A slab the cache already held when the run began: accounted, no steps. */
struct ss_slab *ss_slab_new_prior(struct ss_kcache *s, unsigned node);
void ss_slab_discard(struct ss_kcache *s, struct ss_slab *sl, struct ss_op *op);
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

#endif
