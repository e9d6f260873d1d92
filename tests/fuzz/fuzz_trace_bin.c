/* fuzz_trace_bin.c - the binary trace reader (sim/trace_bin_reader.c)
 * through the public API (ss_trace_open detects the format).  The harness
 * writes the 16-byte header itself (magic, version 1, flags 0) in front of
 * the input, so the fuzzer spends its time on records; a seed that starts
 * with the magic is a whole .sbt file and is taken as it is.  Events must
 * lie inside the documented bounds and errors must name the file. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "trace.h"
#include "trace_bin.h"

static void check_event(const struct ss_trace_tables *tb,
			const struct ss_event *ev)
{
	ss_fuzz_check(ev->cpu <= 65535, "cpu %u", ev->cpu);
	ss_fuzz_check(ev->kind <= SS_EV_FREE_PRIOR, "kind %d", (int)ev->kind);
	ss_fuzz_check(!(ev->gfp & ~SS_GFP_ALL), "gfp 0x%x", ev->gfp);
	if (ev->kind == SS_EV_ALLOC || ev->kind == SS_EV_FREE)
		ss_fuzz_check(ev->id < (1ull << 48), "id %llu", (unsigned long long)ev->id);
	if (ev->kind == SS_EV_ALLOC || ev->kind == SS_EV_FREE_PRIOR) {
		ss_fuzz_check(ev->value <= (1ull << 40), "size %llu",
			      (unsigned long long)ev->value);
		ss_fuzz_check(ev->api < tb->cache_names.nr, "api %u undeclared", ev->api);
	}
	if (ev->kind == SS_EV_WORK)
		ss_fuzz_check(ev->value <= (1ull << 48), "cycles %llu",
			      (unsigned long long)ev->value);
	if (ev->kind != SS_EV_FREE)
		ss_fuzz_check(ev->site < tb->names.nr, "name %u undefined", ev->site);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t header[SS_BIN_HEADER_LEN] = {
		0x89, 'S', 'B', 'T', '\r', '\n', 0x1a, '\n', SS_BIN_VERSION, 0, 0, 0, 0, 0, 0, 0};
	int whole = size >= SS_BIN_MAGIC_LEN && !memcmp(data, SS_BIN_MAGIC, SS_BIN_MAGIC_LEN);
	size_t len = whole ? size : sizeof(header) + size;
	uint8_t *buf = malloc(len ? len : 1);
	struct ss_trace_reader *r = NULL;
	struct ss_error err = {{0}};
	struct ss_event ev;
	char path[64];
	int fd, rc;

	if (!buf)
		return 0;
	if (!whole)
		memcpy(buf, header, sizeof(header));
	if (size)
		memcpy(buf + (whole ? 0 : sizeof(header)), data, size);
	fd = ss_fuzz_memfile(buf, len, path, sizeof(path));
	free(buf);
	if (fd < 0)
		return 0;
	if (ss_trace_open(&r, path, &err) == 0) {
		while ((rc = ss_trace_next(r, &ev, &err)) == 1)
			check_event(ss_trace_tables(r), &ev);
		if (rc < 0)
			ss_fuzz_check_names_file(err.msg, path);
		ss_trace_close(r);
	} else {
		ss_fuzz_check_names_file(err.msg, path);
	}
	ss_fuzz_memfile_close(fd);
	return 0;
}
