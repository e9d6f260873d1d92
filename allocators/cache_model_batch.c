/* cache_model_batch.c - the cache model's batch replay (model_batch.h):
 * its loop calls the plain SLUB caches (cache_model_fast.h) inline, for a
 * model without per-object hooks (ss_cmodel fast) in a run without timed
 * work.
 *
 * An alloc from the CPU's freelist and a free along SLUB's lock-free
 * paths -- most events of a replay -- are priced here on the cycles in
 * a register: no struct ss_op is set up, filled in memory and read back,
 * and the free's one cmpxchg goes to the contention engine as arguments
 * (contention_swap.h).  Whether an event takes that way is decided before
 * anything changes; every other event, and every other shape of these
 * two, goes through the engine's own paths (ss_books event) exactly as
 * in a run of any other model.  The counts, cycles and uses are those the
 * general paths give: the same steps in the same order from the same 0
 * (docs/bench.md; test_replay_fast.c compares the two).
 */
#include <stdlib.h>

#include "cache_model_fast.h"
#include "contention_swap.h"
#include "model_batch.h"
#include "trace_records.h"

#if defined(__x86_64__) && defined(__SSE2__)
#define SS_HAVE_AVX_LOOP 1 /* the in-place loop built for AVX too */
#endif

/* An operation's one cmpxchg (f->swapped) on the clocks: c->swap, inline;
 * a retry is counted in cache k and priced onto f->cycles.  0, or -1 out
 * of memory. */
static inline __attribute__((always_inline)) int
place_swap(struct ss_books *b, struct ss_kcache *k, unsigned cpu, const double *cost,
	   struct ss_lockfree *f, struct ss_error *err)
{
	int rc = ss_contend_swap_at(&b->cont, cpu, &f->swapped->freelist,
				    &k->res[SS_KRES_CMPXCHG], f->read_at,
				    cost[SS_STEP_CMPXCHG_DOUBLE], cost[SS_STEP_CMPXCHG_RETRY]);

	if (rc) {
		if (rc < 0)
			return ss_errorf(err, "out of memory");
		k->stats[SS_STEP_CMPXCHG_RETRY]++;
		f->cycles += cost[SS_STEP_CMPXCHG_RETRY];
	}
	return 0;
}

/* The end of an alloc into plain cache k (index ci) of obj, at site's
 * pair: the record, the totals, the clocks and the histogram, once the
 * path priced it (f). */
static inline __attribute__((always_inline)) int
plain_alloc_done(struct ss_books *b, struct ss_kcache *k, int ci, struct ss_slab *sl,
		 struct ss_obj *obj, uint32_t pair, unsigned cpu, struct ss_lockfree *f,
		 struct ss_error *err)
{
	ss_cmodel_placed(k, ci, obj, sl);
	ss_account_alloc_pair(&b->acct, obj, pair);
	if (++b->objs.live > b->objs.peak_live)
		b->objs.peak_live = b->objs.live;
	if (f->swapped && k->notes_swaps && place_swap(b, k, cpu, b->cost, f, err))
		return -1;
	b->alloc_cycles += f->cycles;
	b->cpu_cycles[cpu] += f->cycles;
	ss_hist_add_cycles(&b->alloc_hist, &b->hist_memo_c[0], &b->hist_memo_b[0], f->cycles);
	return 1;
}

/* ___slab_alloc()'s lock-free refill of slab sl (ss_kcache_refill_slab)
 * for an alloc plain_alloc() found no object on c->freelist for: out of
 * line, so that the common alloc keeps its registers.  As plain_alloc(). */
static __attribute__((noinline)) int
plain_alloc_refill(struct ss_books *b, struct ss_kcache *k, int ci, struct ss_slab *sl,
		   struct ss_obj *obj, uint32_t pair, unsigned cpu, uint32_t site, uint64_t size,
		   struct ss_error *err)
{
	struct ss_lockfree f = {.cycles = 0};

