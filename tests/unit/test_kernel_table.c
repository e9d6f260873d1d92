/* test_kernel_table.c - several captures' kernel.csv in one table
 * (analysis/kernel_table.c): the counts over all of them, the misses,
 * and a kernel.csv whose figures and verdicts disagree refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel_table.h"
#include "test_util.h"

/* Four caches: held and within, held and missing (+20% objects), held
 * and settled, and one below the threshold. */
static const struct ss_report_kernel_row rows[] = {
	{.name = "dentry", .k_obj0 = 10000, .k_obj1 = 14000, .m_obj1 = 13900, .k_slab0 = 500,
	 .k_slab1 = 700, .m_slab1 = 695, .in_model = true, .u_obj1 = 13900, .u_slab1 = 695},
	{.name = "kmalloc-96", .k_obj0 = 5000, .k_obj1 = 3000, .m_obj1 = 2600, .k_slab0 = 120,
	 .k_slab1 = 72, .m_slab1 = 62, .in_model = true, .u_obj1 = 2600, .u_slab1 = 62,
	 .cpu_free_est = 84, .cpu_free_meas = 21, .untraced_allocs = 3,
	 .k_cpu_free1 = 130, .k_cpu_free1_known = true, .m_cpu_free1 = 90,
	 .m_cpu_free1_known = true},
	{.name = "maple_node", .k_obj0 = 3000, .k_obj1 = 6000, .m_obj1 = 6000, .k_slab0 = 190,
	 .k_slab1 = 380, .m_slab1 = 380, .in_model = true, .settled = 900, .u_obj1 = 6900,
	 .u_slab1 = 435, .sheaf_capacity = 32},
	{.name = "filp", .k_obj0 = 900, .k_obj1 = 910, .m_obj1 = 900, .k_slab0 = 44,
	 .k_slab1 = 44, .m_slab1 = 44},
};

/* A report directory named name holding kernel.csv of rows[from..to). */
static void report_dir(char *dir, size_t n, const char *name, size_t from, size_t to)
{
	struct ss_report_kernel k = {.rows = (struct ss_report_kernel_row *)&rows[from], .n = to - from};
	char path[TU_PATH_MAX + 32];
	FILE *fp;

	tu_path(dir, n, name);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/kernel.csv", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(ss_report_kernel_write_csv(fp, &k), 0);
	fclose(fp);
}

static char *md_of(const struct ss_ktable_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(ss_ktable_write_md(fp, t, "make check-captures CAPTURES=x"), 0);
	fclose(fp);
	return buf;
}

