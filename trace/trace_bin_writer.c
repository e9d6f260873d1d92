/* trace_bin_writer.c - the binary format, version 2 (trace_bin.h): records
 * are built in a buffer, grouped into checksummed blocks and written a
 * block at a time.  Names are defined by a NAME record the first time they
 * are used, so the reader's name indexes are the writer's.  Events that
 * fit the short forms (nearly all allocs and frees) are written as FREE4
 * and ALLOC8; the rest as a LONG record holding a version-1 record. */
#include <stdlib.h>
#include <string.h>
#include "trace_hash.h"

#include "trace_backend.h"
#include "trace_bin.h"
#include "trace_tables.h"

#define BUF_CAP (SS_BIN2_BLOCK_TARGET + (64u << 10))

/* Fill in the open block's header (if it holds anything) and write every
 * complete block; a new block is opened at the front of the buffer. */
static int close_block(struct ss_trace_writer *w)
{
	size_t payload = w->len - w->blk - SS_BIN2_BLOCK_HEADER;
	uint8_t *h = w->buf + w->blk;

	if (payload) {
		ss_bin_put_le32(h, (uint32_t)payload);
		ss_bin_put_le32(h + 4, w->blk_events);
		ss_bin_put_le64(h + 8, ss_block_hash(h + SS_BIN2_BLOCK_HEADER, payload,
							    w->blk_seq));
		w->blk_seq++;
	} else {
		w->len = w->blk; /* an empty block is not written */
	}
	if (w->len && fwrite(w->buf, 1, w->len, w->fp) != w->len)
		return -1;
	w->blk = 0;
	w->blk_events = 0;
	w->len = SS_BIN2_BLOCK_HEADER;
	return 0;
}

/* Room for a record of up to n bytes in the open block. */
static uint8_t *reserve(struct ss_trace_writer *w, size_t n)
{
	size_t payload = w->len - w->blk - SS_BIN2_BLOCK_HEADER;

	if (payload && payload + n > SS_BIN2_BLOCK_TARGET && close_block(w))
		return NULL;
	if (w->cap - w->len < n) {
		uint8_t *b = realloc(w->buf, w->len + n);

		if (!b)
			return NULL;
		w->buf = b;
		w->cap = w->len + n;
	}
	return w->buf + w->len;
}

static void commit(struct ss_trace_writer *w, const uint8_t *end)
{
	w->len = (size_t)(end - w->buf);
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
	ss_bin_put_le32(p + SS_BIN_MAGIC_LEN, SS_BIN_VERSION2);
	ss_bin_put_le32(p + SS_BIN_MAGIC_LEN + 4, 0);
	w->blk = SS_BIN_HEADER_LEN;
	w->len = w->blk + SS_BIN2_BLOCK_HEADER;
	return 0;
}

static uint8_t *put_str(uint8_t *p, const char *s, size_t n)
{
	p = ss_bin_put_varint(p, n);
	memcpy(p, s, n);
	return p + n;
}

