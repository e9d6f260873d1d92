/* trace_writer.c - write a text trace (docs/trace-format.md), atomically. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "trace.h"
#include "trace_tables.h"

struct ss_trace_writer {
	struct ss_atomic_file af;
	FILE *fp;		/* af.fp, or stdout for "-" */
	int to_stdout;
	struct ss_trace_tables tb; /* declared caches, for name <-> index */
};

int ss_trace_writer_open(struct ss_trace_writer **out, const char *path,
			 struct ss_error *err)
{
	struct ss_trace_writer *w = calloc(1, sizeof(*w));

	if (!w || ss_trace_tables_init(&w->tb)) {
		free(w);
		return ss_errorf(err, "%s: out of memory", path);
	}
	if (!strcmp(path, "-")) {
		w->fp = stdout;
		w->to_stdout = 1;
	} else if (ss_atomic_open(&w->af, path, err)) {
		ss_trace_tables_release(&w->tb);
		free(w);
		return -1;
	} else {
		w->fp = w->af.fp;
	}
	fprintf(w->fp, "%s %d\n", SS_TRACE_MAGIC, SS_TRACE_VERSION);
	*out = w;
	return 0;
}

/* Writers check names so that every trace they produce reads back. */
int ss_trace_write_meta(struct ss_trace_writer *w, const char *key,
			const char *value)
{
	if (!ss_trace_name_ok(key) || strchr(value, '\n'))
		return -1;
	return fprintf(w->fp, "meta %s %s\n", key, value) < 0 ? -1 : 0;
}

int ss_trace_write_cache(struct ss_trace_writer *w, const char *name,
			 unsigned object_size, unsigned align, unsigned flags)
{
	char fl[128];
	int idx;

	if (!ss_trace_name_ok(name) || !strcmp(name, "kmalloc") || !object_size)
		return -1;
	if (ss_strtab_find(&w->tb.cache_names, name) != UINT32_MAX)
		return -1; /* declared twice: the second could differ */
	idx = ss_trace_tables_add_cache(&w->tb, name, object_size, align, flags);
	if (idx < 0)
		return -1;
	ss_cache_flags_str(flags, fl, sizeof(fl));
	if (fprintf(w->fp, "cache %s size=%u align=%u%s%s\n", name, object_size,
		    align, fl[0] ? " flags=" : "", fl) < 0)
		return -1;
	return idx;
}

int ss_trace_write_alloc(struct ss_trace_writer *w, uint32_t cpu, uint64_t id,
			 const char *site, uint32_t api, uint64_t size)
{
	if (api >= w->tb.cache_names.nr || !ss_trace_name_ok(site))
		return -1;
	return fprintf(w->fp, "a %" PRIu32 " %" PRIu64 " %s %s %" PRIu64 "\n",
		       cpu, id, site, w->tb.cache_names.strs[api], size) < 0
		       ? -1 : 0;
}

int ss_trace_write_free(struct ss_trace_writer *w, uint32_t cpu, uint64_t id)
{
	return fprintf(w->fp, "f %" PRIu32 " %" PRIu64 "\n", cpu, id) < 0 ? -1 : 0;
}

int ss_trace_write_work(struct ss_trace_writer *w, uint32_t cpu,
			uint64_t cycles, const char *label)
{
	if (!ss_trace_name_ok(label))
		return -1;
	return fprintf(w->fp, "w %" PRIu32 " %" PRIu64 " %s\n", cpu, cycles,
		       label) < 0 ? -1 : 0;
}

int ss_trace_write_phase(struct ss_trace_writer *w, const char *name)
{
	if (!ss_trace_name_ok(name))
		return -1;
	return fprintf(w->fp, "p %s\n", name) < 0 ? -1 : 0;
}

int ss_trace_write_comment(struct ss_trace_writer *w, const char *text)
{
	if (strchr(text, '\n'))
		return -1;
	return fprintf(w->fp, "# %s\n", text) < 0 ? -1 : 0;
}

int ss_trace_writer_commit(struct ss_trace_writer *w, struct ss_error *err)
{
	int rc = 0;

	if (w->to_stdout) {
		if (fflush(stdout) || ferror(stdout))
			rc = ss_errorf(err, "stdout: write failed: %s",
				       strerror(errno));
	} else {
		rc = ss_atomic_commit(&w->af, err);
	}
	ss_trace_tables_release(&w->tb);
	free(w);
	return rc;
}

void ss_trace_writer_abort(struct ss_trace_writer *w)
{
	if (!w)
		return;
	if (!w->to_stdout)
		ss_atomic_abort(&w->af);
	ss_trace_tables_release(&w->tb);
	free(w);
}

uint64_t ss_idpool_get(struct ss_idpool *p)
{
	if (p->nr_free)
		return p->free_ids[--p->nr_free];
	return p->next++;
}

void ss_idpool_put(struct ss_idpool *p, uint64_t id)
{
	if (p->nr_free == p->cap_free) {
		uint64_t cap = p->cap_free ? p->cap_free * 2 : 1024;
		uint64_t *ids = realloc(p->free_ids, cap * sizeof(*ids));

		if (!ids)
			abort(); /* a writer cannot continue without its ids */
		p->free_ids = ids;
		p->cap_free = cap;
	}
	p->free_ids[p->nr_free++] = id;
}

void ss_idpool_release(struct ss_idpool *p)
{
	free(p->free_ids);
	memset(p, 0, sizeof(*p));
}
