/* test_trace_bin.c - the binary trace format and zstd: the byte layout of
 * docs/trace-format.md, round trips through every format, conversion,
 * and every corruption reported instead of read as a shorter trace. */
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
#include "trace_bin.h"
#include "trace_hash.h"
#include "trace_convert.h"

static size_t read_bytes(const char *path, uint8_t *buf, size_t cap)
{
	FILE *fp = fopen(path, "rb");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, cap, fp);
	fclose(fp);
	return n;
}

/* The same small trace in any format. */
static void write_sample(const char *path, enum ss_trace_format fmt)
{
	struct ss_trace_writer *w;
	struct ss_error err;
	int api;

	assert_int_equal(ss_trace_writer_open_format(&w, path, fmt, &err), 0);
	assert_int_equal(ss_trace_write_meta(w, "workload", "unit test"), 0);
	api = ss_trace_write_cache(w, "skbuff_head_cache", 232, 0, SS_CF_HWCACHE);
	assert_int_equal(api, 1);
	assert_int_equal(ss_trace_write_phase(w, "load"), 0);
	assert_int_equal(ss_trace_write_alloc(w, 3, 7, "site_a", SS_API_KMALLOC, 448), 0);
	assert_int_equal(ss_trace_write_alloc(w, 40, 300, "site_b", 1, 232), 0);
	assert_int_equal(ss_trace_write_alloc_gfp(w, 1, 8, "site_a", SS_API_KMALLOC, 96,
						  SS_GFP_ACCOUNT | SS_GFP_DMA), 0);
	assert_int_equal(ss_trace_write_alloc_gfp(w, 1, 9, "site_a", SS_API_KMALLOC, 96, 8), -1);
	assert_int_equal(ss_trace_write_comment(w, "a comment"), 0);
	assert_int_equal(ss_trace_write_work(w, 3, 1234, "sscanf"), 0);
	assert_int_equal(ss_trace_write_free(w, 2, 7), 0);
	assert_int_equal(ss_trace_write_free(w, 65535, 300), 0);
	/* frees of objects from before the trace: a cache's, in kernel slab
	 * 4; a kmalloc one with flags and no slab */
	assert_int_equal(ss_trace_write_free_prior(w, 1, "rcu_do_batch", 1, 0, 0, 5), 0);
	assert_int_equal(ss_trace_write_free_prior(w, 40, "site_b", SS_API_KMALLOC, 96,
						   SS_GFP_ACCOUNT, 0), 0);
	assert_int_equal(ss_trace_write_free_prior(w, 0, "s", 9, 0, 0, 0), -1);
	/* kernel slab 4 of the cache freed; a kmalloc one with flags, on a
	 * CPU past the inline range; slab 0 (none) and an unknown cache refused */
	assert_int_equal(ss_trace_write_slab_freed(w, 0, 1, 0, 0, 5), 0);
	assert_int_equal(ss_trace_write_slab_freed(w, 40, SS_API_KMALLOC, 96, SS_GFP_ACCOUNT, 1), 0);
	assert_int_equal(ss_trace_write_slab_freed(w, 0, 1, 0, 0, 0), -1);
	assert_int_equal(ss_trace_write_slab_freed(w, 0, 9, 0, 0, 3), -1);
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);
}

static void next_ok(struct ss_trace_reader *r, struct ss_event *ev)
{
	struct ss_error err = {{0}};
	int rc = ss_trace_next(r, ev, &err);

	if (rc != 1)
		fail_msg("want an event, got %d: %s", rc, err.msg);
}

