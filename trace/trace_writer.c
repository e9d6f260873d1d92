/* trace_writer.c - write a trace atomically in any format: the checks every
 * format shares, then the backend (trace_text_writer.c, trace_bin_writer.c).
 * Output goes to PATH.tmp.PID, through zstd when asked, and is renamed
 * into place on commit; stdout, devices and pipes are written directly
 * (ss_atomic_open writes an existing device or FIFO in place). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace_backend.h"
#include "trace_tables.h"

#define ZSTD_LEVEL 3 /* zstd's default: fast, about 3-4x on binary traces */

/* Finish the destination: commit (rename into place) or abort. */
static int close_sink(struct ss_trace_writer *w, int commit, struct ss_error *err)
{
	if (w->to_stdout) {
		if (commit && (fflush(stdout) || ferror(stdout)))
			return ss_errorf(err, "stdout: write failed: %s", strerror(errno));
		return 0;
	}
	if (commit)
		return ss_atomic_commit(&w->af, err);
	ss_atomic_abort(&w->af);
	return 0;
}

static int open_sink(struct ss_trace_writer *w, const char *path,
		     struct ss_error *err)
{
	if (!strcmp(path, "-")) {
		w->fp = stdout;
		w->to_stdout = 1;
	} else if (ss_atomic_open(&w->af, path, err)) {
		return -1;
	} else {
		w->fp = w->af.fp;
	}
	if (w->format == SS_TRACE_TEXT_ZSTD || w->format == SS_TRACE_BIN_ZSTD) {
		w->zfp = ss_zstd_wopen(w->fp, ZSTD_LEVEL);
		if (!w->zfp) {
			close_sink(w, 0, NULL);
			return ss_errorf(err, "%s: cannot start zstd compression", path);
		}
		w->fp = w->zfp;
	}
	return 0;
}

int ss_trace_writer_open_format(struct ss_trace_writer **out, const char *path,
				enum ss_trace_format format,
				struct ss_error *err)
{
	struct ss_trace_writer *w = calloc(1, sizeof(*w));
	int binary = format == SS_TRACE_BIN || format == SS_TRACE_BIN_ZSTD;

	if (!w || ss_trace_tables_init(&w->tb)) {
		free(w);
		return ss_errorf(err, "%s: out of memory", path);
	}
	w->format = format;
	w->ops = binary ? &ss_bin_writer_ops : &ss_text_writer_ops;
	if (open_sink(w, path, err)) {
		ss_trace_tables_release(&w->tb);
		free(w);
		return -1;
	}
	if (binary ? ss_bin_writer_start(w) : ss_text_writer_start(w)) {
		ss_trace_writer_abort(w);
		return ss_errorf(err, "%s: out of memory", path);
	}
	*out = w;
	return 0;
}

int ss_trace_writer_open(struct ss_trace_writer **out, const char *path,
			 struct ss_error *err)
{
	return ss_trace_writer_open_format(out, path, ss_trace_format_for_path(path), err);
}

/* Writers check names so that every trace they produce reads back. */
int ss_trace_write_meta(struct ss_trace_writer *w, const char *key,
			const char *value)
{
	if (!ss_trace_name_ok(key) || !ss_trace_meta_value_ok(value))
		return -1;
	return w->ops->meta(w, key, value);
}

int ss_trace_write_cache(struct ss_trace_writer *w, const char *name,
			 unsigned object_size, unsigned align, unsigned flags)
{
	int idx;

	if (!ss_trace_name_ok(name) || !strcmp(name, "kmalloc") || !object_size ||
	    (align & (align - 1)))
		return -1;
	if (ss_strtab_find(&w->tb.cache_names, name) != UINT32_MAX)
		return -1; /* declared twice: the second could differ */
	idx = ss_trace_tables_add_cache(&w->tb, name, object_size, align, flags);
	if (idx < 0 || w->ops->cache(w, name, object_size, align, flags))
		return -1;
	return idx;
}

