/* trace_bin_reader.c - the binary format (trace_bin.h, docs/trace-format.md),
 * decoded straight out of the input buffer.  Every field is checked against
 * the same bounds as the text format, and a stream that stops before its
 * end record is reported as truncated, never read as a shorter trace. */
#include <string.h>

#include "trace_backend.h"
#include "trace_bin.h"
#include "trace_bin_fast.h"
#include "trace_tables.h"

/* Errors name the byte offset of the record (of the decompressed stream). */
#define BAD(r, off, err, fmt, ...)                                              \
	ss_errorf(err, "%s: byte %llu: " fmt, (r)->path, (unsigned long long)(off), \
		  ##__VA_ARGS__)

#define cursor ss_bin_cursor

static int get(struct ss_trace_reader *r, struct cursor *c, const char *what,
	       uint64_t max, uint64_t *out, struct ss_error *err)
{
	if (ss_bin_get_varint(&c->p, c->end, out)) {
		c->short_buf = c->end - c->p < 10;
		return BAD(r, c->off, err, "truncated or malformed %s", what);
	}
	if (*out > max)
		return BAD(r, c->off, err, "%s %llu out of range (max %llu)", what,
			   (unsigned long long)*out, (unsigned long long)max);
	return 0;
}

/* A length-prefixed string: copied out NUL-terminated into buf. */
static int get_str(struct ss_trace_reader *r, struct cursor *c, const char *what,
		   size_t max, char *buf, struct ss_error *err)
{
	uint64_t n;

	if (get(r, c, what, max, &n, err))
		return -1;
	if ((uint64_t)(c->end - c->p) < n) {
		c->short_buf = 1;
		return BAD(r, c->off, err, "truncated %s", what);
	}
	memcpy(buf, c->p, (size_t)n);
	buf[n] = '\0';
	c->p += n;
	if (memchr(buf, '\0', (size_t)n))
		return BAD(r, c->off, err, "NUL byte in %s", what);
	return 0;
}

static int get_cpu(struct ss_trace_reader *r, struct cursor *c, uint8_t tag,
		   struct ss_event *ev, struct ss_error *err)
{
	uint64_t v;

	if (tag >> 3) {
		ev->cpu = (tag >> 3) - 1u;
		return 0;
	}
	if (get(r, c, "cpu", SS_TRACE_MAX_CPU, &v, err))
		return -1;
	ev->cpu = (uint32_t)v;
	return 0;
}

static int get_index(struct ss_trace_reader *r, struct cursor *c, const char *what,
		     uint32_t nr, uint32_t *out, struct ss_error *err)
{
	uint64_t v;

	if (ss_bin_get_varint(&c->p, c->end, &v)) {
		c->short_buf = c->end - c->p < 10;
		return BAD(r, c->off, err, "truncated or malformed %s", what);
	}
	if (v >= nr)
		return BAD(r, c->off, err, "%s %llu not declared (%u so far)", what,
			   (unsigned long long)v, nr);
	*out = (uint32_t)v;
	return 0;
}

static int decode_event(struct ss_trace_reader *r, struct cursor *c, uint8_t tag,
			struct ss_event *ev, struct ss_error *err)
{
	const struct ss_trace_tables *tb = &r->tb;

	uint64_t gfp = 0;

	ev->line = 0;
	ev->gfp = 0;
	switch (tag & 7) {
	case SS_BIN_ALLOC:
	case SS_BIN_ALLOC_GFP:
		ev->kind = SS_EV_ALLOC;
		if (get_cpu(r, c, tag, ev, err) ||
		    get(r, c, "object id", SS_TRACE_MAX_ID, &ev->id, err) ||
		    get_index(r, c, "site", tb->names.nr, &ev->site, err) ||
		    get_index(r, c, "cache", tb->cache_names.nr, &ev->api, err) ||
		    get(r, c, "size", SS_TRACE_MAX_SIZE, &ev->value, err))
			return -1;
		if ((tag & 7) == SS_BIN_ALLOC_GFP &&
		    (get(r, c, "gfp flags", SS_GFP_ALL, &gfp, err) ||
		     (!gfp && BAD(r, c->off, err, "alloc with flags: gfp 0"))))
			return -1;
		ev->gfp = (uint32_t)gfp;
		return 0;
	case SS_BIN_FREE:
		ev->kind = SS_EV_FREE;
		ev->site = ev->api = 0;
		ev->value = 0;
		return get_cpu(r, c, tag, ev, err) ||
		       get(r, c, "object id", SS_TRACE_MAX_ID, &ev->id, err) ? -1 : 0;
	case SS_BIN_FREE_PRIOR:
		ev->kind = SS_EV_FREE_PRIOR;
		ev->id = 0;
		if (get_cpu(r, c, tag, ev, err) ||
		    get_index(r, c, "site", tb->names.nr, &ev->site, err) ||
		    get_index(r, c, "cache", tb->cache_names.nr, &ev->api, err) ||
		    get(r, c, "size", SS_TRACE_MAX_SIZE, &ev->value, err) ||
		    get(r, c, "gfp flags", SS_GFP_ALL, &gfp, err) ||
		    get(r, c, "slab", SS_TRACE_MAX_ID + 1, &ev->id, err))
			return -1;
		ev->gfp = (uint32_t)gfp;
		return 0;
	case SS_BIN_SLAB_FREED:
		ev->kind = SS_EV_SLAB_FREED;
		ev->site = 0;
		if (get_cpu(r, c, tag, ev, err) ||
		    get_index(r, c, "cache", tb->cache_names.nr, &ev->api, err) ||
		    get(r, c, "size", SS_TRACE_MAX_SIZE, &ev->value, err) ||
		    get(r, c, "gfp flags", SS_GFP_ALL, &gfp, err) ||
		    get(r, c, "slab", SS_TRACE_MAX_ID + 1, &ev->id, err))
			return -1;
		if (!ev->id)
			return BAD(r, c->off, err, "slab freed: slab 0 (want K + 1)");
		ev->gfp = (uint32_t)gfp;
		return 0;
	case SS_BIN_WORK:
		ev->kind = SS_EV_WORK;
		ev->id = 0;
		ev->api = 0;
		return get_cpu(r, c, tag, ev, err) ||
		       get(r, c, "cycles", SS_TRACE_MAX_CYCLES, &ev->value, err) ||
		       get_index(r, c, "label", tb->names.nr, &ev->site, err) ? -1 : 0;
	case SS_BIN_PHASE:
		if (tag >> 3)
			break;
		ev->kind = SS_EV_PHASE;
		ev->cpu = 0;
		ev->id = ev->value = 0;
		ev->api = 0;
		return get_index(r, c, "phase name", tb->names.nr, &ev->site, err);
	}
	return BAD(r, c->off, err, "unknown record tag 0x%02x", tag);
}

static int decode_name(struct ss_trace_reader *r, struct cursor *c,
		       struct ss_error *err)
{
	char name[SS_MAX_NAME + 1];
	uint32_t nr = r->tb.names.nr;

	if (get_str(r, c, "name", SS_MAX_NAME, name, err))
		return -1;
	if (!ss_trace_name_ok(name))
		return BAD(r, c->off, err, "bad name '%.40s'", name);
	if (ss_strtab_intern(&r->tb.names, name) != nr)
		return r->tb.names.nr == nr ? BAD(r, c->off, err, "name '%.40s' defined twice", name)
					    : BAD(r, c->off, err, "out of memory");
	return 0;
}

static int decode_cache(struct ss_trace_reader *r, struct cursor *c,
			struct ss_error *err)
{
	char name[SS_MAX_NAME + 1];
	uint64_t size, align, flags;
	unsigned known;

	if (get_str(r, c, "cache name", SS_MAX_NAME, name, err) ||
	    get(r, c, "cache size", 1u << 30, &size, err) ||
	    get(r, c, "cache align", 1u << 20, &align, err) ||
	    get(r, c, "cache flags", UINT32_MAX, &flags, err))
		return -1;
	if (!ss_trace_name_ok(name) || !strcmp(name, "kmalloc"))
		return BAD(r, c->off, err, "cache: bad cache name '%.40s'", name);
	if (!size)
		return BAD(r, c->off, err, "cache %s: size 0", name);
	if (align & (align - 1))
		return BAD(r, c->off, err, "cache: align %llu is not a power of two",
			   (unsigned long long)align);
	if (ss_cache_flags_parse("hwcache,rcu,ctor,kmalloc,freeptr", &known) ||
	    (flags & ~(uint64_t)known))
		return BAD(r, c->off, err, "cache %s: unknown flags 0x%llx", name,
			   (unsigned long long)flags);
	if (ss_strtab_find(&r->tb.cache_names, name) != UINT32_MAX)
		return BAD(r, c->off, err, "cache %s declared twice", name);
	if (ss_trace_tables_add_cache(&r->tb, name, (unsigned)size, (unsigned)align,
				      (unsigned)flags) < 0)
		return BAD(r, c->off, err, "out of memory");
	r->decls++;
	return 0;
}

static int decode_meta(struct ss_trace_reader *r, struct cursor *c,
		       struct ss_error *err)
{
	char key[SS_MAX_NAME + 1], value[SS_BIN_MAX_META + 1];

	if (get_str(r, c, "meta key", SS_MAX_NAME, key, err) ||
	    get_str(r, c, "meta value", SS_BIN_MAX_META, value, err))
		return -1;
	if (!ss_trace_name_ok(key))
		return BAD(r, c->off, err, "meta: bad key '%.40s'", key);
	if (!ss_trace_meta_value_ok(value))
		return BAD(r, c->off, err, "meta %s: bad value (want UTF-8 without control bytes or a leading space)",
			   key);
	if (ss_trace_tables_set_meta(&r->tb, key, value))
		return BAD(r, c->off, err, "out of memory");
	r->decls++;
	return 0;
}

static int decode_end(struct ss_trace_reader *r, struct cursor *c,
		      struct ss_error *err)
{
	uint64_t n;

	if (get(r, c, "event count", UINT64_MAX, &n, err))
		return -1;
	if (n != r->events)
		return BAD(r, c->off, err, "end record counts %llu events, %llu were read",
			   (unsigned long long)n, (unsigned long long)r->events);
	r->ended = 1;
	return 0;
}

/* Declarations, comments and the end record. */
static int decode_control(struct ss_trace_reader *r, struct cursor *c, uint8_t tag,
			  struct ss_error *err)
{
	char text[SS_BIN_MAX_META + 1];

	switch (tag >> 3) {
	case SS_BIN_NAME: return decode_name(r, c, err);
	case SS_BIN_CACHE: return decode_cache(r, c, err);
	case SS_BIN_META: return decode_meta(r, c, err);
	case SS_BIN_COMMENT: return get_str(r, c, "comment", SS_BIN_MAX_META, text, err);
	case SS_BIN_END: return decode_end(r, c, err);
	}
	return BAD(r, c->off, err, "unknown control record 0x%02x", tag);
}

int ss_bin1_record(struct ss_trace_reader *r, struct ss_bin_cursor *c, uint8_t tag,
		   struct ss_event *ev, struct ss_error *err)
{
	if ((tag & 7) == SS_BIN_CONTROL)
		return decode_control(r, c, tag, err);
	return decode_event(r, c, tag, ev, err) ? -1 : 1;
}

int ss_bin_more(struct ss_trace_reader *r, struct ss_error *err)
{
	if (!ss_inbuf_avail(&r->in)) {
		if (!r->ended)
			return ss_errorf(err, "%s: truncated binary trace: no end record after %llu events",
					 r->path, (unsigned long long)r->events);
		return 0;
	}
	if (r->ended)
		return BAD(r, ss_inbuf_offset(&r->in), err, "data after the end record");
	return 1;
}

/* Enough bytes for the record at the cursor: events are short; control
 * records carry strings and may need up to the longest meta value. */
static int refill(struct ss_trace_reader *r, size_t need, struct ss_error *err)
{
	return ss_inbuf_fill(&r->in, need, r->path, err) < 0 ? -1 : 0;
}

/* The careful path: refills, control records, work and phase events,
 * anything the fast path (trace_bin_fast.h) declines, and the errors. */
static int bin_next_slow(struct ss_trace_reader *r,
						   struct ss_event *ev,
						   struct ss_error *err)
{
	struct ss_inbuf *b = &r->in;

	for (;;) {
		struct cursor c;
		uint8_t tag;
		int rc;

		if (ss_inbuf_avail(b) < SS_BIN_MAX_EVENT && refill(r, SS_BIN_MAX_EVENT, err))
			return -1;
		if ((rc = ss_bin_more(r, err)) <= 0)
			return rc;
		tag = b->buf[b->pos];
		c = (struct cursor){b->buf + b->pos + 1, b->buf + b->len, ss_inbuf_offset(b), 0};
		if ((tag & 7) == SS_BIN_CONTROL) {
			rc = decode_control(r, &c, tag, err);
		} else {
			rc = decode_event(r, &c, tag, ev, err);
			if (!rc)
				r->events++;
		}
		if (rc && c.short_buf && !b->eof) {
			/* a long string: buffer more of the stream and decode again
			 * (nothing was consumed or declared yet) */
			if (refill(r, 2 * ss_inbuf_avail(b) + 64, err))
				return -1;
			continue;
		}
		if (rc)
			return -1;
		b->pos = (size_t)(c.p - b->buf);
		if ((tag & 7) != SS_BIN_CONTROL)
			return 1;
	}
}

static int bin_next(struct ss_trace_reader *r, struct ss_event *ev,
		    struct ss_error *err)
{
	if (ss_bin_fast_next(r, ev))
		return 1;
	return bin_next_slow(r, ev, err);
}

int ss_bin_reader_init(struct ss_trace_reader *r, struct ss_error *err)
{
	struct ss_inbuf *b = &r->in;
	uint32_t version, flags;

	if (refill(r, SS_BIN_HEADER_LEN, err))
		return -1;
	if (ss_inbuf_avail(b) < SS_BIN_HEADER_LEN)
		return ss_errorf(err, "%s: truncated binary trace header", r->path);
	version = ss_bin_le32(b->buf + b->pos + SS_BIN_MAGIC_LEN);
	flags = ss_bin_le32(b->buf + b->pos + SS_BIN_MAGIC_LEN + 4);
	if (version != SS_BIN_VERSION && version != SS_BIN_VERSION2)
		return ss_errorf(err, "%s: unsupported binary trace version %u (this slabsim reads %d and %d)",
				 r->path, version, SS_BIN_VERSION, SS_BIN_VERSION2);
	if (flags)
		return ss_errorf(err, "%s: unknown binary trace header flags 0x%x", r->path, flags);
	b->pos += SS_BIN_HEADER_LEN;
	r->bin_version = version;
	if (version == SS_BIN_VERSION2)
		return ss_bin2_reader_init(r, err);
	r->next = bin_next;
	r->bin_fast = 1;
	return 0;
}
