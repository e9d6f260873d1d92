/* relayout.h - a kernel cache's initial state under the run's rules,
 * where they lay it out otherwise than the kernel the snapshot came from.
 *
 * A snapshot shows each cache's stride, order and objects per slab as the
 * capture's kernel (A) computed them: calculate_order() (mm/slub.c) of
 * the stride under A's page size, era, CPU count (nr_cpu_ids /
 * num_present_cpus()) and slub_min_order, slub_max_order and
 * slub_min_objects.  A run whose rules (B: another CPU count, boot
 * option or era) give that stride another order holds the same objects
 * in slabs of B's size, as B's kernel would have: ss_relayout_decide()
 * says where, ss_relayout_plan() how many slabs of B's hold them.  The
 * stride, object size and alignment stay the kernel's: the structures
 * are A's; only the order is the rules'.  (A slub_debug what-if lays the
 * cache out its own way, metadata and all, and its start follows the
 * same plan.)
 */
#ifndef SS_RELAYOUT_H
#define SS_RELAYOUT_H

#include <stdint.h>

#include "slabsnap.h"
#include "target.h"

enum ss_relayout {
	SS_RELAYOUT_KEEP,	 /* B gives the snapshot's layout, or A's answer */
	SS_RELAYOUT_RUN,	 /* B's order and objects per slab (*order, *objs) */
	/* B's answer differs from A's, but A's rules, as the run knows
	 * them, do not give the snapshot's layout: kept (and counted) */
	SS_RELAYOUT_UNEXPLAINED,
};

/* For the snapshot's cache c (stride c->slab_size, c->order,
 * c->objs_per_slab): SS_RELAYOUT_RUN, with B's order and objects per
 * slab, where B's calculate_order() gives another layout than A's and
 * A's gives the snapshot's.  kernel NULL: A's rules are unknown, KEEP. */
enum ss_relayout ss_relayout_decide(const struct ss_target *kernel, const struct ss_target *run,
				    const struct ss_snap_cache *c, unsigned *order, unsigned *objs);

/* Where the kernel's objects of cache c go in slabs of ops objects:
 *  - objects: c's objects in use, SLUB's `objects` less the free slots
 *    of its CPU slabs (cpu_free: as the initial state counts them for
 *    A's slabs, slab_prior.c);
 *  - cpu_slabs: as many CPU slabs as A had (nr_cpu), each half in use
 *    (slabs_cpu_partial_show()'s estimate, of B's slab), as far as the
 *    objects go (cpu_used each, cpu_objects in all);
 *  - node partial slabs: the objects A's held, and the free slots A's
 *    lists had (total_objects - objects: a free slot is a free the
 *    kernel made, whatever the slab's size), in as few slabs of B's as
 *    hold both and leave each a free slot (get_partial_node() takes only
 *    a slab with one; __slab_free() keeps empty ones up to min_partial),
 *    their fills spread as partial_spread.h does;
 *  - full slabs: the rest (what A's full slabs held, less what the CPU
 *    slabs took), a remainder less than a slab going to the partial ones.
 * Node partial objects and full slabs keep SLUB's `objects` less the CPU
 * slabs' at c->objects less A's CPU slabs'.  0, or -1 out of memory. */
struct ss_relayout_plan {
	uint64_t objects;     /* the objects in use, all */
	uint32_t cpu_used;    /* on each CPU slab (the last ones may hold fewer) */
	uint64_t cpu_objects; /* on the CPU slabs, all */
	uint64_t full;	      /* full slabs */
	uint32_t nr_partial;  /* node partial slabs */
	uint32_t *partial;    /* their objects in use (malloc'd, NULL when none) */
};
int ss_relayout_plan(const struct ss_snap_cache *c, uint32_t ops, uint64_t nr_cpu,
		     uint64_t cpu_free, struct ss_relayout_plan *p);
void ss_relayout_plan_release(struct ss_relayout_plan *p);

#endif
