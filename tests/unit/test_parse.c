/* test_parse.c - strict number parsing (sim/parse.c) and the simulated
 * memory cap (sim/memcap.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memcap.h"
#include "parse.h"

static uint64_t u64(const char *s, uint64_t max)
{
	uint64_t v = 12345;

	assert_int_equal(ss_parse_u64(s, max, &v), 0);
	return v;
}

static void test_u64(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(u64("0", 10), 0);
	assert_int_equal(u64("10", 10), 10);
	assert_int_equal(u64("010", 100), 10); /* decimal, not octal 8 */
	assert_int_equal(u64("08", 100), 8);   /* was rejected as bad octal */
	assert_int_equal(u64("0x10", 100), 16);
	assert_int_equal(u64("0XfF", 1000), 255);
	assert_true(u64("18446744073709551615", UINT64_MAX) == UINT64_MAX);
	const char *bad[] = {"", "-1", "+1", " 1", "1 ", "1x", "0x", "0x-1", "0x 1",
			     "18446744073709551616", "1e3", "11"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ss_parse_u64(bad[i], 10, &v), -1);
		assert_int_equal(v, 7); /* untouched on error */
	}
	assert_int_equal(ss_parse_u64(NULL, 10, &v), -1);
}

/* meta untraced_allocs / untraced_frees lists: NAME=COUNT by single
 * spaces, NAME up to the last '='; the first bad entry and its length. */
static void test_counts(void **state)
{
	static const struct {
		const char *list, *bad;
		size_t len;
	} cases[] = {
		{"dentry=1577 lsm_inode_cache=1935", NULL, 0},
		{"a=b=3", NULL, 0}, /* the name is 'a=b' */
		{"x=18446744073709551615", NULL, 0},
		{"dentry=12 lsm_inode_cache=1x", "lsm_inode_cache=1x", 18},
		{"mas_preallocate+0x442/0x480", "mas_preallocate+0x442/0x480", 27},
		{"=3 b=1", "=3 b=1", 2},
		{"a=", "a=", 2},
		{"a=1  b=2", " b=2", 0}, /* two spaces: an empty entry */
		{"a=1 ", "", 0},
		{"", "", 0},
		{"x=18446744073709551616", "x=18446744073709551616", 22},
		{"a=-1", "a=-1", 4},
	};
	uint64_t n = 0;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = 99;
		const char *bad = ss_parse_counts_bad(cases[i].list, &len);

		if (!cases[i].bad) {
			assert_null(bad);
			continue;
		}
		assert_non_null(bad);
		assert_string_equal(bad, cases[i].bad);
		assert_int_equal(len, cases[i].len);
	}
	assert_int_equal(ss_parse_count_of("dentry=1577 lsm_inode_cache=1935", "lsm_inode_cache", &n), 1);
	assert_int_equal(n, 1935);
	assert_int_equal(ss_parse_count_of("dentry=1577", "dent", &n), 0);
	assert_int_equal(ss_parse_count_of("a=b=3", "a=b", &n), 1);
	assert_int_equal(n, 3);
	assert_int_equal(ss_parse_count_of("", "a", &n), 0);
}

