/* test_target.c - target files: shipped targets, parse errors, eras. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "target.h"
#include "test_util.h"

static void test_defaults(void **state)
{
	struct ss_target t;

	(void)state;
	ss_target_defaults(&t);
	assert_string_equal(t.name, "x86_64-6.x");
	assert_int_equal(t.ptr_size, 8);
	assert_int_equal(t.page_size, 4096);
	assert_int_equal(t.cache_line, 64);
	assert_int_equal(t.dma_minalign, 8);
	assert_int_equal(t.slab_minalign, 8);
	assert_int_equal(t.nodes, 1);
	assert_int_equal(t.era, 611);
	assert_int_equal(t.slub_min_order, 0);
	assert_int_equal(t.slub_max_order, 3);
	assert_int_equal(t.slub_min_objects, 0);
	assert_true(t.large_in_slab_stat);
}

static void test_era_parse(void **state)
{
	(void)state;
	assert_int_equal(ss_era_parse("3.10"), 310);
	assert_int_equal(ss_era_parse("4.5"), 405);
	assert_int_equal(ss_era_parse("4.6"), 406);
	assert_int_equal(ss_era_parse("6.1"), 601);
	assert_int_equal(ss_era_parse("6.11"), 611);
	assert_int_equal(ss_era_parse("6.18"), 618);
	assert_int_equal(ss_era_parse("5.0"), 500);
	/* 6.1 must not read as 6.10 or the reverse */
	assert_true(ss_era_parse("6.1") < ss_era_parse("6.10"));
	assert_int_equal(ss_era_parse("6"), -1);
	assert_int_equal(ss_era_parse("6."), -1);
	assert_int_equal(ss_era_parse(".1"), -1);
	assert_int_equal(ss_era_parse("6.x"), -1);
	assert_int_equal(ss_era_parse("06.1"), -1);
	assert_int_equal(ss_era_parse("6.01"), -1);
	assert_int_equal(ss_era_parse("6.1.1"), -1);
	assert_int_equal(ss_era_parse("1.0"), -1);
	assert_int_equal(ss_era_parse("-6.1"), -1);
	assert_int_equal(ss_era_parse("6.100"), -1);
	assert_int_equal(ss_era_parse(""), -1);
}

static void test_era_str(void **state)
{
	char buf[16];

	(void)state;
	ss_era_str(310, buf, sizeof(buf));
	assert_string_equal(buf, "3.10");
	ss_era_str(601, buf, sizeof(buf));
	assert_string_equal(buf, "6.1");
	ss_era_str(611, buf, sizeof(buf));
	assert_string_equal(buf, "6.11");
	ss_era_str(406, buf, sizeof(buf));
	assert_string_equal(buf, "4.6");
}

static void test_shipped_arm32(void **state)
{
	struct ss_target t;
	struct ss_error err;

	(void)state;
	assert_int_equal(ss_target_load("arm32-3.10", &t, &err), 0);
	assert_string_equal(t.name, "arm32-3.10");
	assert_int_equal(t.ptr_size, 4);
	assert_int_equal(t.page_size, 4096);
	assert_int_equal(t.cache_line, 32);
	assert_int_equal(t.dma_minalign, 32);
	assert_int_equal(t.slab_minalign, 8);
	assert_int_equal(t.cpus, 2);
	assert_int_equal(t.era, 310);
	assert_int_equal(t.clock_mhz, 1400);
	assert_int_equal(t.track_size, 80); /* 4 + 16 * 4 + 4 + 4 + 4 */
	assert_false(t.large_in_slab_stat);
	assert_false(t.cmpxchg_double); /* no HAVE_CMPXCHG_DOUBLE on arm */
	assert_int_equal(t.clock_mhz_low, 1000);
	assert_int_equal(t.clock_mhz_high, 1700);
	/* the 32-byte line is declared inferred, with its evidence */
	assert_int_equal(t.ninferred, 2);
	assert_string_equal(t.inferred[0].key, "cache_line");
	assert_non_null(strstr(t.inferred[0].evidence, "ARM_L1_CACHE_SHIFT_6"));
	assert_string_equal(t.inferred[1].key, "dma_minalign");
	/* the mainline ARMv7 build of the same board: 64-byte lines */
	assert_int_equal(ss_target_load("arm32-3.10-v7", &t, &err), 0);
	assert_int_equal(t.cache_line, 64);
	assert_int_equal(t.dma_minalign, 64);
	assert_int_equal(t.ninferred, 0);
	assert_false(t.cmpxchg_double);
}

