/* trace.h - the slabsim trace: events, and streaming reader and writer.
 *
 * An event is what the kernel did (docs/trace-format.md):
 *   alloc  cpu id site api size [gfp]   api = "kmalloc" or a declared cache
 *   free   cpu id
 *   prior  cpu site api size [gfp]   free of an object allocated before
 *                                     the trace began (none of its ids)
 *   work   cpu cycles label       non-allocator time (parsing, formatting)
 *   phase  name                   a marker; snapshots are taken there
 * Caches are declared before use with their creation arguments, so a model
 * can lay them out exactly as kmem_cache_create() would.
 *
 * Object ids are dense: a writer reuses the id of a freed object, so the
 * replay's id table grows with live objects, not with trace length.
 * Reader and writer stream: memory is one buffer plus the interned tables.
 * Sites, caches and labels are interned: events carry small indexes into
 * the reader's tables, which live as long as the reader.
 */
#ifndef SS_TRACE_H
#define SS_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "strtab.h"

#define SS_TRACE_VERSION 1
#define SS_TRACE_MAGIC "slabsim-trace"
#define SS_API_KMALLOC 0u /* api index 0 is always kmalloc */
#define SS_MAX_NAME 255	  /* longest site, cache, label or phase name */

/* Bounds that keep every later computation far from overflow; both
 * formats enforce them. */
#define SS_TRACE_MAX_CPU 65535u
#define SS_TRACE_MAX_ID ((1ull << 48) - 1)
#define SS_TRACE_MAX_SIZE (1ull << 40)	 /* bytes in one request */
#define SS_TRACE_MAX_CYCLES (1ull << 48) /* cycles in one work event */

enum ss_event_kind {
	SS_EV_ALLOC,
	SS_EV_FREE,
	SS_EV_WORK,
	SS_EV_PHASE,
	SS_EV_FREE_PRIOR, /* a free of an object the trace never allocated */
	/* the kernel freed the pages of kernel slab id - 1 of the cache
	 * (api, gfp, value as a prior free's): a slab the trace's prior frees
	 * named, seen freed by the capture (mm_page_free, docs/import.md) */
	SS_EV_SLAB_FREED,
};

/* The order lets the batch decoder store an alloc's cpu and kind, and its
 * api and gfp, one 64-bit word each (trace_bin2_reader.c asserts it). */
struct ss_event {
	uint32_t cpu;
	enum ss_event_kind kind;
	uint64_t id;	/* alloc, free: object id; prior: its slab + 1, or 0; slab freed: slab + 1 */
	/* free: only cpu, id and line (site, api, gfp and value are unspecified) */
	uint32_t api;	/* alloc, prior: SS_API_KMALLOC or cache index */
	uint32_t gfp;	/* alloc, prior: SS_GFP_* (0 in traces written without them) */
	uint32_t site;	/* alloc, prior: site index; work: label index; phase: name index */
	uint64_t value; /* alloc: requested bytes; prior: bytes of the object
			 * (kmalloc: its class size); work: cycles */
	unsigned long line; /* where it came from: the text line, or the
			     * binary trace's event number (1, 2, ...),
			     * which ss_trace_next_batch() leaves unset (a
			     * store per event): ss_trace_event_line() gives
			     * either, ss_trace_where() words it */
};

/* Allocation flags that choose a kmalloc type (kmalloc_type() in
 * include/linux/slab.h, 6.11-6.18: DMA wins over RECLAIMABLE over
 * ACCOUNT).  Carried per alloc event; a model routes kmalloc requests on
 * them, dedicated caches ignore them.  Text: `gfp=account,reclaimable,dma`. */
#define SS_GFP_ACCOUNT 0x1u	/* __GFP_ACCOUNT (tracepoint: accounted=true) */
#define SS_GFP_RECLAIMABLE 0x2u /* __GFP_RECLAIMABLE */
#define SS_GFP_DMA 0x4u		/* GFP_DMA / __GFP_DMA */
#define SS_GFP_ALL (SS_GFP_ACCOUNT | SS_GFP_RECLAIMABLE | SS_GFP_DMA)
/* "account,reclaimable,dma" <-> SS_GFP_*; parse: 0, or -1 for an unknown
 * or empty name. */
int ss_gfp_parse(const char *s, uint32_t *out);
void ss_gfp_str(uint32_t gfp, char *buf, size_t n);

/* Cache creation flags (the SLAB_* flags that change layout): part of a
 * cache declaration in the trace, and what the geometry lays out. */
