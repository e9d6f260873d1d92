/* account.h - where the live bytes are while the replay runs.
 *
 * The end of a run is summed from the model's cache reports (totals.h);
 * the peak cannot be: the footprint's largest value is reached mid-trace
 * (hackbench's 21-35 MB live at once, ~0 at the end).  So the replay
 * keeps, per event and in O(1):
 *
 *   - running totals of the live objects' requested, allocated (the
 *     cache's object_size), alignment and debug bytes, of slab pages and
 *     slab tails (Lpadd), and of kmalloc_large pages.  Per event only
 *     the requested bytes move: the other three are a cache's live
 *     objects times its stride parts, folded into the totals when they
 *     are read (ss_account_now: the peak, which moves only where slab
 *     pages do), for the caches whose count moved since (a->dirty: at
 *     most one entry per event in between, so the fold costs O(1) per
 *     event however many caches there are);
 *   - the peak footprint (as summary.csv defines footprint_kib) with
 *     those totals at the moment it was first reached;
 *   - per (allocation site, cache) pair: allocations, frees, cumulative
 *     requested and allocated (object_size each) bytes (`perf kmem stat
 *     --caller`'s Total_req; its Total_alloc counts s->size, the stride),
 *     cross-CPU frees (its Ping-pong), live
 *     objects with their requested, rounding, alignment and debug bytes,
 *     and the most objects live at once (sites.csv, docs/outputs.md);
 *   - a cache's objects from the kernel's initial state (run
 *     --initial-state, reconcile/recon.h) as one more pair per cache,
 *     site SS_ACCT_PRIOR: live like the trace's own, taken out by prior
 *     frees, so that the running totals end where the model's reports do.
 *
 * Memory is O(caches + site pairs).  The per-cache geometry is read once,
 * from the model's cache report, the first time a cache index is seen;
 * a slab cache's geometry never changes after kmem_cache_create().
 */
#ifndef SS_ACCOUNT_H
#define SS_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "memcap.h"
#include "model.h"
#include "recon.h"

/* Pseudo cache indexes of site rows for what has no slab cache. */
#define SS_ACCT_LARGE 0xfffffffeu /* kmalloc_large(): pages from the buddy */
#define SS_ACCT_ZERO 0xfffffffdu  /* kmalloc(0): ZERO_SIZE_PTR, no memory */
/* Pseudo site of the objects a cache held before the trace. */
#define SS_ACCT_PRIOR 0xffffffffu
#define SS_ACCT_PRIOR_NAME "(initial state)"

struct ss_acct_cache {
	uint32_t object_size, size_nodebug, slab_size, order;
	uint32_t align_each, debug_each; /* per object: stride parts */
	uint64_t lpadd;	   /* bytes after the last slot of one slab */
	/* pages a cache holds beside its slabs, all slab tail, while it holds
	 * any: KFENCE's pool leads with a guard pair no slot uses */
	uint64_t pool_pages;
	uint64_t pages;	   /* pages held, as memcap last saw them */
	uint64_t prior;	   /* initial-state objects live, as last counted */
	uint64_t live;	   /* the trace's objects live in the cache */
	uint64_t folded;   /* live + prior as the account's byte totals count them */
	bool known;
	bool dirty;	   /* on a->dirty: live + prior moved since the fold */
};

/* One (site, cache) pair.  Counts of allocations and of frees; bytes of
 * each, so that what is live is allocated - freed.  allocated and
 * freed_allocated are kept only for a pair with no slab cache (kmalloc_large,
 * kmalloc(0)): a slab cache's object_size is read once and never changes
 * in the account, so its pairs' are their counts times it, computed where
 * they are read (ss_account_site_allocated) instead of added per event. */
struct ss_acct_site {
	uint32_t site, cache; /* trace name index; model cache or SS_ACCT_* */
	uint32_t next;	      /* next pair of the same site + 1, 0 = none */
	uint64_t allocs, frees, requested, allocated, cross_cpu, peak_live;
	uint64_t freed_requested, freed_allocated;
};

