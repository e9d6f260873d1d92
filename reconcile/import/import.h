/* import.h - real kernel traces (ftrace text, trace-cmd report, perf
 * script) of the kmem tracepoints into a slabsim trace (docs/import.md).
 *
 *   import_format.c  which label each field is printed under (defaults,
 *                    or a tracefs `format` file)
 *   import_ftrace.c  one text line -> one kmem record
 *   import_ptrmap.c  live pointers -> dense object ids
 *   import_caches.c  cache names and kmem_cache_create() arguments
 *   import_prior.c   frees of objects allocated before the capture
 *   import_objext.c  the kfree of a freed slab's obj_exts vector
 *   import_pagefree.c  mm_page_free -> the kernel slabs that died
 *   import_gfp.c     allocation flags from gfp_flags= and accounted=
 *   import_slabpages.c  frees of objects not there as tracing began: untraced
 *   import.c         the driver: records -> trace events and totals
 */
#ifndef SS_IMPORT_H
#define SS_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "slabpages.h"
#include "slabsnap.h"
#include "strtab.h"
#include "target.h"
#include "trace.h"

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

/* ---- one line ---- */

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

/* ---- trace-cmd's trace.dat (import_dat.c) ---- */

/* Takes each record with its kind (enum ss_kmem_line, or -1 malformed
 * with why); non-zero stops the reading. */
typedef int (*ss_kmem_rec_fn)(void *ctx, int kind, struct ss_kmem_rec *rec,
			      const char *why, struct ss_error *err);
/* 1 if path starts with trace-cmd's magic ("\x17\x08Dtracing"). */
int ss_import_is_dat(const char *path);
/* Every record of a trace.dat, in time order; *cpus gets its CPU count. */
/* Every line of the text capture at path (plain or zstd) to fn, parsed
 * (lines with a NUL byte skipped); *lineno (when not NULL) is the line's
 * number during the call.  0, or -1 with err (fn's, or the reading's). */
int ss_kmem_text_read(const char *path, const struct ss_kmem_labels *l, ss_kmem_rec_fn fn,
		      void *ctx, unsigned long *lineno, struct ss_error *err);
int ss_import_dat_read(const char *path, ss_kmem_rec_fn fn, void *ctx, unsigned *cpus,
		       struct ss_error *err);

/* SS_GFP_* of an allocation from its gfp_flags= text (flag names joined
 * by '|', or a number) and accounted= text; either may be NULL. */
uint32_t ss_import_gfp(const char *gfp_flags, const char *accounted);

/* ---- pointers -> dense ids ---- */

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
void ss_ptrmap_release(struct ss_ptrmap *m);

/* ---- caches ---- */

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

struct ss_trace_writer;

#define SS_IMPORT_CACHE_NAME (SS_MAX_NAME + 16)
/* Where an allocation record goes: 1 kmalloc, 0 the cache called name
 * (name=, or cache-<bytes_alloc> for an unnamed one whose stride is no
 * kmalloc class on t). */
int ss_import_cache_name(const struct ss_target *t, const struct ss_kmem_rec *rec,
			 char name[SS_IMPORT_CACHE_NAME]);
/* The api index for an allocation record, declaring the cache on first
 * use; -1 with err on a write failure.  *size gets the bytes to request. */
int ss_import_cache_api(struct ss_import_caches *c, struct ss_trace_writer *w,
			const struct ss_kmem_rec *rec, uint64_t *size,
			struct ss_error *err);
/* The api index of the cache called name for a free that comes before
 * any allocation from it: declared from `first` (an allocation record
 * of it), else from the snapshot.  -2 when neither knows it; -1 with err
 * on a write failure. */
int ss_import_cache_api_named(struct ss_import_caches *c, struct ss_trace_writer *w,
			      const char *name, const struct ss_kmem_rec *first,
			      struct ss_error *err);
/* The bytes requested of a declared cache's allocations (its first's), 0
 * when not declared. */
uint64_t ss_import_cache_req(const struct ss_import_caches *c, const char *name);
void ss_import_caches_release(struct ss_import_caches *c);

/* ---- the CPU slabs' free slots at the start (import_cpuslab.c) ---- */

