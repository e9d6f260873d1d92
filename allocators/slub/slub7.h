/* slub7.h - SLUB of 7.0 - 7.2 under its per-CPU sheaves (slub7.c): no CPU
 * slabs, no CPU partial lists, no frozen slabs ("slab: replace cpu
 * (partial) slabs with sheaves", 32c894c7274b and its series).  Objects
 * come from a slab only on the paths below; the sheaves themselves are
 * sheaf.c's.  Each function names the mm/slub.c (7.2) function it models;
 * docs/sheaves.md has the rules.
 *
 * The objects are counted, not placed (slub_cache.h): a slab's inuse is its
 * objects off its own freelist (handed out, or in a sheaf), and a slab is
 * on a node partial list, or (full, or being refilled from) on none;
 * debug caches keep a full list.
 */
#ifndef SS_SLUB7_H
#define SS_SLUB7_H

#include "slub_cache.h"

/* ___slab_alloc(): one object from the node's first partial slab, another
 * node's, or a new slab (ALLOC_SLOWPATH); a debug cache's or SLUB_TINY's
 * alloc_single_from_partial() / _new_slab().  NULL: out of memory. */
struct ss_slab *ss7_slab_alloc(struct ss_kcache *s, unsigned cpu, struct ss_op *op);

/* refill_objects(min = max = n): n objects for a sheaf of cpu, into out[]
 * (each named by its slab), taken in bulk from the local node's partial
 * slabs (get_partial_node_bulk()), then other nodes' (the defrag ratio),
 * then new slabs.  Returns how many were had (n, or fewer only when out
 * of memory). */
unsigned ss7_refill(struct ss_kcache *s, unsigned cpu, unsigned n, struct ss_slab **out,
		    struct ss_op *op);

/* slab_free() past the sheaves: __slab_free() of one object and
 * FREE_SLOWPATH (a debug cache's: free_to_partial_list()). */
void ss7_slab_free(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl, struct ss_op *op);

/* __kmem_cache_free_bulk() of objs[0..n) (a sheaf's flush): the objects
 * grouped by slab as build_detached_freelist() groups them (from the
 * array's end, a lookahead of 3 misses), one __slab_free() per group.
 * The array's order is changed.  Not for a debug cache (it has no
 * sheaves). */
void ss7_free_bulk(struct ss_kcache *s, unsigned cpu, struct ss_slab **objs, unsigned n,
		   struct ss_op *op);

#endif
