/* test_geometry.c - SLUB layout and order against hand-worked kernel rules
 * (docs/geometry.md, shared reference slub.md §1-2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "geometry.h"
#include "kmalloc.h"
#include "slab_order.h"
#include "target.h"
#include "test_util.h"

static struct ss_geometry geo(const struct ss_target *t, unsigned size,
			      unsigned align, unsigned flags, unsigned debug)
{
	struct ss_cache_spec s = {size, align, flags, debug, 0};
	struct ss_geometry g;
	struct ss_error err;

	if (ss_geometry_compute(t, &s, &g, &err))
		fail_msg("size %u: %s", size, err.msg);
	return g;
}

static struct ss_geometry kgeo(const struct ss_target *t, unsigned size,
			       unsigned debug)
{
	struct ss_cache_spec s;
	struct ss_geometry g;
	struct ss_error err;

	ss_kmalloc_spec(t, ss_kmalloc_index(t, size), debug, &s);
	assert_int_equal(s.object_size, size);
	if (ss_geometry_compute(t, &s, &g, &err))
		fail_msg("kmalloc-%u: %s", size, err.msg);
	return g;
}

/* SMACK seed (3.10, 32-bit ARM): KMEM_CACHE(smack_rule) = 20 bytes with
 * __alignof__ 4 -> ARCH_SLAB_MINALIGN 8 -> stride 24; smack_master_list
 * 12 -> 16.  Free pointer at offset 0 (3.10). */
static void test_smack_seed(void **state)
{
	struct ss_target t = tu_target("arm32-3.10");
	struct ss_geometry g;

	(void)state;
	g = geo(&t, 20, 4, 0, 0);
	assert_int_equal(g.align, 8);
	assert_int_equal(g.size, 24);
	assert_int_equal(g.inuse, 20);
	assert_int_equal(g.offset, 0);
	assert_int_equal(g.order, 0);
	assert_int_equal(g.objs_per_slab, 170); /* 4096 / 24 */
	assert_int_equal(g.min_partial, 5);
	assert_int_equal(g.cpu_partial, 30);	/* 3.10: < 256 bytes */
	assert_int_equal(g.cpu_partial_slabs, 0); /* no such field in 3.10 */

	g = geo(&t, 12, 4, 0, 0);
	assert_int_equal(g.size, 16);
	assert_int_equal(g.objs_per_slab, 256);
}

/* slub.md §1: 6.x x86_64 FZPU kmalloc-64 = 64 +8 red zone +8 free pointer
 * +2 tracks +4 orig size +8 pad +64 left pad = 220 -> 256, order 1, 32
 * objects.  Same stride with 24- or 32-byte tracks. */
static void test_fzpu_kmalloc64(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_geometry g;

	(void)state;
	assert_int_equal(t.track_size, 32);
	g = kgeo(&t, 64, SS_DBG_ALL);
	assert_int_equal(g.align, 64);
	assert_int_equal(g.inuse, 72);
	assert_int_equal(g.offset, 72);
	assert_int_equal(g.red_left_pad, 64);
	assert_int_equal(g.size, 256);
	assert_int_equal(g.size_nodebug, 64);
	assert_int_equal(g.order, 1);
	assert_int_equal(g.objs_per_slab, 32);
	assert_int_equal(g.min_order, 0);
	assert_int_equal(g.min_objects, 16);
	assert_int_equal(g.cpu_partial, 0); /* debug caches: no per-CPU partial */
	assert_int_equal(g.cpu_partial_slabs, 0);
	assert_int_equal(g.debug, SS_DBG_ALL);

	t.track_size = 24; /* no STACKDEPOT */
	g = kgeo(&t, 64, SS_DBG_ALL);
	assert_int_equal(g.size, 256);
	assert_int_equal(g.order, 1);
	assert_int_equal(g.objs_per_slab, 32);
}

/* slub.md §2 check table: x86_64, N = 8 (min_objects 20). */
static void test_order_table_n8(void **state)
{
	static const struct {
		unsigned size, order, objs;
	} tab[] = {
		{64, 0, 64},	{96, 0, 42},   {192, 0, 21}, {256, 1, 32},
		{1024, 3, 32}, {2048, 3, 16}, {8192, 3, 4},
	};
	struct ss_target t = tu_target("x86_64-6.x");

	(void)state;
	assert_int_equal(ss_min_objects(&t), 20);
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct ss_geometry g = kgeo(&t, tab[i].size, 0);

		assert_int_equal(g.size, tab[i].size);
		assert_int_equal(g.order, tab[i].order);
		assert_int_equal(g.objs_per_slab, tab[i].objs);
	}
}