/* A LONG control record carrying one string (NAME, COMMENT). */
static int put_control_str(struct ss_trace_writer *w, unsigned sub, const char *s)
{
	size_t n = strlen(s);
	uint8_t *p;

	if (n > SS_BIN_MAX_META || !(p = reserve(w, n + 16)))
		return -1;
	*p++ = SS_BIN2_LONG_TAG;
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

/* LONG, then a version-1 tag with the cpu inline when it fits, else tag
 * 0 + cpu varint */
static uint8_t *put_long_tag_cpu(uint8_t *p, unsigned kind, uint32_t cpu)
{
	*p++ = SS_BIN2_LONG_TAG;
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
	*p++ = SS_BIN2_LONG_TAG;
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
	*p++ = SS_BIN2_LONG_TAG;
	*p++ = SS_BIN_TAG(SS_BIN_CONTROL, SS_BIN_CACHE);
	p = put_str(p, name, n);
	p = ss_bin_put_varint(p, object_size);
	p = ss_bin_put_varint(p, align);
	commit(w, ss_bin_put_varint(p, flags));
	return 0;
}

static int fits(uint64_t v, unsigned bits)
{
	return v < (1ull << bits);
}

/* An alloc without flags that fits is an ALLOC8; one with flags (gfp) is a
 * LONG version-1 kind-5 record, one varint longer than kind 1. */
static int bin_alloc(struct ss_trace_writer *w, uint32_t cpu, uint64_t id,
		     const char *site, uint32_t api, uint64_t size, uint32_t gfp)
{
	uint32_t idx;
	uint8_t *p;

	if (name_index(w, site, &idx) || !(p = reserve(w, SS_BIN_MAX_EVENT + 1)))
		return -1;
	w->events++;
	w->blk_events++;
	if (cpu <= SS_BIN2_ALLOC_MAX_CPU && !gfp && fits(id, SS_BIN2_ID_BITS) &&
	    fits(idx, SS_BIN2_SITE_BITS) && fits(api, SS_BIN2_API_BITS) &&
	    fits(size, SS_BIN2_SIZE_BITS)) {
		ss_bin_put_le64(p, (SS_BIN2_ALLOC_TAG + cpu) | id << 8 |
				       (uint64_t)idx << SS_BIN2_SITE_SHIFT |
				       (uint64_t)api << SS_BIN2_API_SHIFT |
				       size << SS_BIN2_SIZE_SHIFT);
		commit(w, p + 8);
		return 0;
	}
	p = put_long_tag_cpu(p, gfp ? SS_BIN_ALLOC_GFP : SS_BIN_ALLOC, cpu);
	p = ss_bin_put_varint(p, id);
	p = ss_bin_put_varint(p, idx);
	p = ss_bin_put_varint(p, api);
	p = ss_bin_put_varint(p, size);
	if (gfp)
		p = ss_bin_put_varint(p, gfp);
	commit(w, p);
	return 0;
}

static int bin_free(struct ss_trace_writer *w, uint32_t cpu, uint64_t id)
{
	uint8_t *p = reserve(w, SS_BIN_MAX_EVENT + 1);

	if (!p)
		return -1;
	w->events++;
	w->blk_events++;
	if (cpu <= SS_BIN2_FREE_MAX_CPU && fits(id, SS_BIN2_ID_BITS)) {
		ss_bin_put_le32(p, cpu | (uint32_t)id << 8);
		commit(w, p + 4);
		return 0;
	}
	p = put_long_tag_cpu(p, SS_BIN_FREE, cpu);
	commit(w, ss_bin_put_varint(p, id));
	return 0;
}

/* The fields a prior free and a slab freed end with (api size gfp slab),
 * at p, and the event committed. */
static void put_cache_slab(struct ss_trace_writer *w, uint8_t *p, uint32_t api, uint64_t size,
			   uint32_t gfp, uint64_t slab)
{
	p = ss_bin_put_varint(p, api);
	p = ss_bin_put_varint(p, size);
	p = ss_bin_put_varint(p, gfp);
	commit(w, ss_bin_put_varint(p, slab));
	w->events++;
	w->blk_events++;
}

static int bin_free_prior(struct ss_trace_writer *w, uint32_t cpu, const char *site,
			  uint32_t api, uint64_t size, uint32_t gfp, uint64_t slab)
{
	uint32_t idx;
	uint8_t *p;

	if (name_index(w, site, &idx) || !(p = reserve(w, SS_BIN_MAX_EVENT + 1)))
		return -1;
	p = put_long_tag_cpu(p, SS_BIN_FREE_PRIOR, cpu);
	put_cache_slab(w, ss_bin_put_varint(p, idx), api, size, gfp, slab);
	return 0;
}

static int bin_slab_freed(struct ss_trace_writer *w, uint32_t cpu, uint32_t api, uint64_t size,
			  uint32_t gfp, uint64_t slab)
{
	uint8_t *p;

	if (!(p = reserve(w, SS_BIN_MAX_EVENT + 1)))
		return -1;
	p = put_long_tag_cpu(p, SS_BIN_SLAB_FREED, cpu);
	put_cache_slab(w, p, api, size, gfp, slab);
	return 0;
}

static int bin_work(struct ss_trace_writer *w, uint32_t cpu, uint64_t cycles,
		    const char *label)
{
	uint32_t idx;
	uint8_t *p;

	if (name_index(w, label, &idx) || !(p = reserve(w, SS_BIN_MAX_EVENT + 1)))
		return -1;
	p = put_long_tag_cpu(p, SS_BIN_WORK, cpu);
	p = ss_bin_put_varint(p, cycles);
	commit(w, ss_bin_put_varint(p, idx));
	w->events++;
	w->blk_events++;
	return 0;
}

static int bin_phase(struct ss_trace_writer *w, const char *name)
{
	uint32_t idx;
	uint8_t *p;

	if (name_index(w, name, &idx) || !(p = reserve(w, SS_BIN_MAX_EVENT + 1)))
		return -1;
	*p++ = SS_BIN2_LONG_TAG;
	*p++ = SS_BIN_TAG(SS_BIN_PHASE, 0);
	commit(w, ss_bin_put_varint(p, idx));
	w->events++;
	w->blk_events++;
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
	*p++ = SS_BIN2_LONG_TAG;
	*p++ = SS_BIN_TAG(SS_BIN_CONTROL, SS_BIN_END);
	commit(w, ss_bin_put_varint(p, w->events));
	return close_block(w);
}

const struct ss_trace_writer_ops ss_bin_writer_ops = {
	.meta = bin_meta,
	.cache = bin_cache,
	.alloc = bin_alloc,
	.free_obj = bin_free,
	.free_prior = bin_free_prior,
	.slab_freed = bin_slab_freed,
	.work = bin_work,
	.phase = bin_phase,
	.comment = bin_comment,
	.finish = bin_finish,
};
