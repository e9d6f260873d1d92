/* kmalloc_type.h - which kmalloc cache family a request goes to:
 * kmalloc_type() of include/linux/slab.h per era (dma-kmalloc-N,
 * kmalloc-rcl-N from 4.20, kmalloc-cg-N from 5.14, the random copies
 * kmalloc-rnd-NN-N of CONFIG_RANDOM_KMALLOC_CACHES from 6.6) and the
 * kmem_buckets sets of 6.11 (memdup_user-N, msg_msg-N), with the names
 * and creation arguments of each family (create_kmalloc_caches(),
 * new_kmalloc_cache(), kmem_buckets_create(); mm/slab_common.c).
 */
#ifndef SS_KMALLOC_TYPE_H
#define SS_KMALLOC_TYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geometry.h"
#include "target.h"

/* RANDOM_KMALLOC_CACHES_NR: copies besides kmalloc-N. */
#define SS_RANDOM_KMALLOC_NR 15

enum {
	SS_KT_NORMAL,
	SS_KT_DMA,
	SS_KT_RECLAIM,
	SS_KT_CGROUP,
	SS_KT_RANDOM,			/* kmalloc-rnd-01 .. -15 */
	SS_KT_BUCKET = SS_KT_RANDOM + SS_RANDOM_KMALLOC_NR,
	SS_NR_KT = SS_KT_BUCKET + SS_MAX_BUCKET_SETS,
};

/* The simulator's stand-in for the caller's address: a 64-bit FNV-1a of
 * the site's name (an imported site keeps its +offset/size, so two call
 * sites in one function differ as their addresses would). */
uint64_t ss_site_hash(const char *site);

/* The type of a kmalloc request with no DMA, RECLAIMABLE or ACCOUNT
 * bit: a kmem_buckets set if the site uses one (CONFIG_SLAB_BUCKETS),
 * else a random copy (CONFIG_RANDOM_KMALLOC_CACHES: hash_64(caller ^
 * random_kmalloc_seed, ilog2(RANDOM_KMALLOC_CACHES_NR + 1))), else
 * normal.  Depends only on the site: callers memoize it. */
unsigned ss_kmalloc_site_type(const struct ss_target *t, const char *site);

/* kmalloc_type() for a request with gfp bits (SS_GFP_*) set: DMA wins,
 * then (4.20+) RECLAIMABLE, then (5.14+, CONFIG_MEMCG) ACCOUNT; bits the
 * era or configuration has no cache for leave it normal. */
unsigned ss_kmalloc_gfp_type(const struct ss_target *t, uint32_t gfp);

/* Name of kmalloc class idx in family `type` ("kmalloc-cg-64",
 * "dma-kmalloc-1k", "size-64(DMA)", "kmalloc-rnd-07-96", "msg_msg-8k"). */
void ss_kmalloc_type_name(const struct ss_target *t, unsigned type, int idx,
			  char *buf, size_t n);

/* How class idx of family `type` is created: its spec (with debug), and
 * whether it is created SLAB_ACCOUNT (memcg vectors with every slab) or
 * cannot be a merge target (SLAB_NO_MERGE or flags that must match). */
void ss_kmalloc_type_spec(const struct ss_target *t, unsigned type, int idx,
			  unsigned debug, struct ss_cache_spec *spec,
			  bool *account, bool *nomerge);

#endif