/* Slab orders whose frees are counted (kmalloc and most caches'). */
#define SS_CPUSLAB_MAX_ORDER 3
struct ss_import_cpuslab {
	struct ss_ptrmap frees;	 /* slab base | order -> frees into it so far */
	struct ss_ptrmap states; /* (cache, CPU) -> its first slab and allocations */
};
/* An allocation of raw pointer ptr from snapshot cache c on cpu. */
int ss_import_cpuslab_alloc(struct ss_import_cpuslab *cs, const struct ss_snap *snap,
			    const struct ss_snap_cache *c, unsigned cpu, uint64_t ptr);
/* A free of raw pointer ptr, whatever its cache. */
int ss_import_cpuslab_free(struct ss_import_cpuslab *cs, uint64_t ptr);
/* meta cpu_slab_free: "CACHE:CPU:N" (N slots free) or "CACHE:CPU:N+" (at
 * least N: the CPU never left its first slab), blank-separated, by cache
 * (snapshot order) and CPU; as many as fit in n bytes. */
int ss_import_cpuslab_meta(struct ss_import_cpuslab *cs, const struct ss_snap *snap,
			   char *buf, size_t n);
void ss_import_cpuslab_release(struct ss_import_cpuslab *cs);

/* ---- the kernel's slab page frees (import_pagefree.c) ---- */

/* Raw (unhashed) kernel pointers are at or above this. */
#define SS_PAGEFREE_RAW_MIN 0xffff000000000000ull
/* Page orders taken (no slab is larger: MAX_PAGE_ORDER is 10). */
#define SS_PAGEFREE_MAX_ORDER 10
/* Pairs (a free, then a page free on the CPU) that must agree on the
 * direct map's base, and how many differing bases are kept apart. */
#define SS_PAGEFREE_MIN_VOTES 3
#define SS_PAGEFREE_CANDIDATES 16
struct ss_pagefree_cand {
	uint64_t base, votes;
};
struct ss_import_pagefree {
	uint64_t *last_free;	/* first pass, per CPU: its last event's freed pointer */
	uint32_t nr_cpus;
	struct ss_pagefree_cand cand[SS_PAGEFREE_CANDIDATES];
	unsigned nr_cand;
	uint64_t votes;		/* candidate pairs, all bases */
	bool have_base;
	uint64_t base;
	/* the struct page array (vmemmap): page = vmemmap + pfn * stride,
	 * from the page frees' page= and pfn= (text captures) */
	uint64_t ref_page, ref_pfn, stride, vmemmap, vm_agree, vm_disagree;
	bool have_vmemmap;
	/* the base from the slab-fill file instead (ss_import_pagefree_fill),
	 * and the votes' when they had another one */
	bool base_from_fill, votes_wrong;
	uint64_t votes_base;
};
/* The first pass: one record of the capture, whatever its kind. */
int ss_import_pagefree_learn(struct ss_import_pagefree *pf, int kind,
			     const struct ss_kmem_rec *rec);
/* After the first pass: the base, if the pairs agree on one. */
void ss_import_pagefree_finish(struct ss_import_pagefree *pf);
/* The offset of struct page `page`'s frame from the direct map's base
 * (its pfn << 12, through the vmemmap learned); false when the vmemmap is
 * not known or page is none of its struct pages. */
bool ss_import_pagefree_frame(const struct ss_import_pagefree *pf, uint64_t page, uint64_t *off);
/* With a slab-fill file (snap's caches' fill[] pages and bases) and the
 * vmemmap learned: the direct map's base exactly, each listed slab's
 * struct page and pages giving it, instead of the votes (which a handful
 * of pairs can get wrong by a GiB: rsync-share-tmpfs, 6 of 7).  0 taken,
 * 1 not available (no vmemmap, no fill, or the slabs disagree). */
int ss_import_pagefree_fill(struct ss_import_pagefree *pf, const struct ss_snap *snap);
/* The direct-map address of a page free's first page; -1 without a base. */
int ss_import_pagefree_addr(const struct ss_import_pagefree *pf, const struct ss_kmem_rec *rec,
			    uint64_t *addr);
void ss_import_pagefree_release(struct ss_import_pagefree *pf);

/* ---- objects not there as tracing began (import_slabpages.c) ---- */

/* The slab-fill's listed slabs whose pages must be marked slab pages in
 * the file, in percent, for the rule to be used (a check that the file
 * and the direct map's base agree; a few may die between the two reads). */
#define SS_SLABPAGES_MIN_LISTED_PCT 95
/* The phase marker after which the two files above hold (make capture
 * writes it once they are read).  A free before it may be of an object
 * that was in use as tracing began and free when they were read. */
