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

/* Every bucket, walked by its bounds: contiguous from 0 up, and at most
 * 1/64 wide relative to its smallest value (well inside the 5% the
 * reports need), exact (one value) below 128. */
static void test_bucket_widths(void **state)
{
	uint64_t lo = 0;
	(void)state;

	for (unsigned i = 0; i < SS_HIST_BUCKETS; i++) {
		uint64_t hi = ss_hist_bucket_max(i);

		assert_true(hi >= lo);
		assert_int_equal(ss_hist_bucket(lo), i);
		assert_int_equal(ss_hist_bucket(hi), i);
		if (lo < 128)
			assert_true(hi == lo);
		else
			assert_true((double)(hi - lo + 1) <= (double)lo / 64.0);
		assert_true((double)(hi - lo + 1) <= 0.05 * (double)lo || hi == lo);
		if (hi == UINT64_MAX)
			break;
		lo = hi + 1;
	}
}

/* Paths that differ give quantiles that differ: 90% at 21 cycles (a fast
 * path), 9% at 300 (a slow one), 0.9% at 1000, 0.1% at 40000 (a wait).
 * Ranks 9000, 9900 and 9990 are the last of the first three paths, so
 * just above p90, p99 and p99.9 the quantile is the next path's bucket,
 * within 1/64 above its value. */
static void test_quantiles_differ(void **state)
{
	static struct ss_hist h;
	static const uint64_t v[] = {21, 300, 1000, 40000};
	static const double q[] = {0.50, 0.90, 0.99, 0.999};
	static const unsigned n[] = {9000, 900, 90, 10};
	(void)state;

	memset(&h, 0, sizeof(h));
	for (int k = 0; k < 4; k++)
		for (unsigned i = 0; i < n[k]; i++)
			ss_hist_add(&h, v[k]);
	/* p90: rank 9000 is the last fast one; p99 rank 9900 the last 300;
	 * p99.9 rank 9990 the last 1000 */
	assert_int_equal(ss_hist_percentile(&h, 0.50), 21);
	assert_int_equal(ss_hist_percentile(&h, 0.90), 21);
	assert_int_equal(ss_hist_percentile(&h, 0.9001), ss_hist_bucket_max(ss_hist_bucket(300)));
	for (int k = 1; k < 4; k++) {
		uint64_t p = ss_hist_percentile(&h, q[k] + 0.0001);

		assert_true(p >= v[k] && (double)(p - v[k]) <= (double)v[k] / 64.0);
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
		cmocka_unit_test(test_bucket_widths),
		cmocka_unit_test(test_quantiles_differ),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