	obj->size = size;
	obj->cpu = (uint16_t)cpu;
	obj->site = site;
	ss_kcache_alloc_refill(k, cpu, sl, b->cost, &f);
	return plain_alloc_done(b, k, ci, sl, obj, pair, cpu, &f, err);
}

/* plain_alloc() of a kmalloc (api SS_API_KMALLOC) or of a named cache's
 * object: kmalloc a constant where it is inlined, so that each case is
 * straight code. */
static inline __attribute__((always_inline)) int
plain_alloc_as(struct ss_books *b, struct ss_cmodel *cm, struct ss_site_route *routes,
	       unsigned cpu, struct ss_obj *obj, bool kmalloc, uint32_t api, uint32_t gfp,
	       uint32_t site, uint64_t size, struct ss_error *err)
{
	struct ss_lockfree f = {.swapped = NULL};
	struct ss_kcache *k;
	struct ss_slab *sl;
	uint32_t pair;
	int ci;

	struct ss_site_route *memo = NULL;
	uint64_t key = 0;

	if (b->mem.slab_pages != b->acct.slab_pages)
		return 0;
	if (!gfp && site < SS_ROUTE_MEMO_SITES && api < 128 && size < (UINT64_C(1) << 56)) {
		memo = &routes[site];
		key = (size << 8) | (api << 1) | 1;
		/* (a pair, once made, keeps its index: it need not head
		 * the site's chain, which only speeds the search) */
		if (memo->key == key) {
			k = memo->k;
			ci = memo->ci;
			pair = memo->pair;
			goto routed;
		}
	}
	if (!kmalloc && size > b->tables->caches[api].object_size)
		return 0;
	ci = ss_cmodel_route_of(cm, kmalloc ? SS_API_KMALLOC : api, gfp, size);
	if (ci < 0 || !(k = cm->plain[ci]) ||
	    (pair = ss_account_pair(&b->acct, site, (uint32_t)ci)) == UINT32_MAX)
		return 0;
	if (memo) /* (api, size) -> ci is fixed once memoized, and so is plain[ci] */
		*memo = (struct ss_site_route){.key = key, .k = k, .pair = pair, .ci = ci};
routed:
	if (!(sl = ss_kcache_fast_slab(k, cpu)))
		return (sl = ss_kcache_refill_slab(k, cpu)) ?
			       plain_alloc_refill(b, k, ci, sl, obj, pair, cpu, site, size, err) : 0;
	obj->size = size;
	obj->cpu = (uint16_t)cpu;
	obj->site = site;
	f.cycles = ss_price_from_0(ss_kcache_alloc_fast(k, sl, b->cost));
	return plain_alloc_done(b, k, ci, sl, obj, pair, cpu, &f, err);
}

/* An alloc that slab_alloc_node()'s fast path serves from a plain cache
 * (or its lock-free refill), a slab object whose (site, cache) pair
 * heads its site's chain, with no pages moved since the totals last
 * looked: 1 done, 0 not this way (nothing changed), -1 out of memory. */
static inline __attribute__((always_inline)) int
plain_alloc(struct ss_books *b, struct ss_cmodel *cm, struct ss_site_route *routes, unsigned cpu,
	    uint64_t id, uint32_t api, uint32_t gfp, uint32_t site, uint64_t size,
	    struct ss_error *err)
{
	struct ss_obj *obj;

	if (id >= b->objs.nr)
		return 0;
	obj = &b->objs.objs[id];
	if (obj->state != SS_OBJ_FREE)
		return 0;
	return api == SS_API_KMALLOC
		       ? plain_alloc_as(b, cm, routes, cpu, obj, true, api, gfp, site, size, err)
		       : plain_alloc_as(b, cm, routes, cpu, obj, false, api, gfp, site, size, err);
}

/* plain_free() of obj, live, freed on another CPU or not (remote: a
 * constant where it is inlined, so that each case is straight code). */
