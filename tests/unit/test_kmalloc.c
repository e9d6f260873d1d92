/* test_kmalloc.c - kmalloc classes, names and creation specs per target. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "geometry.h"
#include "kmalloc.h"
#include "target.h"
#include "test_util.h"

/* Every request size in [lo, hi] goes to a class of object size `want`. */
static void expect_range(const struct ss_target *t, size_t lo, size_t hi,
			 unsigned want)
{
	for (size_t s = lo; s <= hi; s++) {
		int idx = ss_kmalloc_index(t, s);

		if (idx < 0 || ss_kmalloc_class_size(t, idx) != want ||
		    !ss_kmalloc_class_exists(t, idx))
			fail_msg("%s: kmalloc(%zu) -> index %d (size %u), want %u",
				 t->name, s, idx,
				 idx < 0 ? 0 : ss_kmalloc_class_size(t, idx),
				 want);
	}
}

static void expect_name(const struct ss_target *t, size_t req,
			const char *want)
{
	char buf[32];

	ss_kmalloc_class_name(t, ss_kmalloc_index(t, req), buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* arm32 3.10, KMALLOC_MIN_SIZE 32: no kmalloc-8/16, 96 and 192 exist. */
static void test_arm32_classes(void **state)
{
	struct ss_target t = tu_target("arm32-3.10");

	(void)state;
	assert_int_equal(ss_kmalloc_min_size(&t), 32);
	assert_int_equal(ss_kmalloc_max_cache_size(&t), 8192);
	expect_range(&t, 1, 32, 32);
	expect_range(&t, 33, 64, 64);
	expect_range(&t, 65, 96, 96);
	expect_range(&t, 97, 128, 128);
	expect_range(&t, 129, 192, 192);
	expect_range(&t, 193, 256, 256);
	expect_range(&t, 257, 512, 512);
	expect_range(&t, 4097, 8192, 8192);
	assert_int_equal(ss_kmalloc_index(&t, 0), SS_KMALLOC_ZERO);
	assert_int_equal(ss_kmalloc_index(&t, 8193), SS_KMALLOC_LARGE);
	assert_int_equal(ss_kmalloc_index(&t, 1u << 20), SS_KMALLOC_LARGE);
	assert_false(ss_kmalloc_class_exists(&t, 0));
	assert_false(ss_kmalloc_class_exists(&t, 3)); /* 8 */
	assert_false(ss_kmalloc_class_exists(&t, 4)); /* 16 */
	assert_true(ss_kmalloc_class_exists(&t, 1));
	assert_true(ss_kmalloc_class_exists(&t, 2));
	assert_true(ss_kmalloc_class_exists(&t, 13));
	assert_false(ss_kmalloc_class_exists(&t, 14));
	assert_int_equal(ss_kmalloc_nr_classes(&t), 14);
	/* 3.10 names spell out the size */
	expect_name(&t, 20, "kmalloc-32");
	expect_name(&t, 80, "kmalloc-96");
	expect_name(&t, 1000, "kmalloc-1024");
	expect_name(&t, 8192, "kmalloc-8192");
}

static void test_x86_classes(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");

	(void)state;
	assert_int_equal(ss_kmalloc_min_size(&t), 8);
	expect_range(&t, 1, 8, 8);
	expect_range(&t, 9, 16, 16);
	expect_range(&t, 17, 32, 32);
	expect_range(&t, 33, 64, 64);
	expect_range(&t, 65, 96, 96);
	expect_range(&t, 97, 128, 128);
	expect_range(&t, 129, 192, 192);
	expect_range(&t, 193, 256, 256);
	expect_range(&t, 257, 512, 512);
	expect_range(&t, 513, 1024, 1024);
	expect_range(&t, 1025, 2048, 2048);
	expect_range(&t, 2049, 4096, 4096);
	expect_range(&t, 4097, 8192, 8192);
	assert_int_equal(ss_kmalloc_index(&t, 8193), SS_KMALLOC_LARGE);
	assert_int_equal(ss_kmalloc_index(&t, 0), SS_KMALLOC_ZERO);
	assert_true(ss_kmalloc_class_exists(&t, 3));
	expect_name(&t, 8, "kmalloc-8");
	expect_name(&t, 96, "kmalloc-96");
	expect_name(&t, 500, "kmalloc-512");
	expect_name(&t, 1024, "kmalloc-1k");
	expect_name(&t, 2000, "kmalloc-2k");
	expect_name(&t, 8192, "kmalloc-8k");
	/* 4.x keeps the long names */
	t = tu_target("x86_64-4.6");
	expect_name(&t, 2000, "kmalloc-2048");
}

/* Larger ARCH_DMA_MINALIGN removes the 96 and 192 classes. */
static void test_large_minalign(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");

	(void)state;
	t.dma_minalign = 64;
	assert_int_equal(ss_kmalloc_min_size(&t), 64);
	expect_range(&t, 1, 64, 64);
	expect_range(&t, 65, 128, 128); /* no kmalloc-96 */
	expect_range(&t, 129, 192, 192);
	assert_false(ss_kmalloc_class_exists(&t, 1));
	assert_true(ss_kmalloc_class_exists(&t, 2));
	t.dma_minalign = 128;
	expect_range(&t, 1, 128, 128);
	expect_range(&t, 129, 256, 256); /* no kmalloc-192 */
	assert_false(ss_kmalloc_class_exists(&t, 2));
	t.dma_minalign = 256;
	expect_range(&t, 1, 256, 256);
	t.page_size = 65536; /* KMALLOC_SHIFT_HIGH = PAGE_SHIFT + 1 */
	assert_int_equal(ss_kmalloc_max_cache_size(&t), 131072);
	expect_range(&t, 65537, 131072, 131072);
	assert_int_equal(ss_kmalloc_index(&t, 131073), SS_KMALLOC_LARGE);
}

static void expect_align(const struct ss_target *t, unsigned size,
			 unsigned want)
{
	struct ss_cache_spec s;

	ss_kmalloc_spec(t, ss_kmalloc_index(t, size), SS_DBG_P, &s);
	assert_int_equal(s.object_size, size);
	assert_int_equal(s.flags, SS_CF_KMALLOC);
	assert_int_equal(s.debug, SS_DBG_P);
	if (s.align != want)
		fail_msg("%s era %d kmalloc-%u: align %u, want %u", t->name,
			 t->era, size, s.align, want);
}

static void test_specs(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");

	(void)state;
	/* 6.11+: largest power of two dividing the size */
	expect_align(&t, 8, 8);
	expect_align(&t, 64, 64);
	expect_align(&t, 96, 32);
	expect_align(&t, 192, 64);
	expect_align(&t, 8192, 8192);
	/* 5.4 - 6.10: only power-of-two sizes */
	t = tu_target("x86_64-6.1");
	expect_align(&t, 64, 64);
	expect_align(&t, 96, 8);
	expect_align(&t, 192, 8);
	/* before 5.4: ARCH_KMALLOC_MINALIGN only */
	t = tu_target("x86_64-4.6");
	expect_align(&t, 64, 8);
	t = tu_target("arm32-3.10");
	expect_align(&t, 32, 32);
	expect_align(&t, 96, 32);
	expect_align(&t, 8192, 32);
}

/* Every kmalloc class of this project's validation machine (6.18, 2 CPUs),
 * as its /sys/kernel/slab showed them: slab_size order objs_per_slab. */
static void test_live_kmalloc(void **state)
{
	static const struct {
		unsigned size, order, objs;
	} tab[] = {
		{8, 0, 512},   {16, 0, 256},  {32, 0, 128},  {64, 0, 64},
		{96, 0, 42},   {128, 0, 32},  {192, 0, 21},  {256, 0, 16},
		{512, 1, 16},  {1024, 2, 16}, {2048, 3, 16}, {4096, 3, 8},
		{8192, 3, 4},
	};
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_error err;

	(void)state;
	t.cpus = 2;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct ss_cache_spec s;
		struct ss_geometry g;

		ss_kmalloc_spec(&t, ss_kmalloc_index(&t, tab[i].size), 0, &s);
		assert_int_equal(ss_geometry_compute(&t, &s, &g, &err), 0);
		assert_int_equal(g.size, tab[i].size);
		assert_int_equal(g.order, tab[i].order);
		assert_int_equal(g.objs_per_slab, tab[i].objs);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm32_classes),
		cmocka_unit_test(test_x86_classes),
		cmocka_unit_test(test_large_minalign),
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_live_kmalloc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