static void check_sample(const char *path, enum ss_trace_format fmt)
{
	struct ss_trace_reader *r;
	struct ss_error err;
	struct ss_event ev;
	const struct ss_trace_tables *tb;

	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	assert_int_equal(ss_trace_reader_format(r), fmt);
	tb = ss_trace_tables(r);
	next_ok(r, &ev);
	assert_int_equal(ev.kind, SS_EV_PHASE);
	assert_string_equal(ss_trace_name(tb, ev.site), "load");
	next_ok(r, &ev);
	assert_int_equal(ev.kind, SS_EV_ALLOC);
	assert_int_equal(ev.cpu, 3);
	assert_int_equal(ev.id, 7);
	assert_int_equal(ev.api, SS_API_KMALLOC);
	assert_int_equal(ev.value, 448);
	assert_int_equal(ev.gfp, 0);
	assert_string_equal(ss_trace_name(tb, ev.site), "site_a");
	next_ok(r, &ev);
	assert_int_equal(ev.cpu, 40); /* above the inline-cpu range */
	assert_int_equal(ev.id, 300);
	assert_int_equal(ev.api, 1);
	assert_int_equal(ev.value, 232);
	assert_int_equal(ev.gfp, 0);
	next_ok(r, &ev);
	assert_int_equal(ev.kind, SS_EV_ALLOC);
	assert_int_equal(ev.id, 8);
	assert_int_equal(ev.value, 96);
	assert_int_equal(ev.gfp, SS_GFP_ACCOUNT | SS_GFP_DMA);
	assert_string_equal(ss_trace_cache_name(tb, 1), "skbuff_head_cache");
	assert_int_equal(tb->caches[1].object_size, 232);
	assert_int_equal(tb->caches[1].flags, SS_CF_HWCACHE);
	next_ok(r, &ev);
	assert_int_equal(ev.kind, SS_EV_WORK);
	assert_int_equal(ev.cpu, 3);
	assert_int_equal(ev.value, 1234);
	assert_string_equal(ss_trace_name(tb, ev.site), "sscanf");
	next_ok(r, &ev);
	assert_int_equal(ev.kind, SS_EV_FREE);
	assert_int_equal(ev.cpu, 2);
	assert_int_equal(ev.id, 7);
	next_ok(r, &ev);
	assert_int_equal(ev.cpu, 65535);
	assert_int_equal(ev.id, 300);
	next_ok(r, &ev);
	assert_int_equal(ev.kind, SS_EV_FREE_PRIOR);
	assert_int_equal(ev.cpu, 1);
	assert_int_equal(ev.api, 1);
	assert_int_equal(ev.id, 5);
	assert_string_equal(ss_trace_name(tb, ev.site), "rcu_do_batch");
	next_ok(r, &ev);
	assert_int_equal(ev.kind, SS_EV_FREE_PRIOR);
	assert_int_equal(ev.cpu, 40);
	assert_int_equal(ev.api, SS_API_KMALLOC);
	assert_int_equal(ev.value, 96);
	assert_int_equal(ev.gfp, SS_GFP_ACCOUNT);
	assert_int_equal(ev.id, 0);
	next_ok(r, &ev);
	assert_int_equal(ev.kind, SS_EV_SLAB_FREED);
	assert_int_equal(ev.cpu, 0);
	assert_int_equal(ev.api, 1);
	assert_int_equal(ev.value, 0);
	assert_int_equal(ev.id, 5);
	next_ok(r, &ev);
	assert_int_equal(ev.kind, SS_EV_SLAB_FREED);
	assert_int_equal(ev.cpu, 40);
	assert_int_equal(ev.api, SS_API_KMALLOC);
	assert_int_equal(ev.value, 96);
	assert_int_equal(ev.gfp, SS_GFP_ACCOUNT);
	assert_int_equal(ev.id, 1);
	assert_int_equal(ss_trace_next(r, &ev, &err), 0);
	assert_string_equal(ss_trace_meta(tb, "workload"), "unit test");
	ss_trace_close(r);
}

static void test_round_trip_every_format(void **state)
{
	static const struct {
		const char *name;
		enum ss_trace_format fmt;
	} cases[] = {
		{"s.trace", SS_TRACE_TEXT}, {"s.trace.zst", SS_TRACE_TEXT_ZSTD},
		{"s.sbt", SS_TRACE_BIN}, {"s.sbt.zst", SS_TRACE_BIN_ZSTD},
	};
	char path[256];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tu_path(path, sizeof(path), cases[i].name);
		assert_int_equal(ss_trace_format_for_path(path), cases[i].fmt);
		write_sample(path, cases[i].fmt);
		check_sample(path, cases[i].fmt);
	}
}

