/* slab_geometry.c - SLAB's cache layout per era (slab_geometry.h).
 *
 * Sources: 2.6.16 kmem_cache_create(),
 * calculate_slab_order() and cache_estimate() (commit 4d268eba and the
 * 2006-03-06 offslab_limit fix); 2.6.18 local offslab_limit and
 * slab_early_init; 3.13 struct slab folded into struct page; 3.15 byte
 * freelist index (freelist_idx_t) and OFF_SLAB_MIN_SIZE; 4.6 freelist at
 * the slab's end and set_objfreelist_slab_cache() / set_off_slab_cache() /
 * set_on_slab_cache(); enable_cpucache() (unchanged 2.6.18 .. 6.7).
 */
#include "slab_geometry.h"

#include "backend.h"
#include "kmalloc.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

/* sizeof(struct slab) on 64-bit until 3.12: list 16 + colouroff 8 +
 * s_mem 8 + inuse 4 + free 4 + nodeid 2, padded to 48; half on 32-bit
 * (list 8 + 4 + 4 + 4 + 4 + 2 -> 28).  kmem_bufctl_t: unsigned int. */
#define BUFCTL_BYTES 4u
static unsigned slab_desc_bytes(const struct ss_target *t)
{
	return t->ptr_size == 8 ? 48 : 28;
}

/* KMALLOC_MAX_ORDER bounds the order loop after 2.6.21; MAX_GFP_ORDER (5)
 * before.  Either way the loop stops at slab_max_order unless no object
 * fits: only huge objects reach the bound. */
static unsigned max_gfp_order(const struct ss_target *t)
{
	return t->era < SS_ERA_2_6_22 ? 5 : 10;
}

/* slab_break_gfp_order / slab_max_order: BREAK_GFP_ORDER_HI (1) on
 * machines with more than 32 MB (kmem_cache_init()). */
#define SLAB_MAX_ORDER_HI 1u

/* freelist_idx_t: unsigned char from 3.15 when (PAGE_SIZE >> 8) <=
 * SLAB_OBJ_MIN_SIZE (16): 4 KiB pages; unsigned short above. */
static unsigned idx_bytes(const struct ss_target *t)
{
	if (t->era < SS_ERA_3_15)
		return BUFCTL_BYTES;
	return (t->page_size >> 8) <= 16 ? 1 : 2;
}

/* SLAB_OBJ_MAX_NUM (3.15+): what a freelist index can address. */
static unsigned obj_max_num(const struct ss_target *t)
{
	if (t->era < SS_ERA_3_15)
		return ~0u;
	return idx_bytes(t) == 1 ? 255 : 65535;
}

/* Alignment: kmem_cache_create() (2.6.16 .. 3.6) halves the cache line
 * while the word-rounded size fits in half; calculate_alignment() (3.7+,
 * mm/slab_common.c) does the same on object_size and rounds to a pointer.
 * Then the caller's and ARCH_SLAB_MINALIGN, at least a word. */
static unsigned slab_alignment(const struct ss_target *t,
			       const struct ss_cache_spec *spec, unsigned wsize)
{
	unsigned align = spec->align, ralign;

	if (spec->flags & SS_CF_HWCACHE) {
		unsigned probe = t->era < SS_ERA_3_9 ? wsize : spec->object_size;

		ralign = t->cache_line;
		while (probe <= ralign / 2)
			ralign /= 2;
	} else {
		ralign = t->ptr_size; /* BYTES_PER_WORD */
	}
	if (ralign < t->slab_minalign)
		ralign = t->slab_minalign;
	if (ralign < align)
		ralign = align;
	return ALIGN_UP(ralign, t->ptr_size);
}

/* ---- cache_estimate() ---- */

struct estimate {
	unsigned num, left, mgmt; /* objects, left_over, on-slab management */
};

/* Objects and left-over bytes in a slab of `order` with management `mgmt`. */
static struct estimate cache_estimate(const struct ss_target *t, unsigned order,
				      unsigned size, unsigned align,
				      enum ss_mslab_mgmt mgmt)
{
	const unsigned long slab = (unsigned long)t->page_size << order;
	struct estimate e = {0};

	if (mgmt != SS_MSLAB_ON) { /* OFF and OBJFREELIST: nothing in the slab */
		e.num = (unsigned)(slab / size);
		e.left = (unsigned)(slab - (unsigned long)e.num * size);
		return e;
	}
	if (t->era >= SS_ERA_4_6) {
		/* 4.6+: the freelist at the slab's end, one index per object,
		 * no alignment ("freelist will be at the end of slab page") */
		e.num = (unsigned)(slab / (size + idx_bytes(t)));
		e.mgmt = e.num * idx_bytes(t);
	} else {
		/* ≤ 4.5: the management at the slab's start, aligned:
		 * struct slab (until 3.12) + one index per object */
		unsigned hdr = t->era < SS_ERA_3_13 ? slab_desc_bytes(t) : 0;
		unsigned long n = (slab - hdr) / (size + idx_bytes(t));

		while (n && n * size + ALIGN_UP(hdr + n * idx_bytes(t), align) > slab)
			n--;
		e.num = (unsigned)n;
		e.mgmt = (unsigned)ALIGN_UP(hdr + n * idx_bytes(t), align);
	}
	e.left = (unsigned)(slab - (unsigned long)e.num * size - e.mgmt);
	return e;
}

