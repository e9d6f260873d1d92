/* test_atomic_file.c - outputs appear whole or not at all, and a device or
 * FIFO named as the output is written in place, never replaced. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "test_util.h"

static void test_commit_and_abort(void **state)
{
	char dir[TU_PATH_MAX], path[TU_PATH_MAX + 16], cmd[3 * TU_PATH_MAX];
	struct ss_atomic_file f;
	struct ss_error err;
	(void)state;

	tu_tmp_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	assert_int_equal(ss_atomic_open(&f, path, &err), 0);
	fputs("a,b\n", f.fp);
	assert_int_equal(access(path, F_OK), -1); /* not there before commit */
	assert_int_equal(ss_atomic_commit(&f, &err), 0);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(ss_atomic_open(&f, path, &err), 0);
	fputs("half", f.fp);
	ss_atomic_abort(&f);
	{ /* the old content survives an aborted rewrite, no temp file left */
		char buf[16] = {0};
		FILE *fp = fopen(path, "r");
		assert_non_null(fp);
		assert_non_null(fgets(buf, sizeof(buf), fp));
		fclose(fp);
		assert_string_equal(buf, "a,b\n");
	}
	snprintf(cmd, sizeof(cmd), "test $(ls %s | wc -l) = 1 && rm -rf %s", dir, dir);
	assert_int_equal(system(cmd), 0);
}

static void test_device_written_in_place(void **state)
{
	struct ss_atomic_file f;
	struct ss_error err;
	struct stat st;
	(void)state;

	assert_int_equal(ss_atomic_open(&f, "/dev/null", &err), 0);
	fputs("discarded\n", f.fp);
	assert_int_equal(ss_atomic_commit(&f, &err), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode)); /* still the device */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit_and_abort),
		cmocka_unit_test(test_device_written_in_place),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
