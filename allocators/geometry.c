/* geometry.c - SLUB object layout and per-cache limits for a target era.
 *
 * Models calculate_alignment() (mm/slab_common.c), calculate_sizes(),
 * kmem_cache_open()/do_kmem_cache_create() (slub_debug=O), set_min_partial()
 * and set_cpu_partial() (mm/slub.c), and from 7.0
 * calculate_sheaf_capacity() and where a new slab's slabobj_ext vector
 * goes (alloc_slab_obj_exts_early()).  Slab order: slab_order.c.  Each
 * rule that changed between 3.10 and 7.2 is a small function naming its
 * era.
 */
#include "geometry.h"

#include <string.h>

#include "kmalloc.h"
#include "slab_order.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))
#define ALIGN_DOWN(x, a) ((x) / (a) * (a))

/* DEBUG_METADATA_FLAGS: what slub_debug=O drops. */
#define SS_DBG_METADATA (SS_DBG_Z | SS_DBG_P | SS_DBG_U)
/* SLAB_DEBUG_FLAGS: any of these makes kmem_cache_debug() true. */
#define SS_DBG_ANY (SS_DBG_F | SS_DBG_Z | SS_DBG_P | SS_DBG_U | SS_DBG_T)

static bool is_pow2(unsigned v)
{
	return v && !(v & (v - 1));
}

/* calculate_alignment() (mm/slab_common.c; in calculate_sizes() in 3.10):
 * the same in every era. */
static unsigned calc_alignment(const struct ss_target *t, unsigned flags,
			       unsigned align, unsigned size)
{
	if (flags & SS_CF_HWCACHE) {
		unsigned ralign = t->cache_line;

		while (size <= ralign / 2)
			ralign /= 2;
		if (ralign > align)
			align = ralign;
	}
	if (align < t->slab_minalign)
		align = t->slab_minalign;
	return ALIGN_UP(align, t->ptr_size);
}

/* slub_debug_orig_size() (6.1+): a kmalloc cache with store-user keeps the
 * requested size after the tracks. */
static bool keeps_orig_size(const struct ss_target *t, unsigned flags,
			    unsigned debug)
{
	return t->era >= SS_ERA_6_1 && (flags & SS_CF_KMALLOC) &&
	       (debug & SS_DBG_U);
}

/* Bytes of the orig_size field: sizeof(unsigned int) in calculate_sizes()
 * 6.1 - 6.19, sizeof(unsigned long) from 7.0 ("mm/slab: use unsigned long
 * for orig_size to ensure proper metadata align").  On 64-bit the word
 * never changes a stride: everything before it is a multiple of 8, so
 * ALIGN(x + 4, a) and ALIGN(x + 8, a) agree for any a >= 8; it moves
 * only the metadata after it and the padding left for a slabobj_ext. */
static unsigned orig_size_bytes(const struct ss_target *t)
{
	return t->era >= SS_ERA_7_0 ? t->ptr_size : 4;
}

/* An explicit freeptr_offset (kmem_cache_args) may keep the pointer of a
 * constructor cache inside from 7.0 ("mm/slab: allow specifying free
 * pointer offset when using constructor": `(s->ctor &&
 * !args->use_freeptr_offset)` in calculate_sizes(), and create_cache()
 * accepts an offset with SLAB_TYPESAFE_BY_RCU or a ctor); 6.12 - 6.19
 * accept it only for RCU caches and a constructor moves the pointer out
 * whatever the offset. */
static bool ctor_takes_freeptr_offset(const struct ss_target *t)
{
	return t->era >= SS_ERA_7_0;
}