static void test_shipped_x86(void **state)
{
	static const struct {
		const char *name;
		int era;
		unsigned track;
		bool large;
	} tab[] = {
		{"x86_64-4.5", 405, 152, false},
		{"x86_64-4.6", 406, 152, false},
		{"x86_64-6.1", 601, 32, true},
		{"x86_64-6.x", 611, 32, true},
	};
	struct ss_target t;
	struct ss_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		assert_int_equal(ss_target_load(tab[i].name, &t, &err), 0);
		assert_string_equal(t.name, tab[i].name);
		assert_int_equal(t.era, tab[i].era);
		assert_int_equal(t.track_size, tab[i].track);
		assert_int_equal(t.large_in_slab_stat, tab[i].large);
		assert_int_equal(t.ptr_size, 8);
		assert_int_equal(t.cpus, 8);
		assert_int_equal(t.cache_line, 64);
		assert_int_equal(t.dma_minalign, 8);
		assert_int_equal(t.clock_mhz, 3000);
		assert_int_equal(t.clock_mhz_low, 2400);
		assert_int_equal(t.clock_mhz_high, 3600);
		assert_true(t.cmpxchg_double);
		assert_int_equal(ss_target_nr_cpu_ids(&t), 8);
	}
}

/* Parse text expecting failure whose message starts with "<path>:<line>:"
 * (line 0: "<path>:") and contains want. */
static void expect_error(const char *text, unsigned line, const char *want)
{
	char path[64], prefix[96];
	struct ss_target t;
	struct ss_error err;

	tu_tmp_text(path, sizeof(path), text);
	ss_target_defaults(&t);
	err.msg[0] = '\0';
	assert_int_equal(ss_target_parse_file(path, &t, &err), -1);
	if (line)
		snprintf(prefix, sizeof(prefix), "%s:%u: ", path, line);
	else
		snprintf(prefix, sizeof(prefix), "%s: ", path);
	if (strncmp(err.msg, prefix, strlen(prefix)) || !strstr(err.msg, want))
		fail_msg("error '%s' lacks '%s' or '%s'", err.msg, prefix, want);
	/* a failed parse leaves the target untouched */
	assert_string_equal(t.name, "x86_64-6.x");
	unlink(path);
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_error("name = a\n# c\nbogus = 1\n", 3, "unknown key 'bogus'");
	expect_error("ptr_size = 5\n", 1, "ptr_size");
	expect_error("\n\npage_size = 3000\n", 3, "not a power of two");
	expect_error("cpus = 0\n", 1, "cpus");
	expect_error("cpus = 2x\n", 1, "cpus");
	expect_error("cpus = -1\n", 1, "cpus");
	expect_error("era = 6.x\n", 1, "era");
	expect_error("cpus 4\n", 1, "key = value");
	expect_error("cpus =\n", 1, "missing value");
	expect_error("cpus = 2\ncpus = 4\n", 2, "duplicate");
	expect_error("large_in_slab_stat = maybe\n", 1, "yes or no");
	expect_error("name = a b\n", 1, "name");
	expect_error("slub_min_order = 4\n", 0, "slub_min_order 4 > slub_max_order 3");
	expect_error("ptr_size = 8\ntrack_size = 20\n", 0, "track_size 20");
	expect_error("cmpxchg_double = perhaps\n", 1, "yes or no");
	expect_error("cpus = 8\nnr_cpu_ids = 4\n", 0, "nr_cpu_ids 4 < cpus 8");
	expect_error("clock_mhz_range = 3600 2400\n", 1, "want LOW HIGH");
	expect_error("clock_mhz_range = 2400\n", 1, "want LOW HIGH");
	expect_error("clock_mhz_range = 0 100\n", 1, "want LOW HIGH");
	expect_error("clock_mhz = 3000\nclock_mhz_range = 1000 2000\n", 0,
		     "clock_mhz 3000 is outside clock_mhz_range 1000 2000");
	expect_error("inferred.bogus = why\n", 1, "'bogus' is not a target key");
	expect_error("inferred.name = why\n", 1, "'name' is not a target key");
	expect_error("inferred.cpus = a\ninferred.cpus = b\n", 2, "duplicate");
	expect_error("inferred.cpus =\n", 1, "missing value");
	expect_error("inferred.cpus = a\ninferred.era = b\ninferred.nodes = c\n"
		     "inferred.page_size = d\ninferred.ptr_size = e\n", 5, "more than 4");
}

