/* slab_order.h - calculate_order() of mm/slub.c for the target's era.
 *
 * The slab order depends only on the stride s->size, the CPU count and the
 * slub_min_order / slub_max_order / slub_min_objects settings, so it is
 * exposed on its own: `validate --slabinfo` checks /proc/slabinfo lines,
 * which give the stride but not the object size.
 */
#ifndef SS_SLAB_ORDER_H
#define SS_SLAB_ORDER_H

#include "target.h"

/* Eras where a rule changed that target.h does not name (major*100+minor). */
#define SS_ERA_4_20 420 /* kmalloc-1k style names (cb5d9fb38c34) */
#define SS_ERA_5_4 504	/* kmalloc(power of two) naturally aligned */
#define SS_ERA_5_9 509	/* Z with object < W moves the free pointer */
#define SS_ERA_5_16 516 /* cpu_partial 6/24/52/120 + cpu_partial_slabs */
#define SS_ERA_6_2 602	/* kmalloc orig_size moves the free pointer */
#define SS_ERA_6_7 607	/* calculate_order(): no min_objects loop, 1/2 waste */
#define SS_ERA_6_9 609	/* ... orig_size moves it only together with Z */

/* Orders above this are never used (MAX_ORDER - 1 in 3.10,
 * MAX_PAGE_ORDER in 6.x: both 10 with the default configuration). */
#define SS_MAX_PAGE_ORDER 10
/* page->objects is 15 bits (MAX_OBJS_PER_PAGE). */
#define SS_MAX_OBJS_PER_SLAB 32767u

/* min_objects before it is capped by what fits at slub_max_order:
 * slub_min_objects if set, else 4 * (fls(N) + 1). */
unsigned ss_min_objects(const struct ss_target *t);

/* Order for a cache of stride `size` (calculate_order()), or -1 if not even
 * one object fits below SS_MAX_PAGE_ORDER. */
int ss_calculate_order(const struct ss_target *t, unsigned size);

/* Objects in a slab of `order` (order_objects()). */
unsigned ss_order_objects(const struct ss_target *t, unsigned order,
			  unsigned size);

/* fls(): 1-based index of the highest set bit, 0 for 0. */
unsigned ss_fls(unsigned long v);

#endif
