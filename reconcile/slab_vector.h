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

#endif
