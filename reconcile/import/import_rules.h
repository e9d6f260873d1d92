/* import_rules.h - the import's inside: one run, its passes over the
 * capture, and the free rules that decide what a free the capture cannot
 * explain was; what the learn pass finds is in import_learn.h.  Private
 * to reconcile/import/ (and its unit tests).  README.md here lists the
 * files, the rule tables and the passes. */
#ifndef SS_IMPORT_RULES_H
#define SS_IMPORT_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "import.h"
#include "import_learn.h"
#include "import_read.h"
#include "slabpages.h"
#include "slabsnap.h"
#include "strtab.h"
#include "target.h"
#include "trace.h"
#include "trace_io.h"

/* ---- caches (caches.c) ---- */

struct ss_trace_writer;

struct ss_import_caches {
	const struct ss_target *target;
	const struct ss_snap *snap; /* the kernel's caches, or NULL */
	FILE *warn;		/* one line per cache the model lays out otherwise */
	struct ss_strtab names;	/* cache names as declared, in order of first use */
	uint32_t *api;		/* per name: the trace api index */
	uint64_t *req, *alloc;	/* per name: the first bytes_req, bytes_alloc */
	uint32_t cap;
	uint64_t geometry_mismatch; /* caches whose traced stride the model misses */
	uint64_t size_changes;	/* allocations whose sizes differ from the first */
	uint64_t kmalloc_mismatch; /* kmalloc: bytes_alloc is not the target's class */
	uint64_t by_class;	/* unnamed kmem_cache allocations put in kmalloc */
	uint64_t from_snapshot;	/* caches declared with the snapshot's arguments */
};

/* Where an allocation record goes: true for kmalloc, false for the cache
 * called name (name=, or cache-<bytes_alloc> for an unnamed one whose
 * stride is no kmalloc class on t). */
bool ss_import_cache_name(const struct ss_target *t, const struct ss_kmem_rec *rec,
			  char name[SS_IMPORT_CACHE_NAME]);
/* The api index for an allocation record, declaring the cache on first
 * use; -1 with err on a write failure.  *size gets the bytes to request. */
int ss_import_cache_api(struct ss_import_caches *c, struct ss_trace_writer *w,
			const struct ss_kmem_rec *rec, uint64_t *size,
			struct ss_error *err);
enum ss_import_cache_lookup {
	SS_IMPORT_CACHE_FOUND,	 /* *api: declared now or before */
	SS_IMPORT_CACHE_SIZELESS, /* not declared: nothing says its size */
	SS_IMPORT_CACHE_FAILED,	 /* err: the declaration could not be written */
};
/* The api index of the cache called name for a free that may come
 * before any allocation from it: declared from `first` (an allocation
 * record of it), else from the snapshot. */
enum ss_import_cache_lookup ss_import_cache_api_named(struct ss_import_caches *c,
						      struct ss_trace_writer *w, const char *name,
						      const struct ss_kmem_rec *first,
						      uint32_t *api, struct ss_error *err);
/* The bytes requested of a declared cache's allocations (its first's), 0
 * when not declared. */
uint64_t ss_import_cache_req(const struct ss_import_caches *c, const char *name);
void ss_import_caches_release(struct ss_import_caches *c);
/* The kmem_cache_create() arguments that give object_size `req` a stride
 * of `alloc` on the target; 0 found, -1 none (spec gets size=req). */
int ss_import_infer_spec(const struct ss_target *t, uint64_t req,
			 uint64_t alloc, unsigned *align, unsigned *flags);

/* ---- objects allocated without an event, replayed (untraced.c) ---- */

/* One such object: its allocation goes before input record `at` (0: it
 * is not placed, its free dropped), on `cpu`; cache is an index in the
 * plan's names.  Its free is the untraced free it was planned from (the
 * k-th is obj[k]). */
struct ss_untraced_obj {
	uint64_t at;
	uint32_t cpu, cache;
};

/* The allocation site of their replayed allocations (sites.csv). */
#define SS_UNTRACED_SITE "untraced_alloc"

enum ss_untraced_mode { SS_UNTRACED_OFF, SS_UNTRACED_PLAN, SS_UNTRACED_APPLY };

