/* trace_bin_fast.h - the binary reader's fast path, inline so that
 * ss_trace_next() decodes the common events without a call.
 *
 * With a whole event's worth of bytes buffered (SS_BIN_MAX_EVENT), an alloc
 * or free whose cpu rides in the tag decodes without bounds checks, and
 * its one- to three-byte varints without a loop.  Anything else -- a bound
 * exceeded, a long or malformed varint, a control record, work and phase
 * events, the end of the buffer -- is declined (0) and goes to the careful
 * decoder in trace_bin_reader.c, which also words the errors.
 */
#ifndef SS_TRACE_BIN_FAST_H
#define SS_TRACE_BIN_FAST_H

#include "trace_backend.h"
#include "trace_bin.h"

/* 0 ok, -1 declined (four bytes or more: rare for ids, sizes, indexes). */
static inline int ss_bin_fast_varint(const uint8_t **p, uint64_t *out)
{
	const uint8_t *q = *p;

	if (q[0] < 0x80) {
		*out = q[0];
		*p = q + 1;
		return 0;
	}
	if (q[1] < 0x80) {
		*out = (q[0] & 0x7fu) | (uint64_t)q[1] << 7;
		*p = q + 2;
		return 0;
	}
	if (q[2] < 0x80) {
		*out = (q[0] & 0x7fu) | (uint64_t)(q[1] & 0x7f) << 7 | (uint64_t)q[2] << 14;
		*p = q + 3;
		return 0;
	}
	return -1;
}

/* 1 = *ev filled, 0 = declined (nothing consumed). */
static inline int ss_bin_fast_next(struct ss_trace_reader *r, struct ss_event *ev)
{
	struct ss_inbuf *b = &r->in;
	const uint8_t *q = b->buf + b->pos;
	uint64_t id, site, api, size;
	unsigned tag, cpu;

	if (b->len - b->pos < SS_BIN_MAX_EVENT || r->ended)
		return 0;
	tag = *q++;
	cpu = (tag >> 3) - 1u; /* tag >> 3 == 0: a cpu varint follows, declined */
	if (cpu >= SS_BIN_CPU_INLINE || ss_bin_fast_varint(&q, &id) || id > SS_TRACE_MAX_ID)
		return 0;
	switch (tag & 7) {
	case SS_BIN_FREE:
		*ev = (struct ss_event){.kind = SS_EV_FREE, .cpu = cpu, .id = id};
		break;
	case SS_BIN_ALLOC:
		if (ss_bin_fast_varint(&q, &site) || ss_bin_fast_varint(&q, &api) ||
		    ss_bin_fast_varint(&q, &size) || site >= r->tb.names.nr ||
		    api >= r->tb.cache_names.nr || size > SS_TRACE_MAX_SIZE)
			return 0;
		*ev = (struct ss_event){.kind = SS_EV_ALLOC, .cpu = cpu, .id = id,
					.site = (uint32_t)site, .api = (uint32_t)api,
					.value = size};
		break;
	default:
		return 0;
	}
	b->pos = (size_t)(q - b->buf);
	r->events++;
	return 1;
}

#endif