#define SS_IMPORT_OBJECTS_READ_PHASE "start"
struct ss_import_slabpages {
	struct ss_slabpages pages;
	bool read;		/* the marker seen: the rules apply */
	bool loaded, active;	/* active: the rule is used */
	const char *why;	/* loaded and not active: the reason */
	uint64_t base;		/* the direct map's (either rule) */
	uint64_t listed, listed_found; /* the check's slabs */
	/* the slab-fill's listed slabs whose free objects it has (version
	 * 3): each page frame + 1 -> id the cache's index, bytes_alloc its
	 * place in the cache's fill (ss_import_freebits_setup) */
	struct ss_ptrmap frames;
	const struct ss_snap *snap;
};
/* Load path and check it against the slab-fill's slabs (snap) through
 * the direct map pf learned; not active (why) when it cannot be used. */
int ss_import_slabpages_setup(struct ss_import_slabpages *s, const char *path,
			      const struct ss_import_pagefree *pf, const struct ss_snap *snap,
			      struct ss_error *err);
/* A kmem_cache_free of an object on a page that was no slab page then. */
bool ss_import_slabpages_new(const struct ss_import_slabpages *s, const struct ss_kmem_rec *rec);
/* With the direct map's base: map the frames of the listed slabs whose
 * free objects snap's fill (--free-objects, version 3) has.  -1 out of
 * memory. */
int ss_import_freebits_setup(struct ss_import_slabpages *s, const struct ss_import_pagefree *pf,
			     const struct ss_snap *snap);
/* A free of an object that was free as tracing began, on a slab the
 * --free-objects file listed with its free objects. */
bool ss_import_freebits_was_free(struct ss_import_slabpages *s, uint64_t ptr);
/* mm_page_free: those frames are slab pages no more, nor listed slabs. */
void ss_import_slabpages_page_free(struct ss_import_slabpages *s, const struct ss_kmem_rec *rec);
void ss_import_slabpages_release(struct ss_import_slabpages *s);

/* ---- objects allocated without an event, replayed (import_untraced.c) ---- */

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
	/* planning (the first reading) */
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
	/* applying (the second reading) */
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
/* Between the readings: order the planned allocations; -1 out of memory. */
int ss_import_untraced_ready(struct ss_import_untraced *u);
/* Applying: the object of the next planned allocation due at or before
 * record (its index in *k), or 0 when none is. */
int ss_import_untraced_due(struct ss_import_untraced *u, uint64_t record, uint64_t *k);
void ss_import_untraced_release(struct ss_import_untraced *u);

/* ---- frees of objects allocated before the capture ---- */

struct prior_site;
struct ss_import_prior {
	struct ss_strtab keys;	   /* where an object was: "k GFP SIZE", "c NAME" */
	struct ss_strtab sites;	   /* free call sites */
	struct prior_site *site;   /* parallel to sites */
	uint32_t cap_site;
	struct ss_strtab caches;   /* cache names, with their first record */
	struct ss_kmem_rec *first;
	uint32_t cap_caches;
	struct ss_ptrmap untraced; /* pointers also allocated without events */
	/* the before-snapshot's walk allocated these without events in the
	 * trace, after the counts were read (import_walk.c) */
	struct ss_ptrmap walk;
	/* raw pointers (not hashed) and a snapshot: the slab of each object,
	 * from its cache's order; which cache each slab was last seen in */
	const struct ss_snap *snap;
	bool raw;
	int8_t *key_order;	   /* per key: the cache's slab order, -1 unknown */
	int32_t *key_snapi;	   /* per key: its snapshot cache's index, -1 none */
	uint32_t cap_keys;
	struct ss_ptrmap slab_owner; /* slab base | order -> key */
	/* raw pointer of an unknown kfree -> the key its slab held when it
	 * was freed + 1 (0: not known then); the stride rule fills some */
	struct ss_ptrmap prior_owner;
	struct ss_ptrmap slab_ids;   /* slab base | order -> dense id + 1 */
	/* slab base | order -> its place on its cache's node partial list + 1
	 * (id; site: the snapshot cache), from the slab-fill file: such a
	 * slab's id is its place, the others' come after the list's length */
	struct ss_ptrmap fill_pos;
	bool fill;
	struct ss_import_cpuslab cpuslab; /* the first pass's, for meta cpu_slab_free */
	uint64_t *key_slabs;	     /* per key: slab ids handed out */
	uint32_t nr_key_slabs;
	uint64_t stride_frees, stride_slabs; /* placed by the stride rule */
	uint64_t listed_frees; /* kfrees on listed slabs no event had named */
	uint64_t vector_frees; /* obj_exts vectors after a kfree of a seen object */
	struct ss_import_pagefree pagefree; /* the first pass's page frees */
	bool learned;
};