/* The condition in calculate_sizes() that relocates the free pointer after
 * the object.  3.10: RCU, poison or ctor.  5.9+ also a red-zoned object
 * smaller than a pointer.  6.2 - 6.8 also any cache keeping orig_size;
 * 6.9+ only when that cache is also red-zoned.  An explicit
 * freeptr_offset (kmem_cache_args, 6.12: d345bd2e9834 "mm: add
 * kmem_cache_create_rcu()") exempts the RCU clause:
 * `((flags & SLAB_TYPESAFE_BY_RCU) && !args->use_freeptr_offset) || ...`,
 * and from 7.0 the constructor clause too (ctor_takes_freeptr_offset()).
 * A spec with an offset implies 6.12+ rules: the argument did not exist
 * before, so no other era test is needed. */
static bool freeptr_outside(const struct ss_target *t,
			    const struct ss_cache_spec *s, unsigned debug)
{
	bool explicit_fp = s->flags & SS_CF_FREEPTR;
	bool orig = keeps_orig_size(t, s->flags, debug);

	if ((s->flags & SS_CF_RCU) && !explicit_fp)
		return true;
	if (debug & SS_DBG_P)
		return true;
	if ((s->flags & SS_CF_CTOR) &&
	    !(explicit_fp && ctor_takes_freeptr_offset(t)))
		return true;
	if (t->era >= SS_ERA_5_9 && (debug & SS_DBG_Z) &&
	    s->object_size < t->ptr_size)
		return true;
	if (orig && t->era >= SS_ERA_6_9)
		return debug & SS_DBG_Z;
	return orig && t->era >= SS_ERA_6_2;
}

/* Where the free pointer sits when it stays inside the object: offset 0
 * until 5.7, ALIGN_DOWN(object_size / 2, W) from 5.7 (3202fa62fb43). */
static unsigned freeptr_inside_offset(const struct ss_target *t,
				      const struct ss_cache_spec *s)
{
	if (s->flags & SS_CF_FREEPTR)
		return s->freeptr_offset;
	if (t->era >= SS_ERA_5_7)
		return ALIGN_DOWN(s->object_size / 2, t->ptr_size);
	return 0;
}

/* Left red zone (4.6+, "mm/slub: support left redzone"): one word rounded
 * up to the alignment, in front of every object. */
static unsigned red_left_pad(const struct ss_target *t, unsigned align)
{
	if (t->era < SS_ERA_4_6)
		return 0;
	return ALIGN_UP(t->ptr_size, align);
}

/* calculate_sizes() without the order: fills size, inuse, offset,
 * red_left_pad of g for the given debug flags. */
static void calc_sizes(const struct ss_target *t,
		       const struct ss_cache_spec *s, unsigned debug,
		       struct ss_geometry *g)
{
	unsigned w = t->ptr_size;
	unsigned size = ALIGN_UP(s->object_size, w);

	/* A right red zone is never empty. */
	if ((debug & SS_DBG_Z) && size == s->object_size)
		size += w;
	g->inuse = size;
	if (freeptr_outside(t, s, debug)) {
		g->offset = size;
		size += w;
	} else {
		g->offset = freeptr_inside_offset(t, s);
	}
	if (debug & SS_DBG_U) {
		size += 2 * t->track_size;
		if (keeps_orig_size(t, s->flags, debug))
			size += orig_size_bytes(t);
	}
	g->red_left_pad = 0;
	if (debug & SS_DBG_Z) {
		size += w; /* trailing pad before the next object */
		g->red_left_pad = red_left_pad(t, g->align);
		size += g->red_left_pad;
	}
	g->size_unaligned = size;
	g->size = ALIGN_UP(size, g->align);
}

/* set_min_partial(s, ilog2(s->size) / 2), clamped to [5, 10]. */
static unsigned min_partial(unsigned size)
{
	unsigned v = (ss_fls(size) - 1) / 2;

	if (v < 5)
		return 5;
	return v > 10 ? 10 : v;
}

/* The stride classes of set_cpu_partial() and calculate_sheaf_capacity():
 * >= PAGE, >= 1024, >= 256, smaller -> 3, 2, 1, 0. */
static unsigned stride_class(const struct ss_target *t, unsigned size)
{
	if (size >= t->page_size)
		return 3;
	if (size >= 1024)
		return 2;
	return size >= 256 ? 1 : 0;
}