static void test_two_reports(void **state)
{
	char a[TU_PATH_MAX], b[TU_PATH_MAX], *md, *csv = NULL;
	struct ss_ktable_table t = {0};
	struct ss_error err;
	struct ss_ktable_totals s;
	size_t len = 0;
	FILE *fp;
	(void)state;

	report_dir(a, sizeof(a), "caps-one", 0, 2);
	report_dir(b, sizeof(b), "caps-two/", 2, 4);
	strcat(b, "/"); /* a trailing slash is not part of the name */
	assert_int_equal(ss_ktable_add_report(&t, a, &err), 0);
	assert_int_equal(ss_ktable_add_report(&t, b, &err), 0);
	assert_string_equal(t.c[0].name, "caps-one");
	assert_string_equal(t.c[1].name, "caps-two");
	assert_int_equal(t.c[1].rows[0].sheaf_capacity, 32); /* read back */
	s = ss_ktable_totals(&t);
	assert_int_equal(s.held, 3);
	assert_int_equal(s.settled, 1);
	assert_int_equal(s.within, 1);
	/* maple_node without settling: +3900 against +3000, a miss */
	assert_int_equal(s.within_unsettled, 1);
	md = md_of(&t);
	assert_non_null(strstr(md, "**1 of 2 held caches within** over 2 captures (1 more settled, "
				   "not counted; without settling 1 of 3)"));
	assert_non_null(strstr(md, "`make check-captures CAPTURES=x`"));
	/* the capture line lists its miss; the misses table has it once
	 * more, with the note report.md gives it */
	assert_non_null(strstr(md, "| kmalloc-96 "));
	assert_non_null(strstr(md, "## The misses"));
	assert_non_null(strstr(md, "3 freed that no event allocated (the kernel may hold more); CPU "
				   "slabs started with 84 free slots by SLUB's half-full estimate and "
				   "21 measured; after, the CPU slabs had 130 free slots in the kernel "
				   "and 90 in the model, counted in `objects` as in use: the objects in "
				   "use changed by -2025 and -2385 (-17.8%)"));
	assert_non_null(strstr(md, "sheaves (32) not modelled; 900 settled (before: +3900, +30.0%)"));
	assert_null(strstr(md, "filp")); /* not held */
	free(md);
	fp = open_memstream(&csv, &len);
	assert_non_null(fp);
	assert_int_equal(ss_ktable_write_csv(fp, &t), 0);
	fclose(fp);
	/* one draw: its own errors as the range */
	assert_non_null(strstr(csv, "\ncaps-one,dentry,10000,4000,3900,-2.50,200,195,-2.50,0,1,1,1,"
				    "-2.50,-2.50,-2.50,-2.50,\n"));
	assert_non_null(strstr(csv, "\ncaps-one,kmalloc-96,5000,-2000,-2400,-20.00,-48,-58,-20.83,0,0,"
				    "1,0,-20.00,-20.00,-20.83,-20.83,"));
	assert_non_null(strstr(csv, "\ncaps-two,maple_node,3000,3000,3000,0.00,190,190,0.00,1,0,1,0,"));
	assert_null(strstr(csv, "filp"));
	free(csv);
	ss_ktable_free(&t);
}

/* Other draws of the same captures (REPORT.drawS): per held cache, how
 * many are within and the range of the errors; a draw of another
 * capture is refused. */
static void test_draws(void **state)
{
	struct ss_report_kernel_row r2[2];
	char a[TU_PATH_MAX], d1[TU_PATH_MAX], d2[TU_PATH_MAX], path[TU_PATH_MAX + 32], *md;
	struct ss_ktable_table t = {.draws = 2};
	struct ss_report_kernel k = {.rows = r2, .n = 2};
	struct ss_error err;
	struct ss_ktable_totals s;
	FILE *fp;
	(void)state;

	report_dir(a, sizeof(a), "dr", 0, 2);
	/* draw 1: dentry misses (+3000 against +4000), kmalloc-96 within */
	memcpy(r2, rows, sizeof(r2));
	r2[0].m_obj1 = r2[0].u_obj1 = 13000;
	r2[1].m_obj1 = r2[1].u_obj1 = 3100;
	r2[1].m_slab1 = r2[1].u_slab1 = 74;
	tu_path(d1, sizeof(d1), "dr.draw1");
	mkdir(d1, 0755);
	snprintf(path, sizeof(path), "%s/kernel.csv", d1);
	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(ss_report_kernel_write_csv(fp, &k), 0);
	fclose(fp);
	/* draw 2: as the default draw */
	tu_path(d2, sizeof(d2), "dr.draw2");
	mkdir(d2, 0755);
	k.rows = (struct ss_report_kernel_row *)rows;
	snprintf(path, sizeof(path), "%s/kernel.csv", d2);
	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(ss_report_kernel_write_csv(fp, &k), 0);
	fclose(fp);
	assert_int_equal(ss_ktable_add_report(&t, a, &err), 0);
	assert_int_equal(t.c[0].spread[0].within, 2); /* dentry: 2 of 3 */
	assert_true(t.c[0].spread[0].obj_min < -24.9 && t.c[0].spread[0].obj_min > -25.1);
	assert_true(t.c[0].spread[0].obj_max < -2.4 && t.c[0].spread[0].obj_max > -2.6);
	assert_int_equal(t.c[0].spread[1].within, 1); /* kmalloc-96: 1 of 3 */
	s = ss_ktable_totals(&t);
	assert_int_equal(s.within_all, 0);
	assert_int_equal(s.within_none, 0);
	md = md_of(&t);
	assert_non_null(strstr(md, "replayed 2 more times"));
	assert_non_null(strstr(md, "0 are within under every draw, 0 under none, 2 under some"));
	assert_non_null(strstr(md, "2 of 3"));
	assert_non_null(strstr(md, "-25.0% … -2.5%"));
	free(md);
	ss_ktable_free(&t);
	/* a draw with other kernel figures is another capture's */
	r2[0] = rows[0];
	r2[0].k_obj1 = r2[0].m_obj1 = r2[0].u_obj1 = 14500;
	k.rows = r2;
	k.n = 1;
	snprintf(path, sizeof(path), "%s/kernel.csv", d2);
	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(ss_report_kernel_write_csv(fp, &k), 0);
	fclose(fp);
	t = (struct ss_ktable_table){.draws = 2};
	assert_int_equal(ss_ktable_add_report(&t, a, &err), -1);
	assert_non_null(strstr(err.msg, "dr.draw2/kernel.csv: cache dentry: other kernel figures"));
	ss_ktable_free(&t);
	/* a draw missing */
	t = (struct ss_ktable_table){.draws = 3};
	assert_int_equal(ss_ktable_add_report(&t, a, &err), -1);
	assert_non_null(strstr(err.msg, "dr.draw"));
	ss_ktable_free(&t);
}