/* The machine this project was validated on (6.18, 2 present CPUs,
 * min_objects 12): values read from its /sys/kernel/slab. */
static void test_order_n2_live(void **state)
{
	static const struct {
		unsigned size, align, flags, slab, order, objs;
	} tab[] = {
		{5824, 64, 0, 5824, 3, 5},		 /* task_struct */
		{1120, 8, SS_CF_CTOR, 1128, 2, 14},	 /* ext4_inode_cache */
		{96, 8, SS_CF_RCU | SS_CF_CTOR, 104, 0, 39}, /* anon_vma */
		{72, 0, SS_CF_HWCACHE, 128, 0, 32},	 /* kmem_cache_node */
		{2304, 0, SS_CF_HWCACHE | SS_CF_RCU, 2368, 3, 13}, /* TCP */
		{344, 8, 0, 344, 1, 23},		 /* :0000344 */
		{672, 8, 0, 672, 1, 12},		 /* :A-0000672 */
	};
	struct ss_target t = tu_target("x86_64-6.x");

	(void)state;
	t.cpus = 2;
	assert_int_equal(ss_min_objects(&t), 12);
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct ss_geometry g = geo(&t, tab[i].size, tab[i].align,
					   tab[i].flags, 0);

		assert_int_equal(g.size, tab[i].slab);
		assert_int_equal(g.order, tab[i].order);
		assert_int_equal(g.objs_per_slab, tab[i].objs);
	}
}

/* Free pointer placement by era. */
static void test_freeptr_eras(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_cache_spec s = {96, 8, SS_CF_RCU | SS_CF_FREEPTR, 0, 16};
	struct ss_geometry g;
	struct ss_error err;

	(void)state;
	g = geo(&t, 64, 0, 0, 0);
	assert_int_equal(g.offset, 32); /* 5.7+: ALIGN_DOWN(64 / 2, 8) */
	g = geo(&t, 20, 0, 0, 0);
	assert_int_equal(g.offset, 8);	/* ALIGN_DOWN(10, 8) */
	assert_int_equal(g.size, 24);
	t.era = 506;
	g = geo(&t, 64, 0, 0, 0);
	assert_int_equal(g.offset, 0);	/* before 5.7: first word */
	t.era = 611;
	g = geo(&t, 96, 0, SS_CF_RCU, 0);
	assert_int_equal(g.offset, 96); /* RCU: after the object */
	assert_int_equal(g.size, 104);
	assert_int_equal(g.inuse, 96);
	/* explicit freeptr_offset keeps it inside */
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), 0);
	assert_int_equal(g.offset, 16);
	assert_int_equal(g.size, 96);
	/* ... but an invalid one is refused */
	s.freeptr_offset = 12;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), -1);
	s.freeptr_offset = 96;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), -1);
	s.freeptr_offset = 0;
	s.flags = SS_CF_FREEPTR;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), -1);
	/* poison moves it even with a constructor-free, non-RCU cache */
	g = geo(&t, 64, 0, 0, SS_DBG_P);
	assert_int_equal(g.offset, 64);
	assert_int_equal(g.size, 72);
}

/* calculate_sizes() 6.12 - 6.18 (d345bd2e9834 "mm: add
 * kmem_cache_create_rcu()", kmem_cache_args): an explicit freeptr_offset
 * exempts only the RCU clause; `s->ctor` still moves the pointer after
 * the object, and create_cache() refuses an offset without
 * SLAB_TYPESAFE_BY_RCU (-EINVAL).  A constructor has moved it out in every
 * era since 3.10 ("(flags & (SLAB_DESTROY_BY_RCU | SLAB_POISON)) ||
 * s->ctor"). */
static void test_freeptr_offset_612(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_cache_spec s = {96, 8, SS_CF_RCU | SS_CF_CTOR | SS_CF_FREEPTR, 0, 16};
	struct ss_geometry g;
	struct ss_error err;

	(void)state;
	/* RCU + ctor + offset: out, a word added */
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), 0);
	assert_int_equal(g.offset, 96);
	assert_int_equal(g.size, 104);
	/* ctor + offset without RCU: the kernel's -EINVAL */
	s.flags = SS_CF_CTOR | SS_CF_FREEPTR;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), -1);
	assert_non_null(strstr(err.msg, "RCU"));
	/* a ctor alone: out in 3.10 and in 6.x */
	g = geo(&t, 96, 8, SS_CF_CTOR, 0);
	assert_int_equal(g.offset, 96);
	assert_int_equal(g.size, 104);
	t.era = 310;
	g = geo(&t, 96, 8, SS_CF_CTOR, 0);
	assert_int_equal(g.offset, 96);
	assert_int_equal(g.size, 104);
}

