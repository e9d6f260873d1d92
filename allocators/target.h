/* target.h - the machine and kernel era a run models.
 *
 * A target is a small key=value file under allocators/targets/ (see
 * docs/targets.md).  It fixes everything the SLUB rules depend on: pointer
 * size, page size, cache line, the arch minimum alignments, the CPU count
 * the kernel sees, the clock used to turn cycles into time, and the era
 * whose rules apply.
 */
#ifndef SS_TARGET_H
#define SS_TARGET_H

#include <stdbool.h>

#include "error.h"
#include "kconfig.h"

/* Kernel eras as major*100+minor, and 2.6.N as 200+N (2.6.16 = 216: the
 * 2.6 series numbered its releases in the third place; every 2.6.N sorts
 * below 3.0 = 300).  Rules switch on thresholds:
 *  < 406  : 3.10-4.5 debug paths (checks for any debug flag, no cmpxchg)
 *  >= 406 : Abbott series (checks only with F, cmpxchg kept for P/Z)
 *  >= 507 : free pointer mid-object (ALIGN_DOWN(object_size/2, W))
 *  >= 511 : calculate_order() counts num_present_cpus() (the single
 *            fraction loop came in 6.7: see slab_order.h for the finer
 *            thresholds the geometry uses)
 *  >= 512 : deactivate_slab() splices the CPU freelist with one cmpxchg
 *  >= 516 : per-CPU partial lists bounded in slabs (cpu_partial_slabs)
 *  >= 601 : debug caches allocate single objects from node partial list
 *  >= 608 : CPU-partial slabs are not frozen (delayed freezing)
 *  >= 611 : kmalloc align = largest power of two dividing size
 *  >= 700 : sheaves for every cache, no CPU slabs (docs/sheaves.md)
 */
#define SS_ERA_2_6_0 200
#define SS_ERA_2_6_16 216
#define SS_ERA_3_0 300
#define SS_ERA_3_10 310
#define SS_ERA_4_5 405
#define SS_ERA_4_6 406
#define SS_ERA_5_7 507
#define SS_ERA_5_11 511
#define SS_ERA_5_12 512
#define SS_ERA_5_16 516
#define SS_ERA_6_1 601
#define SS_ERA_6_8 608
#define SS_ERA_6_11 611
/* Eras of the allocators and options of kconfig.h (docs/strategies.md);
 * SLUB's finer thresholds are in slab_order.h. */
#define SS_ERA_2_6_18 218 /* SLAB: local offslab_limit, slab_early_init */
#define SS_ERA_2_6_22 222 /* SLAB: kmalloc up to KMALLOC_MAX_SIZE (4 MiB) */
#define SS_ERA_3_9 309	  /* common kmalloc-N caches (kmalloc-96, -192) */
#define SS_ERA_3_13 313	  /* SLAB: struct slab folded into struct page */
#define SS_ERA_3_15 315	  /* SLAB: byte freelist index, off-slab from 128 */
#define SS_ERA_3_18 318	  /* SLAB: common cache merging */
#define SS_ERA_5_3 503	  /* init_on_alloc / init_on_free */
#define SS_ERA_5_9 509	  /* memcg: per-object obj_cgroup vectors */
#define SS_ERA_5_12 512	  /* KFENCE */
#define SS_ERA_5_14 514	  /* kmalloc-cg-N */
#define SS_ERA_6_6 606	  /* CONFIG_RANDOM_KMALLOC_CACHES */
#define SS_ERA_6_10 610	  /* slabobj_ext vectors (alloc_slab_obj_exts) */
#define SS_ERA_6_12 612	  /* kmalloc-N unmergeable with MEMCG */
#define SS_ERA_6_18 618	  /* per-CPU sheaves and the barn */
/* 7.0: SLUB without struct kmem_cache_cpu ("slab: replace cpu (partial)
 * slabs with sheaves", 32c894c7274b and its series): every cache but the
 * bootstrap and debug ones caches objects in per-CPU sheaves and a
 * per-node barn; calculate_sheaf_capacity() sizes them; no CPU partial
 * lists (cpu_partial 0); orig_size a word; freeptr_offset also for
 * constructor caches.  docs/sheaves.md. */
