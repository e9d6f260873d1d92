/* trace_backend.h - internals of the trace reader and writer: one struct
 * each, with a backend per format (text: trace_text_*.c, binary:
 * trace_bin_*.c).  Only the trace code and tools that convert between
 * formats include this; everyone else uses trace.h. */
#ifndef SS_TRACE_BACKEND_H
#define SS_TRACE_BACKEND_H

#include "atomic_file.h"
#include "trace.h"
#include "trace_io.h"

struct ss_trace_reader {
	int (*next)(struct ss_trace_reader *r, struct ss_event *ev,
		    struct ss_error *err);
	/* NULL: ss_trace_next_batch() calls next() per event */
	int (*next_batch)(struct ss_trace_reader *r, struct ss_event *ev,
			  unsigned max, struct ss_error *err);
	struct ss_inbuf in;
	char *path;
	enum ss_trace_format format;
	struct ss_trace_tables tb;
	uint64_t decls;		/* cache and meta declarations read so far */
	/* text */
	unsigned long lineno;
	int seen_header;
	char *line;		/* the current line, NUL-terminated, in in.buf */
	/* binary */
	uint64_t events;	/* event records read */
	int ended;		/* the end record was read */
	int bin_fast;		/* ss_trace_next() may try trace_bin_fast.h */
	unsigned bin_version;	/* 1 (no checksum) or 2 */
	/* binary version 2: the open block, verified (trace_bin2_reader.c) */
	const uint8_t *blk_p, *blk_end; /* next record, end of payload */
	uint32_t blk_events, blk_decoded; /* announced, decoded so far */
	uint64_t blk_seq;	/* blocks opened */
	/* an ALLOC8's site bound per api (0: the api is not declared): one
	 * test per alloc instead of two; made for these table sizes */
	uint16_t site_lim[64];
	uint32_t lim_names, lim_api;
	/* what the next call returns before reading on: an error met after
	 * a batch's first events (PENDING_ERROR), or the first event, read
	 * by ss_trace_header() (PENDING_EVENT; bin_fast is off meanwhile:
	 * held_bin_fast keeps it) */
	int pending;
	char pending_msg[sizeof(((struct ss_error *)0)->msg)];
	struct ss_event held;
	int held_bin_fast;
};

enum { PENDING_NONE, PENDING_ERROR, PENDING_EVENT };

/* Within a version-2 block or a version-1 stream: the bytes of one record
 * after its tag. */
struct ss_bin_cursor {
	const uint8_t *p, *end;
	uint64_t off;	/* stream offset of the record's tag */
	int short_buf;	/* ran into the end of the buffered bytes */
};

/* Decode the version-1 record `tag` at c: 1 = an event in *ev, 0 = a
 * declaration, comment or the end record was taken in, -1 = error. */
int ss_bin1_record(struct ss_trace_reader *r, struct ss_bin_cursor *c, uint8_t tag,
		   struct ss_event *ev, struct ss_error *err);
/* Where a binary stream stands before the next record (the buffer
 * filled): 1 = a record follows, 0 = the clean end (after END), -1 = no
 * END before the end, or bytes after it. */
int ss_bin_more(struct ss_trace_reader *r, struct ss_error *err);
/* Version 2 after its header (trace_bin2_reader.c). */
int ss_bin2_reader_init(struct ss_trace_reader *r, struct ss_error *err);

/* Set r->next after the format was detected (the stream is at offset 0). */
int ss_text_reader_init(struct ss_trace_reader *r, struct ss_error *err);
int ss_bin_reader_init(struct ss_trace_reader *r, struct ss_error *err);


struct ss_trace_writer;

/* One backend per format; the common code (trace_writer.c) has validated
 * the arguments and updated w->tb before calling. */
struct ss_trace_writer_ops {
	int (*meta)(struct ss_trace_writer *w, const char *key, const char *value);
	int (*cache)(struct ss_trace_writer *w, const char *name,
		     unsigned object_size, unsigned align, unsigned flags);
	int (*alloc)(struct ss_trace_writer *w, uint32_t cpu, uint64_t id,
		     const char *site, uint32_t api, uint64_t size, uint32_t gfp);
	int (*free_obj)(struct ss_trace_writer *w, uint32_t cpu, uint64_t id);
	int (*free_prior)(struct ss_trace_writer *w, uint32_t cpu, const char *site,
			  uint32_t api, uint64_t size, uint32_t gfp, uint64_t slab);
	int (*slab_freed)(struct ss_trace_writer *w, uint32_t cpu, uint32_t api,
			  uint64_t size, uint32_t gfp, uint64_t slab);
	int (*work)(struct ss_trace_writer *w, uint32_t cpu, uint64_t cycles,
		    const char *label);
	int (*phase)(struct ss_trace_writer *w, const char *name);
	int (*comment)(struct ss_trace_writer *w, const char *text);
	/* the last bytes of the stream (binary: the end record), or NULL
	 * for none; ss_trace_writer_commit flushes and checks after it */
	int (*finish)(struct ss_trace_writer *w);
};

struct ss_trace_writer {
	const struct ss_trace_writer_ops *ops;
	struct ss_atomic_file af;
	FILE *fp;		/* where the backend writes: af.fp, stdout or zfp */
	FILE *zfp;		/* the zstd-compressing FILE, if any */
	int to_stdout;
	enum ss_trace_format format;
	struct ss_trace_tables tb; /* declared caches; binary: names too */
	/* binary: the buffer holds whole blocks (trace_bin.h, version 2) */
	uint8_t *buf;
	size_t len, cap;
	size_t blk;		/* offset in buf of the open block's header */
	uint32_t blk_events;	/* event records in the open block */
	uint64_t blk_seq;	/* blocks written before it */
	uint64_t events;
};

extern const struct ss_trace_writer_ops ss_text_writer_ops;
extern const struct ss_trace_writer_ops ss_bin_writer_ops;
/* The format's first bytes: the binary header, or the text header line. */
int ss_bin_writer_start(struct ss_trace_writer *w);
int ss_text_writer_start(struct ss_trace_writer *w);

#endif