/* The layout byte by byte, as docs/trace-format.md draws it. */
static void test_binary_layout(void **state)
{
	static const uint8_t payload[] = {
		0xf0, 0x08, 1, 's',				/* LONG NAME "s" -> index 0 */
		0x83, 0x05, 0, 0, 0, 0, 0, 0x07,		/* ALLOC8 cpu 3 id 5 site 0 api 0 size 448 */
		0x01, 0x05, 0, 0,				/* FREE4 cpu 1 id 5 */
		0xf0, 0x02, 0xc8, 0x01, 0x80, 0x01,		/* LONG free cpu 200 id 128 */
		0xf0, 0x2d, 0x06, 0x00, 0x00, 0x08, 0x03,	/* LONG alloc+gfp cpu 4 id 6 size 8 */
							/* gfp account|reclaimable */
		0xf0, 0xf8, 0x04,				/* LONG END, 4 events */
	};
	uint8_t want[16 + 16 + sizeof(payload)], got[256];
	char path[256];
	struct ss_trace_writer *w;
	struct ss_error err;
	size_t n;
	(void)state;

	memcpy(want, SS_BIN_MAGIC "\x02\0\0\0\0\0\0\0", 16); /* version 2, flags 0 */
	ss_bin_put_le32(want + 16, sizeof(payload));		 /* block: bytes */
	ss_bin_put_le32(want + 20, 4);				 /* events */
	ss_bin_put_le64(want + 24, ss_block_hash(payload, sizeof(payload), 0));
	memcpy(want + 32, payload, sizeof(payload));
	tu_path(path, sizeof(path), "layout.sbt");
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	assert_int_equal(ss_trace_write_alloc(w, 3, 5, "s", SS_API_KMALLOC, 448), 0);
	assert_int_equal(ss_trace_write_free(w, 1, 5), 0);
	assert_int_equal(ss_trace_write_free(w, 200, 128), 0);
	assert_int_equal(ss_trace_write_alloc_gfp(w, 4, 6, "s", SS_API_KMALLOC, 8,
						  SS_GFP_ACCOUNT | SS_GFP_RECLAIMABLE), 0);
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);
	n = read_bytes(path, got, sizeof(got));
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(got, want, sizeof(want));
}

/* The checksum's two builds agree (XXH3 does not depend on the vector
 * unit); the AVX2 one is only compared where the CPU has it. */
static void test_block_hash_builds(void **state)
{
	uint8_t buf[5000];
	(void)state;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	for (size_t n = 0; n < sizeof(buf); n += 97) {
		uint64_t base = ss_block_hash_base(buf, n, n);

		assert_true(ss_block_hash(buf, n, n) == base);
		if (ss_block_hash_have_avx2())
			assert_true(ss_block_hash_avx2(buf, n, n) == base);
	}
}

/* Every event read, through single calls or batches of any size; an
 * error comes after the events before it. */
static uint64_t read_all(const char *path, unsigned batch, int *rc_out, char *msg)
{
	struct ss_trace_reader *r;
	struct ss_error err = {{0}};
	struct ss_event ev[64];
	uint64_t n = 0;
	int rc;

	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	while ((rc = batch ? ss_trace_next_batch(r, ev, batch, &err)
			   : ss_trace_next(r, ev, &err)) > 0)
		n += (uint64_t)rc;
	ss_trace_close(r);
	*rc_out = rc;
	strcpy(msg, err.msg);
	return n;
}

/* A v2 trace of several blocks; damage anywhere is an error, never a
 * shorter or different trace, and the events before the damaged block
 * are still handed out first. */