static inline __attribute__((always_inline)) int
plain_free_obj(struct ss_books *b, struct ss_cmodel *cm, unsigned cpu, struct ss_obj *obj,
	       bool remote, int multi, struct ss_error *err)
{
	const double *cost = b->cost;
	struct ss_lockfree f;
	struct ss_kcache *k;

	if (!(k = ss_cmodel_plain_of(cm, obj)))
		return 0;
	if (!ss_cmodel_free_priced(k, cpu, obj, remote, cost, &f))
		return 0;
	ss_account_free_live(&b->acct, obj, remote);
	obj->freed = obj->state;
	obj->free_cpu = (uint16_t)cpu;
	obj->state = SS_OBJ_FREE;
	obj->slab = NULL;
	b->objs.live--;
	/* multi: several CPUs (the cache's notes_swaps), a constant where the
	 * run's topology is known to the loop, else -1 */
	if (f.swapped && (multi < 0 ? k->notes_swaps : multi) &&
	    place_swap(b, k, cpu, cost, &f, err))
		return -1;
	b->free_cycles += f.cycles;
	b->cpu_cycles[cpu] += f.cycles;
	ss_hist_add_cycles(&b->free_hist, &b->hist_memo_c[1], &b->hist_memo_b[1], f.cycles);
	return 1;
}

/* A free of a live object of a plain cache along SLUB's lock-free paths
 * (ss_cmodel_free_priced), no pages moved since the totals last looked:
 * 1 done, 0 not this way (nothing changed), -1 out of memory. */
static inline __attribute__((always_inline)) int
plain_free(struct ss_books *b, struct ss_cmodel *cm, unsigned cpu, uint64_t id, int multi,
	   struct ss_error *err)
{
	struct ss_obj *obj;

	if (id >= b->objs.nr)
		return 0;
	obj = &b->objs.objs[id];
	if (obj->state != SS_OBJ_LIVE || b->mem.slab_pages != b->acct.slab_pages)
		return 0;
	return obj->cpu != cpu ? plain_free_obj(b, cm, cpu, obj, true, multi, err)
			       : plain_free_obj(b, cm, cpu, obj, false, multi, err);
}

/* An alloc or a free of a plain cache that the two above leave (SLUB's
 * slow paths: ___slab_alloc(), __slab_free() that moves the slab or takes
 * list_lock), through the model's whole inline path with an operation,
 * the engine completing the event (ss_books alloc_done, free_done);
 * anything else, an event the engine's checks would refuse included, to
 * the engine's own paths.  0, or -1 with err.  Out of line: the common
 * events keep their registers. */
static __attribute__((noinline)) int plain_op(struct ss_books *b, struct ss_cmodel *cm,
					      const struct ss_event *ev, struct ss_error *err)
{
	struct ss_obj *obj = ev->id < b->objs.nr ? &b->objs.objs[ev->id] : NULL;
	struct ss_kcache *k;
	struct ss_op op;
	int c;

	if (!obj || ev->cpu >= b->same_cpus)
		return b->event(b, ev, err);
	ss_op_init(&op, b->cost);
	if (ev->kind == SS_EV_ALLOC) {
		if (obj->state != SS_OBJ_FREE ||
		    (ev->api != SS_API_KMALLOC && ev->value > b->tables->caches[ev->api].object_size) ||
		    !(k = ss_cmodel_fast_cache(cm, ev, &c)))
			return b->event(b, ev, err);
		obj->size = ev->value;
		obj->cpu = (uint16_t)ev->cpu;
		obj->site = ev->site;
		if (ss_cmodel_alloc_plain(k, c, ev, obj, &op, err))
			return b->alloc_done(b, ev, obj, NULL, err);
		return b->alloc_done(b, ev, obj, &op, err);
	}
	if (ev->kind != SS_EV_FREE || obj->state != SS_OBJ_LIVE ||
	    !ss_cmodel_free_plain(cm, ev->cpu, obj, &op))
		return b->event(b, ev, err);
	return b->free_done(b, ev, obj, &op, err);
}

/* The PU of trace CPU cpu, as replay.c's replay_mapped takes it (most
 * maps send CPU c to PU c: same_cpus), or UINT32_MAX for a CPU outside
 * the topology, which replay.c words. */
