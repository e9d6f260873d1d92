/* model_batch.h - the batch replay a model may implement (model.h
 * batch): events taken many at a time by the model's own loop, which
 * completes the common ones itself -- the model's part and the engine's
 * books both -- and hands every other event to the engine's own paths
 * (ss_books event), exactly as a run without the loop takes it.  A call
 * per event through the model's operations would be a large share of a
 * few dozen instructions per event (docs/bench.md); the loop keeps the
 * books inline instead.
 *
 * The books are the engine's (sim/): the object table (objtable.h), the
 * memory total (memcap.h), the account's site pairs (account.h), the
 * contention engine (contention.h, contention_swap.h here), the latency
 * histograms and the clocks.  Their state is defined here, below the
 * engine, so that a model's loop can update it; the engine's functions
 * on it stay in sim/.  A model's loop must leave the books exactly as the
 * engine's paths would have (test_replay_fast.c compares the two).
 */
#ifndef SS_MODEL_BATCH_H
#define SS_MODEL_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "contention_swap.h"
#include "error.h"
#include "histogram.h"
#include "model.h"
#include "topology.h"
#include "trace.h"

struct ss_recon; /* reconcile/recon.h: the engine's, for the account */

/* ---- the object table (sim/objtable.h) ---- */

struct ss_objtable {
	struct ss_obj *objs;
	uint64_t nr;  /* slots in use: ids below it have a slot, zeroed at first */
	uint64_t cap; /* largest id + 1 allowed */
	uint64_t live;
	uint64_t peak_live;
	/* objs is a reservation of cap slots (sim/objtable.c): pages the kernel
	 * gives zeroed as they are first touched, so growing is moving nr,
	 * no copy and no memset; else (the reservation refused) realloc */
	int reserved;
};

/* ---- the memory total (sim/memcap.h) ---- */

struct ss_memcap {
	uint64_t max_bytes;	/* the cap; 0 until ss_memcap_init */
	uint64_t page_size;
	uint64_t slab_pages, large_bytes;
};

/* ---- the account (sim/account.h) ---- */

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

/* ---- the latency histograms ---- */

/* llround() of an operation's (non-negative) cycles without the libm
 * call, exact below 2^53: the replay rounds once per alloc and per free.
 * With whole-number prices (most steps) the cycles are an integer
 * already, and one conversion back says so. */
static inline uint64_t ss_round_cycles(double c)
{
	int64_t whole = (int64_t)c; /* one instruction, unlike a uint64_t */

	if ((double)whole == c)
		return (uint64_t)whole;
	if (!(c >= 0.5))
		return 0;
	return (uint64_t)whole + (c - (double)whole >= 0.5);
}

/* Add an operation's cycles to h: most operations of a run cost what the
 * one before did, so the bucket of the last value is kept (memo_c the
 * cycles, memo_b the bucket) and the rounding and bucket search skipped. */
static inline void ss_hist_add_cycles(struct ss_hist *h, double *memo_c, size_t *memo_b,
				      double c)
{
	if (c != *memo_c) {
		*memo_c = c;
		*memo_b = ss_hist_bucket(ss_round_cycles(c));
	}
	h->count[*memo_b]++;
	h->total++;
}

/* ---- the books and the batch operations ---- */

/* Object-table slots this many events ahead are prefetched: with many live
 * objects the slot is otherwise a cache miss per event (docs/bench.md).
 * A batch of events holds this many initialised events past its end
 * (read, never used). */
#define SS_PREFETCH_AHEAD 8

/* What the engine lends a model's batch replay: its books for the events
 * the loop completes, the run's set-up, and its own path for the others. */
struct ss_books {
	struct ss_objtable objs;
	struct ss_memcap mem; /* simulated memory vs --max-memory (set max_bytes
			       * before ss_run_init; 0 = the default cap) */
	struct ss_account acct; /* live bytes, the peak, per-site counts */
	double *cpu_cycles; /* simulated clock of each CPU */
	struct ss_contention cont; /* waits and retries (sim/contention.h) */
	struct ss_hist alloc_hist, free_hist;
	double alloc_cycles, free_cycles;
	uint64_t events; /* replayed so far (the loop keeps it up to date
			  * where a path of the engine reads it) */
	double hist_memo_c[2];	 /* alloc, free: the last cycles added ... */
	size_t hist_memo_b[2];	 /* ... and their histogram bucket (an index
				  * as wide as an address: no widening per use) */
	/* the run's set-up, read only */
	const double *cost;		      /* the cost table's prices */
	const struct ss_trace_tables *tables;
	const struct ss_topology *topo;
	uint32_t same_cpus;	 /* trace CPUs below this are their own PU */
	/* the loop's build for AVX may run (set where the CPU has AVX; a
	 * test clears it for the baseline build) */
	bool avx;
	/* One event through the engine's own paths, as a run without the
	 * loop takes it; b->events is its number.  0, or -1 with err. */
	int (*event)(struct ss_books *b, const struct ss_event *ev, struct ss_error *err);
	/* The rest of an alloc or a free (ev, b->events its number) the loop
	 * made itself through the model's whole path, an operation op with
	 * its steps, uses and pages, on an object the engine's checks would
	 * pass (an id in the table, free for an alloc and live for a free,
	 * a size its cache takes): what the engine does after a model's
	 * alloc or free -- the memory total, the account, the object's
	 * record, the contention, the clocks, the histogram.  An alloc with
	 * op NULL failed in the model (err): the engine words it with the
	 * event's place.  0, or -1 with err. */
	int (*alloc_done)(struct ss_books *b, const struct ss_event *ev, struct ss_obj *obj,
			  struct ss_op *op, struct ss_error *err);
	int (*free_done)(struct ss_books *b, const struct ss_event *ev, struct ss_obj *obj,
			 struct ss_op *op, struct ss_error *err);
};

/* The object-table slot of the event SS_PREFETCH_AHEAD after e, fetched. */
static inline void ss_books_prefetch(const struct ss_books *b, const struct ss_event *e)
{
	/* integer arithmetic: the id may be past the table */
	__builtin_prefetch((const void *)((uintptr_t)b->objs.objs +
					  e[SS_PREFETCH_AHEAD].id * sizeof(struct ss_obj)));
}

/* A model's batch replay (model.h batch).  Every event either completed
 * by the loop or handed to b->event, in trace order; b->events counts
 * them. */
struct ss_model_batch {
	/* Events e up to stop (SS_PREFETCH_AHEAD more after it, unused):
	 * NULL, or the event that failed (err set). */
	const struct ss_event *(*events)(struct ss_model *m, struct ss_books *b,
					 const struct ss_event *e, const struct ss_event *stop,
					 struct ss_error *err);
	/* Up to max events of r, a version-2 binary trace
	 * (ss_trace_has_records), read in place, for a run whose every trace
	 * CPU is its own PU (same_cpus covers the map): the events replayed,
	 * *end set at the trace's end, or -1 with err. */
	int64_t (*records)(struct ss_model *m, struct ss_books *b, struct ss_trace_reader *r,
			   uint64_t max, int *end, struct ss_error *err);
};

#endif
