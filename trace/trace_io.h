/* trace_io.h - byte streams under the trace readers and writers.
 *
 * An input stream is a file or stdin, plain or zstd-compressed (detected by
 * the zstd frame magic, so a `.zst` suffix is not needed), read through one
 * growable buffer the backends parse in place.  An output stream is a FILE
 * that optionally compresses to zstd on the way out.  Memory stays bounded
 * by the buffer sizes whatever the stream length.
 */
#ifndef SS_TRACE_IO_H
#define SS_TRACE_IO_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"

struct ss_zin; /* zstd decompression state (trace_io.c) */

struct ss_inbuf {
	FILE *fp;
	int own_fp;		/* ss_inbuf_close() closes fp */
	FILE *tee;		/* every byte read from fp is copied here too
				 * (a pipe kept for a second reading), or NULL */
	int tee_failed;		/* a copy to tee failed (the read's error) */
	struct ss_zin *z;	/* NULL: plain file */
	unsigned char *buf;	/* valid bytes are buf[pos .. len) */
	size_t pos, len, cap;
	size_t max_cap;		/* the buffer never grows past this */
	uint64_t base;		/* stream offset of buf[0] */
	int eof;		/* no byte left after buf[len] */
	unsigned long lines;	/* lines ss_inbuf_line() handed out */
	int cut;		/* the last line had no newline: the end of
				 * the stream may have cut it short */
};

/* Open path ("-" = stdin); detects and undoes zstd compression. */
int ss_inbuf_open(struct ss_inbuf *b, const char *path, struct ss_error *err);
/* The same over a stream the caller opened and keeps (ss_inbuf_close
 * leaves it open), read from where it stands; tee, when not NULL,
 * receives a copy of every byte read from fp.  path names fp in errors. */
int ss_inbuf_open_stream(struct ss_inbuf *b, FILE *fp, FILE *tee, const char *path,
			 struct ss_error *err);
void ss_inbuf_close(struct ss_inbuf *b);
/* Make at least n bytes available at buf[pos] (fewer only at the end of
 * the stream).  Returns the bytes available, or -1 with err set on a read
 * or decompression error.  n may exceed cap up to max_cap: the buffer
 * grows. */
ssize_t ss_inbuf_fill(struct ss_inbuf *b, size_t n, const char *path,
		      struct ss_error *err);
/* The next line, NUL-terminated in place (its newline dropped; a last
 * line without one is still a line, and sets b->cut): 1 = *line set,
 * 0 = end of stream, -1 = error (a line longer than max_cap is one, named
 * by its line number).  *len is its length; NUL bytes inside are the
 * caller's to check.  The line stays valid until the next call. */
int ss_inbuf_line(struct ss_inbuf *b, char **line, size_t *len,
		  const char *path, struct ss_error *err);
static inline size_t ss_inbuf_avail(const struct ss_inbuf *b)
{
	return b->len - b->pos;
}
/* Stream offset of buf[pos]. */
static inline uint64_t ss_inbuf_offset(const struct ss_inbuf *b)
{
	return b->base + b->pos;
}

/* A FILE that zstd-compresses everything written to it into `sink` (which
 * stays owned by the caller).  fclose() finishes the zstd frame and
 * reports a failed write; it does not close sink. */
FILE *ss_zstd_wopen(FILE *sink, int level);

#endif
