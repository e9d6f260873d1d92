/* fuzz_trace_bin.c - the binary trace readers (trace/trace_bin_reader.c,
 * trace_bin2_reader.c) through the public API (ss_trace_open detects the
 * format).  A seed that starts with the magic is a whole .sbt file and is
 * taken as it is.  An input that starts with 0xf2 (an unknown version-1
 * control record: no earlier corpus input means anything past it) gets a
 * version-2 header and one block around the rest -- the next byte picks
 * the batch size (1..64), the 4 after it are the block's event count, and
 * the checksum is made right, so the fuzzer spends its time on records,
 * not on checksums.  Any other input gets a version-1 header in front, as
 * before, and is read in batches of 1..7.  Events must lie inside the
 * documented bounds and errors must name the file. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "trace.h"
#include "trace_bin.h"
#include "trace_hash.h"

static void check_event(const struct ss_trace_tables *tb,
			const struct ss_event *ev)
{
	ss_fuzz_check(ev->cpu <= 65535, "cpu %u", ev->cpu);
	ss_fuzz_check(ev->kind <= SS_EV_SLAB_FREED, "kind %d", (int)ev->kind);
	/* (a free's other fields are unspecified, trace.h: the batch decoder
	 * leaves them as they were) */
	if (ev->kind != SS_EV_FREE)
		ss_fuzz_check(!(ev->gfp & ~SS_GFP_ALL), "gfp 0x%x", ev->gfp);
	if (ev->kind == SS_EV_ALLOC || ev->kind == SS_EV_FREE)
		ss_fuzz_check(ev->id < (1ull << 48), "id %llu", (unsigned long long)ev->id);
	if (ev->kind == SS_EV_SLAB_FREED)
		ss_fuzz_check(ev->id >= 1, "slab freed: slab 0");
	if (ev->kind == SS_EV_ALLOC || ev->kind == SS_EV_FREE_PRIOR || ev->kind == SS_EV_SLAB_FREED) {
		ss_fuzz_check(ev->value <= (1ull << 40), "size %llu",
			      (unsigned long long)ev->value);
		ss_fuzz_check(ev->api < tb->cache_names.nr, "api %u undeclared", ev->api);
	}
	if (ev->kind == SS_EV_WORK)
		ss_fuzz_check(ev->value <= (1ull << 48), "cycles %llu",
			      (unsigned long long)ev->value);
	if (ev->kind != SS_EV_FREE && ev->kind != SS_EV_SLAB_FREED) /* (no site) */
		ss_fuzz_check(ev->site < tb->names.nr, "name %u undefined", ev->site);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int whole = size >= SS_BIN_MAGIC_LEN && !memcmp(data, SS_BIN_MAGIC, SS_BIN_MAGIC_LEN);
	int v2 = !whole && size >= 2 && data[0] == 0xf2;
	unsigned batch = v2 ? 1u + data[1] % 64u : 1u + (unsigned)(size % 7);
	size_t len = whole ? size : SS_BIN_HEADER_LEN + SS_BIN2_BLOCK_HEADER + size;
	uint8_t *buf = malloc(len ? len : 1), *p;
	struct ss_trace_reader *r = NULL;
	struct ss_error err = {{0}};
	struct ss_event ev[64];
	char path[64];
	int fd, rc;

	if (!buf)
		return 0;
	p = buf;
	if (whole) {
		memcpy(p, data, size);
	} else {
		memcpy(p, SS_BIN_MAGIC, SS_BIN_MAGIC_LEN);
		ss_bin_put_le32(p + SS_BIN_MAGIC_LEN, v2 ? SS_BIN_VERSION2 : SS_BIN_VERSION);
		ss_bin_put_le32(p + SS_BIN_MAGIC_LEN + 4, 0);
		p += SS_BIN_HEADER_LEN;
		if (v2) { /* the selector and batch bytes are not data */
			data += 2;
			size -= 2;
		}
		if (v2 && size >= 4) { /* one block: count, checksum, payload */
			memcpy(p + 4, data, 4);
			ss_bin_put_le32(p, (uint32_t)(size - 4));
			ss_bin_put_le64(p + 8, ss_block_hash(data + 4, size - 4, 0));
			p += SS_BIN2_BLOCK_HEADER;
			data += 4;
			size -= 4;
		}
		memcpy(p, data, size);
		len = (size_t)(p - buf) + size;
	}
	fd = ss_fuzz_memfile(buf, len, path, sizeof(path));
	free(buf);
	if (fd < 0)
		return 0;
	if (ss_trace_open(&r, path, &err) == 0) {
		while ((rc = ss_trace_next_batch(r, ev, batch, &err)) > 0) {
			ss_fuzz_check(rc <= (int)batch, "batch of %d, asked %u", rc, batch);
			for (int i = 0; i < rc; i++)
				check_event(ss_trace_tables(r), &ev[i]);
		}
		if (rc < 0)
			ss_fuzz_check_names_file(err.msg, path);
		ss_trace_close(r);
	} else {
		ss_fuzz_check_names_file(err.msg, path);
	}
	ss_fuzz_memfile_close(fd);
	return 0;
}
