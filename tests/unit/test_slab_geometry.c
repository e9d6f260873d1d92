/* test_slab_geometry.c - SLAB's layout (slab_geometry.c) against the
 * cases worked by hand from mm/slab.c's kmem_cache_create(),
 * cache_estimate() and calculate_slab_order() of each era (x86_64, 4 KiB
 * pages, 64-byte lines, RAM > 32 MB): tables A (2.6.16 kmalloc caches), B (2.6.16 odd
 * sizes with and without SLAB_HWCACHE_ALIGN), C (3.10), D (3.13), E
 * (3.15 .. 4.5) and F (4.6 .. 6.7).  Each row cites its case.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "backend.h"
#include "kmalloc.h"
#include "slab_geometry.h"
#include "target.h"
#include "test_util.h"

enum { ON = SS_MSLAB_ON, OFF = SS_MSLAB_OFF, OBJFL = SS_MSLAB_OBJFREELIST };
enum { HW = SS_CF_HWCACHE, CTOR = SS_CF_CTOR, RCU = SS_CF_RCU, KM = SS_CF_KMALLOC,
       KMN = SS_CF_KMALLOC | SS_CF_KMALLOC_NORMAL | SS_CF_HWCACHE };

struct row {
	const char *tag;   /* the notes' case */
	const char *era;
	unsigned size, flags;
	/* expected */
	unsigned align, stride, mgmt, order, num, left, colour;
	unsigned mgmt_bytes, offslab_bytes; /* on-slab bytes / kmalloc'ed bytes */
};