/* calculate_order()'s CPU count: up to 5.10 `4 * (fls(nr_cpu_ids) + 1)`;
 * from 5.11 ("mm, slub: better heuristic for number of cpus when
 * calculating slab order") num_present_cpus(), falling back to nr_cpu_ids
 * when that is <= 1 (unchanged by the 6.7 rewrite). */
static void test_order_cpu_fallback(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");

	(void)state;
	t.nr_cpu_ids = 8;
	t.cpus = 1;
	t.era = 510;
	assert_int_equal(ss_min_objects(&t), 20); /* fls(8) = 4 */
	t.era = 511;
	assert_int_equal(ss_min_objects(&t), 20); /* 1 present: nr_cpu_ids */
	t.era = 611;
	assert_int_equal(ss_min_objects(&t), 20);
	t.cpus = 4;
	t.era = 510;
	assert_int_equal(ss_min_objects(&t), 20);
	t.era = 511;
	assert_int_equal(ss_min_objects(&t), 16); /* fls(4) = 3 */
	t.era = 611;
	assert_int_equal(ss_min_objects(&t), 16);
	/* nr_cpu_ids not given: the present CPUs, in every era */
	t.nr_cpu_ids = 0;
	t.era = 510;
	assert_int_equal(ss_min_objects(&t), 16);
	t.cpus = 1;
	t.era = 611;
	assert_int_equal(ss_min_objects(&t), 8);
}

/* A 4-byte object with Z on x86_64: the left red zone (4.6+) and the
 * "object smaller than a pointer" relocation (5.9+) each add a word. */
static void test_redzone_small_object(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_geometry g;

	(void)state;
	g = geo(&t, 4, 0, 0, SS_DBG_Z);
	/* 8 (4 rounded, already room for the red zone) +8 ptr +8 pad +8 left */
	assert_int_equal(g.inuse, 8);
	assert_int_equal(g.offset, 8);
	assert_int_equal(g.red_left_pad, 8);
	assert_int_equal(g.size, 32);
	t.era = 406; /* pointer inside at 0, left pad yes */
	g = geo(&t, 4, 0, 0, SS_DBG_Z);
	assert_int_equal(g.offset, 0);
	assert_int_equal(g.size, 24);
	t.era = 405; /* no left red zone before 4.6 */
	g = geo(&t, 4, 0, 0, SS_DBG_Z);
	assert_int_equal(g.red_left_pad, 0);
	assert_int_equal(g.size, 16);
}

/* kmalloc-64 with U only: orig_size from 6.1, pointer moved by it in
 * 6.2 - 6.8 only, tracks of 152 bytes in 4.x. */
static void test_orig_size_eras(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_geometry g;

	(void)state;
	g = kgeo(&t, 64, SS_DBG_U); /* 64 + 2*32 + 4 = 132 -> 192 */
	assert_int_equal(g.offset, 32);
	assert_int_equal(g.size, 192);
	t.era = 605;
	g = kgeo(&t, 64, SS_DBG_U); /* 64 + 8 + 64 + 4 = 140 -> 192 */
	assert_int_equal(g.offset, 64);
	assert_int_equal(g.size, 192);
	t = tu_target("x86_64-6.1");
	g = kgeo(&t, 64, SS_DBG_U);
	assert_int_equal(g.offset, 32);
	assert_int_equal(g.size, 192);
	t = tu_target("x86_64-4.6"); /* align 8, no orig size: 64 + 304 */
	g = kgeo(&t, 64, SS_DBG_U);
	assert_int_equal(g.offset, 0);
	assert_int_equal(g.align, 8);
	assert_int_equal(g.size, 368);
	/* a plain cache keeps no orig size */
	t = tu_target("x86_64-6.x");
	g = geo(&t, 64, 0, 0, SS_DBG_U);
	assert_int_equal(g.size, 128);
}

/* arm32 3.10 FZPU kmalloc-32: 32 +4 red zone +4 ptr +160 tracks +4 pad
 * = 204 -> align 32 -> 224, order 0, 18 objects. */
