/* trace_bin.h - the binary trace format (docs/trace-format.md, "Binary
 * traces"): a 16-byte header, then records of one tag byte and LEB128
 * varints.
 *
 * Tag byte: low 3 bits the kind, high 5 bits an argument.  For alloc, free
 * and work the argument is cpu + 1 when cpu < 31 (0: a cpu varint
 * follows), so a typical free is 3-4 bytes.  For control records it is the
 * subtype.
 */
#ifndef SS_TRACE_BIN_H
#define SS_TRACE_BIN_H

#include <stdint.h>

#define SS_BIN_MAGIC "\x89SBT\r\n\x1a\n" /* 8 bytes, PNG-style */
#define SS_BIN_MAGIC_LEN 8
#define SS_BIN_VERSION 1
#define SS_BIN_HEADER_LEN 16 /* magic, u32 LE version, u32 LE flags (0) */

enum ss_bin_kind {
	SS_BIN_CONTROL = 0,
	SS_BIN_ALLOC = 1, /* [cpu] id site api size */
	SS_BIN_FREE = 2,  /* [cpu] id */
	SS_BIN_WORK = 3,  /* [cpu] cycles label */
	SS_BIN_PHASE = 4, /* name */
	SS_BIN_ALLOC_GFP = 5, /* [cpu] id site api size gfp: an alloc with flags */
};

enum ss_bin_control {
	SS_BIN_NAME = 1,    /* len bytes: the next name index */
	SS_BIN_CACHE = 2,   /* len bytes size align flags: the next api index */
	SS_BIN_META = 3,    /* klen key vlen value */
	SS_BIN_COMMENT = 4, /* len bytes */
	SS_BIN_END = 31,    /* events: the number of event records */
};

#define SS_BIN_TAG(kind, arg) ((uint8_t)((kind) | ((arg) << 3)))
#define SS_BIN_CPU_INLINE 31u /* cpus below this ride in the tag */
#define SS_BIN_MAX_META 65536u /* longest meta value or comment */
/* An event record is at most a tag and five 10-byte varints. */
#define SS_BIN_MAX_EVENT 51u

/* LEB128: 7 bits per byte, least significant first. */
static inline uint8_t *ss_bin_put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Decode at *p (not past end); 0 ok, -1 truncated or over 64 bits. */
static inline int ss_bin_get_varint(const uint8_t **p, const uint8_t *end,
				    uint64_t *out)
{
	const uint8_t *q = *p;
	uint64_t v = 0;

	for (unsigned shift = 0; q < end && shift < 64; shift += 7) {
		uint8_t b = *q++;

		if (shift == 63 && b > 1)
			return -1;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*p = q;
			*out = v;
			return 0;
		}
	}
	return -1;
}

#endif
