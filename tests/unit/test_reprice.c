/* test_reprice.c - a finished run's time under another cost table from
 * its counted steps (sim/reprice.h): the sum, and each case it refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "reprice.h"
#include "test_util.h"

/* A run directory: 10 fast-path allocs and 4 slow ones (two caches, one
 * name quoted), 3 list_lock, a 1000 MHz clock. */
static void make_run(char *dir, size_t cap, uint64_t large)
{
	char path[TU_PATH_MAX + 32], json[256];

	tu_path(dir, cap, "run");
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/counters.csv", dir);
	tu_write_text(path, "cache,counter,unit,value\n"
			    "kmalloc-64,alloc_fastpath,op,6\n"
			    "\"odd,name\",alloc_fastpath,op,4\n"
			    "kmalloc-64,alloc_slowpath,op,4\n"
			    "kmalloc-64,list_lock,op,3\n");
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	snprintf(json, sizeof(json), "{\n  \"clock_mhz\": 1000,\n  \"large_allocs\": %llu,\n}\n",
		 (unsigned long long)large);
	tu_write_text(path, json);
}

static void test_price(void **state)
{
	char dir[TU_PATH_MAX];
	struct ss_reprice r;
	struct ss_costs a, b;
	struct ss_error err;
	double cycles;
	(void)state;

	make_run(dir, sizeof(dir), 0);
	assert_int_equal(ss_costs_load(&a, NULL, &err), 0);
	b = a;
	b.cycles[SS_STEP_ALLOC_FASTPATH] += 10;
	b.cycles[SS_STEP_LIST_LOCK] -= 2;
	assert_int_equal(ss_reprice_load(&r, dir, &err), 0);
	assert_true(r.n[SS_STEP_ALLOC_FASTPATH] == 10);
	cycles = 10 * a.cycles[SS_STEP_ALLOC_FASTPATH] + 4 * a.cycles[SS_STEP_ALLOC_SLOWPATH] +
		 3 * a.cycles[SS_STEP_LIST_LOCK];
	r.work_ns = 5000;
	r.sim_ns = 5000 + cycles; /* 1000 MHz: a cycle a ns */
	r.cpus = 1;
	r.lock_waits = r.cmpxchg_retries = 0;
	assert_int_equal(ss_reprice_check(&r, &a, &err), 0);
	assert_true(fabs(ss_reprice_ns(&r, &a, &b) - (r.sim_ns + 100 - 6)) < 1e-9);
	assert_true(ss_reprice_ns(&r, &a, &a) == r.sim_ns);
	/* a time its counts do not make: refused */
	r.sim_ns += 5000;
	assert_int_equal(ss_reprice_check(&r, &a, &err), -1);
	assert_non_null(strstr(err.msg, "more than its counts"));
	r.sim_ns -= 5000;
	r.cpus = 2;
	assert_int_equal(ss_reprice_check(&r, &a, &err), -1);
	r.cpus = 1;
	r.lock_waits = 1;
	assert_int_equal(ss_reprice_check(&r, &a, &err), -1);
	r.lock_waits = 0;
	make_run(dir, sizeof(dir), 2);
	assert_int_equal(ss_reprice_load(&r, dir, &err), 0);
	r.work_ns = 5000;
	r.sim_ns = 5000 + cycles;
	r.cpus = 1;
	r.lock_waits = r.cmpxchg_retries = 0;
	assert_int_equal(ss_reprice_check(&r, &a, &err), -1);
	assert_non_null(strstr(err.msg, "kmalloc_large"));
}

static void test_bad_counters(void **state)
{
	char dir[TU_PATH_MAX], path[TU_PATH_MAX + 32];
	struct ss_reprice r;
	struct ss_error err;
	(void)state;

	make_run(dir, sizeof(dir), 0);
	snprintf(path, sizeof(path), "%s/counters.csv", dir);
	tu_write_text(path, "cache,counter,unit,value\nk,no_such_step,op,1\n");
	assert_int_equal(ss_reprice_load(&r, dir, &err), -1);
	assert_non_null(strstr(err.msg, "counters.csv:2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_price),
		cmocka_unit_test(test_bad_counters),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