struct ss_import_untraced {
	enum ss_untraced_mode mode;
	/* planning (the plan pass) */
	const struct ss_snap *snap;	/* slab orders; NULL: a page is a slab */
	struct ss_strtab names;		/* caches of the planned objects, and of
					 * the traced allocations seen */
	int8_t *order;			/* per name: its slab order, -1 not looked up */
	uint32_t cap_order;
	/* kernel slab base -> bytes_alloc: the input record of its last
	 * traced allocation (0: none since its pages were last freed), cpu:
	 * that allocation's CPU; id: the record of its open group's first
	 * untraced free (0: none), site: that free's CPU */
	struct ss_ptrmap slabs;
	/* object pointer -> bytes_alloc: the record of its last untraced
	 * free */
	struct ss_ptrmap ptrs;
	struct ss_untraced_obj *obj;
	uint64_t nr, cap;
	/* applying (the write pass) */
	uint64_t *by_at;		/* placed obj indices, by (at, index) */
	uint64_t nr_due;		/* how many */
	uint64_t *id;			/* per obj: its trace id + 1, 0 unwritten */
	uint64_t next, seen;
	/* how many were placed after their slab's last traced allocation
	 * (the others: with their slab's group of untraced frees) */
	uint64_t anchored;
};
/* A traced kmem_cache_alloc of cache `name` (planning only); -1 out of
 * memory. */
int ss_import_untraced_alloc(struct ss_import_untraced *u, const struct ss_kmem_rec *rec,
			     const char *name, uint64_t record);
/* The pages at direct-map address addr were freed: a slab there is new. */
void ss_import_untraced_page_free(struct ss_import_untraced *u, uint64_t addr);
/* Planning: an untraced free of cache `name` at input record `record`;
 * -1 out of memory. */
int ss_import_untraced_plan(struct ss_import_untraced *u, const struct ss_kmem_rec *rec,
			    const char *name, uint64_t record);
/* Between the passes: order the planned allocations; -1 out of memory. */
int ss_import_untraced_ready(struct ss_import_untraced *u);
/* Applying: whether a planned allocation is due at or before record (its
 * index in *k). */
bool ss_import_untraced_due(struct ss_import_untraced *u, uint64_t record, uint64_t *k);
void ss_import_untraced_release(struct ss_import_untraced *u);

/* ---- one run: what every pass shares ---- */

/* The phase marker after which the --slab-pages and --free-objects files
 * hold (make capture writes it once they are read).  A free before it may
 * be of an object that was in use as tracing began and free when they
 * were read. */
#define SS_IMPORT_OBJECTS_READ_PHASE "start"
/* Longest meta untraced_frees value (within SS_BIN_MAX_META). */
#define SS_META_UNTRACED_MAX 60000
/* Longest meta cpu_slab_free value (within SS_BIN_MAX_META): ~3,000
 * (cache, CPU) pairs; more are left out (their slabs keep the estimate). */
#define SS_META_CPUSLAB_MAX 60000

/* The options' files, read once before the capture, and what the passes
 * hand on to each other. */
struct ss_import_run {
	const struct ss_import_opts *o;
	struct ss_kmem_labels labels;
	struct ss_target target;
	struct ss_snap snap;		/* --snapshot, with --slab-fill's slabs */
	bool have_snap;
	uint64_t fill_hash;		/* the slab-fill file's (meta slab_fill) */
	struct ss_ptrmap walk;		/* --walk: the pointers its events allocated */
	uint64_t walk_allocs;
	struct ss_slabpages pages;	/* --slab-pages */
	bool have_pages;
	struct ss_snap start_snap;	/* --snapshot again, with --free-objects' slabs */
	bool have_start_snap;
	bool dat;			/* the input is a trace-cmd trace.dat */
	int64_t *tool_pids;		/* --tool-pids, sorted; nr_tool_pids of them */
	size_t nr_tool_pids;
	struct ss_import_places places;
	struct ss_import_learned learned;
	struct ss_import_untraced untraced;
};

/* The walk's allocation events in path (ftrace text, plain or zstd):
 * their pointers into *walk, *n how many.  -1 with err naming path and
 * line. */
int ss_import_walk_load(struct ss_ptrmap *walk, const char *path,
			const struct ss_kmem_labels *l, uint64_t *n, struct ss_error *err);

/* qsort()/bsearch() order of two int64_t PIDs (--tool-pids). */
int ss_import_cmp_pid(const void *a, const void *b);

/* ---- one reading pass (pass.c) ---- */

/* Kernel slab ids (slab_ids.c): a prior free names its kernel slab by a
 * number dense per place, a listed slab by its place in the listing. */