/* set_cpu_partial(): objects kept on the per-CPU partial list.  Before
 * 5.16: 30/13/6/2; from 5.16 (per-CPU partial accounting in slabs):
 * 120/52/24/6, also kept as slabs assuming half-full slabs.  From 7.0
 * there are no CPU partial lists ("slab: remove SLUB_CPU_PARTIAL",
 * e323b52cf00f): 0, as sysfs cpu_partial_show() prints. */
static void cpu_partial(const struct ss_target *t, struct ss_geometry *g)
{
	static const unsigned old_n[4] = {30, 13, 6, 2};
	static const unsigned new_n[4] = {120, 52, 24, 6};
	const unsigned *n = t->era >= SS_ERA_5_16 ? new_n : old_n;
	unsigned k;

	g->cpu_partial = 0;
	g->cpu_partial_slabs = 0;
	if (g->debug & SS_DBG_ANY)
		return; /* kmem_cache_has_cpu_partial() is false */
	if (t->era >= SS_ERA_7_0)
		return;
	k = stride_class(t, g->size);
	g->cpu_partial = n[k];
	if (t->era >= SS_ERA_5_16)
		g->cpu_partial_slabs = (2 * g->cpu_partial + g->objs_per_slab - 1) /
				       g->objs_per_slab;
}

static int check_spec(const struct ss_target *t,
		      const struct ss_cache_spec *s, struct ss_error *err)
{
	if (!s->object_size)
		return ss_errorf(err, "object size 0");
	if (s->object_size > t->page_size << SS_MAX_PAGE_ORDER)
		return ss_errorf(err, "object size %u exceeds an order-%d slab",
				 s->object_size, SS_MAX_PAGE_ORDER);
	if (s->align && !is_pow2(s->align))
		return ss_errorf(err, "align %u is not a power of two",
				 s->align);
	if (s->align > t->page_size << SS_MAX_PAGE_ORDER)
		return ss_errorf(err, "align %u exceeds an order-%d slab",
				 s->align, SS_MAX_PAGE_ORDER);
	if (s->flags & ~(SS_CF_HWCACHE | SS_CF_RCU | SS_CF_CTOR |
			 SS_CF_KMALLOC | SS_CF_FREEPTR))
		return ss_errorf(err, "unknown cache flags 0x%x", s->flags);
	if (s->debug & ~(SS_DBG_ALL | SS_DBG_T | SS_DBG_O))
		return ss_errorf(err, "unknown debug flags 0x%x", s->debug);
	if (s->flags & SS_CF_FREEPTR) {
		/* create_cache(): a freeptr_offset on a cache without
		 * SLAB_TYPESAFE_BY_RCU is -EINVAL in 6.12 - 6.19; from 7.0
		 * a constructor cache may have one too. */
		if (!(s->flags & SS_CF_RCU) &&
		    !((s->flags & SS_CF_CTOR) && ctor_takes_freeptr_offset(t)))
			return ss_errorf(err, t->era >= SS_ERA_7_0 ?
					 "a free pointer offset needs an RCU or constructor cache (the kernel's create_cache() returns -EINVAL)" :
					 "a free pointer offset needs an RCU cache (the kernel's create_cache() returns -EINVAL)");
		if (s->freeptr_offset >= s->object_size ||
		    s->freeptr_offset % t->ptr_size)
			return ss_errorf(err,
					 "free pointer offset %u must be < object size %u and a multiple of %u",
					 s->freeptr_offset, s->object_size,
					 t->ptr_size);
	}
	return 0;
}