/* kernel.csv with line `line` (1 = the header) replaced by text. */
static void edit_line(const char *dir, int line, const char *text)
{
	char path[TU_PATH_MAX + 32], buf[8192], out[8192] = "";
	FILE *fp;
	int n = 0;

	snprintf(path, sizeof(path), "%s/kernel.csv", dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(buf, sizeof(buf), fp))
		strcat(out, ++n == line ? text : buf);
	fclose(fp);
	tu_write_text(path, out);
}

/* kernel.csv's sheaves_modelled read back: the note says "sheaves not
 * modelled" only where the run gave the cache none (a 6.18 or 7.x run
 * models them; a kernel.csv before the column says nothing of it). */
static void test_sheaves_modelled(void **state)
{
	struct ss_report_kernel_row r = rows[2];
	struct ss_report_kernel k = {.rows = &r, .n = 1};
	char d[TU_PATH_MAX], path[TU_PATH_MAX + 32], *md;
	struct ss_ktable_table t = {0};
	struct ss_error err;
	FILE *fp;
	(void)state;

	r.sheaves_modelled = true;
	tu_path(d, sizeof(d), "caps-sheaves");
	mkdir(d, 0755);
	snprintf(path, sizeof(path), "%s/kernel.csv", d);
	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(ss_report_kernel_write_csv(fp, &k), 0);
	fclose(fp);
	assert_int_equal(ss_ktable_add_report(&t, d, &err), 0);
	assert_true(t.c[0].rows[0].sheaves_modelled);
	md = md_of(&t);
	assert_null(strstr(md, "not modelled"));
	assert_non_null(strstr(md, "900 settled (before: +3900, +30.0%)"));
	free(md);
	ss_ktable_free(&t);
}