static const struct row rows[] = {
	/* A: 2.6.16 kmalloc caches (SLAB_HWCACHE_ALIGN, align 0) */
	{"A1 size-32", "2.6.16", 32, HW, 32, 32, ON, 0, 112, 0, 0, 512, 0},
	{"A2 size-64", "2.6.16", 64, HW, 64, 64, ON, 0, 59, 0, 0, 320, 0},
	{"A4 size-128", "2.6.16", 128, HW, 64, 128, ON, 0, 30, 64, 1, 192, 0},
	{"A5 size-192", "2.6.16", 192, HW, 64, 192, ON, 0, 20, 128, 2, 128, 0},
	{"A6 size-256", "2.6.16", 256, HW, 64, 256, ON, 0, 15, 128, 2, 128, 0},
	{"A7 size-512", "2.6.16", 512, HW, 64, 512, OFF, 0, 8, 0, 0, 0, 80},
	{"A8 size-1024", "2.6.16", 1024, HW, 64, 1024, OFF, 0, 4, 0, 0, 0, 64},
	{"A9 size-2048", "2.6.16", 2048, HW, 64, 2048, OFF, 0, 2, 0, 0, 0, 56},
	{"A10 size-4096", "2.6.16", 4096, HW, 64, 4096, OFF, 0, 1, 0, 0, 0, 52},
	{"A11 size-8192", "2.6.16", 8192, HW, 64, 8192, OFF, 1, 1, 0, 0, 0, 52},
	/* B: 2.6.16 odd sizes */
	{"B1 20", "2.6.16", 20, 0, 8, 24, ON, 0, 144, 16, 0, 624, 0},
	{"B2 20 HW", "2.6.16", 20, HW, 32, 32, ON, 0, 112, 0, 0, 512, 0},
	{"B5 40", "2.6.16", 40, 0, 8, 40, ON, 0, 92, 0, 0, 416, 0},
	{"B7 100", "2.6.16", 100, 0, 8, 104, ON, 0, 37, 48, 0, 200, 0},
	{"B9 200", "2.6.16", 200, 0, 8, 200, ON, 0, 19, 168, 2, 128, 0},
	{"B11 300", "2.6.16", 300, 0, 8, 304, ON, 0, 13, 40, 0, 104, 0},
	{"B12 300 HW", "2.6.16", 300, HW, 64, 320, ON, 0, 12, 128, 2, 128, 0},
	{"B13 600 off->on", "2.6.16", 600, 0, 8, 600, ON, 0, 6, 424, 6, 72, 0},
	{"B14 600 HW", "2.6.16", 600, HW, 64, 640, ON, 0, 6, 128, 2, 128, 0},
	{"B15 700", "2.6.16", 700, 0, 8, 704, ON, 1, 11, 352, 5, 96, 0},
	{"B16 700 HW", "2.6.16", 700, HW, 64, 704, ON, 1, 11, 320, 5, 128, 0},
	{"B17 1500", "2.6.16", 1500, 0, 8, 1504, ON, 1, 5, 600, 9, 72, 0},
	{"B18 1500 HW", "2.6.16", 1500, HW, 64, 1536, ON, 1, 5, 384, 6, 128, 0},
	{"B19 3000", "2.6.16", 3000, 0, 8, 3000, ON, 1, 2, 2136, 33, 56, 0},
	{"B20 3000 HW", "2.6.16", 3000, HW, 64, 3008, ON, 1, 2, 2112, 33, 64, 0},
	{"B21 5000", "2.6.16", 5000, 0, 8, 5000, ON, 1, 1, 3136, 49, 56, 0},
	{"B22 5000 HW", "2.6.16", 5000, HW, 64, 5056, ON, 1, 1, 3072, 48, 64, 0},
	/* C: 3.10 (same formulas; kmalloc-96 exists, padded to 128) */
	{"C1 kmalloc-96", "3.10", 96, KMN, 64, 128, ON, 0, 30, 64, 1, 192, 0},
	{"C2 kmalloc-4096", "3.10", 4096, KMN, 64, 4096, OFF, 0, 1, 0, 0, 0, 52},
	/* D: 3.13 (no struct slab, 4-byte freelist) */
	{"D1 kmalloc-32", "3.13", 32, KMN, 32, 32, ON, 0, 113, 0, 0, 480, 0},
	{"D2 kmalloc-64", "3.13", 64, KMN, 64, 64, ON, 0, 60, 0, 0, 256, 0},
	{"D3 kmalloc-128", "3.13", 128, KMN, 64, 128, ON, 0, 31, 0, 0, 128, 0},
	{"D4 24", "3.13", 24, 0, 8, 24, ON, 0, 146, 8, 0, 584, 0},
	{"D5 600 off->on", "3.13", 600, 0, 8, 600, ON, 0, 6, 472, 7, 24, 0},
	/* E: 3.15 .. 4.5 (byte freelist, off-slab from 128) */
	{"E1 16", "4.4", 16, 0, 8, 16, ON, 0, 240, 16, 0, 240, 0},
	{"E1 8 padded", "4.4", 8, 0, 8, 16, ON, 0, 240, 16, 0, 240, 0},
	{"E2 24", "4.4", 24, 0, 8, 24, ON, 0, 163, 16, 0, 168, 0},
	{"E3 kmalloc-32", "4.4", 32, KMN, 32, 32, ON, 0, 124, 0, 0, 128, 0},
	{"E4 kmalloc-64", "4.4", 64, KMN, 64, 64, ON, 0, 63, 0, 0, 64, 0},
	{"E5 128 HW", "4.4", 128, HW, 64, 128, OFF, 0, 32, 0, 0, 0, 32},
	{"E5' kmalloc-128 early", "4.4", 128, KMN, 64, 128, ON, 0, 31, 64, 1, 64, 0},
	{"E6 200 off->on", "4.4", 200, 0, 8, 200, ON, 0, 20, 72, 1, 24, 0},
	{"E8 600 off->on", "4.4", 600, 0, 8, 600, ON, 0, 6, 488, 7, 8, 0},
	{"E10 3000", "4.4", 3000, 0, 8, 3000, ON, 1, 2, 2184, 34, 8, 0},
	/* F: 4.6 .. 6.7 (freelist at the end, OBJFREELIST) */
	{"F1 16", "4.19", 16, 0, 8, 16, ON, 0, 240, 16, 0, 240, 0},
	{"F2 24", "4.19", 24, 0, 8, 24, ON, 0, 163, 21, 0, 163, 0},
	{"F3 kmalloc-32", "4.19", 32, KMN, 32, 32, ON, 0, 124, 4, 0, 124, 0},
	{"F4 kmalloc-64", "4.19", 64, KMN, 64, 64, OBJFL, 0, 64, 0, 0, 0, 0},
	{"F5 200", "4.19", 200, 0, 8, 200, OBJFL, 0, 20, 96, 1, 0, 0},
	{"F6 600", "4.19", 600, 0, 8, 600, OBJFL, 0, 6, 496, 7, 0, 0},
	{"F7 600 ctor", "4.19", 600, CTOR, 8, 600, ON, 0, 6, 490, 7, 6, 0},
	{"F8 512 HW ctor", "4.19", 512, HW | CTOR, 64, 512, OFF, 0, 8, 0, 0, 0, 8},
	{"F9 4096 RCU", "4.19", 4096, RCU, 8, 4096, OFF, 0, 1, 0, 0, 0, 1},
	{"F10 3000", "4.19", 3000, 0, 8, 3000, OBJFL, 1, 2, 2192, 34, 0, 0},
	{"F11 5000", "4.19", 5000, 0, 8, 5000, OBJFL, 1, 1, 3192, 49, 0, 0},
};

