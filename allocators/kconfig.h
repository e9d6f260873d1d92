/* kconfig.h - the kernel configuration a run models beyond the machine:
 * which slab allocator, and the options that change where objects go or
 * what each operation costs, by their Kconfig names (CONFIG_*) and boot
 * parameters (docs/strategies.md lists every one with its kernel source).
 *
 * A target file sets them (`allocator = slab`, `CONFIG_MEMCG = y`), and a
 * run overrides them with --allocator and --config "K=V,K=V".  The struct
 * lives in struct ss_target (target.h), so every model sees it.
 */
#ifndef SS_KCONFIG_H
#define SS_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum ss_allocator {
	SS_ALLOCATOR_SLUB,	/* mm/slub.c (CONFIG_SLUB) */
	SS_ALLOCATOR_SLUB_TINY, /* CONFIG_SLUB_TINY (6.2+) */
	SS_ALLOCATOR_SLAB,	/* mm/slab.c (CONFIG_SLAB, 2.6.16 .. 6.7) */
	SS_NR_ALLOCATORS
};

/* Caches created with a sheaf capacity (struct kmem_cache_args, 6.18). */
#define SS_MAX_SHEAF_CACHES 8
struct ss_sheaf_cap {
	char name[48];
	unsigned capacity;
};

/* Call sites whose kmalloc goes to one kmem_buckets set (6.11+): the
 * sites' names start with one of the prefixes ("alloc_msg" matches
 * "alloc_msg+0x5a/0x120").  docs/strategies.md explains the defaults. */
#define SS_MAX_BUCKET_SETS 4
#define SS_MAX_BUCKET_SITES 8
struct ss_bucket_set {
	char name[24];		/* "memdup_user" -> caches memdup_user-N */
	bool account;		/* created with SLAB_ACCOUNT (msg_msg) */
	unsigned nr_sites;
	char site[SS_MAX_BUCKET_SITES][48];
};

struct ss_kconfig {
	enum ss_allocator allocator;
	bool memcg;		/* CONFIG_MEMCG: kmem accounting */
	/* memcg_kmem_online() (6.3+; memcg_kmem_enabled() before): a
	 * memory cgroup below the root is online, so accounted objects are
	 * charged and their slabs get obj_cgroup vectors; with none (every
	 * task in the root cgroup) CONFIG_MEMCG only routes them to
	 * kmalloc-cg-N.  Default y: a machine whose tasks run in cgroups */
	bool memcg_kmem_online;
	bool zone_dma;		/* CONFIG_ZONE_DMA: dma-kmalloc-N */
	bool random_kmalloc;	/* CONFIG_RANDOM_KMALLOC_CACHES (6.6+) */
	uint64_t random_seed;	/* random_kmalloc_seed (boot-random; fixed here) */
	bool slab_buckets;	/* CONFIG_SLAB_BUCKETS (6.11+) */
	bool init_on_alloc;	/* init_on_alloc= / CONFIG_INIT_ON_ALLOC_DEFAULT_ON */
	bool init_on_free;	/* init_on_free= / CONFIG_INIT_ON_FREE_DEFAULT_ON */
	bool kfence;		/* CONFIG_KFENCE (5.12+) */
	unsigned kfence_interval_ms; /* kfence.sample_interval (default 100) */
	unsigned kfence_objects;     /* CONFIG_KFENCE_NUM_OBJECTS (default 255) */
	bool cpu_partial;	/* CONFIG_SLUB_CPU_PARTIAL (default y) */
	bool nomerge;		/* slab_nomerge (slub_nomerge before 3.18): no alias */
	bool max_order_given;	/* slub_max_order= came from --config */
	bool hardening_given;	/* RANDOM_KMALLOC_CACHES / SLAB_BUCKETS from --config */
	bool memcg_given;	/* CONFIG_MEMCG from --config (over an initial state's) */
	bool memcg_kmem_given;	/* memcg_kmem_online from --config (over a capture's) */
	unsigned nr_sheaf;
	struct ss_sheaf_cap sheaf[SS_MAX_SHEAF_CACHES];
	unsigned nr_buckets;
	struct ss_bucket_set buckets[SS_MAX_BUCKET_SETS];
};

struct ss_target;

/* The defaults: SLUB, every option as the kernel's own default (MEMCG
 * off so that targets without it keep their kmalloc classes). */
void ss_kconfig_defaults(struct ss_kconfig *kc);

/* "slub", "slub-tiny", "slab" <-> enum; parse returns -1 if unknown. */
const char *ss_allocator_name(enum ss_allocator a);
int ss_allocator_parse(const char *s, enum ss_allocator *out);

/* Set one option KEY to VAL on t (kernel options, boot parameters,
 * sheaf_capacity.NAME, kmem_buckets.NAME).  Returns 0, 1 if KEY is not a
 * kernel option (the caller may know it), or -1 with why (n bytes) set. */
int ss_kconfig_set(struct ss_target *t, const char *key, const char *val,
		   char *why, size_t n);

/* A --config list "K=V,K=V" (a key alone means K=y).  -1 with err. */
int ss_kconfig_apply_list(struct ss_target *t, const char *list,
			  struct ss_error *err);

/* After the target file, --allocator and --config: the settings that
 * follow from others (SLUB_TINY's slub_max_order 1), and the options that
 * the target's era or allocator does not have.  -1 with err. */
int ss_kconfig_finish(struct ss_target *t, struct ss_error *err);

/* The options that differ from ss_kconfig_defaults(), as "K=V,K=V"
 * ("" if none), for outputs. */
void ss_kconfig_str(const struct ss_kconfig *kc, char *buf, size_t n);

/* The sheaf capacity of cache `name` on t (0: none), as the kernel that
 * creates it passes it (maple_node, vm_area_struct: 32 in 6.18). */
unsigned ss_kconfig_sheaf_capacity(const struct ss_target *t, const char *name);

#endif
