/* slab_prior.h - a cache as the kernel had it when the trace began
 * (`slabsim run --initial-state`, docs/own-trace.md): the kernel's own
 * geometry and list limits, its slabs with their objects, and the frees
 * of objects allocated before the trace, which take objects out of that
 * population.
 */
#ifndef SS_SLAB_PRIOR_H
#define SS_SLAB_PRIOR_H

#include "prior_counts.h"
#include "slab.h"
#include "slabsnap.h"

/* Take the stride, objects per slab, order, alignment, object size and
 * list limits the kernel shows for c instead of the computed ones.  Only
 * where both lay the cache out without debug metadata (a slub_debug
 * what-if keeps its own layout).  1 taken, 0 left as computed, -1 with
 * err when the kernel's figures cannot be a SLUB layout. */
int ss_kcache_take_geometry(struct ss_kcache *s, const struct ss_snap_cache *c,
			    struct ss_error *err);

/* Fill an empty cache with the kernel's slabs and objects (called right
 * after ss_kcache_init).  With the kernel's list figures and geometry:
 * full slabs, node partial slabs holding objects_partial objects between
 * them, and per CPU an active slab and the CPU partial slabs
 * slabs_cpu_partial lists, each CPU slab half in use (the estimate SLUB's
 * own slabs_cpu_partial_show() makes) unless c->cpu_free says how many
 * slots a CPU's active slab had free (a raw-pointer trace's count).  From /proc/slabinfo: its free
 * objects on node partial slabs half empty each.  With another geometry
 * (a debug what-if): the kernel's objects packed into the cache's own
 * slabs.  Either way `objects` as SLUB counts it equals the kernel's. */
int ss_kcache_populate(struct ss_kcache *s, const struct ss_snap_cache *c,
		       struct ss_error *err);

/* Add the kernel's objects of cache c (another cache, whose allocations a
 * what-if model puts here) to s's initial state, packed into s's slabs.
 * Called before the first allocation into s from c's objects. */
int ss_kcache_add_prior(struct ss_kcache *s, const struct ss_snap_cache *c,
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
struct ss_slab *ss_kcache_take_prior(struct ss_kcache *s, const struct ss_kslab_info *ki);

/* The trace saw kernel slab ki->kslab's pages freed (a `d` line): the
 * initial objects still on the slab it maps onto, which the kernel freed
 * without an event (kfree_bulk() of kfree_rcu() batches, sheaves), for
 * the caller to take with as many ss_kcache_take_prior(s, ki) (they come
 * from that slab: it has objects left, so K stays mapped there), then
 * ss_kcache_prior_respread().  0 when K is not mapped, or ran out of its
 * slab here and took another, or its slab holds another kernel slab's
 * objects too (a draw that found no slab of its own), or the cache holds
 * several kernel caches' (a what-if). */
uint32_t ss_kcache_kslab_left(struct ss_kcache *s, const struct ss_kslab_info *ki);

/* After those n were taken: objects K's slab here held that K did not
 * (the kernel's K held fewer) or that the kernel freed without an event.
 * Where the node partial slabs no event has touched have room (their
 * fill is the snapshot's spread, a guess: spread_take), they take them
 * back, spread again, so that the cache's objects stay the snapshot's;
 * what they cannot take was freed unseen (s->prior_freed_unseen).  The
 * objects put back. */
uint32_t ss_kcache_prior_respread(struct ss_kcache *s, uint32_t n);

#endif