static void test_refused(void **state)
{
	char d[TU_PATH_MAX];
	struct ss_ktable_table t = {0};
	struct ss_error err;
	(void)state;

	/* a verdict the figures do not give */
	report_dir(d, sizeof(d), "bad-within", 1, 2);
	edit_line(d, 2, "kmalloc-96,5000,3000,2600,-2000,-2400,-20.00,120,72,62,-48,-58,-20.83,1,1,1,"
			"0,0,0,2600,62,0,3,84,21,0,0,0,0,0,0,0,0,,,,0\n");
	assert_int_equal(ss_ktable_add_report(&t, d, &err), -1);
	assert_non_null(strstr(err.msg, "bad-within/kernel.csv:2: held, within or within_unsettled"));
	/* a change its before and after do not give */
	edit_line(d, 2, "kmalloc-96,5000,3000,2600,-2000,-2300,-20.00,120,72,62,-48,-58,-20.83,1,0,1,"
			"0,0,0,2600,62,0,3,84,21,0,0,0,0,0,0,0,0,,,,0\n");
	assert_int_equal(ss_ktable_add_report(&t, d, &err), -1);
	assert_non_null(strstr(err.msg, "kernel.csv:2: model_delta_objects is -2300, its before and "
					"after figures give -2400"));
	/* a flag that is not 0 or 1 */
	edit_line(d, 2, "kmalloc-96,5000,3000,2600,-2000,-2400,-20.00,120,72,62,-48,-58,-20.83,2,0,1,"
			"0,0,0,2600,62,0,3,84,21,0,0,0,0,0,0,0,0,,,,0\n");
	assert_int_equal(ss_ktable_add_report(&t, d, &err), -1);
	assert_non_null(strstr(err.msg, "kernel.csv:2: held is 2, not 0 or 1"));
	/* more slabs held whole than the slabs the trace freed from */
	edit_line(d, 2, "kmalloc-96,5000,3000,2600,-2000,-2400,-20.00,120,72,62,-48,-58,-20.83,1,0,1,"
			"0,0,0,2600,62,0,3,84,21,0,10,11,5,2,0,0,0,,,,0\n");
	assert_int_equal(ss_ktable_add_report(&t, d, &err), -1);
	assert_non_null(strstr(err.msg, "kernel.csv:2: kslabs_whole 11 is more than kslabs_freed_from 10"));
	/* a column missing */
	edit_line(d, 1, "cache,kernel_objects_before\n");
	assert_int_equal(ss_ktable_add_report(&t, d, &err), -1);
	assert_non_null(strstr(err.msg, "kernel_objects_after"));
	/* no kernel.csv: not a capture's report */
	assert_int_equal(ss_ktable_add_report(&t, "/nonexistent-report", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent-report/kernel.csv"));
	assert_int_equal(t.n, 0);
	ss_ktable_free(&t);
}

/* A kernel.csv from before the sheaf_capacity column: read, 0 sheaves. */
static void test_older_csv(void **state)
{
	char d[TU_PATH_MAX], path[TU_PATH_MAX + 32];
	struct ss_ktable_table t = {0};
	struct ss_error err;
	(void)state;

	tu_path(d, sizeof(d), "older");
	mkdir(d, 0755);
	snprintf(path, sizeof(path), "%s/kernel.csv", d);
	tu_write_text(path,
		      "cache,kernel_objects_before,kernel_objects_after,model_objects_after,"
		      "kernel_delta_objects,model_delta_objects,objects_error_pct,"
		      "kernel_slabs_before,kernel_slabs_after,model_slabs_after,"
		      "kernel_delta_slabs,model_delta_slabs,slabs_error_pct,held,within,"
		      "in_model,prior_freed,prior_missing,settled,"
		      "model_objects_unsettled,model_slabs_unsettled,within_unsettled,untraced_allocs,"
		      "cpu_free_estimated,cpu_free_measured\n"
		      "dentry,10000,14000,13900,4000,3900,-2.50,500,700,695,200,195,-2.50,1,1,1,0,0,0,"
		      "13900,695,1,0,0,0\n");
	assert_int_equal(ss_ktable_add_report(&t, d, &err), 0);
	assert_int_equal(t.c[0].n, 1);
	assert_int_equal(t.c[0].within, 1);
	assert_int_equal(t.c[0].rows[0].sheaf_capacity, 0);
	ss_ktable_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_reports),
		cmocka_unit_test(test_draws),
		cmocka_unit_test(test_sheaves_modelled),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_older_csv),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
