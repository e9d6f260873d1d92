/* test_trace.c - the text trace: writer -> reader round trip, every
 * malformed line rejected with file:line, and the line reader's edges.
 * The binary format is tests/unit/test_trace_bin.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geometry.h"
#include "test_util.h"
#include "trace.h"

static void test_round_trip(void **state)
{
	char path[256];
	struct ss_trace_writer *w;
	struct ss_trace_reader *r;
	struct ss_error err;
	struct ss_event ev;
	int api;
	(void)state;

	tu_path(path, sizeof(path), "rt.trace");
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	assert_int_equal(ss_trace_write_meta(w, "workload", "unit test"), 0);
	api = ss_trace_write_cache(w, "smack_rule", 20, 4, SS_CF_HWCACHE | SS_CF_RCU);
	assert_int_equal(api, 1);
	assert_int_equal(ss_trace_write_cache(w, "smack_rule", 20, 4, 0), -1);
	assert_int_equal(ss_trace_write_phase(w, "load"), 0);
	assert_int_equal(ss_trace_write_alloc(w, 3, 7, "site_a", SS_API_KMALLOC, 33), 0);
	assert_int_equal(ss_trace_write_alloc(w, 1, 8, "site_b", (uint32_t)api, 20), 0);
	assert_int_equal(ss_trace_write_comment(w, "a comment with words"), 0);
	assert_int_equal(ss_trace_write_work(w, 3, 1234, "sscanf"), 0);
	assert_int_equal(ss_trace_write_free(w, 2, 7), 0);
	assert_int_equal(ss_trace_write_alloc(w, 0, 9, "bad site", 0, 1), -1);
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);

	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.kind, SS_EV_PHASE);
	assert_string_equal(ss_trace_name(ss_trace_tables(r), ev.site), "load");
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.kind, SS_EV_ALLOC);
	assert_int_equal(ev.cpu, 3);
	assert_int_equal(ev.id, 7);
	assert_int_equal(ev.api, SS_API_KMALLOC);
	assert_int_equal(ev.value, 33);
	assert_string_equal(ss_trace_name(ss_trace_tables(r), ev.site), "site_a");
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.api, 1);
	assert_string_equal(ss_trace_cache_name(ss_trace_tables(r), ev.api), "smack_rule");
	assert_int_equal(ss_trace_tables(r)->caches[1].object_size, 20);
	assert_int_equal(ss_trace_tables(r)->caches[1].align, 4);
	assert_int_equal(ss_trace_tables(r)->caches[1].flags, SS_CF_HWCACHE | SS_CF_RCU);
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.kind, SS_EV_WORK);
	assert_int_equal(ev.value, 1234);
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.kind, SS_EV_FREE);
	assert_int_equal(ev.cpu, 2);
	assert_int_equal(ev.id, 7);
	assert_int_equal(ss_trace_next(r, &ev, &err), 0);
	assert_string_equal(ss_trace_meta(ss_trace_tables(r), "workload"), "unit test");
	ss_trace_close(r);
}

/* Every bad line: the reader stops with "file:line: reason". */
static void expect_error(const char *text, unsigned line, const char *what)
{
	char path[256], prefix[300];
	struct ss_trace_reader *r;
	struct ss_error err = {{0}};
	struct ss_event ev;
	int rc;

	tu_path(path, sizeof(path), "bad.trace");
	tu_write_text(path, text);
	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	while ((rc = ss_trace_next(r, &ev, &err)) == 1)
		;
	ss_trace_close(r);
	assert_int_equal(rc, -1);
	if (line)
		snprintf(prefix, sizeof(prefix), "%s:%u: ", path, line);
	else /* whole-file errors name the file only */
		snprintf(prefix, sizeof(prefix), "%s: ", path);
	if (strncmp(err.msg, prefix, strlen(prefix)) || !strstr(err.msg, what))
		fail_msg("want '%s...%s', got '%s'", prefix, what, err.msg);
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_error("hello\n", 1, "not a slabsim trace");
	expect_error("slabsim-trace 9\n", 1, "unsupported trace version");
	expect_error("slabsim-trace 1\na 0 1 s kmalloc\n", 2, "got 5 fields");
	expect_error("slabsim-trace 1\na 0 1 s kmalloc -5\n", 2, "bad size");
	expect_error("slabsim-trace 1\na 0 1 s kmalloc 5 gfp=nowait\n", 2, "bad 'gfp=nowait'");
	expect_error("slabsim-trace 1\na 0 1 s kmalloc 5 gfp=\n", 2, "bad 'gfp='");
	expect_error("slabsim-trace 1\na 0 1 s kmalloc 5 account\n", 2, "bad 'account'");
	expect_error("slabsim-trace 1\na 0 1 s kmalloc 5 gfp=dma x\n", 2, "got 8 fields");
	expect_error("slabsim-trace 1\nu 0 s kmalloc\n", 2, "want 'u CPU SITE API SIZE");
	expect_error("slabsim-trace 1\nu 0 s nosuch 0\n", 2, "was not declared");
	expect_error("slabsim-trace 1\nu 0 s kmalloc 8 slab=x\n", 2, "bad 'slab=x'");
	expect_error("slabsim-trace 1\nd 0 kmalloc 8 8\n", 2, "bad '8' (want slab=K)");
	expect_error("slabsim-trace 1\nd 0 kmalloc 8\n", 2, "got 4 fields");
	expect_error("slabsim-trace 1\nd 0 kmalloc 8 gfp=x slab=1\n", 2, "bad 'gfp=x'");
	expect_error("slabsim-trace 1\nd 0 nosuch 0 slab=1\n", 2, "cache 'nosuch' was not declared");
	expect_error("slabsim-trace 1\nd 0 kmalloc 8 slab=1 x y\n", 2, "want 'd CPU API SIZE");
	expect_error("slabsim-trace 1\na 0 1 s kmalloc 8 slab=1\n", 2, "bad 'slab=1'");
	expect_error("slabsim-trace 1\na x 1 s kmalloc 5\n", 2, "bad cpu");
	expect_error("slabsim-trace 1\n# ok\n\na 0 99999999999999999999 s kmalloc 5\n", 4, "bad object id");
	expect_error("slabsim-trace 1\na 0 1 s nosuchcache 5\n", 2, "was not declared");
	expect_error("slabsim-trace 1\nf 0\n", 2, "want 'f CPU ID'");
	expect_error("slabsim-trace 1\nw 0 12\n", 2, "want 'w CPU CYCLES LABEL'");
	expect_error("slabsim-trace 1\nz 0 1\n", 2, "unknown record");
	expect_error("slabsim-trace 1\ncache c size=0\n", 2, "size= missing or 0");
	expect_error("slabsim-trace 1\ncache c size=8 align=3\n", 2, "not a power of two");
	expect_error("slabsim-trace 1\ncache c size=8 flags=bogus\n", 2, "bad flags");
	expect_error("slabsim-trace 1\ncache c size=8\ncache c size=16\n", 3, "declared again");
	expect_error("meta a b\n", 1, "meta before");
	expect_error("", 0, "empty file");
}