static inline unsigned pu_of(const struct ss_books *b, unsigned cpu)
{
	if (cpu < b->same_cpus)
		return cpu;
	if (cpu < b->topo->nr_map && b->topo->cpu_map[cpu] != SS_NO_PU)
		return b->topo->cpu_map[cpu];
	return UINT32_MAX;
}

/* The route memo by site, made at the loop's first call: 0, or -1 with
 * err. */
static int route_memo(struct ss_cmodel *cm, struct ss_error *err)
{
	if (!cm->route_memo &&
	    !(cm->route_memo = calloc(SS_ROUTE_MEMO_SITES, sizeof(*cm->route_memo))))
		return ss_errorf(err, "out of memory");
	return 0;
}

/* model_batch.h events. */
static const struct ss_event *cm_batch_events(struct ss_model *m, struct ss_books *b,
					      const struct ss_event *e,
					      const struct ss_event *stop, struct ss_error *err)
{
	struct ss_cmodel *cm = (struct ss_cmodel *)m;
	struct ss_site_route *routes;

	if (route_memo(cm, err))
		return e;
	routes = cm->route_memo;
	for (; e < stop; e++) {
		unsigned pu = pu_of(b, e->cpu);
		int rc = 0;

		ss_books_prefetch(b, e);
		if (pu != UINT32_MAX) {
			if (e->kind == SS_EV_ALLOC)
				rc = plain_alloc(b, cm, routes, pu, e->id, e->api, e->gfp,
						 e->site, e->value, err);
			else if (e->kind == SS_EV_FREE)
				rc = plain_free(b, cm, pu, e->id, -1, err);
		}
		if (!rc)
			rc = plain_op(b, cm, e, err) ? -1 : 1;
		if (rc < 0)
			return e;
		b->events++;
	}
	return NULL;
}

/* The object-table slot of the record after the one at p (len bytes):
 * its id is in the same bytes whatever its kind, and a LONG record's
 * bytes there make a harmless prefetch. */
static inline void prefetch_next(const struct ss_books *b, const uint8_t *p, unsigned len)
{
	/* integer arithmetic: the id may be past the table */
	__builtin_prefetch((const void *)((uintptr_t)b->objs.objs +
					  ss_rec_id(ss_bin_le32(p + len)) * sizeof(struct ss_obj)));
}

/* The records of rec up to n events, the common ones straight from their
 * words: the events taken (a record the loop does not take stops it). */
static inline __attribute__((always_inline)) size_t
replay_records(struct ss_books *b, struct ss_cmodel *cm, struct ss_trace_records *rec, size_t n,
	       int *failed, int multi, struct ss_error *err)
{
	const uint8_t *p = rec->p;
	/* (loaded once: the loop keeps it, not cm, at hand) */
	struct ss_site_route *routes = cm->route_memo;
	/* b->events is i past it: set where a path reads it (the engine's:
	 * messages, the peak's event) and at the end, not per event */
	uint64_t events = b->events;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t w = ss_bin_le64(p);
		unsigned tag = (uint8_t)w;
		struct ss_event ev;
		int rc = 0;

		if (tag < SS_BIN2_ALLOC_TAG) {
			prefetch_next(b, p, 4);
			if (tag < b->same_cpus)
				rc = plain_free(b, cm, tag, ss_rec_id(w), multi, err);
			if (!rc) /* a free's site, api and value are unspecified */
				ev = (struct ss_event){.kind = SS_EV_FREE, .cpu = tag,
						       .id = ss_rec_id(w)};
			p += 4;
		} else if (tag < SS_BIN2_LONG_TAG) {
			unsigned cpu = tag - SS_BIN2_ALLOC_TAG;
			uint32_t site = ss_rec_site(w), api = ss_rec_api(w);

			if (site >= rec->site_lim[api])
				break; /* ss_trace_next() words it */
			prefetch_next(b, p, 8);
			if (cpu < b->same_cpus)
				rc = plain_alloc(b, cm, routes, cpu, ss_rec_id(w), api, 0, site,
						 ss_rec_size(w), err);
			if (!rc)
				ev = (struct ss_event){.kind = SS_EV_ALLOC, .cpu = cpu,
						       .id = ss_rec_id(w), .site = site,
						       .api = api, .value = ss_rec_size(w)};
			p += 8;
		} else if (ss_rec_work(&p, rec->end, rec->nr_names, &ev)) {
			/* longer than 8 bytes: the records after it are not
			 * all safe any more, so the loop stops after it */
			n = i + 1;
		} else {
			break;
		}
		if (!rc) {
			b->events = events + i;
			rc = plain_op(b, cm, &ev, err) ? -1 : 1;
		}
		if (rc < 0) {
			*failed = 1;
			break;
		}
	}
	b->events = events + i;
	rec->p = p;
	return i;
}

