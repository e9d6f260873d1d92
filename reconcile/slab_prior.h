/* slab_prior.h - a SLUB cache as the kernel had it when the trace began
 * (`slabsim run --initial-state`, docs/own-trace.md): the kernel's own
 * geometry and list limits, its slabs with their objects, and the frees
 * of objects allocated before the trace, which take objects out of that
 * population.  What this keeps of a cache is its struct ss_recon_cache,
 * which the SLUB cache points to (slub_cache.h recon); the slabs it makes are
 * SLUB's, marked kept (and pinned where the kernel's outlived the
 * capture: slub_cache.h).
 */
#ifndef SS_SLAB_PRIOR_H
#define SS_SLAB_PRIOR_H

#include "prior_counts.h"
#include "recon.h"
#include "slub_cache.h"
#include "slabsnap.h"

/* One slab of the initial state and the initial-state objects it holds
 * (of its in-use objects; the others are the trace's). */
struct ss_prior_slab {
	struct ss_slab *sl;
	uint32_t prior;
};

/* A kernel cache whose objects this cache holds (a what-if cache may hold
 * several: kmalloc-buckets puts dentry's into kmalloc-192), and the
 * kernel slabs of its prior frees (slab= of a raw-pointer capture), each
 * mapped onto one of the initial slabs. */
struct ss_kslab_map {
	uint32_t src_api, src_gfp; /* the kernel cache (ss_kslab_info) */
	uint64_t src_value;
	struct ss_kslab {
		uint32_t slab;	/* prior slab index + 1, 0 = not mapped */
		uint32_t taken; /* prior frees of the kernel slab so far */
		/* its slab ran out and it took another: it gave more than
		 * one slab of ours held (untraced allocations) */
		bool remapped;
	} *kslab;		/* by kernel slab id */
	uint32_t nr_kslab;
};

struct ss_recon_cache {
	struct ss_kcache *s;	  /* the cache (s->recon is this) */
	/* the initial slabs' descriptors (ss_slab_adopt: kept), named by
	 * prior_slabs[] for the whole run */
	struct ss_slab_pool pool;
	/* the slabs the initial state filled, a Fenwick tree over their
	 * prior counts for picking one object at random, and the kernel
	 * slabs mapped onto them; a second tree counts only the slabs no
	 * kernel slab is mapped onto (`mapped` clear), from which a kernel
	 * slab's first free draws; spread_fill is spread_take()'s room for
	 * the re-spread fills */
	struct ss_prior_slab *prior_slabs;
	uint32_t nr_prior_slabs, cap_prior_slabs;
	uint32_t *prior_tree, *unmapped_tree, *spread_fill;
	uint8_t *mapped;	  /* 1: one kernel slab mapped onto it, 2: more */
	uint64_t unmapped_live;
	struct ss_kslab_map *kmaps; /* one per kernel cache whose objects are here */
	uint32_t nr_kmaps;
	uint64_t prior_rng;	  /* the pick's random state */
	uint64_t draw_seed;	  /* mixed into it (ss_recon_spec draw_seed) */
	uint64_t prior_live;	  /* initial-state objects still allocated */
	uint64_t prior_freed;	  /* prior frees applied */
	uint64_t prior_missing;	  /* prior frees with no such object left (take_prior) */
	uint64_t kslabs_seen_freed; /* kernel slabs started as seen freed */
	/* initial objects the trace never freed, taken when it saw their
	 * kernel slab's pages freed (ss_recon_kslab_left: kfree_bulk(),
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
	bool fill_ids;
	uint64_t fill_moved;
	/* kernel slabs mapped by their place, and the frees of them beyond
	 * what they held (objects allocated there with no event: dropped) */
	uint32_t kslabs_listed;
	uint64_t prior_listed_unseen;
	uint32_t cpu_slabs_listed; /* CPU slabs started as listed (slab-fill) */
	/* the kernel's objects started in sheaves and barns (slab-fill
	 * version 4, sheaf_start.h): out of the initial objects */
	uint64_t prior_sheaves;
	bool from_snapshot;	  /* geometry and state from a kernel snapshot */
	/* the rules of the kernel the snapshot came from (its target, CPU
	 * count and slub_* boot parameters; NULL: unknown): where the run's
	 * rules lay the cache out otherwise, it starts in the run's order
	 * (relayout.h): relaid; relaid_not: the run's rules differ but
	 * these do not give the snapshot's layout, which is kept */
	const struct ss_target *kernel;
	bool relaid, relaid_not;
	/* the cache as ss_recon_populate() left it: SLUB's `objects`, slabs */
	uint64_t initial_objects, initial_slabs;
};

/* The state of SLUB cache s (s->recon set to it), empty: a cache with
 * none of the kernel's objects yet.  NULL when out of memory. */
struct ss_recon_cache *ss_recon_cache_new(struct ss_kcache *s, uint64_t draw_seed);
/* Its memory and the initial slabs' descriptors (s need not live). */
void ss_recon_cache_free(struct ss_recon_cache *rc);
/* The capture-only figures of the cache (recon.h), now. */
void ss_recon_cache_report(const struct ss_recon_cache *rc, struct ss_recon_report *r);
/* The initial-state objects slab sl holds (0 for a slab the initial
 * state did not make): a search over its slabs. */
uint32_t ss_recon_prior_on(const struct ss_recon_cache *rc, const struct ss_slab *sl);

