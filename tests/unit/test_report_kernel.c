/* test_report_kernel.c - the figures of "The live kernel and the
 * simulator" (analysis/report_kernel.c): signed changes, errors against
 * the kernel's change, which caches are held to the bounds and whether
 * they are within them, and kernel.csv from real files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "report_kernel.h"
#include "test_util.h"

static void test_figures(void **state)
{
	struct rp_kernel_row r = {.k_obj0 = 10000, .k_obj1 = 8000, .m_obj1 = 8150,
				  .k_slab0 = 500, .k_slab1 = 400, .m_slab1 = 410};
	(void)state;

	/* changes are signed: a cache that shrank is negative, never wrapped */
	assert_int_equal(rp_kernel_delta(10000, 8000), -2000);
	assert_int_equal(rp_kernel_delta(8000, 10000), 2000);
	assert_int_equal(rp_kernel_delta(0, 0), 0);
	/* model -1850 against kernel -2000: 7.5% short of the change */
	assert_true(fabs(rp_kernel_err_pct(-2000, -1850) - 7.5) < 1e-9);
	assert_true(fabs(rp_kernel_err_pct(2000, 2300) - 15.0) < 1e-9);
	assert_true(isnan(rp_kernel_err_pct(0, 5)));
	assert_true(rp_kernel_row_held(&r));
	assert_true(rp_kernel_row_ok(&r)); /* -7.5% objects, -10% slabs */
	r.m_slab1 = 420; /* -80 slabs against -100: -20% */
	assert_false(rp_kernel_row_ok(&r));
	/* slabs that did not move on either side are right; moving when the
	 * kernel's did not is not */
	r.k_slab1 = r.m_slab1 = 500;
	assert_true(rp_kernel_row_ok(&r));
	r.m_slab1 = 501;
	assert_false(rp_kernel_row_ok(&r));
	/* below the threshold a cache is not held to the bounds */
	r.k_obj1 = r.k_obj0 + RP_KERNEL_MIN_DELTA - 1;
	assert_false(rp_kernel_row_held(&r));
	r.k_obj1 = r.k_obj0 - RP_KERNEL_MIN_DELTA;
	assert_true(rp_kernel_row_held(&r));
}

static void test_load_and_csv(void **state)
{
	char before[TU_PATH_MAX], after[TU_PATH_MAX], run[TU_PATH_MAX], f[TU_PATH_MAX + 32];
	struct rp_kernel k;
	struct ss_error err;
	FILE *fp;
	char line[512];
	(void)state;

	tu_path(before, sizeof(before), "before");
	tu_path(after, sizeof(after), "after");
	tu_path(run, sizeof(run), "run");
	mkdir(run, 0755);
	tu_write_text(before, "slabinfo - version: 2.1\n"
			      "dentry 146829 147672 192 21 1 : tunables 0 0 0 : slabdata 7032 7032 0\n"
			      "filp 900 924 192 21 1 : tunables 0 0 0 : slabdata 44 44 0\n");
	tu_write_text(after, "slabinfo - version: 2.1\n"
			     "dentry 19000 20006 192 21 1 : tunables 0 0 0 : slabdata 953 953 0\n"
			     "filp 910 924 192 21 1 : tunables 0 0 0 : slabdata 44 44 0\n");
	snprintf(f, sizeof(f), "%s/slabinfo", run);
	tu_write_text(f, "slabinfo - version: 2.1\n"
			 "dentry 18000 19005 192 21 1 : tunables 0 0 0 : slabdata 905 905 0\n");
	snprintf(f, sizeof(f), "%s/settled.csv", run);
	tu_write_text(f, "cache,site,objects\ndentry,d_alloc+0x1,7\n");
	assert_int_equal(rp_kernel_load(&k, before, after, run, "traced", &err), 0);
	assert_int_equal(k.settled, 7);
	assert_string_equal(k.rows[0].name, "dentry"); /* largest change first */
	assert_int_equal(k.rows[0].settled, 7);
	/* filp: not in the replay, it kept its initial state */
	assert_string_equal(k.rows[1].name, "filp");
	assert_false(k.rows[1].in_model);
	assert_int_equal(k.rows[1].m_obj1, 900);
	tu_path(f, sizeof(f), "kernel.csv");
	fp = fopen(f, "w+");
	assert_non_null(fp);
	assert_int_equal(rp_kernel_write_csv(fp, &k), 0);
	rewind(fp);
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_non_null(fgets(line, sizeof(line), fp));
	/* dentry: -127829 in the kernel, -128829 in the model: -0.78% */
	assert_non_null(strstr(line, "dentry,146829,19000,18000,-127829,-128829,-0.78,"));
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_non_null(strstr(line, "filp,900,910,900,10,0,-100.00,44,44,44,0,0,,0,0,0,"));
	fclose(fp);
	rp_kernel_free(&k);
	/* a missing run slabinfo names the file */
	assert_int_equal(rp_kernel_load(&k, before, after, "/nonexistent", "traced", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/slabinfo"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_load_and_csv),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