/* model_batch.h records, built twice below. */
static inline __attribute__((always_inline)) int64_t
plain_trace(struct ss_books *b, struct ss_cmodel *cm, struct ss_trace_reader *r, uint64_t max,
	    int *end, int multi, struct ss_error *err)
{
	uint64_t done = 0;

	while (done < max) {
		struct ss_trace_records rec;
		struct ss_event ev;
		int rc, failed = 0;

		if (ss_trace_records_open(r, &rec)) {
			size_t safe = ss_trace_records_safe(&rec), n;

			if (safe > max - done)
				safe = (size_t)(max - done);
			n = replay_records(b, cm, &rec, safe, &failed, multi, err);
			ss_trace_records_close(r, rec.p, (unsigned)n + (unsigned)failed);
			if (failed)
				return -1;
			done += n;
			if (n) /* (a record it did not take stops the next one at once) */
				continue;
		}
		if (done == max)
			break;
		/* anything else, one event, as the batch reader would give it */
		rc = ss_trace_next(r, &ev, err);
		if (rc <= 0) {
			*end = 1;
			return rc < 0 ? -1 : (int64_t)done;
		}
		if (b->event(b, &ev, err))
			return -1;
		b->events++;
		done++;
	}
	return (int64_t)done;
}

static int64_t plain_trace_base(struct ss_books *b, struct ss_cmodel *cm, struct ss_trace_reader *r,
				uint64_t max, int *end, struct ss_error *err)
{
	/* every cache of the model is on the run's topology (cfg.topo) */
	return b->topo->nr_cpus > 1 ? plain_trace(b, cm, r, max, end, 1, err)
				    : plain_trace(b, cm, r, max, end, 0, err);
}

#ifdef SS_HAVE_AVX_LOOP
/* The same source built for AVX where the CPU has it: the free's ring
 * test (contention_swap.h) takes the ring's swaps straight from memory
 * in three-operand compares, and the prices need fewer register copies.
 * The same operations on the same doubles (no FMA: AVX has none), so the
 * same figures. */
static __attribute__((target("avx"))) int64_t
plain_trace_avx(struct ss_books *b, struct ss_cmodel *cm, struct ss_trace_reader *r, uint64_t max,
		int *end, struct ss_error *err)
{
	/* every cache of the model is on the run's topology (cfg.topo) */
	return b->topo->nr_cpus > 1 ? plain_trace(b, cm, r, max, end, 1, err)
				    : plain_trace(b, cm, r, max, end, 0, err);
}
#endif

/* model_batch.h records. */
static int64_t cm_batch_records(struct ss_model *m, struct ss_books *b, struct ss_trace_reader *r,
				uint64_t max, int *end, struct ss_error *err)
{
	struct ss_cmodel *cm = (struct ss_cmodel *)m;

	if (route_memo(cm, err))
		return -1;
#ifdef SS_HAVE_AVX_LOOP
	if (b->avx)
		return plain_trace_avx(b, cm, r, max, end, err);
#endif
	return plain_trace_base(b, cm, r, max, end, err);
}

static const struct ss_model_batch cm_batch_ops = {
	.events = cm_batch_events,
	.records = cm_batch_records,
};

const struct ss_model_batch *ss_cmodel_batch(struct ss_model *m)
{
	return ((const struct ss_cmodel *)m)->fast ? &cm_batch_ops : NULL;
}