/* Take the stride, objects per slab, order, alignment, object size and
 * list limits the kernel shows for c instead of the computed ones.  Only
 * where both lay the cache out without debug metadata (a slub_debug
 * what-if keeps its own layout): rc->from_snapshot says whether they
 * were.  Where the run's rules (s->t) give the kernel's stride another
 * order than rc->kernel's rules, which give the snapshot's, the order and
 * objects per slab are the run's (rc->relaid; relayout.h).  -1 with err
 * when the kernel's figures cannot be a SLUB layout. */
int ss_recon_take_geometry(struct ss_recon_cache *rc, const struct ss_snap_cache *c,
			   struct ss_error *err);

/* Fill an empty cache with the kernel's slabs and objects (called right
 * after ss_recon_cache_new).  With the kernel's list figures and geometry:
 * full slabs, node partial slabs holding objects_partial objects between
 * them, and per CPU an active slab and the CPU partial slabs
 * slabs_cpu_partial lists, each CPU slab half in use (the estimate SLUB's
 * own slabs_cpu_partial_show() makes) unless c->cpu_free says how many
 * slots a CPU's active slab had free (a raw-pointer trace's count).  From /proc/slabinfo: its free
 * objects on node partial slabs half empty each.  Either way `objects` as
 * SLUB counts it equals the kernel's.  With another geometry -- relaid
 * (the run's order), or a slub_debug what-if's own layout -- the
 * kernel's objects in the run's slabs as relayout.h ss_relayout_plan()
 * says. */
int ss_recon_populate(struct ss_recon_cache *rc, const struct ss_snap_cache *c,
		      struct ss_error *err);

/* Add the kernel's objects of cache c (another cache, whose allocations a
 * what-if model puts here) to s's initial state, packed into s's slabs.
 * Called before the first allocation into s from c's objects. */
int ss_recon_add_prior(struct ss_recon_cache *rc, const struct ss_snap_cache *c,
		       struct ss_error *err);

/* The slab of the initial-state object a prior free takes (one fewer
 * left), or NULL when none is left.  Without kslab the object is drawn
 * uniformly from those left (a hashed-pointer capture says nothing of
 * which one it was; ki NULL or ki->kslab 0).  ki->kslab = K + 1 names the
 * kernel slab the freed object was in (a raw-pointer capture): the first
 * free of kernel slab K draws a slab that way and its later frees take
 * from the same one, so frees the kernel made slab by slab empty slabs
 * here too.  ki->held, when not 0, is how many objects kernel slab K held at least
 * (prior_counts.h ss_prior_counts_held: its prior frees in the whole
 * trace, one more when K outlived them), so the draw is among the slabs
 * holding that many (the one holding the fewest such after 64 draws; when
 * none does, a node partial slab no event has touched made to hold that
 * many, as below, else the fullest: then again for the rest when it runs
 * out).  ki->cache_held and ki->cache_kslabs, when not 0 (taken at the
 * cache's first call), are what all of the cache's kernel slabs held at
 * least and how many they are (ss_prior_counts_finish): a draw may
 * not leave K more objects than it needs beyond its share of what the
 * kernel slabs still to map leave over, nor take a whole slab that one
 * still to map needs (ki->by_held: how many held a whole slab), else a
 * node partial slab no event has touched is made to hold what K needs.
 * ki->dead, when not 0, is how many prior
 * objects kernel slab K held when the trace saw its slab freed, which is
 * what it held at the start: K's first free gives a node partial slab
 * of ours that no event has touched exactly that many, moving the
 * difference to or from other such slabs (the cache's totals stay the
 * snapshot's), so that K's frees empty it as the kernel's emptied K.
 * With the kernel's own list (slab-fill, fill_ids) K <= the list's
 * length is the K-th listed slab: its frees take from that slab, and
 * those beyond what it held are of objects allocated there unseen (NULL,
 * counted in prior_listed_unseen); the listed slabs are never drawn for
 * another K while others hold objects.  NULL otherwise counts in
 * prior_missing.
 * Reproducible: the draws are seeded from the cache name
 * (docs/own-trace.md). */
struct ss_slab *ss_recon_take_prior(struct ss_recon_cache *rc, const struct ss_kslab_info *ki);

/* The trace saw kernel slab ki->kslab's pages freed (a `d` line): the
 * initial objects still on the slab it maps onto, which the kernel freed
 * without an event (kfree_bulk() of kfree_rcu() batches, sheaves), for
 * the caller to take with as many ss_recon_take_prior(rc, ki) (they come
 * from that slab: it has objects left, so K stays mapped there), then
 * ss_recon_prior_respread().  0 when K is not mapped, or ran out of its
 * slab here and took another, or its slab holds another kernel slab's
 * objects too (a draw that found no slab of its own), or the cache holds
 * several kernel caches' (a what-if). */
uint32_t ss_recon_kslab_left(struct ss_recon_cache *rc, const struct ss_kslab_info *ki);

/* After those n were taken: objects K's slab here held that K did not
 * (the kernel's K held fewer) or that the kernel freed without an event.
 * Where the node partial slabs no event has touched have room (their
 * fill is the snapshot's spread, a guess: spread_take), they take them
 * back, spread again, so that the cache's objects stay the snapshot's;
 * what they cannot take was freed unseen (rc->prior_freed_unseen).  The
 * objects put back. */
uint32_t ss_recon_prior_respread(struct ss_recon_cache *rc, uint32_t n);

#endif
