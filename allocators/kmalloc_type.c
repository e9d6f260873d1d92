/* kmalloc_type.c - kmalloc cache families (kmalloc_type.h). */
#include "kmalloc_type.h"

#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "kmalloc.h"
#include "slab_order.h"

/* GOLDEN_RATIO_64 of include/linux/hash.h; hash_64(val, bits). */
#define GOLDEN_RATIO_64 0x61C8864680B583EBull

static unsigned hash_64(uint64_t val, unsigned bits)
{
	return (unsigned)((val * GOLDEN_RATIO_64) >> (64 - bits));
}

uint64_t ss_site_hash(const char *site)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */

	for (const unsigned char *p = (const unsigned char *)site; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* A bucket set's site "alloc_msg" matches "alloc_msg" and
 * "alloc_msg+0x5a/0x120", not "alloc_msgs". */
static bool site_matches(const char *site, const char *pattern)
{
	size_t n = strlen(pattern);

	return !strncmp(site, pattern, n) && (site[n] == '\0' || site[n] == '+');
}

unsigned ss_kmalloc_site_type(const struct ss_target *t, const char *site)
{
	const struct ss_kconfig *kc = &t->kc;

	if (kc->slab_buckets)
		for (unsigned b = 0; b < kc->nr_buckets; b++)
			for (unsigned i = 0; i < kc->buckets[b].nr_sites; i++)
				if (site_matches(site, kc->buckets[b].site[i]))
					return SS_KT_BUCKET + b;
	if (kc->random_kmalloc) {
		/* ilog2(RANDOM_KMALLOC_CACHES_NR + 1) = 4 bits: 0 is kmalloc-N */
		unsigned k = hash_64(ss_site_hash(site) ^ kc->random_seed, 4);

		return k ? SS_KT_RANDOM + k - 1 : SS_KT_NORMAL;
	}
	return SS_KT_NORMAL;
}

unsigned ss_kmalloc_gfp_type(const struct ss_target *t, uint32_t gfp)
{
	const struct ss_kconfig *kc = &t->kc;
	/* KMALLOC_RECLAIM exists from 4.20, and is KMALLOC_NORMAL under
	 * SLUB_TINY; KMALLOC_CGROUP from 5.14 with MEMCG */
	bool have_rcl = t->era >= SS_ERA_4_20 && kc->allocator != SS_ALLOCATOR_SLUB_TINY;
	bool have_cg = t->era >= SS_ERA_5_14 && kc->memcg;

	if (kc->zone_dma && (gfp & SS_GFP_DMA))
		return SS_KT_DMA;
	if (t->era < SS_ERA_5_14) /* 4.20: DMA, else RECLAIMABLE, else normal */
		return have_rcl && (gfp & SS_GFP_RECLAIMABLE) ? SS_KT_RECLAIM : SS_KT_NORMAL;
	/* 5.14+: KMALLOC_NOT_NORMAL_BITS hold ACCOUNT only with MEMCG */
	if (!(gfp & SS_GFP_RECLAIMABLE) && !(have_cg && (gfp & SS_GFP_ACCOUNT)))
		return SS_KT_NORMAL;
	if (!have_cg || (gfp & SS_GFP_RECLAIMABLE))
		return have_rcl ? SS_KT_RECLAIM : SS_KT_NORMAL;
	return SS_KT_CGROUP;
}

void ss_kmalloc_type_name(const struct ss_target *t, unsigned type, int idx,
			  char *buf, size_t n)
{
	char base[48];
	const char *suffix;

	ss_kmalloc_class_name(t, idx, base, sizeof(base));
	suffix = !strncmp(base, "kmalloc-", 8) ? base + 8 : base;
	if (type == SS_KT_NORMAL)
		snprintf(buf, n, "%s", base);
	else if (type == SS_KT_DMA && !strncmp(base, "size-", 5))
		snprintf(buf, n, "%s(DMA)", base); /* SLAB before 3.9 */
	else if (type == SS_KT_DMA)
		snprintf(buf, n, "dma-%s", base);
	else if (type == SS_KT_RECLAIM)
		snprintf(buf, n, "kmalloc-rcl-%s", suffix);
	else if (type == SS_KT_CGROUP)
		snprintf(buf, n, "kmalloc-cg-%s", suffix);
	else if (type < SS_KT_BUCKET)
		snprintf(buf, n, "kmalloc-rnd-%02u-%s", type - SS_KT_RANDOM + 1, suffix);
	else
		snprintf(buf, n, "%s-%s", t->kc.buckets[type - SS_KT_BUCKET].name, suffix);
}

void ss_kmalloc_type_spec(const struct ss_target *t, unsigned type, int idx,
			  unsigned debug, struct ss_cache_spec *spec,
			  bool *account, bool *nomerge)
{
	ss_kmalloc_spec(t, idx, debug, spec);
	*account = false;
	/* SLAB_CACHE_DMA, SLAB_RECLAIM_ACCOUNT and SLAB_ACCOUNT are in
	 * SLAB_MERGE_SAME: no cache of a trace carries them; the random
	 * copies and bucket sets are SLAB_NO_MERGE; with MEMCG the normal
	 * caches too (new_kmalloc_cache(), 6.12+) */
	*nomerge = type != SS_KT_NORMAL ||
		   (t->kc.memcg && t->era >= SS_ERA_6_12);
	switch (type) {
	case SS_KT_NORMAL:
		spec->flags |= SS_CF_KMALLOC_NORMAL;
		break;
	case SS_KT_RECLAIM:
		spec->flags |= SS_CF_RECLAIM_ACCOUNT;
		break;
	case SS_KT_CGROUP:
		*account = true;
		break;
	default:
		if (type >= SS_KT_BUCKET) {
			/* kmem_buckets_create(): kmem_cache_create_usercopy(name,
			 * size, 0, flags | SLAB_NO_MERGE, ...): align 0, not a
			 * SLAB_KMALLOC cache */
			spec->align = 0;
			spec->flags = 0;
			*account = t->kc.buckets[type - SS_KT_BUCKET].account;
		}
		break;
	}
}
