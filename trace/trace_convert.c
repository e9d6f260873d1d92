/* trace_convert.c - reader -> writer, re-emitting declarations as the
 * reader's tables grow. */
#include "trace_convert.h"

#include <stdlib.h>
#include <string.h>

#include "trace_backend.h"

struct convert {
	struct ss_trace_reader *r;
	struct ss_trace_writer *w;
	uint64_t decls;		/* reader declarations already copied */
	uint32_t caches;	/* caches already declared to the writer */
	char **meta;		/* meta values as last written, by key index */
	uint32_t nr_meta;
};

static int sync_meta(struct convert *c)
{
	const struct ss_trace_tables *tb = ss_trace_tables(c->r);

	if (tb->meta_keys.nr > c->nr_meta) {
		char **m = realloc(c->meta, tb->meta_keys.nr * sizeof(*m));

		if (!m)
			return -1;
		memset(m + c->nr_meta, 0, (tb->meta_keys.nr - c->nr_meta) * sizeof(*m));
		c->meta = m;
		c->nr_meta = tb->meta_keys.nr;
	}
	for (uint32_t i = 0; i < tb->meta_keys.nr; i++) {
		const char *v = tb->meta_values[i];

		if (c->meta[i] && !strcmp(c->meta[i], v))
			continue;
		free(c->meta[i]);
		c->meta[i] = strdup(v);
		if (!c->meta[i] || ss_trace_write_meta(c->w, tb->meta_keys.strs[i], v))
			return -1;
	}
	return 0;
}

/* Copy declarations made since the last call, in the reader's order, so
 * the writer's cache indexes are the reader's. */
static int sync_decls(struct convert *c)
{
	const struct ss_trace_tables *tb = ss_trace_tables(c->r);

	if (ss_trace_reader_decls(c->r) == c->decls)
		return 0;
	c->decls = ss_trace_reader_decls(c->r);
	if (sync_meta(c))
		return -1;
	for (; c->caches < tb->cache_names.nr; c->caches++) {
		const struct ss_trace_cache *k = &tb->caches[c->caches];

		if (ss_trace_write_cache(c->w, tb->cache_names.strs[c->caches],
					 k->object_size, k->align, k->flags) != (int)c->caches)
			return -1;
	}
	return 0;
}

static int copy_event(struct convert *c, const struct ss_event *ev)
{
	const struct ss_trace_tables *tb = ss_trace_tables(c->r);

	switch (ev->kind) {
	case SS_EV_ALLOC:
		return ss_trace_write_alloc_gfp(c->w, ev->cpu, ev->id,
						ss_trace_name(tb, ev->site), ev->api, ev->value,
						ev->gfp);
	case SS_EV_FREE:
		return ss_trace_write_free(c->w, ev->cpu, ev->id);
	case SS_EV_FREE_PRIOR:
		return ss_trace_write_free_prior(c->w, ev->cpu, ss_trace_name(tb, ev->site),
						 ev->api, ev->value, ev->gfp, ev->id);
	case SS_EV_SLAB_FREED:
		return ss_trace_write_slab_freed(c->w, ev->cpu, ev->api, ev->value, ev->gfp, ev->id);
	case SS_EV_WORK:
		return ss_trace_write_work(c->w, ev->cpu, ev->value, ss_trace_name(tb, ev->site));
	case SS_EV_PHASE:
		return ss_trace_write_phase(c->w, ss_trace_name(tb, ev->site));
	}
	return -1;
}

static int copy_all(struct convert *c, uint64_t *events,
		    struct ss_error *err)
{
	struct ss_event ev;
	int rc;

	c->caches = 1; /* index 0 is kmalloc on both sides */
	while ((rc = ss_trace_next(c->r, &ev, err)) == 1) {
		if (sync_decls(c) || copy_event(c, &ev))
			return ss_trace_writer_failed(c->w, err);
		++*events;
	}
	if (rc < 0)
		return -1;
	if (sync_decls(c))
		return ss_trace_writer_failed(c->w, err);
	return 0;
}

int ss_trace_convert(const char *in, const char *out, enum ss_trace_format format,
		     uint64_t *events, struct ss_error *err)
{
	struct convert c = {0};
	int rc = -1;

	*events = 0;
	if (ss_trace_open(&c.r, in, err))
		return -1;
	if (ss_trace_writer_open_format(&c.w, out, format, err))
		goto out;
	if (copy_all(&c, events, err)) {
		ss_trace_writer_abort(c.w);
		goto out;
	}
	rc = ss_trace_writer_commit(c.w, err);
out:
	for (uint32_t i = 0; i < c.nr_meta; i++)
		free(c.meta[i]);
	free(c.meta);
	ss_trace_close(c.r);
	return rc;
}