static void test_checksum(void **state)
{
	char path[256], bad[256], msg[1024];
	static uint8_t file[1 << 20];
	struct ss_trace_writer *w;
	struct ss_error err;
	size_t n;
	int rc;
	(void)state;

	tu_path(path, sizeof(path), "sum.sbt");
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	for (uint64_t i = 0; i < 40000; i++) {
		assert_int_equal(ss_trace_write_alloc(w, (uint32_t)(i % 200), i % 70000, "s",
						      SS_API_KMALLOC, i % 20000), 0);
		assert_int_equal(ss_trace_write_free(w, (uint32_t)(i % 130), i % 70000), 0);
	}
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);
	n = read_bytes(path, file, sizeof(file));
	assert_true(n > 3 * SS_BIN2_BLOCK_TARGET && n < sizeof(file));
	for (unsigned b = 0; b <= 64; b += 1 + b * 3) {
		assert_int_equal(read_all(path, b, &rc, msg), 80000);
		assert_int_equal(rc, 0);
	}
	{ /* version 2 is checked; version 1 (below) is not */
		struct ss_trace_reader *r;

		assert_int_equal(ss_trace_open(&r, path, &err), 0);
		assert_int_equal(ss_trace_checked(r), 1);
		ss_trace_close(r);
	}
	tu_path(bad, sizeof(bad), "sum-bad.sbt");
	/* one bit in the second block's payload */
	file[16 + 16 + SS_BIN2_BLOCK_TARGET + 100] ^= 4;
	tu_write_bytes(bad, file, n);
	assert_true(read_all(bad, 64, &rc, msg) < 80000);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(msg, "block 1 fails its checksum"));
	file[16 + 16 + SS_BIN2_BLOCK_TARGET + 100] ^= 4;
	/* the last block cut off */
	tu_write_bytes(bad, file, n - 10);
	read_all(bad, 7, &rc, msg);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(msg, "truncated block"));
	/* the first block dropped: the next one's seed does not match */
	{
		uint32_t len = ss_bin_le32(file + 16);

		memmove(file + 16, file + 32 + len, n - 32 - len);
		tu_write_bytes(bad, file, n - 16 - len);
		read_all(bad, 0, &rc, msg);
		assert_int_equal(rc, -1);
		assert_non_null(strstr(msg, "block 0 fails its checksum"));
	}
}

/* A version-1 file still reads, and says it is unchecked. */
static void test_version1_reads(void **state)
{
	static const uint8_t v1[] = {
		0x89, 'S', 'B', 'T', '\r', '\n', 0x1a, '\n', 1, 0, 0, 0, 0, 0, 0, 0,
		0x08, 1, 's', 0x21, 0x05, 0x00, 0x00, 0xc0, 0x03, 0x12, 0x05,
		0x02, 0x28, 0x80, 0x01, 0xf8, 0x03,
	};
	char path[256];
	struct ss_trace_reader *r;
	struct ss_error err;
	struct ss_event ev[4];
	(void)state;

	tu_path(path, sizeof(path), "v1.sbt");
	tu_write_bytes(path, v1, sizeof(v1));
	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	assert_int_equal(ss_trace_checked(r), 0);
	assert_int_equal(ss_trace_next_batch(r, ev, 4, &err), 3);
	assert_int_equal(ev[0].value, 448);
	assert_int_equal(ev[2].cpu, 40);
	assert_int_equal(ev[2].id, 128);
	assert_int_equal(ss_trace_next_batch(r, ev, 4, &err), 0);
	ss_trace_close(r);
}

static void test_varint(void **state)
{
	static const uint64_t values[] = {0, 1, 127, 128, 300, 16383, 16384,
					  (1ull << 48) - 1, UINT64_MAX};
	uint8_t buf[16];
	(void)state;

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		uint8_t *end = ss_bin_put_varint(buf, values[i]);
		const uint8_t *p = buf;
		uint64_t v;

		assert_int_equal(ss_bin_get_varint(&p, end, &v), 0);
		assert_true(p == end);
		assert_true(v == values[i]);
		p = buf; /* one byte short: truncated */
		assert_int_equal(ss_bin_get_varint(&p, end - 1, &v), -1);
	}
	{ /* eleven bytes with continuation bits: over 64 bits */
		uint8_t over[11];
		const uint8_t *p = over;
		uint64_t v;

		memset(over, 0xff, sizeof(over));
		assert_int_equal(ss_bin_get_varint(&p, over + sizeof(over), &v), -1);
	}
}

