/* geometry.c - SLUB object layout and per-cache limits for a target era.
 *
 * Models calculate_alignment() (mm/slab_common.c), calculate_sizes(),
 * kmem_cache_open()/do_kmem_cache_create() (slub_debug=O), set_min_partial()
 * and set_cpu_partial() (mm/slub.c).  Slab order: slab_order.c.  Each rule
 * that changed between 3.10 and 6.x is a small function naming its era.
 */
#include "geometry.h"

#include <string.h>

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
 * since 6.1 (patches of the 6.18/6.19 period widen it to a word; not
 * modelled). */
static unsigned orig_size_bytes(void)
{
	return 4;
}

/* The condition in calculate_sizes() that relocates the free pointer after
 * the object.  3.10: RCU, poison or ctor.  5.9+ also a red-zoned object
 * smaller than a pointer.  6.2 - 6.8 also any cache keeping orig_size;
 * 6.9+ only when that cache is also red-zoned.  An explicit
 * freeptr_offset (kmem_cache_args, 6.12: d345bd2e9834 "mm: add
 * kmem_cache_create_rcu()") exempts only the RCU clause:
 * `((flags & SLAB_TYPESAFE_BY_RCU) && !args->use_freeptr_offset) || ...
 * || s->ctor` -- a constructor keeps the pointer out whatever the offset,
 * up to 6.18 at least (the ctor exception, "mm/slab: allow specifying free
 * pointer offset when using constructor", was posted in 2026, after
 * 6.18; not modelled).  A spec with an offset implies 6.12+ rules: the
 * argument did not exist before, so no era test is needed. */
static bool freeptr_outside(const struct ss_target *t,
			    const struct ss_cache_spec *s, unsigned debug)
{
	bool explicit_fp = s->flags & SS_CF_FREEPTR;
	bool orig = keeps_orig_size(t, s->flags, debug);

	if ((s->flags & SS_CF_RCU) && !explicit_fp)
		return true;
	if (debug & SS_DBG_P)
		return true;
	if (s->flags & SS_CF_CTOR)
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
			size += orig_size_bytes();
	}
	g->red_left_pad = 0;
	if (debug & SS_DBG_Z) {
		size += w; /* trailing pad before the next object */
		g->red_left_pad = red_left_pad(t, g->align);
		size += g->red_left_pad;
	}
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

/* set_cpu_partial(): objects kept on the per-CPU partial list.  Before
 * 5.16: 30/13/6/2; from 5.16 (per-CPU partial accounting in slabs):
 * 120/52/24/6, also kept as slabs assuming half-full slabs. */
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
	if (g->size >= t->page_size)
		k = 3;
	else if (g->size >= 1024)
		k = 2;
	else if (g->size >= 256)
		k = 1;
	else
		k = 0;
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
		/* create_cache() (6.12 - 6.18): a freeptr_offset on a cache
		 * without SLAB_TYPESAFE_BY_RCU is -EINVAL. */
		if (!(s->flags & SS_CF_RCU))
			return ss_errorf(err, "a free pointer offset needs an RCU cache (the kernel's create_cache() returns -EINVAL)");
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
