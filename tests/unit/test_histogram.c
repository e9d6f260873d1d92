/* test_histogram.c - bucket bounds and percentiles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "histogram.h"

static void test_buckets(void **state)
{
	(void)state;
	assert_int_equal(ss_hist_bucket(0), 0);
	assert_int_equal(ss_hist_bucket(127), 127);
	/* 128..129 share a bucket of width 2: 128 = 64 << 1 */
	assert_int_equal(ss_hist_bucket(128), 128);
	assert_int_equal(ss_hist_bucket(129), 128);
	assert_int_equal(ss_hist_bucket(130), 129);
	assert_int_equal(ss_hist_bucket_max(128), 129);
	assert_int_equal(ss_hist_bucket_max(ss_hist_bucket(1000)), 1007);
	assert_int_equal(ss_hist_bucket(UINT64_MAX), SS_HIST_BUCKETS - 1);
	/* every value lies within its bucket, error below 1/64 */
	for (uint64_t v = 1; v < (1ull << 40); v = v * 3 + 1) {
		uint64_t hi = ss_hist_bucket_max(ss_hist_bucket(v));
		assert_true(hi >= v);
		assert_true((double)(hi - v) <= (double)v / 64.0);
	}
}

static void test_percentiles(void **state)
{
	static struct ss_hist h;
	(void)state;

	memset(&h, 0, sizeof(h));
	assert_int_equal(ss_hist_percentile(&h, 0.5), 0);
	for (int i = 0; i < 98; i++)
		ss_hist_add(&h, 21);
	ss_hist_add(&h, 40);
	ss_hist_add(&h, 5000);
	assert_int_equal(ss_hist_percentile(&h, 0.50), 21);
	assert_int_equal(ss_hist_percentile(&h, 0.98), 21);
	assert_int_equal(ss_hist_percentile(&h, 0.99), 40);
	assert_int_equal(ss_hist_percentile(&h, 1.0), ss_hist_bucket_max(ss_hist_bucket(5000)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_percentiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
