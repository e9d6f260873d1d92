/* override.h - placement overrides: a change to where some allocations go,
 * applied on top of any model's own placement.  What `slabsim advise`
 * proposes and replays, and what `slabsim run --place FILE` reads
 * (docs/advise.md has the file format):
 *
 *   site NAME cache=CACHE size=N [align=A] [flags=hwcache,...]
 *        the site's allocations go to a dedicated cache, created with
 *        these kmem_cache_create() arguments and never merged (as with
 *        SLAB_NO_MERGE or slub_nomerge); sites naming the same CACHE share it
 *   site NAME into=CACHE
 *        ... to an existing cache: a kmalloc class of the target
 *        ("kmalloc-32") or a cache the trace declares (what SLUB merging
 *        does to a dedicated cache)
 *   site NAME buckets=SET
 *        ... through their own kmem_buckets (kmem_buckets_create(), 6.11):
 *        a private copy SET-<size> of each kmalloc class, never merged
 *   classes N,N,... [minalign=A]
 *        the kmalloc classes (ascending multiples of 8 up to the target's
 *        largest class) and their ARCH_KMALLOC_MINALIGN, instead of the
 *        target's
 */
#ifndef SS_OVERRIDE_H
#define SS_OVERRIDE_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "geometry.h"
#include "trace.h"

#define SS_OV_MAX_CLASSES 64
#define SS_OV_NAME_MAX 64 /* cache and bucket set names, with the '\0' */

enum ss_ov_kind { SS_OV_CACHE, SS_OV_INTO, SS_OV_BUCKETS };

struct ss_ov_rule {
	char *site;		   /* the allocation site's name */
	enum ss_ov_kind kind;
	char cache[SS_OV_NAME_MAX]; /* CACHE, existing cache, or bucket set */
	struct ss_cache_spec spec;  /* SS_OV_CACHE: object_size, align, flags */
	unsigned long line;	   /* line in the file (0: made in memory) */
};

struct ss_overrides {
	char path[256];		/* the file, for errors ("" in memory) */
	struct ss_ov_rule *rule;
	unsigned nr, cap;
	unsigned classes[SS_OV_MAX_CLASSES]; /* ascending; nr_classes 0: the target's */
	unsigned nr_classes;
	unsigned minalign;	/* 0: the target's ARCH_KMALLOC_MINALIGN */
	unsigned long classes_line;
};

/* Read a placement file into *ov (zeroed first).  Errors name FILE:LINE:
 * syntax, a site given twice, a cache named twice with other arguments,
 * classes not ascending multiples of 8. */
int ss_overrides_load(struct ss_overrides *ov, const char *path,
		      struct ss_error *err);

/* Build one in memory (the advisor).  -1 with err on the same mistakes. */
int ss_overrides_add(struct ss_overrides *ov, const char *site,
		     enum ss_ov_kind kind, const char *cache,
		     const struct ss_cache_spec *spec, struct ss_error *err);
int ss_overrides_set_classes(struct ss_overrides *ov, const unsigned *classes,
			     unsigned n, unsigned minalign, struct ss_error *err);

/* The rule for site, or -1. */
int ss_overrides_find(const struct ss_overrides *ov, const char *site);

/* Write *ov in the file format above; 0, or -1 (the stream's error). */
int ss_overrides_write(const struct ss_overrides *ov, FILE *fp);

/* "FILE:LINE: " for messages about rule i (or the classes line, i < 0). */
void ss_overrides_where(const struct ss_overrides *ov, int i, char *buf,
			size_t n);

void ss_overrides_release(struct ss_overrides *ov);

#endif
