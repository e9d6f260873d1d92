/* kmalloc.c - kmalloc size classes (mm/slab_common.c: kmalloc_slab(),
 * size_index[] / kmalloc_size_index[], setup_kmalloc_cache_index_table(),
 * create_kmalloc_caches(), create_boot_cache(), kmalloc_info[]).
 *
 * Class indexes are the kernel's kmalloc_caches[] indexes: 1 = 96,
 * 2 = 192, i >= 3 = 1 << i, from KMALLOC_SHIFT_LOW to KMALLOC_SHIFT_HIGH
 * (PAGE_SHIFT + 1 for SLUB in every era, so the largest class is two pages:
 * kmalloc-8192 / kmalloc-8k with 4 KiB pages; SLAB's differ before 6.1,
 * see shift_high()).  Index 0 never exists.  The allocator is the
 * target's (target.h kc.allocator).
 */
#include "kmalloc.h"

#include <stdio.h>

#include "slab_order.h"

static unsigned ilog2u(unsigned v)
{
	return ss_fls(v) - 1;
}

static bool is_slab(const struct ss_target *t)
{
	return t->kc.allocator == SS_ALLOCATOR_SLAB;
}

unsigned ss_kmalloc_min_size(const struct ss_target *t)
{
	/* KMALLOC_MIN_SIZE = ARCH_DMA_MINALIGN when that is > 8, else
	 * 1 << KMALLOC_SHIFT_LOW: 3 for SLUB, 5 for SLAB (whose smallest
	 * class was size-32 from the start). */
	unsigned low = is_slab(t) ? 32 : 8;

	return t->dma_minalign > low ? t->dma_minalign : low;
}

static unsigned shift_low(const struct ss_target *t)
{
	return ilog2u(ss_kmalloc_min_size(t));
}

/* KMALLOC_SHIFT_HIGH: SLUB PAGE_SHIFT + 1 (larger requests go to the page
 * allocator).  SLAB until 6.0: 128 KiB in 2.6.16 (kmalloc_sizes.h), then
 * min(MAX_ORDER + PAGE_SHIFT - 1, 25) = 22 (4 MiB) from 2.6.22, with no
 * kmalloc_large; 6.1 gave SLAB SLUB's bound ("mm/slab: kmalloc: pass
 * requests larger than order-1 page to page allocator"). */
static unsigned shift_high(const struct ss_target *t)
{
	if (is_slab(t) && t->era < SS_ERA_6_1)
		return t->era < SS_ERA_2_6_22 ? 17 : 22;
	return ilog2u(t->page_size) + 1;
}

bool ss_kmalloc_has_large(const struct ss_target *t)
{
	return !(is_slab(t) && t->era < SS_ERA_6_1);
}

unsigned ss_kmalloc_max_cache_size(const struct ss_target *t)
{
	return 1u << shift_high(t);
}

int ss_kmalloc_nr_classes(const struct ss_target *t)
{
	return (int)shift_high(t) + 1;
}

/* kmalloc-96 and kmalloc-192 (index 1 and 2): the common kmalloc code
 * (SLUB, SLAB from 3.9) has them unless KMALLOC_MIN_SIZE is above;
 * SLAB's kmalloc_sizes.h before had CACHE(96) only with L1 lines < 64
 * and CACHE(192) only with lines < 128. */
int ss_kmalloc_class_exists(const struct ss_target *t, int index)
{
	unsigned min = ss_kmalloc_min_size(t);
	bool old_slab = is_slab(t) && t->era < SS_ERA_3_9;

	if (index == 1)
		return old_slab ? t->cache_line < 64 : min <= 32;
	if (index == 2)
		return old_slab ? t->cache_line < 128 : min <= 64;
	return index >= (int)shift_low(t) && index <= (int)shift_high(t);
}

unsigned ss_kmalloc_class_size(const struct ss_target *t, int index)
{
	if (index == 1)
		return 96;
	if (index == 2)
		return 192;
	if (index < 3 || index > (int)shift_high(t))
		return 0;
	return 1u << index;
}

/* size_index[(size - 1) / 8] for size <= 192 as the kernel patches it at
 * boot: entries below KMALLOC_MIN_SIZE go to the smallest class, 72..96
 * go to 128 when there is no kmalloc-96, 136..192 to 256 when there is
 * no kmalloc-192 (2.6's __find_general_cachep() walk gives the same). */
