/* test_trace_source.c - a trace opened once and read again
 * (trace/trace_source.h): the header read with its first event kept for
 * the next call, a file read again from its start, a FIFO copied for a
 * second reading (and not when the first is the last), and a group's copy
 * of the reader's tables kept up with them (ss_trace_tables_sync). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"
#include "trace.h"
#include "trace_source.h"
#include "trace_tables.h"

#define NR_EVENTS 3000 /* more than a buffer's worth of text */

/* A text or binary trace at name: meta, a cache, then NR_EVENTS allocs
 * and frees, a new site every 100. */
static void write_trace(char *path, size_t cap, const char *name)
{
	struct ss_trace_writer *w;
	struct ss_error err;
	char site[32];
	int api;

	tu_path(path, cap, name);
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	assert_int_equal(ss_trace_write_meta(w, "workload", "unit"), 0);
	assert_int_equal(ss_trace_write_meta(w, "cpus", "2"), 0);
	api = ss_trace_write_cache(w, "dentry", 192, 8, 0);
	for (int i = 0; i < NR_EVENTS / 2; i++) {
		snprintf(site, sizeof(site), "site_%d", i / 100);
		assert_int_equal(ss_trace_write_alloc(w, (uint32_t)i % 2, 1, site,
						      i % 3 ? SS_API_KMALLOC : (uint32_t)api, 64), 0);
		assert_int_equal(ss_trace_write_free(w, (uint32_t)i % 2, 1), 0);
	}
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);
}

/* Every event of r by batches: the count, and a sum of their fields (a
 * free has only its cpu and id). */
static uint64_t read_all(struct ss_trace_reader *r, uint64_t *sum)
{
	struct ss_event ev[100];
	struct ss_error err;
	uint64_t n = 0;
	int k;

	*sum = 0;
	while ((k = ss_trace_next_batch(r, ev, 100, &err)) > 0)
		for (int i = 0; i < k; i++, n++)
			*sum = *sum * 31 + ev[i].kind * 7 + ev[i].cpu + ev[i].id +
			       (ev[i].kind == SS_EV_FREE ? 0 : ev[i].site * 3 + ev[i].value);
	assert_int_equal(k, 0);
	return n;
}

static void header_keeps_first(const char *name)
{
	char path[TU_PATH_MAX];
	struct ss_trace_reader *r;
	struct ss_error err;
	struct ss_event ev;
	uint64_t sum, sum2;

	write_trace(path, sizeof(path), name);
	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	assert_int_equal(read_all(r, &sum), NR_EVENTS);
	ss_trace_close(r);
	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	assert_int_equal(ss_trace_header(r, &err), 1);
	assert_string_equal(ss_trace_meta(ss_trace_tables(r), "cpus"), "2");
	assert_int_equal(ss_trace_tables(r)->cache_names.nr, 2);
	assert_int_equal(read_all(r, &sum2), NR_EVENTS); /* the first included */
	assert_true(sum == sum2);
	ss_trace_close(r);
	/* ... and by single events */
	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	assert_int_equal(ss_trace_header(r, &err), 1);
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.kind, SS_EV_ALLOC);
	assert_string_equal(ss_trace_name(ss_trace_tables(r), ev.site), "site_0");
	assert_int_equal(ss_trace_next(r, &ev, &err), 1);
	assert_int_equal(ev.kind, SS_EV_FREE);
	ss_trace_close(r);
}

static void test_header_text(void **state)
{
	(void)state;
	header_keeps_first("h.trace");
}

static void test_header_binary(void **state)
{
	(void)state;
	header_keeps_first("h.sbt");
}

static void test_file_read_twice(void **state)
{
	char path[TU_PATH_MAX];
	struct ss_trace_source src;
	struct ss_trace_reader *r;
	struct ss_error err;
	uint64_t a, b;
	(void)state;

	write_trace(path, sizeof(path), "twice.sbt");
	assert_int_equal(ss_trace_source_open(&src, path, &err), 0);
	assert_true(src.seeks);
	assert_int_equal(ss_trace_source_reader(&src, &r, &err), 0);
	assert_int_equal(read_all(r, &a), NR_EVENTS);
	ss_trace_close(r);
	assert_int_equal(ss_trace_source_reader(&src, &r, &err), 0);
	ss_trace_source_last(&src, r);
	assert_string_equal(ss_trace_path(r), path);
	assert_int_equal(read_all(r, &b), NR_EVENTS);
	assert_true(a == b);
	ss_trace_close(r);
	/* none after the last */
	assert_int_equal(ss_trace_source_reader(&src, &r, &err), -1);
	ss_trace_source_close(&src);
}

