/* fuzz_trace_text.c - the text trace reader (sim/trace_reader.c) through
 * its public API: ss_trace_open, then ss_trace_next to the end or the first
 * error.  Every event must lie inside the bounds docs/trace-format.md
 * promises, its names must resolve, and an error must name the file. */
#include <string.h>

#include "fuzz.h"
#include "trace.h"

static void check_event(const struct ss_trace_reader *r,
			const struct ss_event *ev)
{
	const struct ss_trace_tables *tb = ss_trace_tables(r);

	ss_fuzz_check(ev->cpu <= 65535, "cpu %u", ev->cpu);
	switch (ev->kind) {
	case SS_EV_ALLOC:
		ss_fuzz_check(ev->id < (1ull << 48), "id %llu", (unsigned long long)ev->id);
		ss_fuzz_check(ev->value <= (1ull << 40), "size %llu",
			      (unsigned long long)ev->value);
		ss_fuzz_check(ev->api < tb->cache_names.nr, "api %u undeclared", ev->api);
		ss_fuzz_check(ev->site < tb->names.nr, "site %u not interned", ev->site);
		break;
	case SS_EV_FREE:
		ss_fuzz_check(ev->id < (1ull << 48), "id %llu", (unsigned long long)ev->id);
		break;
	case SS_EV_FREE_PRIOR:
		ss_fuzz_check(ev->value <= (1ull << 40), "size %llu",
			      (unsigned long long)ev->value);
		ss_fuzz_check(ev->api < tb->cache_names.nr, "api %u undeclared", ev->api);
		ss_fuzz_check(ev->site < tb->names.nr, "site %u not interned", ev->site);
		ss_fuzz_check(!(ev->gfp & ~SS_GFP_ALL), "gfp 0x%x", ev->gfp);
		break;
	case SS_EV_SLAB_FREED:
		ss_fuzz_check(ev->value <= (1ull << 40), "size %llu",
			      (unsigned long long)ev->value);
		ss_fuzz_check(ev->api < tb->cache_names.nr, "api %u undeclared", ev->api);
		ss_fuzz_check(!(ev->gfp & ~SS_GFP_ALL), "gfp 0x%x", ev->gfp);
		ss_fuzz_check(ev->id >= 1 && ev->id <= (1ull << 48), "slab %llu",
			      (unsigned long long)ev->id);
		break;
	case SS_EV_WORK:
		ss_fuzz_check(ev->value <= (1ull << 48), "cycles %llu",
			      (unsigned long long)ev->value);
		ss_fuzz_check(ev->site < tb->names.nr, "label %u not interned", ev->site);
		break;
	case SS_EV_PHASE:
		ss_fuzz_check(ev->site < tb->names.nr, "name %u not interned", ev->site);
		ss_fuzz_check(strlen(ss_trace_name(tb, ev->site)) <= SS_MAX_NAME,
			      "name %u too long", ev->site);
		break;
	default:
		ss_fuzz_check(0, "unknown event kind %d", (int)ev->kind);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_trace_reader *r = NULL;
	struct ss_error err = {{0}};
	struct ss_event ev;
	char path[64];
	int fd = ss_fuzz_memfile(data, size, path, sizeof(path));
	int rc;

	if (fd < 0)
		return 0;
	if (ss_trace_open(&r, path, &err) == 0) {
		while ((rc = ss_trace_next(r, &ev, &err)) == 1)
			check_event(r, &ev);
		if (rc < 0)
			ss_fuzz_check_names_file(err.msg, path);
		ss_trace_close(r);
	}
	ss_fuzz_memfile_close(fd);
	return 0;
}
