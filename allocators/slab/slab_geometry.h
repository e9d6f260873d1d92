/* slab_geometry.h - SLAB's cache layout (mm/slab.c, 2.6.16 .. 6.7; the
 * "mslab" files model mm/slab.c, the allocator SLUB replaced, and are
 * apart from slub_cache.c, which holds SLUB's slabs).
 *
 * kmem_cache_create() / __kmem_cache_create(): alignment, the on-slab or
 * off-slab management (and 4.6+'s OBJFREELIST_SLAB), cache_estimate(),
 * calculate_slab_order(), colouring, and enable_cpucache()'s per-CPU
 * array sizes.  Each rule names the era it belongs to; cases worked by
 * hand from those functions are the unit tests (test_mslab_geometry.c).
 */
#ifndef SS_MSLAB_GEOMETRY_H
#define SS_MSLAB_GEOMETRY_H

#include <stdbool.h>

#include "geometry.h"
#include "target.h"

enum ss_mslab_mgmt {
	SS_MSLAB_ON,	      /* descriptor / freelist inside the slab */
	SS_MSLAB_OFF,	      /* CFLGS_OFF_SLAB: kmalloc'ed elsewhere */
	SS_MSLAB_OBJFREELIST, /* CFLGS_OBJFREELIST_SLAB (4.6+): inside a free object */
};

struct ss_mslab_geo {
	unsigned object_size;	/* cachep->object_size (obj_size in 2.6) */
	unsigned size;		/* cachep->size / buffer_size: the stride */
	unsigned align;		/* cachep->align */
	unsigned order;		/* cachep->gfporder */
	unsigned num;		/* objects per slab */
	enum ss_mslab_mgmt mgmt;
	unsigned mgmt_bytes;	/* management bytes inside the slab (ON) */
	unsigned offslab_bytes;	/* bytes kmalloc'ed per slab (OFF) */
	unsigned left_over;	/* slab bytes neither objects nor management */
	unsigned colour_off;	/* cachep->colour_off */
	unsigned colour;	/* cachep->colour = left_over / colour_off */
	unsigned limit, batchcount, shared; /* enable_cpucache() */
};

/* Lay out spec on t (the era's mm/slab.c).  The normal kmalloc-128
 * (SS_CF_KMALLOC_NORMAL, backend.h) is the kmem_cache_node cache on
 * x86_64, created while slab_early_init is set: on-slab whatever its
 * size.  -1 with err when not even one object fits below the largest
 * order (-E2BIG). */
int ss_mslab_geometry(const struct ss_target *t, const struct ss_cache_spec *spec,
		      struct ss_mslab_geo *g, struct ss_error *err);

#endif