/* A binary trace whose bytes after the header are `body`. */
static void expect_bin_error(const uint8_t *body, size_t n, const char *what)
{
	uint8_t file[512];
	char path[256];
	struct ss_trace_reader *r;
	struct ss_error err = {{0}};
	struct ss_event ev;
	int rc;

	memcpy(file, SS_BIN_MAGIC "\x01\0\0\0\0\0\0\0", SS_BIN_HEADER_LEN);
	memcpy(file + SS_BIN_HEADER_LEN, body, n);
	tu_path(path, sizeof(path), "bad.sbt");
	tu_write_bytes(path, file, SS_BIN_HEADER_LEN + n);
	rc = ss_trace_open(&r, path, &err);
	if (!rc) {
		while ((rc = ss_trace_next(r, &ev, &err)) == 1)
			;
		ss_trace_close(r);
	}
	assert_int_equal(rc, -1);
	if (strncmp(err.msg, path, strlen(path)) || !strstr(err.msg, what))
		fail_msg("want '%s: ...%s', got '%s'", path, what, err.msg);
}

static void test_corrupt_binary(void **state)
{
	(void)state;
	/* no end record: truncated, not a shorter trace */
	expect_bin_error((const uint8_t[]){0x08, 1, 's', 0x21, 5, 0, 0, 8}, 8,
			 "truncated binary trace");
	/* a record cut in the middle */
	expect_bin_error((const uint8_t[]){0x08, 1, 's', 0x21, 0x85}, 5, "truncated");
	/* site index never defined */
	expect_bin_error((const uint8_t[]){0x21, 5, 3, 0, 8, 0xf8, 1}, 7, "site 3 not declared");
	/* cache index never declared */
	expect_bin_error((const uint8_t[]){0x08, 1, 's', 0x21, 5, 0, 2, 8, 0xf8, 1}, 10,
			 "cache 2 not declared");
	/* end record counting other events */
	expect_bin_error((const uint8_t[]){0x12, 5, 0xf8, 2}, 4, "end record counts 2 events");
	/* bytes after the end */
	expect_bin_error((const uint8_t[]){0xf8, 0, 0x12}, 3, "data after the end record");
	/* unknown kinds and control records */
	expect_bin_error((const uint8_t[]){0x0c, 0xf8, 0}, 3, "unknown record tag 0x0c");
	/* kind 7 (a slab freed) with slab 0 */
	expect_bin_error((const uint8_t[]){0x0f, 0, 0, 0, 0, 0xf8, 0}, 7, "slab freed: slab 0");
	/* alloc with flags: flags 0 (that is kind 1) and unknown flag bits */
	expect_bin_error((const uint8_t[]){0x08, 1, 's', 0x0d, 5, 0, 0, 8, 0, 0xf8, 1}, 11,
			 "gfp 0");
	expect_bin_error((const uint8_t[]){0x08, 1, 's', 0x0d, 5, 0, 0, 8, 8, 0xf8, 1}, 11,
			 "gfp flags 8 out of range");
	expect_bin_error((const uint8_t[]){0x50, 0xf8, 0}, 3, "unknown control record");
	/* a name with a space, a name defined twice */
	expect_bin_error((const uint8_t[]){0x08, 3, 'a', ' ', 'b', 0xf8, 0}, 7, "bad name");
	expect_bin_error((const uint8_t[]){0x08, 1, 's', 0x08, 1, 's', 0xf8, 0}, 8,
			 "defined twice");
	/* cpu beyond 65535 */
	expect_bin_error((const uint8_t[]){0x02, 0x80, 0x80, 0x04, 1, 0xf8, 1}, 7, "cpu");
	/* cache: size 0, align not a power of two, unknown flag */
	expect_bin_error((const uint8_t[]){0x10, 1, 'c', 0, 0, 0, 0xf8, 0}, 8, "size 0");
	expect_bin_error((const uint8_t[]){0x10, 1, 'c', 8, 3, 0, 0xf8, 0}, 8, "not a power of two");
	expect_bin_error((const uint8_t[]){0x10, 1, 'c', 8, 0, 0x40, 0xf8, 0}, 8, "unknown flags");
}