static void test_arm32_fzpu(void **state)
{
	struct ss_target t = tu_target("arm32-3.10");
	struct ss_geometry g = kgeo(&t, 32, SS_DBG_ALL);

	(void)state;
	assert_int_equal(g.align, 32);
	assert_int_equal(g.red_left_pad, 0);
	assert_int_equal(g.offset, 36);
	assert_int_equal(g.size, 224);
	assert_int_equal(g.order, 0);
	assert_int_equal(g.objs_per_slab, 18);
	assert_int_equal(g.cpu_partial, 0);
}

/* slub_debug=O drops Z/P/U when they raise get_order(size). */
static void test_debug_o(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_geometry g;

	(void)state;
	/* 4096 FZPU would be 4192 (order 1 > 0): falls back to F only */
	g = geo(&t, 4096, 0, 0, SS_DBG_ALL | SS_DBG_O);
	assert_int_equal(g.size, 4096);
	assert_int_equal(g.debug, SS_DBG_F | SS_DBG_O);
	assert_int_equal(g.offset, 2048);
	assert_int_equal(g.order, 3);
	assert_int_equal(g.objs_per_slab, 8);
	assert_int_equal(g.cpu_partial, 0); /* F still makes it a debug cache */
	g = geo(&t, 4096, 0, 0, SS_DBG_Z | SS_DBG_P | SS_DBG_U | SS_DBG_O);
	assert_int_equal(g.debug, SS_DBG_O);
	assert_int_equal(g.cpu_partial, 6);
	assert_int_equal(g.cpu_partial_slabs, 2); /* DIV_ROUND_UP(12, 8) */
	/* kmalloc-64 stays debugged: 256 is still order 0 */
	g = kgeo(&t, 64, SS_DBG_ALL | SS_DBG_O);
	assert_int_equal(g.size, 256);
	assert_int_equal(g.debug, SS_DBG_ALL | SS_DBG_O);
	/* without O the same 4096 cache keeps its metadata */
	g = geo(&t, 4096, 0, 0, SS_DBG_ALL);
	assert_int_equal(g.size, 4192);
}

/* calculate_order() rewrite in 6.7: a 12000-byte stride. */
static void test_order_6_7(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_geometry g;

	(void)state;
	/* 6.7+: min_objects min(20, 2) -> order 3, accept 1/2 waste */
	g = geo(&t, 12000, 0, 0, 0);
	assert_int_equal(g.order, 3);
	assert_int_equal(g.objs_per_slab, 2);
	/* before: min_objects 2 fails 1/16..1/4, then one object at order 2 */
	t.era = 601;
	g = geo(&t, 12000, 0, 0, 0);
	assert_int_equal(g.order, 2);
	assert_int_equal(g.objs_per_slab, 1);
	/* beyond slub_max_order: get_order(size) in both */
	g = geo(&t, 40000, 0, 0, 0);
	assert_int_equal(g.order, 4);
	assert_int_equal(g.objs_per_slab, 1);
	t.era = 611;
	g = geo(&t, 40000, 0, 0, 0);
	assert_int_equal(g.order, 4);
	/* slub_min_objects overrides the CPU formula */
	t.slub_min_objects = 4;
	g = geo(&t, 1024, 0, 0, 0);
	assert_int_equal(g.order, 0);
	assert_int_equal(g.objs_per_slab, 4);
	t.slub_min_objects = 0;
	t.slub_min_order = 2;
	g = geo(&t, 64, 0, 0, 0);
	assert_int_equal(g.order, 2);
	assert_int_equal(g.objs_per_slab, 256);
}

static void test_min_partial_cpu_partial(void **state)
{
	static const struct {
		unsigned size, minp, cp, cps, cp_old;
	} tab[] = {
		/* 6.x N = 8: objs 64, 32, 32, 8, 4 */
		{64, 5, 120, 4, 30},   {256, 5, 52, 4, 13},
		{1024, 5, 24, 2, 6},   {4096, 6, 6, 2, 2},
		{8192, 6, 6, 3, 2},
	};
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_target old = tu_target("x86_64-4.6");
	struct ss_geometry g;

	(void)state;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		g = geo(&t, tab[i].size, 0, 0, 0);
		assert_int_equal(g.min_partial, tab[i].minp);
		assert_int_equal(g.cpu_partial, tab[i].cp);
		assert_int_equal(g.cpu_partial_slabs, tab[i].cps);
		g = geo(&old, tab[i].size, 0, 0, 0);
		assert_int_equal(g.cpu_partial, tab[i].cp_old);
		assert_int_equal(g.cpu_partial_slabs, 0);
	}
	/* min_partial clamps at 10: ilog2(2 MiB) / 2 = 10 */
	g = geo(&t, 2u << 20, 0, 0, 0);
	assert_int_equal(g.min_partial, 10);
	assert_int_equal(g.order, 9);
	/* trace alone also disables the per-CPU partial list */
	g = geo(&t, 64, 0, 0, SS_DBG_T);
	assert_int_equal(g.cpu_partial, 0);
}