struct ss_import_slab_ids {
	struct ss_ptrmap ids;	  /* slab base | order -> id + 1 (id), its place (site) */
	uint64_t *per_place;	  /* per place: unlisted slab ids handed out */
	uint32_t nr;
	struct ss_ptrmap taken;	  /* listed slabs whose place was given (once a pass) */
};

/* Each free rule's own state for one pass: a member is read and written
 * by its rule only (rule_*.c). */
struct ss_import_rule_walk {
	struct ss_ptrmap left;	/* the walk's pointers not allocated since */
};
struct ss_import_rule_slab_pages {
	struct ss_slabpages pages; /* frames that held slab pages, less those freed since */
	bool active;		   /* the file checks out: the rule is used */
	uint64_t base;		   /* the direct map's */
};
struct ss_import_rule_free_objects {
	/* each listed slab's page frame + 1 -> id its snapshot cache's
	 * index, bytes_alloc its place in that cache's listing */
	struct ss_ptrmap frames;
	uint64_t base;
	const struct ss_snap *snap;
};
struct ss_import_rule_objext {
	uint32_t *last;		/* per CPU: names index, UINT32_MAX unknown */
	unsigned nr;
	struct ss_strtab names;
};
struct ss_import_rule_site_share {
	uint64_t *seen;		/* per learned site: unknown frees so far */
	uint64_t **given;	/* per learned site, per share: frees sent there */
	uint32_t nr;
};
struct ss_import_rule_state {
	struct ss_import_rule_walk walk;
	struct ss_import_rule_slab_pages slab_pages;
	struct ss_import_rule_free_objects free_objects;
	struct ss_import_rule_objext objext;
	struct ss_import_rule_site_share site_share;
};

enum ss_import_pass_kind {
	SS_IMPORT_PASS_PLAN,	/* the untraced objects' allocations planned; the trace goes nowhere */
	SS_IMPORT_PASS_WRITE,	/* the trace written */
};

/* One reading of the capture: the state the rules share.  The rules
 * read it; the record handling (pass.c) and the shared actions
 * (rules.c, untraced.c) write it. */
struct ss_import_pass {
	struct ss_import_run *run;
	enum ss_import_pass_kind kind;
	struct ss_import_totals *t;
	struct ss_trace_writer *w;
	struct ss_inbuf in;
	unsigned long record;	/* the input record (text line) at hand, from 1 */
	bool after_start;	/* SS_IMPORT_OBJECTS_READ_PHASE seen */
	bool cpus_written;	/* meta cpus went out before the events */
	unsigned cpus;		/* the CPU count written up front */
	unsigned dat_cpus;	/* a trace.dat's CPU count (meta cpus at the end) */
	struct ss_ptrmap live;	/* pointers allocated in the capture and live */
	struct ss_ptrmap dead;	/* pointers freed in the capture, not since allocated */
	struct ss_idpool ids;
	struct ss_import_caches caches;
	struct ss_import_slab_ids slab_ids;
	struct ss_strtab sites;	/* allocation sites, for meta untraced_frees */
	uint64_t *lost_free;	/* per site: allocations of a live pointer */
	uint32_t cap_sites;
	/* caches of frees of objects allocated without an event, and how
	 * many (meta untraced_allocs) */
	struct ss_strtab again;
	uint64_t *again_n;
	uint32_t cap_again;
	struct ss_import_rule_state rule;
};

/* One pass over the capture; *t gets its totals.  0, or -1 with err. */
int ss_import_pass(struct ss_import_run *r, enum ss_import_pass_kind kind,
		   struct ss_import_totals *t, struct ss_error *err);
/* err, set by a helper that knows no line, again with the input's file
 * and line in front; -1. */
int ss_import_at_line(const struct ss_import_pass *x, struct ss_error *err);
#define SS_IMPORT_BAD(x, err, ...) \
	ss_error_at(err, (x)->run->o->input, (x)->record, __VA_ARGS__)

/* The id + 1 of the kernel slab of raw pointer ptr at place k, 0 when
 * unknown (hashed pointers, no slab order). */
uint64_t ss_import_slab_id(struct ss_import_pass *x, uint64_t ptr, uint32_t k);
/* A page free at addr (order) of a kernel slab a prior free named: true
 * with its place (name, or "" for kmalloc with *size and *gfp) and *slab
 * (its id + 1), forgotten so that a later slab at that address gets an id
 * of its own; false when no prior free named the slab. */