#define SS_CF_HWCACHE 0x01u	/* SLAB_HWCACHE_ALIGN */
#define SS_CF_RCU 0x02u		/* SLAB_TYPESAFE_BY_RCU / DESTROY_BY_RCU */
#define SS_CF_CTOR 0x04u	/* cache has a constructor */
#define SS_CF_KMALLOC 0x08u	/* a kmalloc-* cache (SLAB_KMALLOC) */
#define SS_CF_FREEPTR 0x10u	/* explicit freeptr_offset (6.12+, RCU caches) */

/* A cache declared by the trace: `cache NAME size=N [align=N] [flags=...]`. */
struct ss_trace_cache {
	unsigned object_size;
	unsigned align;
	unsigned flags; /* SS_CF_* above */
};

/* Interned strings and declared caches.  Cache index 0 is "kmalloc"; the
 * cache's name is cache_names.strs[index]. */
struct ss_trace_tables {
	struct ss_strtab names;	      /* sites, work labels and phase names */
	struct ss_strtab cache_names; /* api names: "kmalloc", then caches */
	struct ss_trace_cache *caches; /* parallel to cache_names */
	uint32_t cap_caches;
	struct ss_strtab meta_keys;    /* `meta KEY VALUE` header lines */
	char **meta_values;	       /* parallel to meta_keys */
	uint32_t cap_meta;
};

const char *ss_trace_name(const struct ss_trace_tables *tb, uint32_t idx);
const char *ss_trace_cache_name(const struct ss_trace_tables *tb, uint32_t api);
const char *ss_trace_meta(const struct ss_trace_tables *tb, const char *key);

/* ---- formats ----
 * Text (one event per line) and binary (.sbt: tag bytes and varints), each
 * optionally zstd-compressed; docs/trace-format.md has both layouts.
 * Readers detect the format from the first bytes, writers from the path
 * (ss_trace_format_for_path) unless told (ss_trace_writer_open_format). */
enum ss_trace_format {
	SS_TRACE_TEXT,
	SS_TRACE_TEXT_ZSTD,
	SS_TRACE_BIN,
	SS_TRACE_BIN_ZSTD,
};

/* *.sbt -> BIN, *.sbt.zst -> BIN_ZSTD, other *.zst -> TEXT_ZSTD, else TEXT. */
enum ss_trace_format ss_trace_format_for_path(const char *path);
/* "text", "text.zst", "sbt", "sbt.zst" <-> format; parse returns 0 or -1. */
const char *ss_trace_format_name(enum ss_trace_format f);
int ss_trace_format_parse(const char *s, enum ss_trace_format *out);

/* ---- reader ---- */
struct ss_trace_reader;

int ss_trace_open(struct ss_trace_reader **out, const char *path,
		  struct ss_error *err);
/* A reader of the stream fp, from where it stands, named name in
 * messages; fp stays the caller's (ss_trace_close leaves it open).  tee:
 * NULL, or a file that gets a copy of every byte read from fp, until
 * ss_trace_stop_copy() (a pipe kept for a second reading:
 * trace_source.h). */
int ss_trace_open_stream(struct ss_trace_reader **out, FILE *fp, FILE *tee,
			 const char *name, struct ss_error *err);
void ss_trace_stop_copy(struct ss_trace_reader *r);
/* Read the trace's declarations and meta lines up to its first event,
 * which the next ss_trace_next() or ss_trace_next_batch() returns: the
 * tables then hold what the trace says before its events.  Only before
 * any event was asked for.  1 = an event waits, 0 = the trace has none,
 * -1 = error. */
int ss_trace_header(struct ss_trace_reader *r, struct ss_error *err);
/* 1 = *ev filled, 0 = end of trace, -1 = error (err names file:line). */
int ss_trace_next(struct ss_trace_reader *r, struct ss_event *ev,
		  struct ss_error *err);
/* Up to max events into ev[0..): the count (>= 1), 0 = end of trace, -1 =
 * error.  An error after some events is returned by the next call, so
 * the events before it are used first.  Binary version 2 decodes its
 * fixed-width records here without a call per event: the replay's way in.
 * ss_trace_next and ss_trace_next_batch may be mixed. */
int ss_trace_next_batch(struct ss_trace_reader *r, struct ss_event *ev,
			unsigned max, struct ss_error *err);
/* 1 when every byte read is covered by a checksum (binary version 2);
 * 0 for text and binary version 1, which carry none. */
int ss_trace_checked(const struct ss_trace_reader *r);
/* Say on stderr that a binary version-1 trace is read unchecked. */
void ss_trace_note_unchecked(const struct ss_trace_reader *r);
const struct ss_trace_tables *ss_trace_tables(const struct ss_trace_reader *r);
/* Declarations (caches and meta lines) read so far: the tables' caches
 * and meta changed when this moved (a meta may be set again); a converter
 * re-emits them, a copy of the tables is brought up to them. */