/* calculate_sheaf_capacity() 7.2 (mm/slub.c): 60 / 26 / 12 / 4 objects by
 * stride (< 256, >= 256, >= 1024, >= PAGE), grown until
 * struct_size(slab_sheaf, objects, cap) fills its kmalloc bucket, then at
 * least the requested kmem_cache_args.sheaf_capacity.  x86_64: the
 * header is 32 bytes: 60 -> 512 (kmalloc-512, 60), 26 -> 240 (kmalloc-256,
 * 28), 12 -> 128 (12), 4 -> 64 (4).  arm32 (header 20, kmalloc-96 and
 * -192 exist): 60 -> 260 (kmalloc-512, 123), 26 -> 124 (kmalloc-128, 27),
 * 12 -> 68 (kmalloc-96, 19), 4 -> 36 (kmalloc-64, 11). */
static void test_sheaf_capacity_7x(void **state)
{
	static const struct {
		unsigned size, x86, arm;
	} tab[] = {
		{64, 60, 123},	 {192, 60, 123}, {256, 28, 27},	 {512, 28, 27},
		{1024, 12, 19}, {2048, 12, 19}, {4096, 4, 11},	 {8192, 4, 11},
	};
	struct ss_target t = tu_target("x86_64-7.2");
	struct ss_target a = tu_target("arm32-7.2");
	struct ss_geometry g;

	(void)state;
	assert_int_equal(ss_sheaf_header_bytes(&t), 32);
	assert_int_equal(ss_sheaf_header_bytes(&a), 20);
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		g = geo(&t, tab[i].size, 0, 0, 0);
		assert_int_equal(ss_sheaf_capacity(&t, &g, 0, false), tab[i].x86);
		g = geo(&a, tab[i].size, 0, 0, 0);
		assert_int_equal(ss_sheaf_capacity(&a, &g, 0, false), tab[i].arm);
	}
	/* maple_node (256, asks 32): the request wins; vm_area_struct (192
	 * bytes, asks 32): the computed 60 wins */
	g = geo(&t, 256, 256, 0, 0);
	assert_int_equal(ss_sheaf_capacity(&t, &g, 32, false), 32);
	g = geo(&t, 184, 0, SS_CF_HWCACHE, 0);
	assert_int_equal(g.size, 192);
	assert_int_equal(ss_sheaf_capacity(&t, &g, 32, false), 60);
	/* none for SLAB_NO_SHEAVES / SLAB_NOLEAKTRACE, a debug cache
	 * (T alone too), SLUB_TINY */
	g = geo(&t, 64, 0, 0, 0);
	assert_int_equal(ss_sheaf_capacity(&t, &g, 0, true), 0);
	g = geo(&t, 64, 0, 0, SS_DBG_T);
	assert_int_equal(ss_sheaf_capacity(&t, &g, 32, false), 0);
	g = geo(&t, 64, 0, 0, 0);
	t.kc.allocator = SS_ALLOCATOR_SLUB_TINY;
	assert_int_equal(ss_sheaf_capacity(&t, &g, 32, false), 0);
	/* 6.18: only a cache that asks, exactly what it asks; before: none */
	t = tu_target("x86_64-6.18");
	g = geo(&t, 184, 0, SS_CF_HWCACHE, 0);
	assert_int_equal(ss_sheaf_capacity(&t, &g, 32, false), 32);
	assert_int_equal(ss_sheaf_capacity(&t, &g, 0, false), 0);
	t = tu_target("x86_64-6.x");
	assert_int_equal(ss_sheaf_capacity(&t, &g, 32, false), 0);
}

/* 7.0 has no CPU partial lists ("slab: remove SLUB_CPU_PARTIAL"): sysfs
 * cpu_partial_show() prints 0 for every cache; min_partial is unchanged. */
static void test_cpu_partial_7x(void **state)
{
	static const unsigned sizes[] = {8, 64, 256, 1024, 4096, 8192};
	struct ss_target t = tu_target("x86_64-7.2");
	struct ss_target t618 = tu_target("x86_64-6.18");
	struct ss_geometry g, g618;

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		g = geo(&t, sizes[i], 0, 0, 0);
		g618 = geo(&t618, sizes[i], 0, 0, 0);
		assert_int_equal(g.cpu_partial, 0);
		assert_int_equal(g.cpu_partial_slabs, 0);
		assert_true(g618.cpu_partial > 0);
		assert_int_equal(g.min_partial, g618.min_partial);
		assert_int_equal(g.size, g618.size);
		assert_int_equal(g.order, g618.order);
	}
}

