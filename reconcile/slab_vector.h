/* slab_vector.h - the kernel functions whose kfree() is of a slab's
 * obj_exts vector (or, 5.9-6.9, objcgs vector): one entry per object,
 * allocated with the slab's first accounted object, freed when the slab
 * is (mm/slub.c 6.18 __free_slab() -> unaccount_slab() ->
 * free_slab_obj_exts()).  Such a kfree right after a free on the same CPU
 * says that free emptied its slab and the slab was freed with it
 * (__slab_free() -> discard_slab() -> free_slab(), no other kmem event
 * between): the import's rule 2 (docs/import.md) and the replay's initial
 * state (prior_counts.h) read it.
 */
#ifndef SS_SLAB_VECTOR_H
#define SS_SLAB_VECTOR_H

#include <stdbool.h>

/* A call site ("__free_slab+0x6c/0x110", or the bare name) of one of
 * those functions, in any era's name. */
bool ss_site_frees_slab_vector(const char *site);
/* A call site of a kmalloc of such a vector: 6.10+ alloc_slab_obj_exts(),
 * 5.14-6.9 memcg_alloc_slab_cgroups(), 5.9-5.13
 * memcg_alloc_page_obj_cgroups() (their kcalloc_node()'s caller). */
bool ss_site_allocs_slab_vector(const char *site);
/* A call site named by its function (not a bare address): what a trace's
 * sites say of the functions above can be read. */
bool ss_site_named(const char *site);

#endif