uint64_t ss_trace_reader_decls(const struct ss_trace_reader *r);
/* An event's place for messages: "FILE:LINE" (text) or "FILE: event N"
 * (binary), from its ev->line. */
void ss_trace_where(const struct ss_trace_reader *r, unsigned long line,
		    char *buf, size_t n);
/* An event's line for ss_trace_where(): a text trace's ev->line; in a
 * binary trace its number, nr + 1, where nr events came before it in the
 * stream (the consumer's own count: the batch decoder stores no number). */
unsigned long ss_trace_event_line(const struct ss_trace_reader *r,
				  const struct ss_event *ev, uint64_t nr);
/* ss_errorf() prefixed with ss_trace_where() and ": ". */
int ss_trace_error_at(struct ss_error *err, const struct ss_trace_reader *r,
		      unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *ss_trace_path(const struct ss_trace_reader *r);
/* The format ss_trace_open() detected. */
enum ss_trace_format ss_trace_reader_format(const struct ss_trace_reader *r);
void ss_trace_close(struct ss_trace_reader *r);

/* ---- writer ----
 * Writes to PATH.tmp and renames on ss_trace_writer_commit(), so a failed
 * or interrupted generation never leaves a half-written trace.
 * path "-" writes to stdout (no rename); an existing device or FIFO is
 * written in place (renaming over /dev/null would replace the device). */
struct ss_trace_writer;

int ss_trace_writer_open(struct ss_trace_writer **out, const char *path,
			 struct ss_error *err);
/* Same with an explicit format (path "-" included); zstd at level 3. */
int ss_trace_writer_open_format(struct ss_trace_writer **out, const char *path,
				enum ss_trace_format format,
				struct ss_error *err);
int ss_trace_write_meta(struct ss_trace_writer *w, const char *key,
			const char *value);
/* Declare a cache; returns its api index (>= 1) or -1. Idempotent by name. */
int ss_trace_write_cache(struct ss_trace_writer *w, const char *name,
			 unsigned object_size, unsigned align, unsigned flags);
int ss_trace_write_alloc(struct ss_trace_writer *w, uint32_t cpu, uint64_t id,
			 const char *site, uint32_t api, uint64_t size);
/* The same with allocation flags (SS_GFP_*; 0 writes what the above does). */
int ss_trace_write_alloc_gfp(struct ss_trace_writer *w, uint32_t cpu, uint64_t id,
			     const char *site, uint32_t api, uint64_t size,
			     uint32_t gfp);
int ss_trace_write_free(struct ss_trace_writer *w, uint32_t cpu, uint64_t id);
/* A free of an object allocated before the trace began: site frees it on
 * cpu; api and size (and gfp for kmalloc) say which cache it was in; slab
 * = K + 1 when the capture tells which slab of that cache it was in (K, a
 * dense index per cache), 0 when not. */
int ss_trace_write_free_prior(struct ss_trace_writer *w, uint32_t cpu,
			      const char *site, uint32_t api, uint64_t size,
			      uint32_t gfp, uint64_t slab);
/* The kernel freed the pages of kernel slab K (slab = K + 1, never 0) of
 * the cache api, size and gfp name as for a prior free, on cpu. */
int ss_trace_write_slab_freed(struct ss_trace_writer *w, uint32_t cpu, uint32_t api,
			      uint64_t size, uint32_t gfp, uint64_t slab);
int ss_trace_write_work(struct ss_trace_writer *w, uint32_t cpu,
			uint64_t cycles, const char *label);
int ss_trace_write_phase(struct ss_trace_writer *w, const char *name);
int ss_trace_write_comment(struct ss_trace_writer *w, const char *text);
/* The error of a write call that returned -1, naming the output: the
 * errno of a failed write ("t.trace: write failed: No space left on
 * device"), or a name or value the format cannot hold.  Call it at once
 * (errno).  Returns -1. */
int ss_trace_writer_failed(const struct ss_trace_writer *w, struct ss_error *err);
/* Flush, fsync-free close, rename into place.  Frees w. */
int ss_trace_writer_commit(struct ss_trace_writer *w, struct ss_error *err);
/* Close and delete the temporary file.  Frees w. */
void ss_trace_writer_abort(struct ss_trace_writer *w);

/* ---- object ids for writers ----
 * Hands out the most recently freed id first (a LIFO, like a freelist), so
 * the id space never exceeds the peak number of live objects. */
struct ss_idpool {
	uint64_t *free_ids;
	uint64_t nr_free, cap_free;
	uint64_t next;
};
uint64_t ss_idpool_get(struct ss_idpool *p);
void ss_idpool_put(struct ss_idpool *p, uint64_t id);
void ss_idpool_release(struct ss_idpool *p);

#endif
