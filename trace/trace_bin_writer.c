/* trace_bin_writer.c - the binary format (trace_bin.h): records are built
 * in a buffer and written in large blocks.  Names are defined by a NAME
 * record the first time they are used, so the reader's name indexes are
 * the writer's. */
#include <stdlib.h>
#include <string.h>

#include "trace_backend.h"
#include "trace_bin.h"
#include "trace_tables.h"

#define BUF_CAP (256u << 10)

static int flush(struct ss_trace_writer *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->fp) != w->len)
		return -1;
	w->len = 0;
	return 0;
}

/* Room for n more bytes in the buffer. */
static uint8_t *reserve(struct ss_trace_writer *w, size_t n)
{
	if (w->cap - w->len < n && flush(w))
		return NULL;
	if (n > w->cap) {
		uint8_t *b = realloc(w->buf, n);

		if (!b)
			return NULL;
		w->buf = b;
		w->cap = n;
	}
	return w->buf + w->len;
}

static void commit(struct ss_trace_writer *w, const uint8_t *end)
{
	w->len = (size_t)(end - w->buf);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int ss_bin_writer_start(struct ss_trace_writer *w)
{
	uint8_t *p;

	w->buf = malloc(BUF_CAP);
	if (!w->buf)
		return -1;
	w->cap = BUF_CAP;
	p = w->buf;
	memcpy(p, SS_BIN_MAGIC, SS_BIN_MAGIC_LEN);
	put_le32(p + SS_BIN_MAGIC_LEN, SS_BIN_VERSION);
	put_le32(p + SS_BIN_MAGIC_LEN + 4, 0);
	w->len = SS_BIN_HEADER_LEN;
	return 0;
}

static uint8_t *put_str(uint8_t *p, const char *s, size_t n)
{
	p = ss_bin_put_varint(p, n);
	memcpy(p, s, n);
	return p + n;
}

/* A control record carrying one string (NAME, COMMENT). */
static int put_control_str(struct ss_trace_writer *w, unsigned sub, const char *s)
{
	size_t n = strlen(s);
	uint8_t *p;

	if (n > SS_BIN_MAX_META || !(p = reserve(w, n + 16)))
		return -1;
	*p++ = SS_BIN_TAG(SS_BIN_CONTROL, sub);
	commit(w, put_str(p, s, n));
	return 0;
}

/* The index of a site, label or phase name, defining it on first use. */
static int name_index(struct ss_trace_writer *w, const char *name, uint32_t *out)
{
	uint32_t nr = w->tb.names.nr;

	*out = ss_strtab_intern(&w->tb.names, name);
	if (*out == UINT32_MAX)
		return -1;
	return *out == nr ? put_control_str(w, SS_BIN_NAME, name) : 0;
}

/* tag with the cpu inline when it fits, else tag 0 + cpu varint */
static uint8_t *put_tag_cpu(uint8_t *p, unsigned kind, uint32_t cpu)
{
	if (cpu < SS_BIN_CPU_INLINE) {
		*p++ = SS_BIN_TAG(kind, cpu + 1);
		return p;
	}
	*p++ = SS_BIN_TAG(kind, 0);
	return ss_bin_put_varint(p, cpu);
}

static int bin_meta(struct ss_trace_writer *w, const char *key, const char *value)
{
	size_t kn = strlen(key), vn = strlen(value);
	uint8_t *p;

	if (vn > SS_BIN_MAX_META || !(p = reserve(w, kn + vn + 32)))
		return -1;
	*p++ = SS_BIN_TAG(SS_BIN_CONTROL, SS_BIN_META);
	p = put_str(p, key, kn);
	commit(w, put_str(p, value, vn));
	return 0;
}

static int bin_cache(struct ss_trace_writer *w, const char *name,
		     unsigned object_size, unsigned align, unsigned flags)
{
	size_t n = strlen(name);
	uint8_t *p = reserve(w, n + 48);

	if (!p)
		return -1;
	*p++ = SS_BIN_TAG(SS_BIN_CONTROL, SS_BIN_CACHE);
	p = put_str(p, name, n);
	p = ss_bin_put_varint(p, object_size);
	p = ss_bin_put_varint(p, align);
	commit(w, ss_bin_put_varint(p, flags));
	return 0;
}

/* An alloc without flags stays the short kind-1 record; with flags it is
 * kind 5, one varint longer, so traces without flags are byte-identical
 * to those written before the field existed. */
static int bin_alloc(struct ss_trace_writer *w, uint32_t cpu, uint64_t id,
		     const char *site, uint32_t api, uint64_t size, uint32_t gfp)
{
	uint32_t idx;
	uint8_t *p;

	if (name_index(w, site, &idx) || !(p = reserve(w, SS_BIN_MAX_EVENT)))
		return -1;
	p = put_tag_cpu(p, gfp ? SS_BIN_ALLOC_GFP : SS_BIN_ALLOC, cpu);
	p = ss_bin_put_varint(p, id);
	p = ss_bin_put_varint(p, idx);
	p = ss_bin_put_varint(p, api);
	p = ss_bin_put_varint(p, size);
	if (gfp)
		p = ss_bin_put_varint(p, gfp);
	commit(w, p);
	w->events++;
	return 0;
}

static int bin_free(struct ss_trace_writer *w, uint32_t cpu, uint64_t id)
{
	uint8_t *p = reserve(w, SS_BIN_MAX_EVENT);

	if (!p)
		return -1;
	p = put_tag_cpu(p, SS_BIN_FREE, cpu);
	commit(w, ss_bin_put_varint(p, id));
	w->events++;
	return 0;
}

static int bin_work(struct ss_trace_writer *w, uint32_t cpu, uint64_t cycles,
		    const char *label)
{
	uint32_t idx;
	uint8_t *p;

	if (name_index(w, label, &idx) || !(p = reserve(w, SS_BIN_MAX_EVENT)))
		return -1;
	p = put_tag_cpu(p, SS_BIN_WORK, cpu);
	p = ss_bin_put_varint(p, cycles);
	commit(w, ss_bin_put_varint(p, idx));
	w->events++;
	return 0;
}

static int bin_phase(struct ss_trace_writer *w, const char *name)
{
	uint32_t idx;
	uint8_t *p;

	if (name_index(w, name, &idx) || !(p = reserve(w, SS_BIN_MAX_EVENT)))
		return -1;
	*p++ = SS_BIN_TAG(SS_BIN_PHASE, 0);
	commit(w, ss_bin_put_varint(p, idx));
	w->events++;
	return 0;
}

static int bin_comment(struct ss_trace_writer *w, const char *text)
{
	return put_control_str(w, SS_BIN_COMMENT, text);
}

static int bin_finish(struct ss_trace_writer *w)
{
	uint8_t *p = reserve(w, 16);

	if (!p)
		return -1;
	*p++ = SS_BIN_TAG(SS_BIN_CONTROL, SS_BIN_END);
	commit(w, ss_bin_put_varint(p, w->events));
	return flush(w);
}

const struct ss_trace_writer_ops ss_bin_writer_ops = {
	.meta = bin_meta,
	.cache = bin_cache,
	.alloc = bin_alloc,
	.free_obj = bin_free,
	.work = bin_work,
	.phase = bin_phase,
	.comment = bin_comment,
	.finish = bin_finish,
};
