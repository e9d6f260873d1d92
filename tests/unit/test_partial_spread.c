/* test_partial_spread.c - the node partial slabs' fills
 * (reconcile/partial_spread.h): the snapshot's sum exactly, within
 * bounds, spread over the range the mean allows, deterministic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "partial_spread.h"

static uint64_t sum_checked(const uint32_t *v, uint32_t n, uint32_t lo, uint32_t hi)
{
	uint64_t s = 0;

	for (uint32_t i = 0; i < n; i++) {
		assert_true(v[i] >= lo && v[i] <= hi);
		s += v[i];
	}
	return s;
}

/* A mid-range mean (tw_sock_TCP's 3,599 objects on 449 slabs of 16): each
 * fill 1..15 about equally often, not all 8 as an even spread has it. */
static void test_mid_mean_uniform(void **state)
{
	uint32_t v[449], count[16] = {0};
	(void)state;

	ss_partial_spread(449, 3599, 1, 15, v);
	assert_int_equal(sum_checked(v, 449, 1, 15), 3599);
	for (uint32_t i = 0; i < 449; i++)
		count[v[i]]++;
	for (uint32_t k = 1; k <= 15; k++)
		assert_true(count[k] >= 25 && count[k] <= 35); /* 449 / 15 = 29.9 */
}

/* A mean near full leans the fills towards full, near empty towards
 * empty; both keep the sum. */
static void test_skewed_means(void **state)
{
	uint32_t v[100];
	uint32_t above = 0, below = 0;
	(void)state;

	ss_partial_spread(100, 1300, 1, 15, v); /* mean 13 */
	assert_int_equal(sum_checked(v, 100, 1, 15), 1300);
	for (int i = 0; i < 100; i++)
		above += v[i] >= 13;
	assert_true(above > 50);
	ss_partial_spread(100, 250, 1, 15, v); /* mean 2.5 */
	assert_int_equal(sum_checked(v, 100, 1, 15), 250);
	for (int i = 0; i < 100; i++)
		below += v[i] <= 2;
	assert_true(below > 50);
}

/* The edges: all at the bottom, all at the top, a total out of range
 * clamped, one slab, and a slab of 512 objects. */
static void test_edges(void **state)
{
	uint32_t v[600];
	(void)state;

	ss_partial_spread(10, 0, 0, 15, v);
	assert_int_equal(sum_checked(v, 10, 0, 0), 0);
	ss_partial_spread(10, 150, 0, 15, v);
	assert_int_equal(sum_checked(v, 10, 15, 15), 150);
	ss_partial_spread(10, 1000, 1, 15, v);
	assert_int_equal(sum_checked(v, 10, 15, 15), 150);
	ss_partial_spread(10, 3, 1, 15, v);
	assert_int_equal(sum_checked(v, 10, 1, 1), 10);
	ss_partial_spread(1, 7, 1, 15, v);
	assert_int_equal(v[0], 7);
	ss_partial_spread(600, 600 * 400, 0, 511, v);
	assert_int_equal(sum_checked(v, 600, 0, 511), 600 * 400);
	ss_partial_spread(0, 5, 0, 15, v); /* nothing written, no crash */
}

/* The same inputs give the same fills, and the list's head is not the
 * emptiest end: the fills are scattered, not sorted. */
static void test_deterministic_scattered(void **state)
{
	uint32_t a[200], b[200];
	uint64_t head = 0, tail = 0;
	(void)state;

	ss_partial_spread(200, 1600, 1, 15, a);
	ss_partial_spread(200, 1600, 1, 15, b);
	assert_memory_equal(a, b, sizeof(a));
	for (int i = 0; i < 100; i++) {
		head += a[i];
		tail += a[100 + i];
	}
	assert_true(head > 700 && head < 900);
	assert_true(tail > 700 && tail < 900);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mid_mean_uniform),
		cmocka_unit_test(test_skewed_means),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_deterministic_scattered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