#define SS_ERA_7_0 700

/* Target parameters declared as inferred (`inferred.KEY = evidence`):
 * values not known from the machine but deduced, e.g. from a seed's own
 * figures, so that a report can list them beside the fitted constants. */
#define SS_TARGET_MAX_INFERRED 4

struct ss_target_inferred {
	char key[32];	    /* a target key, e.g. "cache_line" */
	char evidence[512]; /* why the value is what it is */
};

struct ss_target {
	char name[64];
	unsigned ptr_size;	 /* W = sizeof(void *) */
	unsigned page_size;	 /* PAGE_SIZE */
	unsigned cache_line;	 /* cache_line_size(), for SLAB_HWCACHE_ALIGN */
	unsigned dma_minalign;	 /* ARCH_DMA_MINALIGN (sets KMALLOC_MIN_SIZE) */
	unsigned slab_minalign;	 /* ARCH_SLAB_MINALIGN */
	unsigned cpus;		 /* num_present_cpus(): the CPUs that run */
	unsigned nr_cpu_ids;	 /* possible CPUs; 0 = the same as cpus */
	unsigned nodes;		 /* NUMA nodes (1 unless a topology says more) */
	int era;		 /* see SS_ERA_* */
	unsigned clock_mhz;	 /* converts model cycles to ns */
	unsigned clock_mhz_low;	 /* the range the clock, an estimate, may */
	unsigned clock_mhz_high; /* take (0 0: none given) */
	unsigned track_size;	 /* sizeof(struct track) for SLAB_STORE_USER */
	unsigned slub_min_order; /* slub_min_order= (default 0) */
	unsigned slub_max_order; /* slub_max_order= (default 3) */
	unsigned slub_min_objects; /* slub_min_objects= (0 = computed) */
	bool large_in_slab_stat; /* kmalloc_large pages count as SUnreclaim */
	struct ss_kconfig kc;	 /* allocator and kernel options (kconfig.h) */
	bool cmpxchg_double;	 /* CONFIG_HAVE_CMPXCHG_DOUBLE && ALIGNED_STRUCT_PAGE */
	unsigned ninferred;
	struct ss_target_inferred inferred[SS_TARGET_MAX_INFERRED];
};

/* nr_cpu_ids: the possible CPUs (never fewer than the present ones). */
unsigned ss_target_nr_cpu_ids(const struct ss_target *t);

/* Fill *t with the documented defaults (x86_64, 6.x) before parsing. */
void ss_target_defaults(struct ss_target *t);

/* Load a target by name (allocators/targets/NAME.target, searched under
 * $SLABSIM_HOME or the directory of the executable's source tree) or by
 * path (anything containing '/').  Unknown keys and bad values are errors
 * naming file:line. */
int ss_target_load(const char *name_or_path, struct ss_target *t,
		   struct ss_error *err);

/* Parse one target file by path. */
/* The shipped target names (allocators/targets/NAME.target, found as
 * ss_target_load() finds one), sorted, as "a b c" in buf; "" when none
 * is found. */
void ss_target_names(char *buf, size_t n);

int ss_target_parse_file(const char *path, struct ss_target *t,
			 struct ss_error *err);

/* The value of target key `key` as a target file would write it; -1 for
 * an unknown key. */
int ss_target_key_value(const struct ss_target *t, const char *key,
			char *buf, unsigned long n);

/* Era as printed in outputs, e.g. "3.10", "6.11". */
void ss_era_str(int era, char *buf, unsigned long n);
/* Parse "3.10" / "4.6" / "6.1" into an era number; -1 if malformed. */
int ss_era_parse(const char *s);

#endif