static void test_bad_header(void **state)
{
	char path[256];
	struct ss_trace_reader *r;
	struct ss_error err = {{0}};
	uint8_t file[SS_BIN_HEADER_LEN];
	(void)state;

	tu_path(path, sizeof(path), "v9.sbt");
	memcpy(file, SS_BIN_MAGIC "\x09\0\0\0\0\0\0\0", sizeof(file));
	tu_write_bytes(path, file, sizeof(file));
	assert_int_equal(ss_trace_open(&r, path, &err), -1);
	assert_non_null(strstr(err.msg, "unsupported binary trace version 9"));
	memcpy(file, SS_BIN_MAGIC "\x01\0\0\0\x01\0\0\0", sizeof(file));
	tu_write_bytes(path, file, sizeof(file));
	assert_int_equal(ss_trace_open(&r, path, &err), -1);
	assert_non_null(strstr(err.msg, "unknown binary trace header flags"));
	tu_write_bytes(path, file, 10);
	assert_int_equal(ss_trace_open(&r, path, &err), -1);
	assert_non_null(strstr(err.msg, "truncated binary trace header"));
}

/* A zstd stream cut short is an error, not a shorter trace. */
static void test_truncated_zstd(void **state)
{
	char path[256], cut[256];
	uint8_t buf[4096];
	struct ss_trace_reader *r;
	struct ss_error err = {{0}};
	struct ss_event ev;
	size_t n;
	int rc;
	(void)state;

	tu_path(path, sizeof(path), "z.sbt.zst");
	write_sample(path, SS_TRACE_BIN_ZSTD);
	n = read_bytes(path, buf, sizeof(buf));
	assert_true(n > 20 && n < sizeof(buf));
	tu_path(cut, sizeof(cut), "cut.sbt.zst");
	tu_write_bytes(cut, buf, n - 6);
	rc = ss_trace_open(&r, cut, &err); /* a small file fails at open */
	if (!rc) {
		while ((rc = ss_trace_next(r, &ev, &err)) == 1)
			;
		ss_trace_close(r);
	}
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err.msg, "truncated"));
}

/* text -> sbt.zst -> text keeps every event and declaration. */
static void test_convert(void **state)
{
	char src[256], mid[256], back[256];
	uint64_t events;
	struct ss_error err;
	(void)state;

	tu_path(src, sizeof(src), "c.trace");
	tu_path(mid, sizeof(mid), "c.sbt.zst");
	tu_path(back, sizeof(back), "c-back.trace");
	write_sample(src, SS_TRACE_TEXT);
	assert_int_equal(ss_trace_convert(src, mid, SS_TRACE_BIN_ZSTD, &events, &err), 0);
	assert_int_equal(events, 11);
	assert_int_equal(ss_trace_convert(mid, back, SS_TRACE_TEXT, &events, &err), 0);
	assert_int_equal(events, 11);
	check_sample(back, SS_TRACE_TEXT);
	/* a failed conversion leaves nothing */
	tu_path(back, sizeof(back), "never.sbt");
	assert_int_equal(ss_trace_convert("/nonexistent.trace", back, SS_TRACE_BIN,
					  &events, &err), -1);
	assert_int_equal(access(back, F_OK), -1);
}

/* Peak memory is the tables and one buffer: a long trace reads in the
 * same footprint as a short one (only checked through the writer and
 * reader doing no per-event allocation: the id space stays dense). */
