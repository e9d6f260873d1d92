/* trace_bin.h - the binary trace format (docs/trace-format.md, "Binary
 * traces"): a 16-byte header, then records.
 *
 * Version 1 (read, no longer written; it carries no checksum): records of
 * one tag byte and LEB128 varints.  Tag byte: low 3 bits the kind, high 5
 * bits an argument.  For alloc, free and work the argument is cpu + 1 when
 * cpu < 31 (0: a cpu varint follows), so a typical free is 3-4 bytes.  For
 * control records it is the subtype.
 *
 * Version 2 (written): the records come in checksummed blocks, and the two
 * hot kinds have fixed-width forms that decode without a loop (see the
 * SS_BIN2_* definitions below).
 */
#ifndef SS_TRACE_BIN_H
#define SS_TRACE_BIN_H

#include <stdint.h>
#include <string.h>

#define SS_BIN_MAGIC "\x89SBT\r\n\x1a\n" /* 8 bytes, PNG-style */
#define SS_BIN_MAGIC_LEN 8
#define SS_BIN_VERSION 1	/* the varint records */
#define SS_BIN_VERSION2 2	/* blocks, fixed-width hot records, checksums */
#define SS_BIN_HEADER_LEN 16 /* magic, u32 LE version, u32 LE flags (0) */

enum ss_bin_kind {
	SS_BIN_CONTROL = 0,
	SS_BIN_ALLOC = 1, /* [cpu] id site api size */
	SS_BIN_FREE = 2,  /* [cpu] id */
	SS_BIN_WORK = 3,  /* [cpu] cycles label */
	SS_BIN_PHASE = 4, /* name */
	SS_BIN_ALLOC_GFP = 5, /* [cpu] id site api size gfp: an alloc with flags */
	SS_BIN_FREE_PRIOR = 6, /* [cpu] site api size gfp slab: a free of an
				* object allocated before the trace */
	SS_BIN_SLAB_FREED = 7, /* [cpu] api size gfp slab: a kernel slab's
				* pages freed (slab: K + 1, never 0) */
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

/* ---- version 2 ----
 * After the header, blocks until the end of the stream:
 *   u32 LE payload bytes (1 .. SS_BIN2_MAX_BLOCK)
 *   u32 LE event records in the payload
 *   u64 LE XXH3_64bits_withSeed(payload, bytes, block number from 0)
 *   payload: whole records (a record never spans two blocks)
 * The checksum is verified before any record of the block is used, so a
 * damaged block is an error naming its offset, never other figures; the
 * seed makes a dropped or repeated block fail too.  The last block ends
 * with the END record (as in version 1, its count covers every event).
 *
 * Records: the first byte says which.
 *   0x00-0x7f  FREE4:  cpu = byte; u24 LE object id              4 bytes
 *   0x80-0xef  ALLOC8: cpu = byte - 0x80; one u64 LE word w:     8 bytes
 *              id = w >> 8 (24 bits), site = w >> 32 (12 bits),
 *              api = w >> 44 (6 bits), size = w >> 50 (14 bits)
 *   0xf0       LONG: one version-1 record follows (any kind, any values:
 *              the events that do not fit the short forms, declarations,
 *              comments and the end record)
 *   0xf1-0xff  reserved (an error)
 */
#define SS_BIN2_BLOCK_HEADER 16
#define SS_BIN2_MAX_BLOCK (1u << 20)	/* largest payload a reader accepts */
#define SS_BIN2_BLOCK_TARGET (64u << 10) /* writers close a block past this */
#define SS_BIN2_ALLOC_TAG 0x80u
#define SS_BIN2_LONG_TAG 0xf0u
#define SS_BIN2_FREE_MAX_CPU 0x7fu
#define SS_BIN2_ALLOC_MAX_CPU (SS_BIN2_LONG_TAG - SS_BIN2_ALLOC_TAG - 1u)
#define SS_BIN2_ID_BITS 24
#define SS_BIN2_SITE_BITS 12
#define SS_BIN2_API_BITS 6
#define SS_BIN2_SIZE_BITS 14
#define SS_BIN2_SITE_SHIFT 32
#define SS_BIN2_API_SHIFT (SS_BIN2_SITE_SHIFT + SS_BIN2_SITE_BITS)
#define SS_BIN2_SIZE_SHIFT (SS_BIN2_API_SHIFT + SS_BIN2_API_BITS)
_Static_assert(SS_BIN2_SIZE_SHIFT + SS_BIN2_SIZE_BITS == 64, "ALLOC8 fills a word");

/* One unaligned load on a little-endian host. */
static inline uint64_t ss_bin_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline uint32_t ss_bin_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

static inline void ss_bin_put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void ss_bin_put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

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
