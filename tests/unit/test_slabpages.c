/* test_slabpages.c - the slab page frames file (base/slabpages.c):
 * written from kpageflags entries, read back, and refused when it is not
 * whole or not in order. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "slabpages.h"
#include "test_util.h"

#define SLAB (1ull << SS_KPF_SLAB)

/* A kpageflags file of n frames, flags[] each, at path. */
static void write_kpageflags(const char *path, const uint64_t *flags, size_t n)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(flags, sizeof(*flags), n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

/* Runs of frames with KPF_SLAB, other bits ignored (a slab's head page
 * has KPF_COMPOUND_HEAD too, its tails KPF_COMPOUND_TAIL); a run at the
 * last frame is written; the file reads back as the same frames, and a
 * page freed in the window clears its frames. */
static void test_scan_load(void **state)
{
	/* frames 0..9: slab at 1-2 (a head and a tail), 5, 8-9 */
	const uint64_t flags[10] = {0,	       SLAB | 1 << 15, SLAB | 1 << 16, 1 << 5, 0,
				    SLAB,      1 << 6,         0,	       SLAB,   SLAB};
	char kpf[256], out[256];
	char *text = NULL;
	size_t len = 0;
	struct ss_slabpages sp;
	struct ss_error err = {{0}};
	uint64_t slab;
	FILE *mem;
	int fd;
	(void)state;

	tu_path(kpf, sizeof(kpf), "kpageflags");
	tu_path(out, sizeof(out), "pages.txt");
	write_kpageflags(kpf, flags, 10);
	fd = open(kpf, O_RDONLY);
	assert_true(fd >= 0);
	mem = open_memstream(&text, &len);
	assert_int_equal(ss_slabpages_scan(fd, kpf, mem, &slab, &err), 0);
	close(fd);
	fclose(mem);
	assert_string_equal(text, "slabsim-slabpages 1 frames=10 slab=5 runs=3\n1 2\n5 1\n8 2\n");
	assert_int_equal(slab, 5);
	tu_write_text(out, text);
	free(text);
	assert_int_equal(ss_slabpages_load(&sp, out, &err), 0);
	for (uint64_t f = 0; f < 12; f++)
		assert_int_equal(ss_slabpages_has(&sp, f), f == 1 || f == 2 || f == 5 || f == 8 || f == 9);
	ss_slabpages_clear(&sp, 0, 2); /* frames 0-1: 1 is no slab page now */
	ss_slabpages_clear(&sp, 9, 4); /* past the end: 9 only */
	assert_false(ss_slabpages_has(&sp, 1));
	assert_true(ss_slabpages_has(&sp, 2));
	assert_true(ss_slabpages_has(&sp, 8));
	assert_false(ss_slabpages_has(&sp, 9));
	ss_slabpages_release(&sp);
}

/* A file that is cut, out of order, or not one is an error naming the
 * file and line, and nothing is kept. */
static void test_load_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"slabsim-slabfill 2 nodes=1\n", "pages.txt:1: not a slab-pages file"},
		{"slabsim-slabpages 1 frames=10 slab=3 runs=2\n1 2\n", "pages.txt:2: 1 runs of 2 pages"},
		{"slabsim-slabpages 1 frames=10 slab=3 runs=2\n5 1\n1 2\n", "pages.txt:3: run '1 2' is not after"},
		{"slabsim-slabpages 1 frames=10 slab=3 runs=2\n1 2\n3 1\n", "pages.txt:3: run '3 1' is not after"},
		{"slabsim-slabpages 1 frames=10 slab=3 runs=1\n9 3\n", "pages.txt:2: '9 3' is not 'PFN COUNT'"},
		{"slabsim-slabpages 1 frames=10 slab=3 runs=1\n1 0\n", "pages.txt:2: '1 0' is not"},
		{"slabsim-slabpages 1 frames=10 slab=3 runs=1\n1 3 x\n", "pages.txt:2: '1 3 x' is not"},
		{"", "pages.txt: empty file"},
	};
	char path[256];
	struct ss_slabpages sp;
	struct ss_error err;
	(void)state;

	tu_path(path, sizeof(path), "pages.txt");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		tu_write_text(path, bad[i].text);
		assert_int_equal(ss_slabpages_load(&sp, path, &err), -1);
		if (!strstr(err.msg, bad[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, bad[i].msg);
		assert_null(sp.bits);
	}
}

/* kpageflags read in pieces that are not whole entries is refused. */
static void test_scan_partial_entry(void **state)
{
	char kpf[256];
	struct ss_error err = {{0}};
	uint64_t slab;
	FILE *out = fopen("/dev/null", "w");
	int fd;
	(void)state;

	tu_path(kpf, sizeof(kpf), "kpageflags-cut");
	tu_write_text(kpf, "12345");
	fd = open(kpf, O_RDONLY);
	assert_int_equal(ss_slabpages_scan(fd, kpf, out, &slab, &err), -1);
	assert_non_null(strstr(err.msg, "not whole 8-byte entries"));
	close(fd);
	fclose(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_load),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_scan_partial_entry),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