/* calculate_sizes() / create_cache() 7.0 ("mm/slab: allow specifying free
 * pointer offset when using constructor"): a constructor cache created
 * with a freeptr_offset keeps the pointer there (`s->ctor &&
 * !args->use_freeptr_offset` moves it out); create_cache() accepts the
 * offset for RCU or constructor caches.  6.12 - 6.19 move it out and
 * refuse an offset without RCU. */
static void test_freeptr_ctor_7x(void **state)
{
	struct ss_target t = tu_target("x86_64-7.2");
	struct ss_cache_spec s = {96, 8, SS_CF_CTOR | SS_CF_FREEPTR, 0, 16};
	struct ss_geometry g;
	struct ss_error err;

	(void)state;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), 0);
	assert_int_equal(g.offset, 16);
	assert_int_equal(g.size, 96);
	s.flags |= SS_CF_RCU;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), 0);
	assert_int_equal(g.offset, 16);
	assert_int_equal(g.size, 96);
	/* poison still moves it out */
	s.debug = SS_DBG_P;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), 0);
	assert_int_equal(g.offset, 96);
	/* neither RCU nor ctor: -EINVAL in 7.x too */
	s.flags = SS_CF_FREEPTR;
	s.debug = 0;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), -1);
	assert_non_null(strstr(err.msg, "RCU or constructor"));
	/* 6.18: the ctor takes the pointer out and the offset alone is refused */
	t = tu_target("x86_64-6.18");
	s.flags = SS_CF_CTOR | SS_CF_RCU | SS_CF_FREEPTR;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), 0);
	assert_int_equal(g.offset, 96);
	assert_int_equal(g.size, 104);
	s.flags = SS_CF_CTOR | SS_CF_FREEPTR;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), -1);
}

/* 7.0 widens orig_size to unsigned long ("mm/slab: use unsigned long for
 * orig_size to ensure proper metadata align").  On 64-bit every field
 * before it is a multiple of 8, so no stride changes (ALIGN(x + 4, a) ==
 * ALIGN(x + 8, a) for x % 8 == 0, a >= 8): check every kmalloc class
 * under U, ZU and FZPU, and that the unaligned size grew by 4.  32-bit:
 * unsigned long is 4 bytes, nothing moves. */
static void test_orig_size_word_7x(void **state)
{
	static const unsigned dbg[] = {SS_DBG_U, SS_DBG_Z | SS_DBG_U, SS_DBG_ALL};
	struct ss_target t = tu_target("x86_64-7.2");
	struct ss_target old = tu_target("x86_64-6.18");
	struct ss_target a = tu_target("arm32-7.2");
	struct ss_target aold = a;
	unsigned checked = 0;

	(void)state;
	aold.era = SS_ERA_6_18;
	for (int i = 0; i < ss_kmalloc_nr_classes(&t); i++) {
		if (!ss_kmalloc_class_exists(&t, i))
			continue;
		for (size_t d = 0; d < sizeof(dbg) / sizeof(dbg[0]); d++) {
			unsigned size = ss_kmalloc_class_size(&t, i);
			struct ss_geometry g = kgeo(&t, size, dbg[d]);
			struct ss_geometry o = kgeo(&old, size, dbg[d]);

			assert_int_equal(g.size, o.size);
			assert_int_equal(g.size_unaligned, o.size_unaligned + 4);
			checked++;
		}
	}
	assert_true(checked >= 30);
	for (int i = 0; i < ss_kmalloc_nr_classes(&a); i++) {
		if (!ss_kmalloc_class_exists(&a, i))
			continue;
		unsigned size = ss_kmalloc_class_size(&a, i);
		struct ss_geometry g = kgeo(&a, size, SS_DBG_ALL);
		struct ss_geometry o = kgeo(&aold, size, SS_DBG_ALL);

		assert_int_equal(g.size_unaligned, o.size_unaligned);
	}
}

/* alloc_slab_obj_exts_early() 7.2: a new slab's slabobj_ext vector goes
 * in the slab's leftover when ALIGN(objects * size, ext) + objects * ext
 * fits; else (64-bit, unmergeable cache, padding >= ext) into each
 * object's padding; else it is kmalloc'ed.  1000-byte objects, 2 CPUs:
 * order 2, 16 objects, 384 bytes left for 16 * 8.  A 184-byte hwcache
 * object: stride 192, 21 per page, 64 left (< 168), 8 bytes of padding
 * each. */