/* Number the kernel slabs of caches whose node partial slabs p->snap
 * lists (ss_snap_take_fill) by their place on the list.  -1 out of
 * memory. */
int ss_import_prior_fill(struct ss_import_prior *p);

/* The pointers the snapshot walk's allocation events in path (ftrace
 * text, plain or zstd) name, into p->walk; *n gets how many.  -1 with err
 * naming path and line. */
int ss_import_walk_load(struct ss_import_prior *p, const char *path,
			const struct ss_kmem_labels *l, uint64_t *n, struct ss_error *err);

/* The first pass: per free site, where the objects it freed were. */
int ss_import_prior_learn(struct ss_import_prior *p, const char *input, bool dat,
			  const struct ss_kmem_labels *l, const struct ss_target *t,
			  struct ss_error *err);
/* Where an unknown free of ptr at site goes: by the slab it is in (raw
 * pointers), else by what the site's other frees freed.  name = a cache,
 * or "" for kmalloc with *size the class size and *gfp its flags; *slab
 * = the slab's dense id + 1 within that cache, or 0.  -1: unknown. */
int ss_import_prior_pick(struct ss_import_prior *p, uint64_t ptr, const char *site,
			 char name[SS_IMPORT_CACHE_NAME], uint64_t *size, uint32_t *gfp,
			 uint64_t *slab);
/* The slab id (+ 1) of a kmalloc object of class size and flags gfp, or 0
 * (hashed pointers, no snapshot). */
uint64_t ss_import_prior_kmalloc_slab(struct ss_import_prior *p, uint64_t ptr, uint32_t gfp,
				      uint64_t size);
/* The stride rule placed the unknown kfree of ptr in key k's cache. */
void ss_import_prior_place(struct ss_import_prior *p, uint64_t ptr, uint32_t k);
/* The snapshot cache of the last object the first pass saw in the slab
 * of the given order at ptr, or NULL. */
const struct ss_snap_cache *ss_import_prior_last_owner(struct ss_import_prior *p, uint64_t ptr,
						       unsigned order);
/* The cache name of key k (kmalloc keys by their 6.x type name); -1 none. */
int ss_import_prior_key_cache(const struct ss_import_prior *p, uint32_t k,
			      char name[SS_IMPORT_CACHE_NAME]);
/* kmalloc-N, kmalloc-cg-N, kmalloc-rcl-N, dma-kmalloc-N (6.x names). */
void ss_import_kmalloc_name(uint32_t gfp, uint64_t size, char *buf, size_t n);

/* The stride rule (import_stride.c): unknown kfree()s of raw pointers
 * classed by their offsets in their slabs, the kmalloc type by the
 * before-snapshot's slabs left.  Fewest pointers of a slab to class it. */
#define SS_STRIDE_MIN_GROUP 6
/* kmalloc classes a site's frees are classed into, at most (there are ~14) */
#define SS_STRIDE_MAX_CLASSES 32
struct ss_import_stride {
	uint64_t *taken;     /* per snapshot cache: slabs seen held or given */
	uint64_t *seen;      /* per snapshot cache: slabs the first pass saw held */
	uint64_t frees, slabs; /* placed by the rule */
};
int ss_import_stride_begin(struct ss_import_stride *s, const struct ss_import_prior *p);
/* One site's pointers (sorted in place): record the frees it classes.
 * gfp: the site's kmalloc family where the capture saw it (SS_GFP_*
 * flags of its learned frees), or -1 to choose one. */
int ss_import_stride_site(struct ss_import_stride *s, struct ss_import_prior *p,
			  const struct ss_target *t, uint64_t *ptr, uint32_t n, int64_t gfp);
void ss_import_stride_release(struct ss_import_stride *s);

/* A page free at addr (order) of a kernel slab that prior frees named:
 * 1 with its cache (name, or "" for kmalloc with *size and *gfp, as
 * ss_import_prior_pick gives them) and *slab (its id + 1), forgotten so
 * that a later slab at that address gets an id of its own; 0 when no
 * prior free named the slab. */
int ss_import_prior_slab_freed(struct ss_import_prior *p, uint64_t addr, unsigned order,
			       char name[SS_IMPORT_CACHE_NAME], uint64_t *size, uint32_t *gfp,
			       uint64_t *slab);