/* The byte parts of the footprint at one moment (see totals.h). */
struct ss_acct_bytes {
	uint64_t footprint, requested, allocated, align, debug, slab_tail;
	uint64_t events; /* events replayed when it was taken */
};

struct ss_account {
	const struct ss_model_desc *desc;
	const struct ss_model *model;
	const struct ss_recon *recon;
	uint64_t page_size;
	bool large_counted; /* kmalloc_large pages count as slab memory */
	struct ss_acct_cache *cache;
	uint32_t nr_caches;
	uint32_t *site_head; /* per trace name index: first pair + 1 */
	uint32_t nr_heads;
	uint32_t prior_head; /* the SS_ACCT_PRIOR pairs' chain */
	struct ss_acct_site *site;
	uint32_t nr_sites, cap_sites;
	uint32_t *dirty;   /* caches whose live + prior moved since the fold */
	uint32_t nr_dirty, cap_dirty;
	/* live totals over slab objects; large ones apart.  allocated,
	 * align and debug as of the last fold (ss_acct_cache.folded) */
	uint64_t requested, allocated, align, debug, slab_tail, slab_pages;
	uint64_t large_requested, large_pages;
	struct ss_acct_bytes peak;
};

/* recon: where the caches' initial-state objects are counted
 * (reconcile/recon.h ss_recon_objects), or NULL: none. */
int ss_account_init(struct ss_account *a, const struct ss_model_desc *desc,
		    const struct ss_model *model, const struct ss_recon *recon,
		    const struct ss_target *t);
void ss_account_release(struct ss_account *a);

/* The rare cases of the two below: a new cache or site pair, a pair
 * not first in its site's chain, slab pages that changed, kmalloc_large
 * and kmalloc(0).  The peak is looked at after a free too: with sheaves
 * (6.18) a free into a full sheaf when the barn has no empty one
 * allocates a sheaf (free_to_pcs() -> __pcs_replace_full_main() ->
 * alloc_empty_sheaf(), a kmalloc), which may take a new slab. */
int ss_account_slow(struct ss_account *a, const struct ss_memcap *mem,
		    struct ss_obj *obj, int dir, unsigned free_cpu,
		    uint64_t events);

/* The pair of a slab object (its index in a->site) when it heads its
 * site's chain, else UINT32_MAX.  A slab cache's pair is made only after
 * its geometry was read (ss_account_slow): where there is the pair, there
 * is the geometry. */
static inline uint32_t ss_account_pair(const struct ss_account *a, uint32_t site,
				       uint32_t cache)
{
	uint32_t i;

	if (site >= a->nr_heads || !a->site_head[site])
		return UINT32_MAX;
	i = a->site_head[site] - 1;
	return a->site[i].cache == cache ? i : UINT32_MAX;
}

/* obj's pair, its site and cache set */
static inline uint32_t ss_account_head(const struct ss_account *a,
				       const struct ss_obj *obj)
{
	return ss_account_pair(a, obj->site, obj->cache);
}

/* The cache's geometry when read already, else NULL. */
static inline struct ss_acct_cache *ss_account_geo(const struct ss_account *a,
						   uint32_t c)
{
	return c < a->nr_caches && a->cache[c].known ? &a->cache[c] : NULL;
}

/* Cache c's live + prior moved: its bytes are folded in when read. */
static inline void ss_account_touch(struct ss_account *a, struct ss_acct_cache *k,
				    uint32_t c)
{
	if (!k->dirty) {
		k->dirty = true;
		a->dirty[a->nr_dirty++] = c; /* room: cap_dirty >= nr_caches */
	}
}

/* The bytes pair s allocated (object_size each for a slab cache's pair). */
static inline uint64_t ss_account_site_allocated(const struct ss_account *a,
						 const struct ss_acct_site *s)
{
	const struct ss_acct_cache *k = ss_account_geo(a, s->cache);

	return k ? s->allocs * k->object_size : s->allocated;
}

