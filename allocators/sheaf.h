/* sheaf.h - per-CPU sheaves and the per-node barn of a SLUB cache created
 * with a sheaf capacity (6.18, "slab: add opt-in caching layer of percpu
 * sheaves", Vlastimil Babka): alloc_from_pcs(), free_to_pcs(),
 * __pcs_replace_empty_main(), __pcs_replace_full_main(), refill_sheaf(),
 * sheaf_flush_unused(), barn_replace_empty_sheaf(), barn_replace_full_sheaf().
 *
 * A sheaf holds up to `capacity` objects (their slabs, as everywhere in
 * the model); objects in sheaves are allocated from the slabs but free
 * for users.  The sheaves themselves are kmalloc'ed through the backend
 * environment (kzalloc(struct_size(sheaf, objects, capacity))).
 */
#ifndef SS_SHEAF_H
#define SS_SHEAF_H

#include "backend.h"
#include "slab.h"

struct ss_sheaves;

/* Sheaves over the SLUB cache s; env for the sheaves' own memory. */
struct ss_sheaves *ss_sheaves_create(struct ss_kcache *s, unsigned capacity,
				     const struct ss_backend_env *env);
void ss_sheaves_destroy(struct ss_sheaves *sh);

/* An object for cpu (slab_alloc_node() with s->cpu_sheaves): from the
 * CPU's sheaves, refilled from the barn or the slabs.  NULL: out of
 * memory. */
struct ss_slab *ss_sheaves_alloc(struct ss_sheaves *sh, unsigned cpu,
				 struct ss_op *op);
/* slab_free(): into the CPU's sheaves if the object is on the CPU's node,
 * else (or if no sheaf can take it) straight to the slab. */
void ss_sheaves_free(struct ss_sheaves *sh, unsigned cpu, struct ss_slab *sl,
		     struct ss_op *op);

/* Objects sitting in sheaves (allocated from slabs, free for users). */
uint64_t ss_sheaves_parked(const struct ss_sheaves *sh);
unsigned ss_sheaves_capacity(const struct ss_sheaves *sh);

#endif