static void test_long_stream(void **state)
{
	char path[256];
	struct ss_trace_writer *w;
	struct ss_trace_reader *r;
	struct ss_error err;
	struct ss_event ev;
	uint64_t n = 0, sum = 0;
	(void)state;

	tu_path(path, sizeof(path), "long.sbt.zst");
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	for (uint64_t i = 0; i < 300000; i++) {
		assert_int_equal(ss_trace_write_alloc(w, (uint32_t)(i % 8), i % 64, "s",
						      SS_API_KMALLOC, 1 + i % 5000), 0);
		assert_int_equal(ss_trace_write_free(w, (uint32_t)(i % 7), i % 64), 0);
	}
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);
	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	while (ss_trace_next(r, &ev, &err) == 1) {
		n++;
		sum += ev.kind == SS_EV_ALLOC ? ev.value : 0;
	}
	ss_trace_close(r);
	assert_int_equal(n, 600000);
	/* sum of 1 + i % 5000 over i < 300000: 60 full cycles of 1..5000 */
	assert_int_equal(sum, 60ull * 5000 * 5001 / 2);
}

/* Names and long meta values that straddle the reader's 256 KiB buffer:
 * records are decoded again once more of the stream is buffered. */
static void test_records_across_buffer(void **state)
{
	char path[256], site[32], *big = malloc(60001);
	struct ss_trace_writer *w;
	struct ss_trace_reader *r;
	struct ss_error err = {{0}};
	struct ss_event ev;
	uint64_t n = 0;
	(void)state;

	assert_non_null(big);
	memset(big, 'v', 60000);
	big[60000] = '\0';
	tu_path(path, sizeof(path), "names.sbt");
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	for (unsigned i = 0; i < 40000; i++) {
		snprintf(site, sizeof(site), "site_%u", i);
		assert_int_equal(ss_trace_write_alloc(w, i % 4, 0, site, SS_API_KMALLOC, i), 0);
		assert_int_equal(ss_trace_write_free(w, 0, 0), 0);
		if (i % 5000 == 4999)
			assert_int_equal(ss_trace_write_meta(w, "big", big), 0);
	}
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);
	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	while (ss_trace_next(r, &ev, &err) == 1) {
		if (ev.kind == SS_EV_ALLOC) {
			snprintf(site, sizeof(site), "site_%llu", (unsigned long long)ev.value);
			assert_string_equal(ss_trace_name(ss_trace_tables(r), ev.site), site);
		}
		n++;
	}
	assert_int_equal(n, 80000);
	assert_string_equal(ss_trace_meta(ss_trace_tables(r), "big"), big);
	ss_trace_close(r);
	free(big);
}

/* Work events as the batch decoder reads them (LONG records, decoded
 * in its loop when the cpu is in the tag): cpus in and out of the tag,
 * cycles and labels of one to seven varint bytes, some at a block's end;
 * each read back the same through single calls and batches. */
static void work_expect(uint64_t i, uint32_t *cpu, uint64_t *cycles, char *label, size_t n)
{
	static const uint32_t cpus[] = {0, 1, 29, 30, 31, 200, 65535};
	static const uint64_t cyc[] = {0, 1, 127, 128, 16383, 16384, 1ull << 35, 1ull << 48};

	*cpu = cpus[i % 7];
	*cycles = cyc[i % 8] + (i % 8 == 7 ? 0 : i);
	snprintf(label, n, "label_%llu", (unsigned long long)(i % 300));
}

static void test_work_records(void **state)
{
	char path[256], label[32];
	struct ss_trace_writer *w;
	struct ss_error err = {{0}};
	static const unsigned batches[] = {0, 1, 7, 64};
	(void)state;

	tu_path(path, sizeof(path), "work.sbt");
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	for (uint64_t i = 0; i < 20000; i++) {
		uint32_t cpu;
		uint64_t cycles;

		work_expect(i, &cpu, &cycles, label, sizeof(label));
		assert_int_equal(ss_trace_write_alloc(w, (uint32_t)(i % 5), 1, "s",
						      SS_API_KMALLOC, 64), 0);
		assert_int_equal(ss_trace_write_work(w, cpu, cycles, label), 0);
		assert_int_equal(ss_trace_write_free(w, (uint32_t)(i % 3), 1), 0);
	}
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);
	for (unsigned b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
		struct ss_trace_reader *r;
		struct ss_event ev[64];
		uint64_t n = 0, works = 0;
		int rc;

		assert_int_equal(ss_trace_open(&r, path, &err), 0);
		while ((rc = batches[b] ? ss_trace_next_batch(r, ev, batches[b], &err)
					: ss_trace_next(r, ev, &err)) > 0) {
			for (int k = 0; k < rc; k++, n++) {
				uint32_t cpu;
				uint64_t cycles;

				if (n % 3 != 1)
					continue;
				work_expect(n / 3, &cpu, &cycles, label, sizeof(label));
				assert_int_equal(ev[k].kind, SS_EV_WORK);
				assert_int_equal(ev[k].cpu, cpu);
				assert_int_equal(ev[k].value, cycles);
				assert_string_equal(ss_trace_name(ss_trace_tables(r), ev[k].site),
						    label);
				works++;
			}
		}
		assert_int_equal(rc, 0);
		assert_int_equal(works, 20000);
		ss_trace_close(r);
	}
}