static struct ss_target slab_target(const char *era)
{
	struct ss_target t = tu_target("x86_64-6.1");

	t.era = ss_era_parse(era);
	t.kc.allocator = SS_ALLOCATOR_SLAB;
	return t;
}

static void test_hand_worked(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct ss_target t = slab_target(r->era);
		/* kmalloc caches pass ARCH_KMALLOC_MINALIGN (0 in 2.6.16, 8 later) */
		struct ss_cache_spec spec = {.object_size = r->size, .flags = r->flags};
		struct ss_mslab_geo g;
		struct ss_error err;

		if (ss_mslab_geometry(&t, &spec, &g, &err))
			fail_msg("%s: %s", r->tag, err.msg);
		if (g.align != r->align || g.size != r->stride || g.mgmt != r->mgmt ||
		    g.order != r->order || g.num != r->num || g.left_over != r->left ||
		    g.colour != r->colour || g.mgmt_bytes != r->mgmt_bytes ||
		    g.offslab_bytes != r->offslab_bytes)
			fail_msg("%s (%s): got align %u stride %u mgmt %u order %u num %u left %u "
				 "colour %u mgmt_bytes %u offslab %u", r->tag, r->era, g.align,
				 g.size, g.mgmt, g.order, g.num, g.left_over, g.colour,
				 g.mgmt_bytes, g.offslab_bytes);
	}
	assert_true(sizeof(rows) / sizeof(rows[0]) >= 20);
}

/* enable_cpucache(): the limits of the notes' cpucache column, 8 CPUs. */
static void test_cpucache(void **state)
{
	static const struct {
		unsigned size, limit, batch, shared;
	} c[] = {
		{32, 120, 60, 8}, {256, 120, 60, 8}, {512, 54, 27, 8}, {1024, 54, 27, 8},
		{2048, 24, 12, 8}, {4096, 24, 12, 8}, {8192, 8, 4, 0},
	};
	struct ss_target t = slab_target("2.6.16");

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ss_cache_spec spec = {.object_size = c[i].size, .flags = HW};
		struct ss_mslab_geo g;

		assert_int_equal(ss_mslab_geometry(&t, &spec, &g, NULL), 0);
		assert_int_equal(g.limit, c[i].limit);
		assert_int_equal(g.batchcount, c[i].batch);
		assert_int_equal(g.shared, c[i].shared);
	}
	/* 4.x: num_possible_cpus() > 1 for a shared array */
	t = slab_target("4.19");
	t.cpus = 1;
	{
		struct ss_cache_spec spec = {.object_size = 64, .flags = HW};
		struct ss_mslab_geo g;

		assert_int_equal(ss_mslab_geometry(&t, &spec, &g, NULL), 0);
		assert_int_equal(g.shared, 0);
	}
}

/* SLAB's kmalloc classes per era (kmalloc.c): size-N until 3.8 without
 * size-96 on 64-byte lines, kmalloc-96 from 3.9, no kmalloc_large
 * before 6.1. */
static void test_kmalloc_classes(void **state)
{
	struct ss_target t = slab_target("2.6.16");
	char name[32];

	(void)state;
	ss_kmalloc_class_name(&t, ss_kmalloc_index(&t, 96), name, sizeof(name));
	assert_string_equal(name, "size-128");
	ss_kmalloc_class_name(&t, ss_kmalloc_index(&t, 150), name, sizeof(name));
	assert_string_equal(name, "size-192");
	ss_kmalloc_class_name(&t, ss_kmalloc_index(&t, 8), name, sizeof(name));
	assert_string_equal(name, "size-32");
	assert_int_equal(ss_kmalloc_max_cache_size(&t), 131072);
	assert_false(ss_kmalloc_has_large(&t));
	t = slab_target("3.10");
	ss_kmalloc_class_name(&t, ss_kmalloc_index(&t, 96), name, sizeof(name));
	assert_string_equal(name, "kmalloc-96");
	assert_int_equal(ss_kmalloc_max_cache_size(&t), 4194304);
	t = slab_target("6.6");
	assert_int_equal(ss_kmalloc_max_cache_size(&t), 8192);
	assert_true(ss_kmalloc_has_large(&t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_cpucache),
		cmocka_unit_test(test_kmalloc_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