/* Layout and order for one set of debug flags; -1 if nothing fits. */
static int layout(const struct ss_target *t, const struct ss_cache_spec *s,
		  unsigned debug, struct ss_geometry *g)
{
	int order;

	calc_sizes(t, s, debug, g);
	order = ss_calculate_order(t, g->size);
	if (order < 0)
		return -1;
	g->order = (unsigned)order;
	g->objs_per_slab = ss_order_objects(t, g->order, g->size);
	g->min_order = ss_get_order(t, g->size);
	g->min_objects = ss_order_objects(t, g->min_order, g->size);
	g->debug = debug;
	return g->objs_per_slab ? 0 : -1;
}

int ss_geometry_compute(const struct ss_target *t,
			const struct ss_cache_spec *spec,
			struct ss_geometry *g, struct ss_error *err)
{
	struct ss_geometry nodebug;

	memset(g, 0, sizeof(*g));
	if (check_spec(t, spec, err))
		return -1;
	g->object_size = spec->object_size;
	g->align = calc_alignment(t, spec->flags, spec->align,
				  spec->object_size);
	nodebug = *g;
	if (layout(t, spec, 0, &nodebug) ||
	    layout(t, spec, spec->debug, g))
		return ss_errorf(err, "object size %u does not fit in an order-%d slab",
				 spec->object_size, SS_MAX_PAGE_ORDER);
	/* slub_debug=O: drop Z/P/U when they raise the minimum order. */
	if ((spec->debug & SS_DBG_O) && (spec->debug & SS_DBG_METADATA) &&
	    ss_get_order(t, g->size) > ss_get_order(t, spec->object_size)) {
		if (layout(t, spec, spec->debug & ~SS_DBG_METADATA, g))
			return ss_errorf(err, "object size %u does not fit",
					 spec->object_size);
	}
	g->size_nodebug = nodebug.size;
	g->min_partial = min_partial(g->size);
	cpu_partial(t, g);
	return 0;
}

/* struct slab_sheaf before its objects[]: a union of rcu_head, list_head
 * and {capacity, pfmemalloc} (two words), the cache pointer, size and
 * node (unsigned int each): 32 bytes on 64-bit, 20 on 32-bit. */
unsigned ss_sheaf_header_bytes(const struct ss_target *t)
{
	return 3 * t->ptr_size + 8;
}