static int small_index(const struct ss_target *t, size_t size)
{
	static const unsigned char base[24] = {
		3, 4, 5, 5, 6, 6, 6, 6,	 /* 8 .. 64 */
		1, 1, 1, 1, 7, 7, 7, 7,	 /* 72 .. 128 */
		2, 2, 2, 2, 2, 2, 2, 2,	 /* 136 .. 192 */
	};
	unsigned min = ss_kmalloc_min_size(t);
	unsigned rounded = (unsigned)((size + 7) / 8 * 8); /* the elem's i */

	if (rounded < min)
		return (int)shift_low(t);
	if (!ss_kmalloc_class_exists(t, 1) && rounded >= 72 && rounded <= 96)
		return 7;
	if (!ss_kmalloc_class_exists(t, 2) && rounded >= 136 && rounded <= 192)
		return 8;
	return base[(size - 1) / 8];
}

int ss_kmalloc_index(const struct ss_target *t, size_t size)
{
	if (!size)
		return SS_KMALLOC_ZERO;
	if (size > ss_kmalloc_max_cache_size(t))
		return SS_KMALLOC_LARGE;
	if (size <= 192)
		return small_index(t, size);
	return (int)ss_fls(size - 1);
}

/* Names: "kmalloc-1024" until 4.20, then "kmalloc-1k" for multiples of
 * 1024 ("mm, slab: shorten kmalloc cache names for large sizes"). */
void ss_kmalloc_size_name(const struct ss_target *t, unsigned size, char *buf,
			  size_t n)
{
	if (!size)
		snprintf(buf, n, "kmalloc-?");
	else if (is_slab(t) && t->era < SS_ERA_3_9) /* 2.6 .. 3.8 SLAB */
		snprintf(buf, n, "size-%u", size);
	else if (t->era >= SS_ERA_4_20 && size >= 1024 && !(size % 1024))
		snprintf(buf, n, "kmalloc-%uk", size / 1024);
	else
		snprintf(buf, n, "kmalloc-%u", size);
}

void ss_kmalloc_class_name(const struct ss_target *t, int index, char *buf,
			   size_t n)
{
	ss_kmalloc_size_name(t, ss_kmalloc_class_size(t, index), buf, n);
}

/* ARCH_KMALLOC_MINALIGN: ARCH_DMA_MINALIGN when > 8, else
 * __alignof__(unsigned long long), 8 on both shipped targets. */
static unsigned kmalloc_minalign(const struct ss_target *t)
{
	return t->dma_minalign > 8 ? t->dma_minalign : 8;
}

/* create_boot_cache()'s extra kmalloc alignment: none before 5.4; 5.4 -
 * 6.10 power-of-two sizes aligned to their size (59bb47985c1d); 6.11+ the
 * largest power of two dividing the size (ad59baa31695). */
static unsigned kmalloc_era_align(const struct ss_target *t, unsigned size)
{
	if (t->era >= SS_ERA_6_11)
		return size & -size;
	if (t->era >= SS_ERA_5_4 && !(size & (size - 1)))
		return size;
	return 0;
}

void ss_kmalloc_spec_size(const struct ss_target *t, unsigned size,
			  unsigned minalign, unsigned debug,
			  struct ss_cache_spec *spec)
{
	unsigned align = minalign ? minalign : kmalloc_minalign(t);
	unsigned extra = size ? kmalloc_era_align(t, size) : 0;

	spec->object_size = size;
	spec->align = extra > align ? extra : align;
	/* ARCH_KMALLOC_FLAGS: SLAB_HWCACHE_ALIGN in mm/slab.c; SLUB creates
	 * its kmalloc caches with no flag of its own */
	spec->flags = SS_CF_KMALLOC | (is_slab(t) ? SS_CF_HWCACHE : 0);
	spec->debug = debug;
	spec->freeptr_offset = 0;
}

void ss_kmalloc_spec(const struct ss_target *t, int index, unsigned debug,
		     struct ss_cache_spec *spec)
{
	ss_kmalloc_spec_size(t, ss_kmalloc_class_size(t, index), 0, debug, spec);
}
