/* import.h - `slabsim import`: a capture of the kernel's kmem tracepoints
 * (ftrace text, trace-cmd report or trace.dat, perf script) into a slabsim
 * trace, with the rules that make a real capture fit the model.
 *
 * The public side: what cli/cmd_import.c, the fuzzers and the tests call.
 * The folder's files, its rule table and its passes: README.md here;
 * the manual: docs/import.md. */
#ifndef SS_IMPORT_H
#define SS_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

/* The kmem events whose labels a tracefs format file may give: kmalloc,
 * kmem_cache_alloc, kfree, kmem_cache_free, each with its _node twin. */
#define SS_IMPORT_MAX_FORMATS 8

struct ss_import_opts {
	const char *input;	/* "-" = stdin; zstd-compressed input is fine */
	const char *output;	/* the trace; format from the name */
	const char *target;	/* kmalloc classes and layout rules for naming */
	const char *formats[SS_IMPORT_MAX_FORMATS]; /* tracefs format files */
	unsigned nr_formats;
	const char *snapshot;	/* the kernel's caches: declarations from them */
	const char *slab_fill;	/* their node partial slabs (slab-fill), or NULL */
	unsigned cpus;		/* the capture's CPUs, 0: from the events */
	const char *walk;	/* the snapshot walk's allocations (ftrace text), or NULL */
	const char *slab_pages;	/* the slab pages as tracing began (slab-pages), or NULL */
	const char *free_objects; /* a slab-fill file (version 3) read as tracing began, or NULL */
	bool drop_untraced;	/* objects allocated without an event: drop their
				 * frees instead of replaying them (untraced.c) */
	/* the capture tool's own processes in the window (meta tool_pids:
	 * PIDs separated by blanks or commas), whose events are counted
	 * (tool_events) and replayed like any other; NULL: not counted */
	const char *tool_pids;
};

/* The free rules, at most (reconcile/import/rules.c holds the table). */
#define SS_IMPORT_MAX_FREE_RULES 16

/* What perf kmem stat prints, and what the import had to repair. */
struct ss_import_totals {
	uint64_t lines, events, allocs, frees;
	uint64_t bytes_req, bytes_alloc, bytes_freed;
	uint64_t cross_cpu_frees;  /* freed on another CPU (perf's ping-pong) */
	uint64_t unknown_frees;	   /* pointer not live: allocated before capture or lost */
	uint64_t null_frees;	   /* kfree(NULL) */
	uint64_t realloc_live;	   /* allocated while live: a free was lost */
	uint64_t failed_allocs;	   /* ptr 0 */
	uint64_t lost_events;	   /* [LOST N EVENTS] markers */
	uint64_t overwritten;	   /* ring buffer header: written - in buffer */
	uint64_t other_events, skipped_lines, no_cpu_lines;
	uint64_t live_at_end, peak_live;
	uint64_t kmalloc_class_mismatch; /* bytes_alloc differs from the target's class */
	uint64_t geometry_mismatch, caches;
	uint64_t phases;		   /* slabsim-phase markers -> phase events */
	uint64_t prior_frees;		   /* unknown frees written as prior frees */
	uint64_t prior_unattributed;	   /* unknown frees whose cache is unknown */
	uint64_t stride_frees, stride_slabs; /* learn pass: classed by the stride rule */
	uint64_t listed_frees; /* learn pass: their slab-fill listed slab's cache */
	uint64_t vector_frees; /* learn pass: vectors after a kfree of a seen object */
	uint64_t untraced_allocs;	   /* unknown frees of a pointer freed before, or
					    * of an object not there as tracing began */
	uint64_t new_slab_frees;	   /* of them, on such a page (--slab-pages) */
	uint64_t free_slot_frees;	   /* of them, of an object a listed slab had free
					    * as tracing began (--free-objects) */
	uint64_t untraced_placed;	   /* of them, replayed: an allocation written
					    * where the trace places it (untraced.c) */
	uint64_t untraced_anchored;	   /* ... after its slab's last traced allocation */
	bool slab_pages_used;		   /* --slab-pages given and its rule used */
	bool free_slots_used;		   /* --free-objects given and used */
	const char *slab_pages_why;	   /* given and not used: why */
	uint64_t walk_allocs, walk_frees;  /* the snapshot walk's objects; their frees dropped */
	uint64_t page_frees;		   /* mm_page_free records */
	uint64_t kslabs_freed;		   /* of them, slabs prior frees named: `d` events */
	bool page_base_found;		   /* the direct map's base learned (pagefree.c) */
	bool page_base_from_fill;	   /* ... exactly, from the slab-fill file */
	bool page_votes_wrong;		   /* ... where the votes had another */
	uint64_t page_base, page_votes_base;
	unsigned max_cpu;
	/* the free records each free rule decided, by its place in the
	 * table (ss_import_free_rule_name()) */
	uint64_t rule_frees[SS_IMPORT_MAX_FREE_RULES];
	/* kmem events of the --tool-pids processes; tool_counted: given */
	uint64_t tool_events;
	bool tool_counted;
};

/* Import o->input into o->output; *t gets the totals.  0, or -1 with err
 * naming the file and line; a failed import leaves no output. */
int ss_import(const struct ss_import_opts *o, struct ss_import_totals *t,
	      struct ss_error *err);
/* perf-kmem-style summary and the import's repairs. */
void ss_import_print(FILE *out, const struct ss_import_totals *t);
/* 100 - 100 * requested / allocated (perf kmem's fragmentation()). */
double ss_import_frag_pct(const struct ss_import_totals *t);
/* One-row CSV of the totals (docs/import.md), atomically. */
int ss_import_write_totals(const char *path, const struct ss_import_totals *t,
			   struct ss_error *err);

/* The free rules in the order the import asks them: the i-th rule's name
 * and the totals field its frees are counted in (docs/import.md, "The
 * free rules"); NULL past the last. */
const char *ss_import_free_rule_name(unsigned i);
const char *ss_import_free_rule_counter(unsigned i);
/* *n = the free records the rule called name decided in t; false when no
 * rule has that name. */
bool ss_import_rule_frees(const struct ss_import_totals *t, const char *name, uint64_t *n);

#endif