/* A version-2 trace of one block holding `payload` (checksum right). */
static void expect_bin2_error(const uint8_t *payload, size_t n, unsigned events,
			      const char *what)
{
	uint8_t file[512];
	char path[256], msg[1024];
	int rc;

	memcpy(file, SS_BIN_MAGIC "\x02\0\0\0\0\0\0\0", SS_BIN_HEADER_LEN);
	ss_bin_put_le32(file + 16, (uint32_t)n);
	ss_bin_put_le32(file + 20, events);
	ss_bin_put_le64(file + 24, ss_block_hash(payload, n, 0));
	memcpy(file + 32, payload, n);
	tu_path(path, sizeof(path), "bad2.sbt");
	tu_write_bytes(path, file, 32 + n);
	for (unsigned batch = 0; batch <= 64; batch += 64) {
		read_all(path, batch, &rc, msg);
		assert_int_equal(rc, -1);
		if (!strstr(msg, what))
			fail_msg("want '...%s', got '%s'", what, msg);
	}
}

/* A record the batch loop declines is still checked: its errors are
 * decode_one()'s.  An ALLOC8's site and cache bounds (one table lookup in
 * the loop); a work record with 20 bytes after it (the loop's reach). */
static void test_bin2_bad_records(void **state)
{
	uint8_t p[64];
	(void)state;

	/* name "s", ALLOC8 cpu 0 id 5 site 1 (undeclared), then site 0 with
	 * cache 1 (undeclared: byte 5's high nibble) */
	memcpy(p, (const uint8_t[]){0xf0, 0x08, 1, 's', 0x80, 5, 0, 0, 1, 0, 0, 0x04}, 12);
	memset(p + 12, 0x01, 16);
	expect_bin2_error(p, 28, 5, "site 1 not declared (1 so far)");
	memcpy(p, (const uint8_t[]){0xf0, 0x08, 1, 's', 0x80, 5, 0, 0, 0, 0x10, 0, 0x04}, 12);
	expect_bin2_error(p, 28, 5, "cache 1 not declared (1 so far)");

	/* name "s", then work cpu 0, cycles 5, label 1 (undeclared) */
	memcpy(p, (const uint8_t[]){0xf0, 0x08, 1, 's', 0xf0, 0x0b, 5, 1}, 8);
	memset(p + 8, 0x01, 24); /* FREE4 records: never reached */
	expect_bin2_error(p, 32, 7, "label 1 not declared");
	/* cycles 2^48 + 1: over the limit */
	memcpy(p, (const uint8_t[]){0xf0, 0x08, 1, 's', 0xf0, 0x0b,
				    0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0}, 14);
	memset(p + 14, 0x01, 24);
	expect_bin2_error(p, 38, 7, "cycles 281474976710657 out of range");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_every_format),
		cmocka_unit_test(test_binary_layout),
		cmocka_unit_test(test_block_hash_builds),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_version1_reads),
		cmocka_unit_test(test_varint),
		cmocka_unit_test(test_corrupt_binary),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_truncated_zstd),
		cmocka_unit_test(test_convert),
		cmocka_unit_test(test_long_stream),
		cmocka_unit_test(test_records_across_buffer),
		cmocka_unit_test(test_work_records),
		cmocka_unit_test(test_bin2_bad_records),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