bool ss_import_slab_freed(struct ss_import_pass *x, uint64_t addr, unsigned order,
			  char name[SS_IMPORT_CACHE_NAME], uint64_t *size, uint32_t *gfp,
			  uint64_t *slab);
void ss_import_slab_ids_release(struct ss_import_slab_ids *s);

/* The untraced objects (untraced.c): a free of one, of cache `name` (the
 * plan pass plans its allocation, the write pass writes the free of the
 * object allocated there); the allocations due before the record at hand
 * (write pass). */
int ss_import_untraced_free(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
			    const char *name, struct ss_error *err);
int ss_import_untraced_write_due(struct ss_import_pass *x, struct ss_error *err);

/* ---- the free rules (rules.c, rule_*.c) ---- */

/* sizeof(struct slabobj_ext) on 64-bit without CONFIG_MEM_ALLOC_PROFILING
 * (one struct obj_cgroup *; 16 with profiling, include/linux/memcontrol.h
 * 6.10+); 5.9-6.9's objcgs vectors are one pointer per object too. */
#define SS_OBJEXT_BYTES 8u

/* What a free rule decided about a free record. */
enum ss_import_verdict {
	SS_IMPORT_NEXT,		/* not this rule's: the next rule decides */
	SS_IMPORT_DONE,		/* written or dropped by the rule itself */
	SS_IMPORT_UNTRACED,	/* an object allocated in the window without an event */
	SS_IMPORT_PRIOR,	/* an object from before the capture, at the place below */
	SS_IMPORT_UNATTRIBUTED,	/* from before the capture, of no place known: dropped */
};
struct ss_import_decision {
	enum ss_import_verdict verdict;
	/* SS_IMPORT_PRIOR: the cache (name), or kmalloc ("") of size bytes
	 * and flags gfp; the kernel slab's id + 1, 0 unknown */
	char name[SS_IMPORT_CACHE_NAME];
	uint64_t size;
	uint32_t gfp;
	uint64_t slab;
};

/* One rule: its name and counter as docs/import.md's table gives them,
 * and its hooks (NULL: none).  decide() sets d->verdict (SS_IMPORT_NEXT
 * when the rule does not apply) and returns 0, or -1 with err.  The
 * note_*() hooks see every record of their kind, after the decision. */
struct ss_import_free_rule {
	const char *name;
	const char *counter;	/* the totals field its frees are counted in */
	bool unknown;		/* decides frees of pointers not live (unknown_frees) */
	int (*begin)(struct ss_import_pass *x, struct ss_error *err);
	int (*decide)(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		      struct ss_import_decision *d, struct ss_error *err);
	int (*note_alloc)(struct ss_import_pass *x, const struct ss_kmem_rec *rec);
	int (*note_free)(struct ss_import_pass *x, const struct ss_kmem_rec *rec);
	void (*note_page_free)(struct ss_import_pass *x, const struct ss_kmem_rec *rec);
	void (*end)(struct ss_import_pass *x);
};

extern const struct ss_import_free_rule ss_import_rule_null, ss_import_rule_traced,
	ss_import_rule_walk, ss_import_rule_again, ss_import_rule_slab_pages,
	ss_import_rule_free_objects, ss_import_rule_named, ss_import_rule_objext,
	ss_import_rule_slab_owner, ss_import_rule_site_share, ss_import_rule_unattributed;

/* The table's hooks for one pass: every rule's begin (in order; -1 with
 * err), its end; a free record through the rules, then every rule's
 * note_free; an allocation and a page free to the rules that note them. */
int ss_import_rules_begin(struct ss_import_pass *x, struct ss_error *err);
void ss_import_rules_end(struct ss_import_pass *x);
int ss_import_rules_free(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
			 struct ss_error *err);
int ss_import_rules_note_alloc(struct ss_import_pass *x, const struct ss_kmem_rec *rec);
void ss_import_rules_note_page_free(struct ss_import_pass *x, const struct ss_kmem_rec *rec);

/* The traced rule's leaving object (rule_traced.c): the object at e is
 * freed in the output on cpu and its id recycled; an allocation of a live
 * pointer (its free lost) calls it too.  -1 on a write failure or out of
 * memory. */
int ss_import_emit_free(struct ss_import_pass *x, struct ss_ptr_entry *e, unsigned cpu);

#endif