int ss_trace_write_alloc_gfp(struct ss_trace_writer *w, uint32_t cpu, uint64_t id,
			     const char *site, uint32_t api, uint64_t size,
			     uint32_t gfp)
{
	if (api >= w->tb.cache_names.nr || !ss_trace_name_ok(site) || (gfp & ~SS_GFP_ALL))
		return -1;
	return w->ops->alloc(w, cpu, id, site, api, size, gfp);
}

int ss_trace_write_alloc(struct ss_trace_writer *w, uint32_t cpu, uint64_t id,
			 const char *site, uint32_t api, uint64_t size)
{
	return ss_trace_write_alloc_gfp(w, cpu, id, site, api, size, 0);
}

int ss_trace_write_free(struct ss_trace_writer *w, uint32_t cpu, uint64_t id)
{
	return w->ops->free_obj(w, cpu, id);
}

int ss_trace_write_free_prior(struct ss_trace_writer *w, uint32_t cpu,
			      const char *site, uint32_t api, uint64_t size,
			      uint32_t gfp, uint64_t slab)
{
	if (api >= w->tb.cache_names.nr || !ss_trace_name_ok(site) || (gfp & ~SS_GFP_ALL) ||
	    slab > SS_TRACE_MAX_ID + 1)
		return -1;
	return w->ops->free_prior(w, cpu, site, api, size, gfp, slab);
}

int ss_trace_write_slab_freed(struct ss_trace_writer *w, uint32_t cpu, uint32_t api,
			      uint64_t size, uint32_t gfp, uint64_t slab)
{
	if (api >= w->tb.cache_names.nr || (gfp & ~SS_GFP_ALL) || !slab ||
	    slab > SS_TRACE_MAX_ID + 1)
		return -1;
	return w->ops->slab_freed(w, cpu, api, size, gfp, slab);
}

int ss_trace_write_work(struct ss_trace_writer *w, uint32_t cpu,
			uint64_t cycles, const char *label)
{
	if (!ss_trace_name_ok(label))
		return -1;
	return w->ops->work(w, cpu, cycles, label);
}

int ss_trace_write_phase(struct ss_trace_writer *w, const char *name)
{
	if (!ss_trace_name_ok(name))
		return -1;
	return w->ops->phase(w, name);
}

int ss_trace_write_comment(struct ss_trace_writer *w, const char *text)
{
	if (strchr(text, '\n'))
		return -1;
	return w->ops->comment(w, text);
}

int ss_trace_writer_failed(const struct ss_trace_writer *w, struct ss_error *err)
{
	int e = errno;
	const char *where = w->to_stdout ? "stdout" : w->af.path;

	if (ferror(w->fp))
		return ss_errorf(err, "%s: write failed: %s", where, strerror(e ? e : EIO));
	/* the common checks refused the record before anything was written */
	return ss_errorf(err, "%s: cannot write a name or value the trace format cannot hold",
			 where);
}

static void release(struct ss_trace_writer *w)
{
	ss_trace_tables_release(&w->tb);
	free(w->buf);
	free(w);
}

int ss_trace_writer_commit(struct ss_trace_writer *w, struct ss_error *err)
{
	const char *where = w->to_stdout ? "stdout" : w->af.path;
	/* Every format's last check: all it wrote reached w->fp's buffer
	 * and left it without an error. */
	int bad = (w->ops->finish && w->ops->finish(w)) || fflush(w->fp) ||
		  ferror(w->fp);
	int saved = errno;

	if (w->zfp) { /* finishes the zstd frame into the file */
		if (fclose(w->zfp) && !bad) {
			bad = 1;
			saved = errno;
		}
		w->zfp = NULL;
	}
	if (bad) {
		ss_errorf(err, "%s: write failed: %s", where,
			  strerror(saved ? saved : EIO));
		close_sink(w, 0, NULL);
		release(w);
		return -1;
	}
	bad = close_sink(w, 1, err);
	release(w);
	return bad ? -1 : 0;
}

void ss_trace_writer_abort(struct ss_trace_writer *w)
{
	if (!w)
		return;
	if (w->zfp)
		fclose(w->zfp);
	close_sink(w, 0, NULL);
	release(w);
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
