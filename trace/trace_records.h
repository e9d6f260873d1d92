/* trace_records.h - a version-2 trace's FREE4 and ALLOC8 records
 * (trace_bin.h) read in place, by a consumer that decodes them in its own
 * loop: a model's batch replay (allocators/cache_model_batch.c) takes an
 * event's fields straight from the record's word instead of from a struct
 * ss_event the batch decoder stored (48 bytes, five stores for an alloc)
 * and it loaded back.
 *
 * The reader hands out the open block's remaining bytes (verified, whole
 * in memory) and takes back how far the consumer got; whatever the
 * consumer does not take -- a LONG record, a bound to check, the block's
 * last bytes, the next block, the end -- it reads with ss_trace_next(),
 * which decodes carefully and words the errors.
 */
#ifndef SS_TRACE_RECORDS_H
#define SS_TRACE_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"
#include "trace_bin.h"

struct ss_trace_records {
	const uint8_t *p;	   /* the next record */
	const uint8_t *end;	   /* the block's end */
	/* an ALLOC8's site bound per api, 0 for an api not declared (the
	 * tables as they are: declarations come in LONG records, which
	 * ss_trace_next() takes) */
	const uint16_t *site_lim;
	uint32_t nr_names;	   /* names declared (a work record's label) */
};

/* 1 with rec at r's next record, or 0 (nothing consumed): r is not a
 * version-2 trace, or it has no block open, or it is at its end, or an
 * error waits -- ss_trace_next() takes the next event. */
int ss_trace_records_open(struct ss_trace_reader *r, struct ss_trace_records *rec);
/* The consumer took the records up to p, n events. */
void ss_trace_records_close(struct ss_trace_reader *r, const uint8_t *p, unsigned n);
/* Whether r reads version 2 at all (ss_trace_records_open can be 1). */
int ss_trace_has_records(const struct ss_trace_reader *r);

/* Records that surely lie whole from rec->p on, with the first 4 bytes of
 * the next (each record is at most 8 bytes: an 8-byte load from its
 * start and a 4-byte load after it stay in the block): no test per
 * record, and the next one's id is there to prefetch its object. */
static inline size_t ss_trace_records_safe(const struct ss_trace_records *rec)
{
	return rec->end - rec->p >= 12 ? (size_t)(rec->end - rec->p - 12) / 8 + 1 : 0;
}

/* The fields of a record's word w (trace-format.md, "Binary traces"):
 * tag < SS_BIN2_ALLOC_TAG a FREE4 of cpu tag, else below
 * SS_BIN2_LONG_TAG an ALLOC8 of cpu tag - SS_BIN2_ALLOC_TAG (its gfp 0),
 * valid when its site is below site_lim[api]. */
static inline uint32_t ss_rec_id(uint64_t w)
{
	_Static_assert(SS_BIN2_ID_BITS == 24, "the id is the rest of the first 32 bits");
	return (uint32_t)w >> 8; /* = (w >> 8) & 24 bits: one shift */
}

static inline uint32_t ss_rec_site(uint64_t w)
{
	return (uint32_t)(w >> SS_BIN2_SITE_SHIFT) & ((1u << SS_BIN2_SITE_BITS) - 1);
}

static inline uint32_t ss_rec_api(uint64_t w)
{
	return (uint32_t)(w >> SS_BIN2_API_SHIFT) & ((1u << SS_BIN2_API_BITS) - 1);
}

static inline uint64_t ss_rec_size(uint64_t w)
{
	return w >> SS_BIN2_SIZE_SHIFT;
}

/* A work event in a LONG record (0xf0, version 1's WORK tag with the cpu
 * in it, cycles and label varints) at *pp: hackbench writes one every
 * ~120 events, and each one through the careful decoder costs a few
 * hundred instructions, leaving the caller's loop and entering it again.
 * The common shape only, with the fields the careful decoder sets, *pp
 * past it; 0 for anything else (a cpu varint, a value out of range, the
 * block's last bytes), which the careful decoder takes and words.  The
 * batch decoder (trace_bin2_reader.c) and the replay's in-place loop
 * both take it here. */
static inline int ss_rec_work(const uint8_t **pp, const uint8_t *end, uint32_t nr_names,
			      struct ss_event *e)
{
	const uint8_t *q = *pp;
	uint64_t cycles, label;
	uint8_t tag;

	if (end - q < 2 || q[0] != SS_BIN2_LONG_TAG)
		return 0;
	tag = q[1];
	if ((tag & 7) != SS_BIN_WORK || !(tag >> 3))
		return 0;
	q += 2;
	if (ss_bin_get_varint(&q, end, &cycles) || cycles > SS_TRACE_MAX_CYCLES ||
	    ss_bin_get_varint(&q, end, &label) || label >= nr_names)
		return 0;
	e->kind = SS_EV_WORK;
	e->cpu = (tag >> 3) - 1u;
	e->id = 0;
	e->site = (uint32_t)label;
	e->api = 0;
	e->value = cycles;
	e->gfp = 0;
	*pp = q;
	return 1;
}

#endif
