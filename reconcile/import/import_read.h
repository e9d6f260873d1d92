/* import_read.h - reading a capture: one kmem record at a time, from
 * ftrace text, trace-cmd report, perf script or a trace.dat, and the
 * pointer map the import keys its objects by.  Private to
 * reconcile/import/ (and its unit tests).
 *
 *   kmem_format.c  which label each field is printed under (defaults, or
 *                  a tracefs `format` file)
 *   kmem_ftrace.c  one text line -> one kmem record; a whole text capture
 *   kmem_dat.c     trace-cmd's trace.dat, through libtracecmd
 *   kmem_gfp.c     allocation flags from gfp_flags= and accounted=
 *   ptrmap.c       kernel pointers -> entries (open addressing)
 */
#ifndef SS_IMPORT_READ_H
#define SS_IMPORT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* The tracepoints we read (include/trace/events/kmem.h). */
enum ss_kmem_event {
	SS_KE_KMALLOC,		/* kmalloc, and kmalloc_node before 6.1 */
	SS_KE_CACHE_ALLOC,	/* kmem_cache_alloc(_node) */
	SS_KE_KFREE,
	SS_KE_CACHE_FREE,
	SS_KE_NR,
};

enum ss_kmem_field {
	SS_KF_CALL_SITE,
	SS_KF_PTR,
	SS_KF_BYTES_REQ,
	SS_KF_BYTES_ALLOC,
	SS_KF_NAME,
	SS_KF_GFP,		/* gfp_flags: printed flag names (or a number) */
	SS_KF_ACCOUNTED,	/* accounted=true|false, 6.0+ */
	SS_KF_NR,
};

#define SS_KMEM_LABEL_MAX 48

/* The label ("ptr" in "ptr=...") each field is printed under, per event;
 * "" when the event does not print the field. */
struct ss_kmem_labels {
	char label[SS_KE_NR][SS_KF_NR][SS_KMEM_LABEL_MAX];
};

/* The labels of include/trace/events/kmem.h (the same in every era). */
void ss_kmem_labels_default(struct ss_kmem_labels *l);
/* Take the labels of one event from a tracefs format file
 * (events/kmem/EVENT/format): its `print fmt:` pairs each `label=%x` with
 * the REC->field it prints.  Errors name file:line. */
int ss_kmem_labels_load(struct ss_kmem_labels *l, const char *path,
			struct ss_error *err);
/* Parse the text of a format file (path only names errors). */
int ss_kmem_labels_parse(struct ss_kmem_labels *l, const char *path,
			 const char *text, struct ss_error *err);

/* ---- one record ---- */

enum ss_kmem_line {
	SS_KL_SKIP,	/* blank, comment, header, not an event line */
	SS_KL_OTHER,	/* an event we do not read (mm_page_alloc, ...) */
	SS_KL_LOST,	/* "[LOST N EVENTS]": rec.lost */
	SS_KL_HEADER,	/* "# entries-in-buffer/entries-written: A/B": rec.lost = B-A */
	SS_KL_EVENT,	/* one of ours: rec filled */
	SS_KL_PHASE,	/* "tracing_mark_write: slabsim-phase NAME": rec.name */
	SS_KL_PAGE_FREE, /* kmem:mm_page_free: rec.pfn, rec.order */
};

struct ss_kmem_rec {
	enum ss_kmem_event event;
	unsigned cpu;
	int has_cpu;
	int64_t pid;		/* the task's PID, -1 when the line does not show one */
	bool in_irq;		/* run in a hard or soft interrupt on that task
				 * (the flags column's third letter is not '.',
				 * trace_print_lat_fmt()); false when not shown */
	uint64_t ptr;
	uint64_t bytes_req, bytes_alloc;
	const char *call_site;	/* points into the line; NUL-terminated */
	const char *name;	/* cache name, NULL when not printed; phase name */
	uint32_t gfp;		/* allocs: SS_GFP_* from gfp_flags= and accounted= */
	uint64_t lost;
	uint64_t pfn;		/* mm_page_free: the first page's frame, its order */
	unsigned order;
	uint64_t page;		/* mm_page_free: its struct page (page=), 0 when not printed */
};

/* Classify and parse one line (modified in place).  Returns the kind, or
 * -1 with *why set for a kmem event line that is malformed. */
int ss_kmem_parse_line(char *line, const struct ss_kmem_labels *l,
		       struct ss_kmem_rec *rec, const char **why);

/* Takes each record with its kind (enum ss_kmem_line, or -1 malformed
 * with why); non-zero stops the reading. */
typedef int (*ss_kmem_rec_fn)(void *ctx, int kind, struct ss_kmem_rec *rec,
			      const char *why, struct ss_error *err);
/* Every line of the text capture at path (plain or zstd) to fn, parsed
 * (lines with a NUL byte skipped); *lineno (when not NULL) is the line's
 * number during the call.  0, or -1 with err (fn's, or the reading's). */
int ss_kmem_text_read(const char *path, const struct ss_kmem_labels *l, ss_kmem_rec_fn fn,
		      void *ctx, unsigned long *lineno, struct ss_error *err);

/* ---- trace-cmd's trace.dat (kmem_dat.c) ---- */

/* Whether path starts with trace-cmd's magic ("\x17\x08Dtracing"). */
bool ss_import_is_dat(const char *path);
/* Every record of a trace.dat, in time order; *cpus (when not NULL) gets
 * its CPU count. */
int ss_import_dat_read(const char *path, ss_kmem_rec_fn fn, void *ctx, unsigned *cpus,
		       struct ss_error *err);

/* SS_GFP_* of an allocation from its gfp_flags= text (flag names joined
 * by '|', or a number) and accounted= text; either may be NULL. */
uint32_t ss_import_gfp(const char *gfp_flags, const char *accounted);

/* ---- kernel pointers -> entries (ptrmap.c) ---- */

struct ss_ptr_entry {
	uint64_t ptr;	  /* 0 = empty slot (a NULL pointer is never live) */
	uint64_t id;
	uint64_t bytes_alloc;
	uint32_t cpu;
	uint32_t site;	  /* allocation site (the importer's site table) */
};

/* Open addressing, linear probing, backward-shift deletion: memory is
 * proportional to the pointers live at once. */
struct ss_ptrmap {
	struct ss_ptr_entry *slots;
	uint64_t nr_slots, live, peak;
};

/* The entry for ptr, or NULL. */
struct ss_ptr_entry *ss_ptrmap_find(struct ss_ptrmap *m, uint64_t ptr);
/* Insert (ptr must be absent and non-zero); NULL when out of memory. */
struct ss_ptr_entry *ss_ptrmap_insert(struct ss_ptrmap *m, uint64_t ptr);
void ss_ptrmap_remove(struct ss_ptrmap *m, struct ss_ptr_entry *e);
/* *to = a copy of from (to's old entries are not released).  0, or -1
 * out of memory. */
int ss_ptrmap_copy(struct ss_ptrmap *to, const struct ss_ptrmap *from);
void ss_ptrmap_release(struct ss_ptrmap *m);

#endif