/* The slab id (+ 1) of ptr in the cache a named free says, or 0. */
uint64_t ss_import_prior_slab(struct ss_import_prior *p, uint64_t ptr, const char *cache);
/* The first allocation record of a cache, or NULL. */
const struct ss_kmem_rec *ss_import_prior_first(const struct ss_import_prior *p,
						const char *cache);
void ss_import_prior_release(struct ss_import_prior *p);
/* A trace name from any text: bytes that cannot be in a name become '_',
 * cut at SS_MAX_NAME (out has room for SS_MAX_NAME + 1). */
void ss_import_clean_name(const char *in, char *out);
/* The kmem_cache_create() arguments that give object_size `req` a stride
 * of `alloc` on the target; 0 found, -1 none (spec gets size=req). */
int ss_import_infer_spec(const struct ss_target *t, uint64_t req,
			 uint64_t alloc, unsigned *align, unsigned *flags);

/* ---- the driver ---- */

/* Longest meta untraced_frees value (within SS_BIN_MAX_META). */
#define SS_META_UNTRACED_MAX 60000
/* Longest meta cpu_slab_free value (within SS_BIN_MAX_META): ~3,000
 * (cache, CPU) pairs; more are left out (their slabs keep the estimate). */
#define SS_META_CPUSLAB_MAX 60000

struct ss_import_opts {
	const char *input;	/* "-" = stdin; zstd-compressed input is fine */
	const char *output;	/* the trace; format from the name */
	const char *target;	/* kmalloc classes and layout rules for naming */
	const char *formats[SS_KE_NR * 2]; /* tracefs format files */
	unsigned nr_formats;
	const char *snapshot;	/* the kernel's caches: declarations from them */
	const char *slab_fill;	/* their node partial slabs (slab-fill), or NULL */
	unsigned cpus;		/* the capture's CPUs, 0: from the events */
	const char *walk;	/* the snapshot walk's allocations (ftrace text), or NULL */
	const char *slab_pages;	/* the slab pages as tracing began (slab-pages), or NULL */
	const char *free_objects; /* a slab-fill file (version 3) read as tracing began, or NULL */
	bool drop_untraced;	/* objects allocated without an event: drop their
				 * frees instead of replaying them (import_untraced.c) */
};

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
	uint64_t stride_frees, stride_slabs; /* first pass: classed by the stride rule */
	uint64_t listed_frees; /* first pass: their slab-fill listed slab's cache */
	uint64_t vector_frees; /* first pass: vectors after a kfree of a seen object */
	uint64_t untraced_allocs;	   /* unknown frees of a pointer freed before, or
					    * of an object not there as tracing began */
	uint64_t new_slab_frees;	   /* of them, on such a page (--slab-pages) */
	uint64_t free_slot_frees;	   /* of them, of an object a listed slab had free
					    * as tracing began (--free-objects) */
	uint64_t untraced_placed;	   /* of them, replayed: an allocation written
					    * where the trace places it (import_untraced.c) */
	uint64_t untraced_anchored;	   /* ... after its slab's last traced allocation */
	bool slab_pages_used;		   /* --slab-pages given and its rule used */
	bool free_slots_used;		   /* --free-objects given and used */
	const char *slab_pages_why;	   /* given and not used: why */
	uint64_t walk_allocs, walk_frees;  /* the snapshot walk's objects; their frees dropped */
	uint64_t page_frees;		   /* mm_page_free records */
	uint64_t kslabs_freed;		   /* of them, slabs prior frees named: `d` events */
	bool page_base_found;		   /* the direct map's base learned (import_pagefree.c) */
	bool page_base_from_fill;	   /* ... exactly, from the slab-fill file */
	bool page_votes_wrong;		   /* ... where the votes had another */
	uint64_t page_base, page_votes_base;
	unsigned max_cpu;
};

int ss_import(const struct ss_import_opts *o, struct ss_import_totals *t,
	      struct ss_error *err);
/* perf-kmem-style summary and the import's repairs. */
void ss_import_print(FILE *out, const struct ss_import_totals *t);
/* 100 - 100 * requested / allocated (perf kmem's fragmentation()). */
double ss_import_frag_pct(const struct ss_import_totals *t);
/* One-row CSV of the totals (docs/import.md), atomically. */
int ss_import_write_totals(const char *path, const struct ss_import_totals *t,
			   struct ss_error *err);

#endif