/* The common case of ss_account_alloc: a slab object, no pages moved
 * (mem->slab_pages == a->slab_pages), its pair i = ss_account_head(). */
static inline void ss_account_alloc_pair(struct ss_account *a, struct ss_obj *obj, uint32_t i)
{
	struct ss_acct_cache *k;
	struct ss_acct_site *s;

	obj->acct = i;
	s = &a->site[i];
	k = &a->cache[obj->cache]; /* known: its pair exists (ss_account_head) */
	k->live++;
	ss_account_touch(a, k, obj->cache);
	a->requested += obj->size;
	s->allocs++;
	s->requested += obj->size;
	if (s->allocs - s->frees > s->peak_live)
		s->peak_live = s->allocs - s->frees;
}

/* After the model placed obj and memcap noted it; events = events
 * replayed before this one.  Sets obj->acct, its pair, for its free.  -1
 * when out of memory.  Inline: it runs for every allocation (O(1): a
 * running total, the cache's count, one site pair). */
static inline int ss_account_alloc(struct ss_account *a,
				   const struct ss_memcap *mem,
				   struct ss_obj *obj, uint64_t events)
{
	uint32_t i;

	if (obj->state != SS_OBJ_LIVE || mem->slab_pages != a->slab_pages ||
	    (i = ss_account_head(a, obj)) == UINT32_MAX)
		return ss_account_slow(a, mem, obj, 1, 0, events);
	ss_account_alloc_pair(a, obj, i);
	return 0;
}

/* The common case of ss_account_free: a slab object, no pages moved;
 * remote: freed on another CPU than its allocation's. */
static inline void ss_account_free_live(struct ss_account *a, struct ss_obj *obj, bool remote)
{
	struct ss_acct_cache *k;
	struct ss_acct_site *s;

	s = &a->site[obj->acct];
	k = &a->cache[obj->cache]; /* known: its pair exists */
	k->live--;
	ss_account_touch(a, k, obj->cache);
	a->requested -= obj->size;
	s->frees++;
	s->freed_requested += obj->size;
	s->cross_cpu += remote;
}

/* After the model freed obj and memcap noted it, before the engine
 * clears the record (obj->acct is then still the pair of its alloc);
 * events as for ss_account_alloc (a free can add pages: below). */
static inline int ss_account_free(struct ss_account *a,
				  const struct ss_memcap *mem,
				  struct ss_obj *obj, unsigned free_cpu, uint64_t events)
{
	if (obj->state != SS_OBJ_LIVE || mem->slab_pages != a->slab_pages)
		return ss_account_slow(a, mem, obj, -1, free_cpu, events);
	ss_account_free_live(a, obj, obj->cpu != free_cpu);
	return 0;
}

/* Cache c changed outside an operation on a trace object: the model
 * added initial-state objects or grew the cache's object_size for a merged
 * alias (op->resync: the geometry and the objects are read again), or a
 * prior free (one = 1) took an initial-state object out.  After memcap noted the operation.
 * -1 when out of memory. */
int ss_account_prior(struct ss_account *a, const struct ss_memcap *mem,
		     uint32_t c, int one, uint64_t events);

/* The footprint now, as summary.csv's footprint_kib counts it (bytes). */
uint64_t ss_account_footprint(const struct ss_account *a);
/* The same parts now, large pages included when they are counted. */
void ss_account_now(const struct ss_account *a, struct ss_acct_bytes *b);

/* Site pairs, ordered by site name then cache name (indexes into a->site). */
int ss_account_sorted(const struct ss_account *a,
		      const struct ss_trace_tables *tables, uint32_t **order);
/* The site name of a pair: the trace's, or SS_ACCT_PRIOR_NAME. */
const char *ss_account_site_name(const struct ss_acct_site *s,
				 const struct ss_trace_tables *tables);
/* The cache name of a pair ("kmalloc_large", "ZERO_SIZE_PTR" for the
 * pseudo caches). */
const char *ss_account_cache_name(const struct ss_account *a,
				  const struct ss_acct_site *s);

#endif
