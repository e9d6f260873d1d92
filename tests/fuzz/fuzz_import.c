/* fuzz_import.c - the ftrace / trace-cmd / perf script importer
 * (reconcile/import/) end to end through ss_import().  Input: an optional
 * tracefs format file, a NUL byte, then the capture (no NUL: all capture).
 * The importer promises a valid trace whatever the capture (lost and
 * unknown events are repaired, not fatal), so its output must read back
 * without error, every free naming a live id and every alloc a free one;
 * a failed import must name the file and leave no output behind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "import/import.h"
#include "trace.h"

#define MAX_IDS (1u << 20)

/* A scratch directory per process, removed at exit. */
static char scratch[64];

static void remove_scratch(void)
{
	char path[96];

	snprintf(path, sizeof(path), "%s/out.trace", scratch);
	unlink(path);
	rmdir(scratch);
}

static const char *out_path(void)
{
	static char path[96];

	if (!scratch[0]) {
		snprintf(scratch, sizeof(scratch), "/tmp/slabsim-fuzz-import.XXXXXX");
		ss_fuzz_check(mkdtemp(scratch) != NULL, "mkdtemp");
		atexit(remove_scratch);
	}
	snprintf(path, sizeof(path), "%s/out.trace", scratch);
	return path;
}

/* The output is a trace a replay accepts: ids live exactly between their
 * alloc and their free. */
static void check_output(const char *path)
{
	struct ss_trace_reader *r = NULL;
	struct ss_error err = {{0}};
	struct ss_event ev;
	unsigned char *live = calloc(MAX_IDS, 1);
	int rc;

	if (!live)
		return;
	ss_fuzz_check(ss_trace_open(&r, path, &err) == 0, "output: %s", err.msg);
	while ((rc = ss_trace_next(r, &ev, &err)) == 1) {
		if (ev.kind != SS_EV_ALLOC && ev.kind != SS_EV_FREE)
			continue;
		ss_fuzz_check(ev.id < MAX_IDS, "id %llu is not dense", (unsigned long long)ev.id);
		ss_fuzz_check(live[ev.id] == (ev.kind == SS_EV_FREE),
			      "line %lu: id %llu %s", ev.line, (unsigned long long)ev.id,
			      ev.kind == SS_EV_FREE ? "freed while not live" : "allocated while live");
		live[ev.id] = ev.kind == SS_EV_ALLOC;
	}
	ss_fuzz_check(rc == 0, "output does not read back: %s", err.msg);
	ss_trace_close(r);
	free(live);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t fmt_len = nul ? (size_t)(nul - data) : 0;
	const uint8_t *cap = nul ? nul + 1 : data;
	size_t cap_len = size - (size_t)(cap - data);
	struct ss_import_opts o = {.output = out_path(), .target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	char in_path[64], fmt_path[64];
	int in_fd, fmt_fd = -1;

	in_fd = ss_fuzz_memfile(cap, cap_len, in_path, sizeof(in_path));
	if (in_fd < 0)
		return 0;
	if (nul) {
		fmt_fd = ss_fuzz_memfile(data, fmt_len, fmt_path, sizeof(fmt_path));
		if (fmt_fd < 0) {
			ss_fuzz_memfile_close(in_fd);
			return 0;
		}
		o.formats[o.nr_formats++] = fmt_path;
	}
	o.input = in_path;
	if (ss_import(&o, &t, &err) == 0) {
		check_output(o.output);
		unlink(o.output);
	} else {
		ss_fuzz_check(!strncmp(err.msg, in_path, strlen(in_path)) ||
			      (nul && !strncmp(err.msg, fmt_path, strlen(fmt_path))),
			      "error names neither input: %s", err.msg);
		ss_fuzz_check(access(o.output, F_OK) != 0, "output left after a failed import");
	}
	ss_fuzz_memfile_close(fmt_fd);
	ss_fuzz_memfile_close(in_fd);
	return 0;
}