/* gfp= on alloc lines: written only when set, read in any order, and an
 * alloc line without it reads as no flags (old traces). */
static void test_gfp_text(void **state)
{
	char path[256];
	struct ss_trace_writer *w;
	struct ss_trace_reader *r;
	struct ss_error err;
	struct ss_event ev;
	FILE *fp;
	char line[128];
	(void)state;

	tu_path(path, sizeof(path), "gfp.trace");
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	assert_int_equal(ss_trace_write_alloc_gfp(w, 0, 1, "s", SS_API_KMALLOC, 8, 0), 0);
	assert_int_equal(ss_trace_write_alloc_gfp(w, 0, 2, "s", SS_API_KMALLOC, 8, SS_GFP_ALL), 0);
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof(line), fp)); /* header */
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_string_equal(line, "a 0 1 s kmalloc 8\n");
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_string_equal(line, "a 0 2 s kmalloc 8 gfp=account,reclaimable,dma\n");
	fclose(fp);

	tu_write_text(path, "slabsim-trace 1\na 0 1 s kmalloc 8 gfp=dma,account\n"
			    "a 0 2 s kmalloc 8\n");
	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.gfp, SS_GFP_DMA | SS_GFP_ACCOUNT);
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.gfp, 0);
	ss_trace_close(r);
}

static void test_missing_file(void **state)
{
	struct ss_trace_reader *r;
	struct ss_error err;
	(void)state;

	assert_int_equal(ss_trace_open(&r, "/nonexistent/x.trace", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/x.trace: cannot open trace"));
}

/* An aborted writer leaves nothing behind, a committed one only the file. */
static void test_writer_abort(void **state)
{
	char path[256];
	struct ss_trace_writer *w;
	struct ss_error err;
	(void)state;

	tu_path(path, sizeof(path), "aborted.trace");
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	ss_trace_write_phase(w, "x");
	ss_trace_writer_abort(w);
	assert_int_equal(access(path, F_OK), -1);
}

/* Lines are read out of one buffer: the last line needs no newline, and
 * a line longer than the buffer (256 KiB) still reads whole (a comment:
 * a meta value that long is refused, the binary format holds 64 KiB). */
static void test_line_edges(void **state)
{
	char path[256];
	struct ss_trace_reader *r;
	struct ss_error err = {{0}};
	struct ss_event ev;
	size_t big = 600000;
	char *text = malloc(big + 200);
	int n;
	(void)state;

	assert_non_null(text);
	n = sprintf(text, "slabsim-trace 1\r\n# long ");
	memset(text + n, 'x', big);
	sprintf(text + n + big, "\na 0 1 s kmalloc 5\nf 0 1");
	tu_path(path, sizeof(path), "edges.trace");
	tu_write_text(path, text);
	free(text);
	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	assert_int_equal(ss_trace_reader_format(r), SS_TRACE_TEXT);
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.kind, SS_EV_ALLOC);
	assert_int_equal(ev.line, 3);
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.kind, SS_EV_FREE);
	assert_int_equal(ev.line, 4);
	assert_int_equal(ss_trace_next(r, &ev, &err), 0);
	ss_trace_close(r);
}

static void test_idpool_reuses_ids(void **state)
{
	struct ss_idpool p = {0};
	(void)state;

	assert_int_equal(ss_idpool_get(&p), 0);
	assert_int_equal(ss_idpool_get(&p), 1);
	assert_int_equal(ss_idpool_get(&p), 2);
	ss_idpool_put(&p, 1);
	ss_idpool_put(&p, 0);
	assert_int_equal(ss_idpool_get(&p), 0);
	assert_int_equal(ss_idpool_get(&p), 1);
	assert_int_equal(ss_idpool_get(&p), 3);
	ss_idpool_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_gfp_text),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_writer_abort),
		cmocka_unit_test(test_line_edges),
		cmocka_unit_test(test_idpool_reuses_ids),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