/* ---- off-slab management ---- */

/* 2.6.16: the global offslab_limit that kmem_cache_init() leaves: the
 * largest general cache kept on-slab, less struct slab, in bufctls
 * ((256 - 48) / 4 = 52 on x86_64). */
static unsigned offslab_limit_2616(const struct ss_target *t)
{
	unsigned on = 0;

	for (int i = 0; i < ss_kmalloc_nr_classes(t); i++) {
		unsigned sz = ss_kmalloc_class_exists(t, i) ? ss_kmalloc_class_size(t, i) : 0;

		if (sz && sz < (t->page_size >> 3) && sz > on)
			on = sz;
	}
	return on > slab_desc_bytes(t) ? (on - slab_desc_bytes(t)) / BUFCTL_BYTES : 0;
}

/* The kmalloc class a freelist of `bytes` would come from, for 4.6+'s
 * test in calculate_slab_order(): its stride, and whether it is itself
 * off-slab.  kmalloc caches are created in increasing size, so while one
 * of them is being created the larger classes do not exist yet. */
static bool freelist_cache(const struct ss_target *t, const struct ss_cache_spec *spec,
			   unsigned bytes, unsigned *stride, bool *off)
{
	int idx = ss_kmalloc_index(t, bytes);
	struct ss_cache_spec ks;
	struct ss_mslab_geo g;

	if (idx < 0)
		return false;
	ss_kmalloc_spec(t, idx, 0, &ks);
	if ((spec->flags & SS_CF_KMALLOC) && ks.object_size >= spec->object_size)
		return false;
	if (ss_mslab_geometry(t, &ks, &g, NULL))
		return false;
	*stride = g.size;
	*off = g.mgmt == SS_MSLAB_OFF;
	return true;
}

/* Whether calculate_slab_order() may take `num` objects with off-slab
 * management (the era's offslab_limit or 4.6+'s benefit test). */
static bool offslab_ok(const struct ss_target *t, const struct ss_cache_spec *spec,
		       unsigned size, unsigned num)
{
	unsigned stride;
	bool off;

	if (t->era < SS_ERA_2_6_18)
		return num <= offslab_limit_2616(t);
	if (t->era < SS_ERA_3_13)
		return num <= (size - slab_desc_bytes(t)) / BUFCTL_BYTES;
	if (t->era < SS_ERA_4_6)
		return num <= size / idx_bytes(t);
	/* 4.6+: "check if off slab has enough benefit" */
	if (!freelist_cache(t, spec, num * idx_bytes(t), &stride, &off))
		return false;
	return !off && stride <= size / 2;
}

/* calculate_slab_order(): the first order with objects, then larger ones
 * until slab_max_order or until at most 1/8 of the slab is left over. */
static struct estimate slab_order(const struct ss_target *t,
				  const struct ss_cache_spec *spec, unsigned size,
				  unsigned align, enum ss_mslab_mgmt mgmt,
				  unsigned *order_out)
{
	struct estimate best = {0};

	for (unsigned order = 0; order <= max_gfp_order(t); order++) {
		struct estimate e = cache_estimate(t, order, size, align, mgmt);

		if (!e.num)
			continue;
		if (e.num > obj_max_num(t))
			break;
		if (mgmt == SS_MSLAB_OFF && !offslab_ok(t, spec, size, e.num)) {
			if (t->era < SS_ERA_4_6)
				break; /* ≤ 4.5: "if (... num > offslab_limit) break" */
			continue;
		}
		best = e;
		*order_out = order;
		if (spec->flags & SS_CF_RECLAIM_ACCOUNT)
			break;
		if (order >= SLAB_MAX_ORDER_HI)
			break;
		if ((unsigned long)e.left * 8 <= ((unsigned long)t->page_size << order))
			break;
	}
	return best;
}

/* ---- the per-era management choice ---- */

/* ≤ 4.5: off-slab by size (on the word-rounded size, before alignment),
 * then "if we have enough space then move it on-slab". */