/* A FIFO at name, written by a child from path; its pid. */
static pid_t fifo_from(char *fifo, size_t cap, const char *name, const char *path)
{
	pid_t pid;

	tu_path(fifo, cap, name);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		execlp("cp", "cp", path, fifo, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static void wait_writer(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void fifo_read(const char *trace, const char *fifo_name)
{
	char path[TU_PATH_MAX], fifo[TU_PATH_MAX];
	struct ss_trace_source src;
	struct ss_trace_reader *r;
	struct ss_error err;
	struct ss_event ev;
	uint64_t a, b;
	pid_t pid;

	write_trace(path, sizeof(path), trace);
	pid = fifo_from(fifo, sizeof(fifo), fifo_name, path);
	assert_int_equal(ss_trace_source_open(&src, fifo, &err), 0);
	assert_false(src.seeks);
	/* the first reading stops after its header: the copy gets the rest */
	assert_int_equal(ss_trace_source_reader(&src, &r, &err), 0);
	assert_int_equal(ss_trace_header(r, &err), 1);
	ss_trace_close(r);
	assert_int_equal(ss_trace_source_reader(&src, &r, &err), 0);
	assert_string_equal(ss_trace_path(r), fifo);
	assert_int_equal(read_all(r, &a), NR_EVENTS);
	ss_trace_close(r);
	assert_int_equal(ss_trace_source_reader(&src, &r, &err), 0);
	ss_trace_source_last(&src, r);
	assert_int_equal(read_all(r, &b), NR_EVENTS);
	assert_true(a == b);
	ss_trace_close(r);
	ss_trace_source_close(&src);
	wait_writer(pid);
	unlink(fifo);
	/* the first reading the last: no copy, read to its end */
	pid = fifo_from(fifo, sizeof(fifo), fifo_name, path);
	assert_int_equal(ss_trace_source_open(&src, fifo, &err), 0);
	assert_int_equal(ss_trace_source_reader(&src, &r, &err), 0);
	ss_trace_source_last(&src, r);
	assert_null(src.copy);
	assert_int_equal(ss_trace_header(r, &err), 1);
	assert_int_equal(read_all(r, &b), NR_EVENTS);
	assert_true(a == b);
	assert_int_equal(ss_trace_next(r, &ev, &err), 0);
	ss_trace_close(r);
	ss_trace_source_close(&src);
	wait_writer(pid);
	unlink(fifo);
}

static void test_fifo_text(void **state)
{
	(void)state;
	fifo_read("f.trace", "f.fifo");
}

static void test_fifo_binary_zstd(void **state)
{
	(void)state;
	fifo_read("f.sbt.zst", "fz.fifo");
}

static void test_tables_sync(void **state)
{
	struct ss_trace_tables src, dst;
	(void)state;

	assert_int_equal(ss_trace_tables_init(&src), 0);
	assert_int_equal(ss_trace_tables_init(&dst), 0);
	assert_int_equal(ss_strtab_intern(&src.names, "a"), 0);
	assert_int_equal(ss_trace_tables_add_cache(&src, "dentry", 192, 8, SS_CF_RCU), 1);
	assert_int_equal(ss_trace_tables_set_meta(&src, "cpus", "2"), 0);
	assert_int_equal(ss_trace_tables_sync(&dst, &src), 0);
	assert_int_equal(ss_strtab_intern(&src.names, "b"), 1);
	assert_int_equal(ss_trace_tables_add_cache(&src, "inode", 600, 8, 0), 2);
	assert_int_equal(ss_trace_tables_set_meta(&src, "cpus", "4"), 0);
	assert_int_equal(ss_trace_tables_set_meta(&src, "page_base", "0x1000"), 0);
	assert_string_equal(ss_trace_name(&dst, 0), "a");
	assert_string_equal(ss_trace_name(&dst, 1), "?"); /* not yet */
	assert_int_equal(ss_trace_tables_sync(&dst, &src), 0);
	assert_string_equal(ss_trace_name(&dst, 1), "b");
	assert_string_equal(ss_trace_cache_name(&dst, 2), "inode");
	assert_int_equal(dst.caches[1].object_size, 192);
	assert_int_equal(dst.caches[1].flags, SS_CF_RCU);
	assert_int_equal(dst.caches[2].object_size, 600);
	assert_string_equal(ss_trace_meta(&dst, "cpus"), "4");
	assert_string_equal(ss_trace_meta(&dst, "page_base"), "0x1000");
	/* dst owns its own: src may go */
	ss_trace_tables_release(&src);
	assert_string_equal(ss_trace_name(&dst, 1), "b");
	ss_trace_tables_release(&dst);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_text),
		cmocka_unit_test(test_header_binary),
		cmocka_unit_test(test_file_read_twice),
		cmocka_unit_test(test_fifo_text),
		cmocka_unit_test(test_fifo_binary_zstd),
		cmocka_unit_test(test_tables_sync),
	};
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
