/* import_learn.h - what the learn pass finds over the whole capture
 * (learn.c, stride.c, pagefree.c, cpuslab.c) and the place keys it and
 * the reading passes share (places.c).  Private to reconcile/import/ (and
 * its unit tests); import_rules.h includes it.  README.md here lists the
 * files, the rule tables and the passes. */
#ifndef SS_IMPORT_LEARN_H
#define SS_IMPORT_LEARN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import_read.h"
#include "slabsnap.h"
#include "strtab.h"
#include "target.h"
#include "trace.h"

/* ---- names ---- */

#define SS_IMPORT_CACHE_NAME (SS_MAX_NAME + 16)

/* A trace name from any text: bytes that cannot be in a name become '_',
 * cut at SS_MAX_NAME (out has room for SS_MAX_NAME + 1). */
void ss_import_clean_name(const char *in, char *out);
/* kmalloc-N, kmalloc-cg-N, kmalloc-rcl-N, dma-kmalloc-N (6.x names). */
void ss_import_kmalloc_name(uint32_t gfp, uint64_t size, char *buf, size_t n);
/* Raw (unhashed) kernel pointers are at or above this: the top 16 bits of
 * a 64-bit kernel's addresses are set, %p's hashes (4.15+) are 32-bit. */
#define SS_IMPORT_RAW_MIN 0xffff000000000000ull
/* The slab of a raw pointer, as a map key: its address rounded down to
 * PAGE_SIZE << order (slab pages come from the buddy allocator, aligned
 * to their order), with the order in the low bits. */
#define SS_IMPORT_SLAB_KEY(ptr, order) (((ptr) & ~((4096ull << (order)) - 1)) | (order))

/* ---- places (places.c) ---- */

/* Where an object was, as a key: "k GFP SIZE" for a kmalloc object
 * (bytes_alloc, the class, and its SS_GFP_* flags), "c NAME" for a
 * cache's.  One table for the whole run: the learn pass and every
 * reading pass intern keys in it, and an index, once given, names the
 * same key to the end (no index is ever written out). */
#define SS_IMPORT_NO_PLACE UINT32_MAX
struct ss_import_places {
	struct ss_strtab keys;
	int8_t *order;	   /* per key: its snapshot cache's slab order, -1 none, -2 not looked up */
	int32_t *snapi;	   /* per key: its snapshot cache's index, -1 none */
	uint32_t cap;
	const struct ss_snap *snap; /* the kernel's caches, or NULL */
};
/* The place of key, SS_IMPORT_NO_PLACE out of memory. */
uint32_t ss_import_place_intern(struct ss_import_places *p, const char *key);
/* The place an allocation record's object is at (t names its cache). */
uint32_t ss_import_place_of_rec(struct ss_import_places *p, const struct ss_target *t,
				const struct ss_kmem_rec *rec);
/* kmalloc objects of class size and flags gfp; the cache called name. */
uint32_t ss_import_place_kmalloc(struct ss_import_places *p, uint32_t gfp, uint64_t size);
uint32_t ss_import_place_cache(struct ss_import_places *p, const char *name);
/* The place the events give snapshot cache c's objects ("k FLAGS SIZE"
 * for a kmalloc cache of its type's flags, "c NAME" for the others), or
 * SS_IMPORT_NO_PLACE when that place does not lead back to c. */
uint32_t ss_import_place_of_snap_cache(struct ss_import_places *p, uint32_t c);
/* Place k's snapshot cache (for a kmalloc type the snapshot lacks, the
 * plain class) and its index, NULL and -1 when none; its slab order, -1
 * unknown.  Looked up once per place. */
const struct ss_snap_cache *ss_import_place_snap_cache(struct ss_import_places *p, uint32_t k);
int32_t ss_import_place_snap_index(struct ss_import_places *p, uint32_t k);
int ss_import_place_order(struct ss_import_places *p, uint32_t k);
/* Place k as a prior free names it: a cache (name), or kmalloc ("") of
 * *size bytes and flags *gfp. */
void ss_import_place_decode(const struct ss_import_places *p, uint32_t k,
			    char name[SS_IMPORT_CACHE_NAME], uint64_t *size, uint32_t *gfp);
/* Place k's cache name (a kmalloc place by its 6.x type name); false
 * when k is neither kind. */
bool ss_import_place_cache_name(const struct ss_import_places *p, uint32_t k,
				char name[SS_IMPORT_CACHE_NAME]);
/* Whether place k is kmalloc objects, and then their flags and size. */
bool ss_import_place_kmalloc_class(const struct ss_import_places *p, uint32_t k,
				   unsigned *gfp, unsigned long long *size);
void ss_import_places_release(struct ss_import_places *p);

/* ---- the direct map's base, from the page frees (pagefree.c) ---- */

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
	uint64_t *last_free;	/* learn pass, per CPU: its last event's freed pointer */
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
/* The learn pass: one record of the capture, whatever its kind. */
int ss_import_pagefree_learn(struct ss_import_pagefree *pf, int kind,
			     const struct ss_kmem_rec *rec);
/* After the learn pass: the base, if the pairs agree on one. */
void ss_import_pagefree_finish(struct ss_import_pagefree *pf);
/* The offset of struct page `page`'s frame from the direct map's base
 * (its pfn << 12, through the vmemmap learned); false when the vmemmap is
 * not known or page is none of its struct pages. */
