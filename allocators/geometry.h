/* geometry.h - where every byte of a SLUB object and slab goes.
 *
 * Models calculate_alignment(), calculate_sizes() and calculate_order() of
 * mm/slub.c (mm/slab_common.c for alignment) for the target's era, plus the
 * per-cache limits set by set_min_partial() and set_cpu_partial().
 */
#ifndef SS_GEOMETRY_H
#define SS_GEOMETRY_H

#include <stdbool.h>

#include "target.h"
#include "trace.h" /* SS_CF_* cache flags */

/* slub_debug letters as flags. */
#define SS_DBG_F 0x01u /* consistency checks */
#define SS_DBG_Z 0x02u /* red zone */
#define SS_DBG_P 0x04u /* poison */
#define SS_DBG_U 0x08u /* store user (alloc/free tracks) */
#define SS_DBG_T 0x10u /* trace */
#define SS_DBG_O 0x20u /* drop Z/P/U when they would raise the order */
#define SS_DBG_ALL (SS_DBG_F | SS_DBG_Z | SS_DBG_P | SS_DBG_U)

/* What a cache is created with: kmem_cache_create(name, size, align, flags). */
struct ss_cache_spec {
	unsigned object_size;
	unsigned align;	      /* the align argument (0 = none) */
	unsigned flags;	      /* SS_CF_* */
	unsigned debug;	      /* SS_DBG_* in force for this cache */
	unsigned freeptr_offset; /* with SS_CF_FREEPTR */
};

/* The computed layout: the fields of struct kmem_cache and sysfs. */
struct ss_geometry {
	unsigned object_size;	/* s->object_size */
	unsigned size;		/* s->size, sysfs slab_size (the stride) */
	unsigned size_nodebug;	/* s->size the same cache would have without debug */
	unsigned size_unaligned; /* calculate_sizes()'s size before ALIGN(size, align) */
	unsigned align;		/* s->align after calculate_alignment() */
	unsigned inuse;		/* s->inuse: object + red zone, before metadata */
	unsigned offset;	/* s->offset: free pointer position */
	unsigned red_left_pad;	/* s->red_left_pad (0 before 4.6 / without Z) */
	unsigned order;		/* oo_order(s->oo) */
	unsigned objs_per_slab; /* oo_objects(s->oo) */
	unsigned min_order;	/* order of the fallback s->min */
	unsigned min_objects;	/* objects of the fallback s->min */
	unsigned min_partial;	/* s->min_partial */
	unsigned cpu_partial;	/* s->cpu_partial (objects) */
	unsigned cpu_partial_slabs; /* s->cpu_partial_slabs (6.x) */
	unsigned debug;		/* debug flags in effect (after O) */
};

/* Compute *g for spec on target t.  Returns 0, or -1 with err set if the
 * spec is impossible (size 0, align not a power of two, object too big). */
int ss_geometry_compute(const struct ss_target *t,
			const struct ss_cache_spec *spec,
			struct ss_geometry *g, struct ss_error *err);

/* sizeof(struct slab_sheaf) without its objects (6.18+). */
unsigned ss_sheaf_header_bytes(const struct ss_target *t);

/* Caches the kernel creates without sheaves whatever their size (7.0+):
 * kmem_cache and kmem_cache_node (SLAB_NO_SHEAVES, kmem_cache_init()),
 * kmemleak_object and kmemleak_scan_area (SLAB_NOLEAKTRACE,
 * kmemleak_init()) and debug_objects_cache (SLAB_NOLEAKTRACE,
 * lib/debugobjects.c): the ones the 7.2 tree creates. */
bool ss_sheaf_none_named(const char *name);

/* s->sheaf_capacity of a cache laid out as g: calculate_sheaf_capacity()
 * from 7.0 (at least `requested`, the kmem_cache_args.sheaf_capacity it
 * was created with; 0 with no_sheaves, i.e. SLAB_NO_SHEAVES or
 * SLAB_NOLEAKTRACE), `requested` itself in 6.18, 0 for debug caches,
 * SLUB_TINY, SLAB and older eras.  docs/sheaves.md. */
unsigned ss_sheaf_capacity(const struct ss_target *t, const struct ss_geometry *g,
			   unsigned requested, bool no_sheaves);

/* Where a new slab's slabobj_ext vector (ext_bytes per object: 8 with
 * CONFIG_MEMCG, 16 with CONFIG_MEM_ALLOC_PROFILING too) goes, 7.0+:
 * alloc_slab_obj_exts_early().  Before 7.0 always kmalloc'ed. */
enum ss_objext_place {
	SS_OBJEXT_KMALLOC,   /* kcalloc'ed when an object needs it */
	SS_OBJEXT_LEFTOVER,  /* in the slab's unused tail */
	SS_OBJEXT_IN_OBJECT, /* in each object's alignment padding */
};
enum ss_objext_place ss_objext_place(const struct ss_target *t,
				     const struct ss_geometry *g,
				     unsigned ext_bytes, bool unmergeable);
/* kmem_cache_debug(s) (3.10 - 6.18): any of F Z P U T sends every
 * operation of the cache down the debug paths. */
bool ss_geometry_debug_paths(const struct ss_geometry *g);
/* Those paths run the consistency checks: with any debug flag up to 4.5,
 * only with F (SLAB_CONSISTENCY_CHECKS) from 4.6. */
bool ss_geometry_debug_checks(const struct ss_target *t, const struct ss_geometry *g);
/* kmem_cache_has_cpu_partial(s) with CONFIG_SLUB_CPU_PARTIAL: not a
 * debug cache, and a per-CPU partial limit set. */
bool ss_geometry_cpu_partial(const struct ss_geometry *g);

/* Parse slub_debug letters ("FZPU", "P", "-", "" = FZPU).  -1 if bad. */
int ss_debug_parse(const char *letters, unsigned *out);
/* Letters for flags, e.g. "PU"; "-" for none. */
void ss_debug_str(unsigned flags, char *buf, unsigned long n);

/* get_order(size) for the target page size. */
unsigned ss_get_order(const struct ss_target *t, unsigned long size);

#endif