static void test_objext_place_7x(void **state)
{
	struct ss_target t = tu_target("x86_64-7.2");
	struct ss_geometry g;

	(void)state;
	g = geo(&t, 1000, 8, 0, 0);
	assert_int_equal(g.order, 2);
	assert_int_equal(g.objs_per_slab, 16);
	assert_int_equal(ss_objext_place(&t, &g, 8, false), SS_OBJEXT_LEFTOVER);
	/* 16 bytes (with allocation profiling): 256 <= 384 still fits */
	assert_int_equal(ss_objext_place(&t, &g, 16, false), SS_OBJEXT_LEFTOVER);
	g = geo(&t, 184, 0, SS_CF_HWCACHE, 0);
	assert_int_equal(g.size, 192);
	assert_int_equal(g.size_unaligned, 184);
	assert_int_equal(g.objs_per_slab, 21);
	assert_int_equal(ss_objext_place(&t, &g, 8, true), SS_OBJEXT_IN_OBJECT);
	assert_int_equal(ss_objext_place(&t, &g, 8, false), SS_OBJEXT_KMALLOC);
	assert_int_equal(ss_objext_place(&t, &g, 16, true), SS_OBJEXT_KMALLOC);
	/* kmalloc-64: 64 objects fill the page, no padding */
	g = kgeo(&t, 64, 0);
	assert_int_equal(ss_objext_place(&t, &g, 8, true), SS_OBJEXT_KMALLOC);
	/* before 7.0 always kmalloc'ed; 32-bit never in the object */
	t = tu_target("x86_64-6.18");
	g = geo(&t, 1000, 8, 0, 0);
	assert_int_equal(ss_objext_place(&t, &g, 8, false), SS_OBJEXT_KMALLOC);
	t = tu_target("arm32-7.2");
	g = geo(&t, 92, 0, SS_CF_HWCACHE, 0);
	assert_int_equal(g.size - g.size_unaligned, 4);
	assert_int_equal(ss_objext_place(&t, &g, 4, true), g.objs_per_slab * g.size +
			 g.objs_per_slab * 4 <= t.page_size << g.order ?
			 SS_OBJEXT_LEFTOVER : SS_OBJEXT_KMALLOC);
}

static void test_hwcache_align(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_geometry g;

	(void)state;
	g = geo(&t, 16, 0, SS_CF_HWCACHE, 0);
	assert_int_equal(g.align, 16); /* 64 halved while 16 <= r / 2 */
	g = geo(&t, 33, 0, SS_CF_HWCACHE, 0);
	assert_int_equal(g.align, 64);
	assert_int_equal(g.size, 64);
	g = geo(&t, 296, 0, SS_CF_HWCACHE, 0);
	assert_int_equal(g.size, 320);
	g = geo(&t, 20, 128, SS_CF_HWCACHE, 0);
	assert_int_equal(g.align, 128); /* the larger of align and r */
	t = tu_target("arm32-3.10");
	g = geo(&t, 40, 0, SS_CF_HWCACHE, 0);
	assert_int_equal(g.align, 32);
	assert_int_equal(g.size, 64);
}

static void test_bad_specs(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_cache_spec s = {0, 0, 0, 0, 0};
	struct ss_geometry g;
	struct ss_error err;

	(void)state;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), -1);
	s.object_size = 64;
	s.align = 24;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), -1);
	assert_non_null(strstr(err.msg, "power of two"));
	s.align = 0;
	s.object_size = (4096u << 10) + 1;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), -1);
	s.object_size = 64;
	s.flags = 0x100;
	assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), -1);
}

static void test_debug_letters(void **state)
{
	unsigned f;
	char buf[16];

	(void)state;
	assert_int_equal(ss_debug_parse("", &f), 0);
	assert_int_equal(f, SS_DBG_F | SS_DBG_Z | SS_DBG_P | SS_DBG_U);
	assert_int_equal(ss_debug_parse("-", &f), 0);
	assert_int_equal(f, 0);
	assert_int_equal(ss_debug_parse("P", &f), 0);
	assert_int_equal(f, SS_DBG_P);
	assert_int_equal(ss_debug_parse("fzpuot", &f), 0);
	assert_int_equal(f, SS_DBG_ALL | SS_DBG_O | SS_DBG_T);
	assert_int_equal(ss_debug_parse("PX", &f), -1);
	assert_int_equal(ss_debug_parse("P-", &f), -1);
	ss_debug_str(SS_DBG_P | SS_DBG_U, buf, sizeof(buf));
	assert_string_equal(buf, "PU");
	ss_debug_str(0, buf, sizeof(buf));
	assert_string_equal(buf, "-");
	ss_debug_str(SS_DBG_ALL | SS_DBG_T | SS_DBG_O, buf, sizeof(buf));
	assert_string_equal(buf, "FZPUTO");
	ss_debug_str(SS_DBG_ALL, buf, 3);
	assert_string_equal(buf, "FZ");
}