bool ss_sheaf_none_named(const char *name)
{
	static const char *const names[] = {
		"kmem_cache",	   "kmem_cache_node",	 "kmemleak_object",
		"kmemleak_scan_area", "debug_objects_cache",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* calculate_sheaf_capacity() (7.0, "slab: add sheaves to most caches",
 * e47c897a2949): none under SLUB_TINY, for a debug cache, or a cache
 * created with SLAB_NO_SHEAVES (kmem_cache, kmem_cache_node) or
 * SLAB_NOLEAKTRACE; else 4 / 12 / 26 / 60 objects by stride (PAGE, 1024,
 * 256), grown to fill the kmalloc bucket the sheaf itself comes from
 * (kmalloc_size_roundup()), and at least the cache's requested
 * kmem_cache_args.sheaf_capacity.  In 6.18 only a cache that asks has
 * sheaves, with exactly the capacity it asks for, none when it is a
 * debug cache or SLUB_TINY (do_kmem_cache_create()). */
unsigned ss_sheaf_capacity(const struct ss_target *t, const struct ss_geometry *g,
			   unsigned requested, bool no_sheaves)
{
	static const unsigned base[4] = {60, 26, 12, 4};
	unsigned head = ss_sheaf_header_bytes(t), cap, bytes;
	int idx;

	if (t->era < SS_ERA_6_18 || t->kc.allocator != SS_ALLOCATOR_SLUB ||
	    (g->debug & SS_DBG_ANY))
		return 0;
	if (t->era < SS_ERA_7_0)
		return requested;
	if (no_sheaves)
		return 0;
	cap = base[stride_class(t, g->size)];
	bytes = head + cap * t->ptr_size;
	idx = ss_kmalloc_index(t, bytes);
	if (idx >= 0)
		cap = (ss_kmalloc_class_size(t, idx) - head) / t->ptr_size;
	return cap > requested ? cap : requested;
}

/* alloc_slab_obj_exts_early() (7.0, "mm/slab: save memory by allocating
 * slabobj_ext array from leftover", "mm/slab: place slabobj_ext metadata
 * in unused space within s->size"): for a cache that needs the vectors
 * (memcg on and SLAB_ACCOUNT, or allocation profiling), a new slab's
 * vector goes after its objects when ALIGN(objects * size, ext) +
 * objects * ext fits in the slab; else, on 64-bit, into each object's
 * alignment padding when the cache is unmergeable and the padding holds
 * one slabobj_ext (calculate_sizes() sets SLAB_OBJ_EXT_IN_OBJ); else it
 * is kmalloc'ed when an object needs it (alloc_slab_obj_exts()). */
enum ss_objext_place ss_objext_place(const struct ss_target *t,
				     const struct ss_geometry *g,
				     unsigned ext_bytes, bool unmergeable)
{
	uint64_t slab = (uint64_t)t->page_size << g->order;
	uint64_t at = ALIGN_UP((uint64_t)g->objs_per_slab * g->size, ext_bytes);

	if (t->era < SS_ERA_7_0 || !ext_bytes)
		return SS_OBJEXT_KMALLOC;
	if (at + (uint64_t)g->objs_per_slab * ext_bytes <= slab)
		return SS_OBJEXT_LEFTOVER;
	if (t->ptr_size == 8 && unmergeable &&
	    g->size - g->size_unaligned >= ext_bytes)
		return SS_OBJEXT_IN_OBJECT;
	return SS_OBJEXT_KMALLOC;
}

/* slub_debug letters (tolower() in the kernel parser, so either case). */
static const struct {
	unsigned flag;
	char c;
} dbg_letters[] = {{SS_DBG_F, 'F'}, {SS_DBG_Z, 'Z'}, {SS_DBG_P, 'P'},
		   {SS_DBG_U, 'U'}, {SS_DBG_T, 'T'}, {SS_DBG_O, 'O'}};
#define NR_DBG_LETTERS (sizeof(dbg_letters) / sizeof(dbg_letters[0]))

static unsigned dbg_letter(char c)
{
	if (c >= 'a' && c <= 'z')
		c = (char)(c - 'a' + 'A');
	for (unsigned i = 0; i < NR_DBG_LETTERS; i++)
		if (dbg_letters[i].c == c)
			return dbg_letters[i].flag;
	return 0;
}

int ss_debug_parse(const char *letters, unsigned *out)
{
	unsigned f = 0;

	if (!letters || !*letters) {
		*out = SS_DBG_ALL; /* slub_debug with no letters */
		return 0;
	}
	if (!strcmp(letters, "-")) {
		*out = 0;
		return 0;
	}
	for (const char *p = letters; *p; p++) {
		unsigned bit = dbg_letter(*p);

		if (!bit)
			return -1;
		f |= bit;
	}
	*out = f;
	return 0;
}

void ss_debug_str(unsigned flags, char *buf, unsigned long n)
{
	unsigned long k = 0;

	if (!n)
		return;
	for (unsigned i = 0; i < NR_DBG_LETTERS; i++)
		if ((flags & dbg_letters[i].flag) && k + 1 < n)
			buf[k++] = dbg_letters[i].c;
	if (!k && n > 1)
		buf[k++] = '-';
	buf[k] = '\0';
}

bool ss_geometry_debug_paths(const struct ss_geometry *g)
{
	return (g->debug & (SS_DBG_ALL | SS_DBG_T)) != 0;
}

bool ss_geometry_debug_checks(const struct ss_target *t, const struct ss_geometry *g)
{
	return ss_geometry_debug_paths(g) && (t->era < SS_ERA_4_6 || (g->debug & SS_DBG_F));
}

bool ss_geometry_cpu_partial(const struct ss_geometry *g)
{
	return !ss_geometry_debug_paths(g) && g->cpu_partial > 0;
}
