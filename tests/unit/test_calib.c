/* test_calib.c - the arithmetic behind `slabsim calibrate` (calib.h):
 * spreads, and a part measured apart taken out of a path's figure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "calib.h"

/* The slow paths host mode runs update the freelist under its slab lock;
 * calibrate takes the slab_lock median out of them, because the model
 * adds that update as cmpxchg_double (get_freelist, __slab_free): the
 * spread moves with the median, and nothing goes below 0. */
static void test_less(void **state)
{
	struct ss_calib_value path = {23, 20, 30}, lock = {10.5, 9, 12};
	struct ss_calib_value r = ss_calib_less(path, lock);
	(void)state;

	assert_true(r.v == 12.5 && r.lo == 9.5 && r.hi == 19.5);
	r = ss_calib_less((struct ss_calib_value){5, 4, 8}, lock);
	assert_true(r.v == 0 && r.lo == 0 && r.hi == 0);
	/* not measured: unchanged */
	r = ss_calib_less((struct ss_calib_value){-1, -1, -1}, lock);
	assert_true(r.v == -1);
	r = ss_calib_less(path, (struct ss_calib_value){-1, -1, -1});
	assert_true(r.v == 23 && r.hi == 30);
}

static void test_spread(void **state)
{
	double v[10] = {10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
	struct ss_calib_value r = ss_calib_spread(v, 10);
	(void)state;

	assert_true(r.lo == 1 && r.hi == 9);
	assert_true(r.v >= 5 && r.v <= 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_less),
		cmocka_unit_test(test_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
