/* trace_bin2_reader.c - binary traces, version 2 (trace_bin.h): blocks
 * whose checksum is verified before any of their records is used, and a
 * batch decoder for the fixed-width FREE4 and ALLOC8 records (and the
 * common LONG work record).
 *
 * The batch loop is the hot path of every replay: one 8-byte load per
 * record, no varint loop, no refill check (a block is whole in the
 * buffer), one bound test per alloc, and no store of a field the event's
 * kind leaves unspecified or the consumer can count (its number).
 * Anything else -- another LONG record, a bound exceeded, the last bytes
 * of a block -- goes to decode_one(), which is careful and words the
 * errors. */
#include <stddef.h>
#include <string.h>
#include "trace_hash.h"

#include "trace_backend.h"
#include "trace_bin.h"
#include "trace_records.h"

#define BAD(r, off, err, fmt, ...)                                              \
	ss_errorf(err, "%s: byte %llu: " fmt, (r)->path, (unsigned long long)(off), \
		  ##__VA_ARGS__)

#define ID_MASK ((1u << SS_BIN2_ID_BITS) - 1)
#define SITE_MASK ((1u << SS_BIN2_SITE_BITS) - 1)
#define API_MASK ((1u << SS_BIN2_API_BITS) - 1)

static uint64_t offset_of(const struct ss_trace_reader *r, const uint8_t *p)
{
	return r->in.base + (uint64_t)(p - r->in.buf);
}

/* The open block is consumed: check its count and step past it. */
static int close_block(struct ss_trace_reader *r, struct ss_error *err)
{
	if (!r->blk_end)
		return 0;
	if (r->blk_decoded != r->blk_events)
		return BAD(r, offset_of(r, r->in.buf + r->in.pos), err,
			   "block %llu announces %u events, holds %u",
			   (unsigned long long)r->blk_seq - 1, r->blk_events, r->blk_decoded);
	r->in.pos = (size_t)(r->blk_end - r->in.buf);
	r->blk_p = r->blk_end = NULL;
	return 0;
}

/* 1 = a verified block is open, 0 = the end of the stream, -1 = error. */
static int open_block(struct ss_trace_reader *r, struct ss_error *err)
{
	struct ss_inbuf *b = &r->in;
	const uint8_t *h, *payload;
	uint32_t len;
	uint64_t off;
	int rc;

	if (ss_inbuf_fill(b, SS_BIN2_BLOCK_HEADER, r->path, err) < 0)
		return -1;
	off = ss_inbuf_offset(b);
	if ((rc = ss_bin_more(r, err)) <= 0)
		return rc;
	if (ss_inbuf_avail(b) < SS_BIN2_BLOCK_HEADER)
		return BAD(r, off, err, "truncated block header");
	h = b->buf + b->pos;
	len = ss_bin_le32(h);
	if (!len || len > SS_BIN2_MAX_BLOCK)
		return BAD(r, off, err, "block of %u bytes (1 to %u allowed)", len, SS_BIN2_MAX_BLOCK);
	if (ss_inbuf_fill(b, SS_BIN2_BLOCK_HEADER + (size_t)len, r->path, err) < 0)
		return -1;
	if (ss_inbuf_avail(b) < SS_BIN2_BLOCK_HEADER + (size_t)len)
		return BAD(r, off, err, "truncated block: %u bytes announced, %zu left",
			   len, ss_inbuf_avail(b) - SS_BIN2_BLOCK_HEADER);
	h = b->buf + b->pos; /* the fill may have moved the buffer */
	payload = h + SS_BIN2_BLOCK_HEADER;
	if (ss_block_hash(payload, len, r->blk_seq) != ss_bin_le64(h + 8))
		return BAD(r, off, err, "block %llu fails its checksum: the trace is damaged",
			   (unsigned long long)r->blk_seq);
	r->blk_seq++;
	r->blk_events = ss_bin_le32(h + 4);
	r->blk_decoded = 0;
	r->blk_p = payload;
	r->blk_end = payload + len;
	return 1;
}

/* Two adjacent 32-bit fields of e, the second one 0, in one 64-bit store
 * (two stores an alloc saves: -1.3 M instructions on hb40).  lo is the
 * first field's value; the bytes are e's own (offset of the first). */
_Static_assert(SS_EV_ALLOC == 0 && sizeof(enum ss_event_kind) == 4 &&
		       offsetof(struct ss_event, kind) == offsetof(struct ss_event, cpu) + 4 &&
		       offsetof(struct ss_event, gfp) == offsetof(struct ss_event, api) + 4,
	       "cpu, kind and api, gfp: adjacent pairs, an alloc's kind 0");
static inline void store_pair(struct ss_event *e, size_t off, uint64_t lo)
{
	uint64_t v = lo; /* < 2^32: 64 bits, or gcc copies it to extend it */

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v <<= 32;
#endif
	memcpy((char *)e + off, &v, sizeof(v));
}

/* site_lim[] for the tables as they are now (declarations come in LONG
 * records, between batches): an api's bound is the sites declared, up to
 * what ALLOC8 can carry, or 0 when the api is not declared. */
_Static_assert(sizeof(((struct ss_trace_reader *)0)->site_lim) ==
		       sizeof(uint16_t) << SS_BIN2_API_BITS, "a bound per api");
static void make_site_lim(struct ss_trace_reader *r)
{
	uint32_t sites = r->tb.names.nr < SITE_MASK + 1u ? r->tb.names.nr : SITE_MASK + 1u;

	r->lim_names = r->tb.names.nr;
	r->lim_api = r->tb.cache_names.nr;
	for (uint32_t a = 0; a <= API_MASK; a++)
		r->site_lim[a] = (uint16_t)(a < r->lim_api ? sites : 0);
}

static inline void update_site_lim(struct ss_trace_reader *r)
{
	if (r->tb.names.nr != r->lim_names || r->tb.cache_names.nr != r->lim_api)
		make_site_lim(r);
}

/* The short forms while 8 bytes remain in the block, and the common work
 * record (trace_records.h ss_rec_work); stops at anything else.  Returns the events
 * decoded into ev[0 .. max).  The inner loop runs on the output pointer
 * alone (no index to count, nothing to work out before leaving it, no
 * event number stored: the consumer counts, trace.h), and an alloc's
 * fields are stored one by one or in pairs (store_pair): its bound
 * (site_lim) is the only test past the tag. */
static unsigned decode_fast(struct ss_trace_reader *r, struct ss_event *ev,
			    unsigned max)
{
	const uint8_t *p = r->blk_p, *end = r->blk_end;
	const uint32_t nr_names = r->tb.names.nr;
	const uint16_t *const site_lim = r->site_lim;
	struct ss_event *e = ev, *const ev_end = ev + max;
	unsigned n;

	if (r->ended)
		return 0; /* decode_one() says what follows the end */
	update_site_lim(r);
	while (e < ev_end && end - p >= 8) {
		/* records are at most 8 bytes: this many fit before fewer
		 * than 8 bytes remain, so the inner loop checks nothing else */
		size_t safe = (size_t)(end - p - 8) / 8 + 1;
		struct ss_event *lim = (size_t)(ev_end - e) < safe ? ev_end : e + safe;

		for (; e < lim; e++) {
			uint64_t w = ss_bin_le64(p);
			unsigned tag = (uint8_t)w;

			/* (no event number: ss_trace_event_line()) */
			if (tag < SS_BIN2_ALLOC_TAG) {
				/* a free's site, api and value are unspecified
				 * (trace.h): nothing reads them, so nothing is
				 * stored */
				e->kind = SS_EV_FREE;
				e->cpu = tag;
				e->id = ss_rec_id(w);
				p += 4;
			} else if (tag < SS_BIN2_LONG_TAG) {
				uint32_t site = ss_rec_site(w);
				uint64_t api = ss_rec_api(w);

				if (site >= site_lim[api])
					goto out; /* decode_one() words it */
				/* cpu and kind SS_EV_ALLOC (0), api and gfp 0 */
				store_pair(e, offsetof(struct ss_event, cpu),
					   tag - SS_BIN2_ALLOC_TAG);
				e->id = ss_rec_id(w);
				e->site = site;
				store_pair(e, offsetof(struct ss_event, api), api);
				e->value = ss_rec_size(w);
				p += 8;
			} else {
				break; /* LONG or reserved: below */
			}
		}
		if (e < lim) { /* the loop stopped at e */
			if (!ss_rec_work(&p, end, nr_names, e))
				break;
			e++;
		}
	}
out:
	n = (unsigned)(e - ev);
	r->blk_p = p;
	r->blk_decoded += n;
	r->events += n;
	return n;
}

/* One record at blk_p, any form: 1 = an event, 0 = no event (a
 * declaration or the end), -1 = error. */
static int decode_one(struct ss_trace_reader *r, struct ss_event *ev,
		      struct ss_error *err)
{
	const uint8_t *p = r->blk_p;
	size_t left = (size_t)(r->blk_end - p);
	uint64_t off = offset_of(r, p);
	unsigned tag = *p;
	int rc;

	if (r->ended)
		return BAD(r, off, err, "data after the end record");
	if (tag < SS_BIN2_ALLOC_TAG) {
		if (left < 4)
			return BAD(r, off, err, "truncated free record");
		*ev = (struct ss_event){.kind = SS_EV_FREE, .cpu = tag,
					.id = ss_bin_le32(p) >> 8};
		r->blk_p = p + 4;
		rc = 1;
	} else if (tag < SS_BIN2_LONG_TAG) {
		uint64_t w;
		uint32_t site, api;

		if (left < 8)
			return BAD(r, off, err, "truncated alloc record");
		w = ss_bin_le64(p);
		site = (uint32_t)(w >> SS_BIN2_SITE_SHIFT) & SITE_MASK;
		api = (uint32_t)(w >> SS_BIN2_API_SHIFT) & API_MASK;
		if (site >= r->tb.names.nr)
			return BAD(r, off, err, "site %u not declared (%u so far)", site,
				   r->tb.names.nr);
		if (api >= r->tb.cache_names.nr)
			return BAD(r, off, err, "cache %u not declared (%u so far)", api,
				   r->tb.cache_names.nr);
		*ev = (struct ss_event){.kind = SS_EV_ALLOC, .cpu = tag - SS_BIN2_ALLOC_TAG,
					.id = (w >> 8) & ID_MASK, .site = site, .api = api,
					.value = w >> SS_BIN2_SIZE_SHIFT};
		r->blk_p = p + 8;
		rc = 1;
	} else if (tag == SS_BIN2_LONG_TAG) {
		struct ss_bin_cursor c = {p + 2, r->blk_end, off, 0};

		if (left < 2)
			return BAD(r, off, err, "truncated record");
		rc = ss_bin1_record(r, &c, p[1], ev, err);
		if (rc < 0)
			return -1;
		r->blk_p = c.p;
	} else {
		return BAD(r, off, err, "unknown record tag 0x%02x", tag);
	}
	if (rc == 1) {
		r->blk_decoded++;
		ev->line = (unsigned long)++r->events; /* its event number */
	}
	return rc;
}

static void stash(struct ss_trace_reader *r, const struct ss_error *err)
{
	r->pending = PENDING_ERROR;
	memcpy(r->pending_msg, err->msg, sizeof(r->pending_msg));
}

static int bin2_next_batch(struct ss_trace_reader *r, struct ss_event *ev,
			   unsigned max, struct ss_error *err)
{
	unsigned n = 0;
	int rc;

	while (n < max) {
		if (r->blk_p == r->blk_end) {
			rc = close_block(r, err);
			if (!rc)
				rc = open_block(r, err);
			if (rc == 0)
				break;
			if (rc < 0)
				goto fail;
		}
		n += decode_fast(r, ev + n, max - n);
		if (n < max && r->blk_p < r->blk_end) {
			rc = decode_one(r, ev + n, err);
			if (rc < 0)
				goto fail;
			n += (unsigned)rc;
		}
	}
	return (int)n;
fail:
	if (!n)
		return -1;
	stash(r, err); /* the events before it are replayed first */
	return (int)n;
}

/* One event, numbered: the batch decoder leaves ev->line to the
 * consumer's count (trace.h), ss_trace_next() sets it. */
static int bin2_next(struct ss_trace_reader *r, struct ss_event *ev,
		     struct ss_error *err)
{
	int rc = bin2_next_batch(r, ev, 1, err);

	if (rc == 1)
		ev->line = (unsigned long)r->events;
	return rc;
}

int ss_trace_has_records(const struct ss_trace_reader *r)
{
	return r->next_batch == bin2_next_batch;
}

int ss_trace_records_open(struct ss_trace_reader *r, struct ss_trace_records *rec)
{
	if (!ss_trace_has_records(r) || r->ended || r->pending || r->blk_p == r->blk_end)
		return 0;
	update_site_lim(r);
	rec->p = r->blk_p;
	rec->end = r->blk_end;
	rec->site_lim = r->site_lim;
	rec->nr_names = r->tb.names.nr;
	return 1;
}

void ss_trace_records_close(struct ss_trace_reader *r, const uint8_t *p, unsigned n)
{
	r->blk_p = p;
	r->blk_decoded += n;
	r->events += n;
}

int ss_bin2_reader_init(struct ss_trace_reader *r, struct ss_error *err)
{
	(void)err;
	r->next = bin2_next;
	r->next_batch = bin2_next_batch;
	r->lim_names = r->lim_api = UINT32_MAX; /* site_lim[] not made yet */
	return 0;
}