static void test_get_order(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");

	(void)state;
	assert_int_equal(ss_get_order(&t, 1), 0);
	assert_int_equal(ss_get_order(&t, 4096), 0);
	assert_int_equal(ss_get_order(&t, 4097), 1);
	assert_int_equal(ss_get_order(&t, 8192), 1);
	assert_int_equal(ss_get_order(&t, 32768), 3);
	assert_int_equal(ss_get_order(&t, 32769), 4);
	t.page_size = 65536;
	assert_int_equal(ss_get_order(&t, 65537), 1);
}

/* Invariants over a grid of sizes, CPU counts, flags, debug and eras. */
static void check_invariants(const struct ss_target *t,
			     const struct ss_geometry *g, unsigned size)
{
	unsigned long slab = (unsigned long)t->page_size << g->order;

	if (g->size < size || g->size % g->align || g->objs_per_slab < 1 ||
	    (unsigned long)g->objs_per_slab * g->size > slab ||
	    (g->order > t->slub_max_order &&
	     g->size <= (t->page_size << t->slub_max_order)) ||
	    g->inuse > g->size || g->offset + t->ptr_size > g->size ||
	    g->red_left_pad >= g->size || g->size_nodebug > g->size ||
	    g->min_partial < 5 || g->min_partial > 10)
		fail_msg("%s era %d cpus %u size %u debug %x: slab %u align %u "
			 "order %u objs %u", t->name, t->era, t->cpus, size,
			 g->debug, g->size, g->align, g->order,
			 g->objs_per_slab);
}

static void test_property_grid(void **state)
{
	static const unsigned cpus[] = {1, 2, 4, 8, 64, 256};
	static const unsigned flags[] = {0, SS_CF_HWCACHE, SS_CF_RCU,
					 SS_CF_HWCACHE | SS_CF_RCU};
	static const unsigned debug[] = {0, SS_DBG_ALL};
	static const char *const targets[] = {"arm32-3.10", "x86_64-4.5",
					      "x86_64-4.6", "x86_64-6.1",
					      "x86_64-6.x"};
	unsigned long n = 0;

	(void)state;
	for (size_t ti = 0; ti < sizeof(targets) / sizeof(targets[0]); ti++) {
		struct ss_target t = tu_target(targets[ti]);

		for (size_t c = 0; c < sizeof(cpus) / sizeof(cpus[0]); c++) {
			t.cpus = cpus[c];
			for (unsigned size = 8; size <= 8192; size += 8)
				for (size_t f = 0; f < 4; f++)
					for (size_t d = 0; d < 2; d++) {
						struct ss_geometry g =
							geo(&t, size, 0, flags[f],
							    debug[d]);

						check_invariants(&t, &g, size);
						n++;
					}
		}
	}
	assert_int_equal(n, 5ul * 6 * 1024 * 4 * 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smack_seed),
		cmocka_unit_test(test_fzpu_kmalloc64),
		cmocka_unit_test(test_order_table_n8),
		cmocka_unit_test(test_order_n2_live),
		cmocka_unit_test(test_freeptr_eras),
		cmocka_unit_test(test_freeptr_offset_612),
		cmocka_unit_test(test_order_cpu_fallback),
		cmocka_unit_test(test_redzone_small_object),
		cmocka_unit_test(test_orig_size_eras),
		cmocka_unit_test(test_arm32_fzpu),
		cmocka_unit_test(test_debug_o),
		cmocka_unit_test(test_order_6_7),
		cmocka_unit_test(test_min_partial_cpu_partial),
		cmocka_unit_test(test_sheaf_capacity_7x),
		cmocka_unit_test(test_cpu_partial_7x),
		cmocka_unit_test(test_freeptr_ctor_7x),
		cmocka_unit_test(test_orig_size_word_7x),
		cmocka_unit_test(test_objext_place_7x),
		cmocka_unit_test(test_hwcache_align),
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_debug_letters),
		cmocka_unit_test(test_get_order),
		cmocka_unit_test(test_property_grid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