bool ss_import_pagefree_frame(const struct ss_import_pagefree *pf, uint64_t page, uint64_t *off);
/* With a slab-fill file (snap's caches' fill[] pages and bases) and the
 * vmemmap learned: the direct map's base exactly, from each listed slab's
 * struct page and pages, instead of the votes.  Whether it was taken (no
 * vmemmap, no fill, or slabs that disagree: not). */
bool ss_import_pagefree_fill(struct ss_import_pagefree *pf, const struct ss_snap *snap);
/* The direct-map address of a page free's first page; false without a
 * base. */
bool ss_import_pagefree_addr(const struct ss_import_pagefree *pf, const struct ss_kmem_rec *rec,
			     uint64_t *addr);
void ss_import_pagefree_release(struct ss_import_pagefree *pf);

/* ---- the CPU slabs' free slots at the start (cpuslab.c) ---- */

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

/* ---- what the learn pass finds (learn.c) ---- */

/* One call site's frees of objects the capture saw allocated: n at
 * place key. */
struct ss_import_share {
	uint32_t key;
	uint64_t n;
};
struct ss_import_site {
	struct ss_import_share *c;
	uint32_t nr, cap;
	uint64_t total;
};

/* Read-only once the learn pass is over: every reading pass reads it. */
struct ss_import_learned {
	bool raw;		   /* raw pointers: a slab is an address rounded down */
	struct ss_strtab sites;	   /* free call sites */
	struct ss_import_site *site; /* parallel to sites */
	uint32_t cap_site;
	/* raw pointer of an unknown kfree -> the place its slab held when it
	 * was freed + 1 (0: not known then, nor placed by the stride rule) */
	struct ss_ptrmap owner;
	struct ss_ptrmap untraced; /* pointers freed twice with no allocation between */
	struct ss_strtab caches;   /* cache names, with their first record */
	struct ss_kmem_rec *first;
	uint32_t cap_caches;
	/* with --slab-fill: slab base | order -> its place in its cache's
	 * listing + 1 (id; site: the snapshot cache) */
	struct ss_ptrmap listed;
	bool fill;
	struct ss_import_pagefree pagefree;
	struct ss_import_cpuslab cpuslab; /* for meta cpu_slab_free */
	uint64_t listed_frees;	   /* kfrees whose owner is their listed slab's cache */
	uint64_t vector_frees;	   /* obj_exts vectors placed after a kfree */
	/* kmallocs and kfrees at the obj_exts vector sites (slab_vector.h),
	 * and whether any site was named: a kernel that charged objects
	 * shows some (meta slab_vectors) */
	uint64_t slab_vectors;
	bool named_sites;
	uint64_t stride_frees, stride_slabs; /* placed by the stride rule */
};

struct ss_import_run;
/* Number the slabs the slab-fill file lists (ss_snap_take_fill) by their
 * place on their cache's list, before the learn pass.  -1 out of memory. */
int ss_import_learn_listed(struct ss_import_learned *l, const struct ss_snap *snap);
/* The learn pass over r's input, then the stride rule and the direct
 * map's base.  0, or -1 with err. */
int ss_import_learn(struct ss_import_run *r, struct ss_error *err);
/* The place an unknown kfree of raw pointer ptr had (learned.owner), or
 * SS_IMPORT_NO_PLACE. */
uint32_t ss_import_learned_owner(const struct ss_import_learned *l, uint64_t ptr);
/* The first allocation record of a cache, or NULL. */
const struct ss_kmem_rec *ss_import_learned_first(const struct ss_import_learned *l,
						  const char *cache);
void ss_import_learned_release(struct ss_import_learned *l);

/* The stride rule (stride.c): unknown kfree()s of raw pointers classed by
 * their offsets in their slabs, the kmalloc type by the before-snapshot's
 * slabs left.  Fewest pointers of a slab to class it. */
#define SS_STRIDE_MIN_GROUP 6
/* kmalloc classes a site's frees are classed into, at most (there are ~14) */
#define SS_STRIDE_MAX_CLASSES 32
struct ss_import_stride {
	uint64_t *taken;     /* per snapshot cache: slabs seen held or given */
	uint64_t *seen;      /* per snapshot cache: slabs the learn pass saw held */
	uint64_t frees, slabs; /* placed by the rule */
	const struct ss_snap *snap;
	struct ss_import_places *places;
	const struct ss_ptrmap *slab_owner; /* slab base | order -> place last seen there */
	struct ss_ptrmap *owner;	    /* learned.owner: the rule's places go there */
};
int ss_import_stride_begin(struct ss_import_stride *s, const struct ss_snap *snap,
			   struct ss_import_places *places, const struct ss_ptrmap *slab_owner,
			   struct ss_ptrmap *owner);
/* One site's pointers (sorted in place): record the frees it classes.
 * gfp: the site's kmalloc family where the capture saw it (SS_GFP_*
 * flags of its learned frees), or -1 to choose one. */
int ss_import_stride_site(struct ss_import_stride *s, const struct ss_target *t, uint64_t *ptr,
			  uint32_t n, int64_t gfp);
void ss_import_stride_release(struct ss_import_stride *s);

#endif