/* The keys of issue 14: cmpxchg_double, nr_cpu_ids, clock_mhz_range and
 * inferred.KEY, and the values a report prints for them. */
static void test_parse_new_keys(void **state)
{
	char path[64], buf[64];
	struct ss_target t;
	struct ss_error err;

	(void)state;
	tu_tmp_text(path, sizeof(path),
		    "cpus = 2\nnr_cpu_ids = 8\ncmpxchg_double = no\n"
		    "clock_mhz = 1200\nclock_mhz_range = 1000 1500\n"
		    "cache_line = 32\n"
		    "inferred.cache_line = the seed's kmalloc-32, # not a comment? it is\n");
	ss_target_defaults(&t);
	assert_int_equal(ss_target_parse_file(path, &t, &err), 0);
	assert_int_equal(t.cpus, 2);
	assert_int_equal(ss_target_nr_cpu_ids(&t), 8);
	assert_false(t.cmpxchg_double);
	assert_int_equal(t.clock_mhz_low, 1000);
	assert_int_equal(t.clock_mhz_high, 1500);
	assert_int_equal(t.ninferred, 1);
	assert_string_equal(t.inferred[0].evidence, "the seed's kmalloc-32,");
	assert_int_equal(ss_target_key_value(&t, "cache_line", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "32");
	assert_int_equal(ss_target_key_value(&t, "cmpxchg_double", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "no");
	assert_int_equal(ss_target_key_value(&t, "era", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "6.11");
	assert_int_equal(ss_target_key_value(&t, "no_such_key", buf, sizeof(buf)), -1);
	unlink(path);
}

static void test_parse_ok(void **state)
{
	char path[64];
	struct ss_target t;
	struct ss_error err;
	const char *base;

	(void)state;
	tu_tmp_text(path, sizeof(path),
		  "# a comment line\n"
		  "  ptr_size = 4   # trailing comment\n"
		  "cpus=16\n"
		  "era = 4.6\n"
		  "large_in_slab_stat = no\n"
		  "track_size = 16\n"
		  "slub_min_objects = 7\n");
	ss_target_defaults(&t);
	assert_int_equal(ss_target_parse_file(path, &t, &err), 0);
	assert_int_equal(t.ptr_size, 4);
	assert_int_equal(t.cpus, 16);
	assert_int_equal(t.era, 406);
	assert_false(t.large_in_slab_stat);
	assert_int_equal(t.slub_min_objects, 7);
	assert_int_equal(t.page_size, 4096); /* default kept */
	/* no name key: the file name is the target name */
	base = strrchr(path, '/') + 1;
	assert_string_equal(t.name, base);
	/* by path through ss_target_load */
	assert_int_equal(ss_target_load(path, &t, &err), 0);
	assert_int_equal(t.cpus, 16);
	unlink(path);
}

static void test_load_missing(void **state)
{
	struct ss_target t;
	struct ss_error err;

	(void)state;
	assert_int_equal(ss_target_load("no-such-target", &t, &err), -1);
	assert_non_null(strstr(err.msg, "no-such-target"));
	assert_int_equal(ss_target_load("/nonexistent/x.target", &t, &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/x.target: cannot open"));
	assert_int_equal(ss_target_load("bad name", &t, &err), -1);
	assert_int_equal(ss_target_load("", &t, &err), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_era_parse),
		cmocka_unit_test(test_era_str),
		cmocka_unit_test(test_shipped_arm32),
		cmocka_unit_test(test_shipped_x86),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_new_keys),
		cmocka_unit_test(test_load_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
