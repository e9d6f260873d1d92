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
#include "model_batch.h"
#include "recon.h"

/* Pseudo cache indexes of site rows for what has no slab cache. */
#define SS_ACCT_LARGE 0xfffffffeu /* kmalloc_large(): pages from the buddy */
#define SS_ACCT_ZERO 0xfffffffdu  /* kmalloc(0): ZERO_SIZE_PTR, no memory */
/* Pseudo site of the objects a cache held before the trace. */
#define SS_ACCT_PRIOR 0xffffffffu
#define SS_ACCT_PRIOR_NAME "(initial state)"

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
