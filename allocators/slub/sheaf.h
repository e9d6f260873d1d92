/* sheaf.h - per-CPU sheaves and the per-node barn of a SLUB cache: 6.18's
 * for a cache created with a sheaf capacity ("slab: add opt-in caching
 * layer of percpu sheaves", Vlastimil Babka), 7.0 - 7.2's for every cache
 * with a capacity (calculate_sheaf_capacity(), docs/sheaves.md):
 * alloc_from_pcs(), free_to_pcs(), __pcs_replace_empty_main(),
 * __pcs_replace_full_main(), refill_sheaf(), sheaf_flush_unused(),
 * barn_replace_empty_sheaf(), barn_replace_full_sheaf().
 *
 * A sheaf holds up to `capacity` objects (their slabs, as everywhere in
 * the model); objects in sheaves are allocated from the slabs but free
 * for users.  The sheaves themselves are kmalloc'ed through the backend
 * environment (kzalloc(struct_size(sheaf, objects, capacity))).  The
 * target's era picks the rules (sheaf.c).
 */
#ifndef SS_SHEAF_H
#define SS_SHEAF_H

#include "backend.h"
#include "slub_cache.h"

struct ss_sheaves;

/* Sheaves over the SLUB cache s; env for the sheaves' own memory. */
struct ss_sheaves *ss_sheaves_create(struct ss_kcache *s, unsigned capacity,
				     const struct ss_backend_env *env);
void ss_sheaves_destroy(struct ss_sheaves *sh);

/* An object for cpu (alloc_from_pcs()): from the CPU's sheaves,
 * refilled from the barn or the slabs.  NULL: none could be had (a
 * refill failed, or no empty sheaf under SLAB_ALLOC_NO_RECURSE): the
 * caller takes the slow path (7.x ___slab_alloc()). */
struct ss_slab *ss_sheaves_alloc(struct ss_sheaves *sh, unsigned cpu,
				 struct ss_op *op);
/* free_to_pcs(): into the CPU's sheaves; false when the object is of
 * another node (can_free_to_pcs()) or no sheaf can take it -- the caller
 * then frees it to its slab (__slab_free()). */
bool ss_sheaves_free(struct ss_sheaves *sh, unsigned cpu, struct ss_slab *sl,
		     struct ss_op *op);

/* The kernel's sheaves when the trace began (an initial state from a
 * slab-fill read, reconcile/sheaf_start.c), their objects taken out of
 * the cache's initial objects by take(ctx) (an object's slab; NULL: none
 * left): CPU cpu's main and spare sheaves with `main` and `spare`
 * objects (SS_SHEAF_NONE: no spare), and node's barn with `full` full sheaves holding `objects`
 * between them, `empty` empty ones and, from a CPU's rcu_free sheaf
 * (kfree_rcu()'d objects, which reach the barn after a grace period), a
 * sheaf of `rcu` objects.  The sheaves are the kernel's: no memory is
 * charged for them (the snapshot's kmalloc caches hold it).  Returns the
 * objects placed. */
typedef struct ss_slab *(*ss_sheaf_take_fn)(void *ctx);
#define SS_SHEAF_NONE UINT32_MAX
uint64_t ss_sheaves_start_cpu(struct ss_sheaves *sh, unsigned cpu, unsigned main, unsigned spare,
			      ss_sheaf_take_fn take, void *ctx);
uint64_t ss_sheaves_start_barn(struct ss_sheaves *sh, unsigned node, unsigned full,
			       uint64_t objects, unsigned empty, unsigned rcu,
			       ss_sheaf_take_fn take, void *ctx);

/* One CPU's sheaves and its node's barn, for tests and reports. */
struct ss_sheaves_state {
	int main, spare;	   /* objects in each; -1: no such sheaf */
	unsigned barn_full, barn_empty; /* sheaves in the barn's lists */
	unsigned barn_objects;	   /* objects in its full sheaves */
};
void ss_sheaves_state(const struct ss_sheaves *sh, unsigned cpu, struct ss_sheaves_state *st);

/* Objects sitting in sheaves (allocated from slabs, free for users). */
uint64_t ss_sheaves_parked(const struct ss_sheaves *sh);
unsigned ss_sheaves_capacity(const struct ss_sheaves *sh);

#endif