static int choose_legacy(const struct ss_target *t, const struct ss_cache_spec *spec,
			 unsigned wsize, bool early, struct ss_mslab_geo *g)
{
	unsigned threshold = t->era < SS_ERA_3_15 ? t->page_size >> 3 : t->page_size >> 5;
	bool off = wsize >= threshold && !(early && t->era >= SS_ERA_2_6_18);
	struct estimate e = slab_order(t, spec, g->size, g->align,
				       off ? SS_MSLAB_OFF : SS_MSLAB_ON, &g->order);
	unsigned hdr = t->era < SS_ERA_3_13 ? slab_desc_bytes(t) : 0;

	if (!e.num)
		return -1;
	g->num = e.num;
	g->left_over = e.left;
	g->mgmt = off ? SS_MSLAB_OFF : SS_MSLAB_ON;
	g->mgmt_bytes = e.mgmt;
	if (off) {
		unsigned aligned = ALIGN_UP(hdr + e.num * idx_bytes(t), g->align);

		if (e.left >= aligned) {
			g->mgmt = SS_MSLAB_ON;
			g->mgmt_bytes = aligned;
			g->left_over = e.left - aligned;
		} else {
			/* off-slab: the unaligned size from a kmalloc class */
			g->offslab_bytes = hdr + e.num * idx_bytes(t);
		}
	}
	return 0;
}

/* 4.6+: OBJFREELIST, else OFF (if worth it), else ON. */
static int choose_46(const struct ss_target *t, const struct ss_cache_spec *spec,
		     struct ss_mslab_geo *g)
{
	struct estimate e;
	unsigned order = 0;

	/* set_objfreelist_slab_cache(): not with a constructor or RCU */
	if (!(spec->flags & (SS_CF_CTOR | SS_CF_RCU))) {
		e = slab_order(t, spec, g->size, g->align, SS_MSLAB_OBJFREELIST, &order);
		if (e.num && e.num * idx_bytes(t) <= spec->object_size) {
			g->mgmt = SS_MSLAB_OBJFREELIST;
			goto done;
		}
	}
	/* set_off_slab_cache(): rejected when the freelist fits in the
	 * left-over ("move it on-slab") */
	e = slab_order(t, spec, g->size, g->align, SS_MSLAB_OFF, &order);
	if (e.num && e.left < e.num * idx_bytes(t)) {
		g->mgmt = SS_MSLAB_OFF;
		g->offslab_bytes = e.num * idx_bytes(t);
		goto done;
	}
	e = slab_order(t, spec, g->size, g->align, SS_MSLAB_ON, &order);
	if (!e.num)
		return -1;
	g->mgmt = SS_MSLAB_ON;
	g->mgmt_bytes = e.mgmt;
done:
	g->num = e.num;
	g->order = order;
	g->left_over = e.left;
	return 0;
}

/* enable_cpucache(): limit by stride, batchcount half of it, shared 8
 * for objects up to a page on SMP (2.6.18's #ifdef CONFIG_SMP, later
 * num_possible_cpus() > 1). */
static void cpucache(const struct ss_target *t, struct ss_mslab_geo *g)
{
	if (g->size > 131072)
		g->limit = 1;
	else if (g->size > t->page_size)
		g->limit = 8;
	else if (g->size > 1024)
		g->limit = 24;
	else if (g->size > 256)
		g->limit = 54;
	else
		g->limit = 120;
	g->batchcount = (g->limit + 1) / 2;
	g->shared = g->size <= t->page_size && (t->era <= SS_ERA_2_6_18 || t->cpus > 1) ? 8 : 0;
}

int ss_mslab_geometry(const struct ss_target *t, const struct ss_cache_spec *spec,
		      struct ss_mslab_geo *g, struct ss_error *err)
{
	/* slab_early_init (2.6.18+): INDEX_NODE's cache, sizeof(struct
	 * kmem_cache_node) ~ 104 -> kmalloc-128 */
	bool early = (spec->flags & SS_CF_KMALLOC_NORMAL) && spec->object_size == 128;
	unsigned wsize;
	int rc;

	*g = (struct ss_mslab_geo){0};
	if (!spec->object_size)
		return ss_errorf(err, "object size 0");
	if (spec->align & (spec->align - 1))
		return ss_errorf(err, "align %u is not a power of two", spec->align);
	wsize = ALIGN_UP(spec->object_size, t->ptr_size);
	g->object_size = spec->object_size;
	g->align = slab_alignment(t, spec, wsize);
	g->size = ALIGN_UP(wsize, g->align);
	if (t->era >= SS_ERA_3_15 && g->size < 16) /* SLAB_OBJ_MIN_SIZE */
		g->size = ALIGN_UP(16, g->align);
	rc = t->era < SS_ERA_4_6 ? choose_legacy(t, spec, wsize, early, g) : choose_46(t, spec, g);
	if (rc)
		return ss_errorf(err, "%u-byte objects: no order up to %u holds one (-E2BIG)",
				 spec->object_size, max_gfp_order(t));
	/* "Offset must be a multiple of the alignment." */
	g->colour_off = t->cache_line > g->align ? t->cache_line : g->align;
	g->colour = g->left_over / g->colour_off;
	cpucache(t, g);
	return 0;
}
