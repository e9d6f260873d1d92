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
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* An output is the input however it is spelled; a file yet to be
 * written is compared by directory and name. */
static void test_same_file(void **state)
{
	char dir[TU_PATH_MAX], a[TU_PATH_MAX + 16], b[TU_PATH_MAX + 32], c[TU_PATH_MAX + 16];
	(void)state;

	tu_tmp_dir(dir, sizeof(dir));
	snprintf(a, sizeof(a), "%s/cap.txt", dir);
	snprintf(b, sizeof(b), "%s/./cap.txt", dir);
	snprintf(c, sizeof(c), "%s/link.txt", dir);
	tu_write_text(a, "x\n");
	assert_int_equal(link(a, c), 0);
	assert_true(ss_same_file(a, b));
	assert_true(ss_same_file(a, c)); /* a hard link */
	assert_false(ss_same_file(a, "-"));
	snprintf(b, sizeof(b), "%s/./new.txt", dir);
	snprintf(c, sizeof(c), "%s/new.txt", dir);
	assert_true(ss_same_file(b, c)); /* neither exists yet */
	snprintf(c, sizeof(c), "%s/other.txt", dir);
	assert_false(ss_same_file(b, c));
	tu_remove_tree(dir);
}

/* A registered temporary file and staging directory are gone when a
 * signal ends the process, which dies of that signal. */
static void test_signal_cleanup(void **state)
{
	char dir[TU_PATH_MAX], file[TU_PATH_MAX + 16], sub[TU_PATH_MAX + 16], in[TU_PATH_MAX + 32];
	int status;
	pid_t pid;
	(void)state;

	tu_tmp_dir(dir, sizeof(dir));
	snprintf(file, sizeof(file), "%s/a.tmp.1", dir);
	snprintf(sub, sizeof(sub), "%s/d.tmp.1", dir);
	snprintf(in, sizeof(in), "%s/d.tmp.1/x", dir);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int kept = ss_cleanup_add("/nonexistent/kept", 0);

		ss_cleanup_signals();
		tu_write_text(file, "half");
		mkdir(sub, 0777);
		tu_write_text(in, "half");
		ss_cleanup_add(file, 0);
		ss_cleanup_add(sub, 1);
		ss_cleanup_del(kept);
		raise(SIGTERM);
		_exit(0); /* not reached */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_int_equal(access(file, F_OK), -1);
	assert_int_equal(access(sub, F_OK), -1);
	tu_remove_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit_and_abort),
		cmocka_unit_test(test_device_written_in_place),
		cmocka_unit_test(test_same_file),
		cmocka_unit_test(test_signal_cleanup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