static void test_size(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(ss_parse_size("4096", 1ull << 50, &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(ss_parse_size("64K", 1ull << 50, &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(ss_parse_size("3M", 1ull << 50, &v), 0);
	assert_int_equal(v, 3ull << 20);
	assert_int_equal(ss_parse_size("64G", 1ull << 50, &v), 0);
	assert_true(v == 64ull << 30);
	assert_int_equal(ss_parse_size("1024T", 1ull << 50, &v), 0);
	assert_true(v == 1ull << 50);
	v = 9;
	assert_int_equal(ss_parse_size("1025T", 1ull << 50, &v), -1); /* over max */
	assert_int_equal(ss_parse_size("16777216T", UINT64_MAX, &v), -1); /* 2^64 */
	assert_int_equal(ss_parse_size("K", 1ull << 50, &v), -1);
	assert_int_equal(ss_parse_size("12Q", 1ull << 50, &v), -1);
	assert_int_equal(ss_parse_size("1k", 1ull << 50, &v), -1); /* units are capitals */
	assert_int_equal(ss_parse_size("-1K", 1ull << 50, &v), -1);
	assert_int_equal(ss_parse_size("", 1ull << 50, &v), -1);
	assert_int_equal(v, 9);
}

/* A fake model with one cache and kmalloc_large pages, to drive the cap. */
static uint64_t large_pages_bytes;

static void fake_large_report(const struct ss_model *m, struct ss_large_report *r)
{
	(void)m;
	memset(r, 0, sizeof(*r));
	r->page_bytes = large_pages_bytes;
}

static void test_memcap(void **state)
{
	static const struct ss_model_ops ops = {.large_report = fake_large_report};
	const struct ss_model_desc desc = {.name = "fake", .ops = &ops};
	struct ss_op op = {0};
	struct ss_obj obj = {.state = SS_OBJ_LIVE, .cache = 3};
	struct ss_memcap m;

	(void)state;
	ss_memcap_init(&m, 0, 4096);
	assert_true(m.max_bytes == SS_MEMCAP_DEFAULT);
	ss_memcap_release(&m);
	ss_memcap_init(&m, 40960, 4096);
	/* an order-1 slab: 2 pages */
	op.slab_pages = 2;
	assert_int_equal(ss_memcap_note(&m, &desc, NULL, &obj, &op), 0);
	assert_int_equal(ss_memcap_bytes(&m), 8192);
	/* an alloc without a new slab: no change */
	op.slab_pages = 0;
	assert_int_equal(ss_memcap_note(&m, &desc, NULL, &obj, &op), 0);
	assert_int_equal(ss_memcap_bytes(&m), 8192);
	/* one operation takes 4 pages (its cache and a vector's) and gives 2
	 * back; a tick (no object) the same */
	op.slab_pages = 2;
	assert_int_equal(ss_memcap_note(&m, &desc, NULL, &obj, &op), 0);
	assert_int_equal(ss_memcap_note(&m, &desc, NULL, NULL, &op), 0);
	op.slab_pages = -2;
	assert_int_equal(ss_memcap_note(&m, &desc, NULL, NULL, &op), 0);
	assert_int_equal(ss_memcap_bytes(&m), 16384);
	assert_false(ss_memcap_over(&m));
	/* more pages back than held: a model that lost count, refused */
	op.slab_pages = -5;
	assert_int_equal(ss_memcap_note(&m, &desc, NULL, &obj, &op), -1);
	assert_int_equal(ss_memcap_bytes(&m), 16384);
	/* a kmalloc_large object: the model's page bytes are taken as they are */
	op.slab_pages = 0;
	obj.state = SS_OBJ_LARGE;
	large_pages_bytes = 32768;
	assert_int_equal(ss_memcap_note(&m, &desc, NULL, &obj, &op), 0);
	assert_int_equal(ss_memcap_bytes(&m), 16384 + 32768);
	assert_true(ss_memcap_over(&m)); /* 49152 > 40960 */
	/* zero-size objects hold nothing */
	obj.state = SS_OBJ_ZERO;
	assert_int_equal(ss_memcap_note(&m, &desc, NULL, &obj, &op), 0);
	assert_int_equal(ss_memcap_bytes(&m), 49152);
	ss_memcap_release(&m);
}

static void test_split_words(void **state)
{
	char line[] = "  --model 'traced kmem' --out \"a b\"/c x'y'z # comment 'x\n";
	char bad[] = "--model 'traced", many[] = "a b c", *w[8];

	(void)state;
	assert_int_equal(ss_split_words(line, w, 8), 5);
	assert_string_equal(w[0], "--model");
	assert_string_equal(w[1], "traced kmem");
	assert_string_equal(w[2], "--out");
	assert_string_equal(w[3], "a b/c");
	assert_string_equal(w[4], "xyz");
	assert_int_equal(ss_split_words(bad, w, 8), -1);
	assert_int_equal(ss_split_words(many, w, 2), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_memcap),
		cmocka_unit_test(test_split_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
