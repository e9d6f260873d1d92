/* merge.h - SLUB cache merging as kmem_cache_create() decides it:
 * find_mergeable() and slab_unmergeable() (mm/slub.c in 3.10; in
 * mm/slab_common.c since "mm/slab_common: commonize slab merge logic",
 * 423c929cbbec, 3.18) for the target's era.
 *
 * The model (cache_model.c) merges the caches a placement creates while
 * the trace replays; `slabsim advise` asks where a cache it proposes
 * would merge at boot, when every kmalloc class and the trace's declared
 * caches already exist (ss_merge_boot_target).
 */
#ifndef SS_MERGE_H
#define SS_MERGE_H

#include <stdbool.h>

#include "geometry.h"
#include "target.h"
#include "trace.h"

/* Cache flags that make a cache unmergeable either way
 * (SLAB_NEVER_MERGE's SLAB_TYPESAFE_BY_RCU, a constructor, an explicit
 * free-pointer offset). */
#define SS_MERGE_NEVER (SS_CF_RCU | SS_CF_CTOR | SS_CF_FREEPTR)

/* The size checks of find_mergeable() (the same 3.10 to 6.18): an existing
 * cache of stride have_size takes a new cache of stride `size` and
 * alignment `align` when size <= have_size, have_size is a multiple of
 * align, and have_size - size < sizeof(void *). */
bool ss_merge_fits(const struct ss_target *t, unsigned size, unsigned align,
		   unsigned have_size);

/* A cache that exists when the new one is created. */
struct ss_merge_cand {
	char name[64];
	struct ss_cache_spec spec;
	bool kmalloc; /* a kmalloc class (create_kmalloc_cache) */
};

/* The caches that exist after boot, in creation order: the target's
 * kmalloc classes (create_kmalloc_caches(): 96 after 64, 192 after 128),
 * then the caches tables declares, in declaration order.  *out is
 * malloc'd (free it); -1 with err when out of memory. */
int ss_merge_boot_candidates(const struct ss_target *t,
			     const struct ss_trace_tables *tables,
			     struct ss_merge_cand **out, unsigned *nr,
			     struct ss_error *err);

/* find_mergeable() for spec against cand[0..nr) in creation order: the
 * index of the cache the new one becomes an alias of, or -1 (none, or
 * spec itself cannot merge).  The era decides the walk and what is
 * unmergeable:
 *   - 3.10 walks slab_caches from its head (newest first: list_add puts
 *     a new cache there); from 4.2 it walks it in reverse, oldest first,
 *     so that kmalloc classes win ("mm/slab: reverse iteration on
 *     find_mergeable()", 54362057bfd6);
 *   - kmalloc classes merge until 4.16, when create_kmalloc_cache() began
 *     passing usersize = size and slab_unmergeable() refuses any cache
 *     with a usersize ("usercopy: Mark kmalloc caches as usercopy
 *     caches", v4.16). */
int ss_merge_find(const struct ss_target *t, const struct ss_cache_spec *spec,
		  const struct ss_merge_cand *cand, unsigned nr);

#endif
