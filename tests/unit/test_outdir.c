/* test_outdir.c - an output directory holds one whole run or nothing
 * (base/outdir.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outdir.h"
#include "test_util.h"

/* Files of dir, sorted, space-separated, into out. */
static void listing(const char *dir, char *out, size_t n)
{
	struct dirent **e;
	int k = scandir(dir, &e, NULL, alphasort);

	out[0] = '\0';
	assert_true(k >= 0);
	for (int i = 0; i < k; i++) {
		if (e[i]->d_name[0] != '.')
			snprintf(out + strlen(out), n - strlen(out), "%s ", e[i]->d_name);
		free(e[i]);
	}
	free(e);
}

static void stage_files(const struct ss_outdir *o, const char *const *names)
{
	char path[4400];

	for (; *names; names++) {
		snprintf(path, sizeof(path), "%s/%s", o->stage, *names);
		tu_write_text(path, "x\n");
	}
}

static void test_replace_whole(void **state)
{
	char dir[TU_PATH_MAX], d[TU_PATH_MAX + 8], got[512];
	struct ss_outdir o;
	struct ss_error err;
	(void)state;

	tu_tmp_dir(dir, sizeof(dir));
	snprintf(d, sizeof(d), "%s/D", dir);
	assert_int_equal(ss_outdir_begin(&o, d, &err), 0);
	stage_files(&o, (const char *const[]){"summary.csv", "slabinfo.1-a", "slabinfo.2-b", NULL});
	listing(d, got, sizeof(got));
	assert_string_equal(got, ""); /* nothing in place before commit */
	assert_int_equal(ss_outdir_commit(&o, &err), 0);
	listing(d, got, sizeof(got));
	assert_string_equal(got, "slabinfo.1-a slabinfo.2-b summary.csv ");
	/* a second run with one phase: the older snapshot goes */
	assert_int_equal(ss_outdir_begin(&o, d, &err), 0);
	stage_files(&o, (const char *const[]){"summary.csv", "slabinfo.1-a", NULL});
	assert_int_equal(ss_outdir_commit(&o, &err), 0);
	listing(d, got, sizeof(got));
	assert_string_equal(got, "slabinfo.1-a summary.csv ");
	/* a failed third run: nothing is left, not even the old run */
	assert_int_equal(ss_outdir_begin(&o, d, &err), 0);
	stage_files(&o, (const char *const[]){"caches.csv", NULL});
	ss_outdir_abort(&o);
	listing(d, got, sizeof(got));
	assert_string_equal(got, "");
	listing(dir, got, sizeof(got)); /* no staging directory either */
	assert_string_equal(got, "D ");
	tu_remove_tree(dir);
}

static void test_refuse_foreign(void **state)
{
	char dir[TU_PATH_MAX], d[TU_PATH_MAX + 16], f[TU_PATH_MAX + 32];
	struct ss_outdir o;
	struct ss_error err;
	(void)state;

	tu_tmp_dir(dir, sizeof(dir));
	snprintf(d, sizeof(d), "%s/D", dir);
	snprintf(f, sizeof(f), "%s/D/notes.txt", dir);
	assert_int_equal(ss_outdir_begin(&o, d, &err), 0);
	ss_outdir_abort(&o);
	tu_write_text(f, "mine\n");
	assert_int_equal(ss_outdir_begin(&o, d, &err), -1);
	assert_non_null(strstr(err.msg, "holds 'notes.txt', which no run writes"));
	ss_outdir_abort(&o); /* after a refused begin: touches nothing */
	assert_int_equal(access(f, F_OK), 0);
	/* run files without a completion mark: not a finished run's */
	unlink(f);
	snprintf(f, sizeof(f), "%s/D/caches.csv", dir);
	tu_write_text(f, "x\n");
	assert_int_equal(ss_outdir_begin(&o, d, &err), -1);
	assert_non_null(strstr(err.msg, "no summary.csv or measured.csv"));
	assert_int_equal(ss_outdir_begin(&o, ".", &err), -1);
	assert_int_equal(ss_outdir_begin(&o, "/", &err), -1);
	tu_remove_tree(dir);
}

/* Two --out name one directory as words, not as files. */
static void test_same(void **state)
{
	(void)state;
	assert_true(ss_outdir_same("a/b", "./a//b/"));
	assert_true(ss_outdir_same("/x/./y", "/x/y"));
	assert_false(ss_outdir_same("a/b", "/a/b"));
	assert_false(ss_outdir_same("a/b", "a/bc"));
	assert_false(ss_outdir_same("a/b", "a/b/c"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replace_whole),
		cmocka_unit_test(test_refuse_foreign),
		cmocka_unit_test(test_same),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
