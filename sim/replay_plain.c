/* replay_plain.c - the replay loop of a cache model whose plain SLUB
 * caches (allocators/cache_model_fast.h) it calls inline, without timed
 * work (run->cm set, run->ticks clear).
 *
 * An alloc from the CPU's freelist and a free along SLUB's lock-free
 * paths -- most events of a replay -- are priced here on the cycles in
 * a register: no struct ss_op is set up, filled in memory and read back,
 * and the free's one cmpxchg goes to the contention engine as arguments
 * (c->swap).  Whether an event takes that way is decided before anything
 * changes; every other event, and every other shape of these two, goes
 * through replay.c's paths (ss_replay_event) exactly as in a run of any
 * other model.  The counts, cycles and uses are those the general paths
 * give: the same steps in the same order from the same 0 (docs/bench.md,
 * speed6).
 */
#include "replay_int.h"

#include "cache_model_fast.h"
#include "contention_swap.h"
#include "trace_records.h"

#if defined(__x86_64__) && defined(__SSE2__)
#define SS_HAVE_AVX_LOOP 1 /* the in-place loop built for AVX too */
#endif

/* An operation's one cmpxchg (f->swapped) on the clocks: c->swap, inline;
 * a retry is counted in cache k and priced onto f->cycles.  0, or -1 out
 * of memory. */
static inline __attribute__((always_inline)) int
place_swap(struct ss_run *run, struct ss_kcache *k, unsigned cpu, const double *cost,
	   struct ss_lockfree *f, struct ss_error *err)
{
	int rc = ss_contend_swap_at(&run->cont, cpu, &f->swapped->freelist,
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
plain_alloc_done(struct ss_run *run, struct ss_kcache *k, int ci, struct ss_slab *sl,
		 struct ss_obj *obj, uint32_t pair, unsigned cpu, struct ss_lockfree *f,
		 struct ss_error *err)
{
	ss_cmodel_placed(k, ci, obj, sl);
	ss_account_alloc_pair(&run->acct, obj, pair);
	if (++run->objs.live > run->objs.peak_live)
		run->objs.peak_live = run->objs.live;
	if (f->swapped && k->notes_swaps && place_swap(run, k, cpu, run->costs->cycles, f, err))
		return -1;
	run->alloc_cycles += f->cycles;
	run->cpu_cycles[cpu] += f->cycles;
	ss_hist_add_cycles(&run->alloc_hist, &run->hist_memo_c[0], &run->hist_memo_b[0], f->cycles);
	return 1;
}

/* ___slab_alloc()'s lock-free refill of slab sl (ss_kcache_refill_slab)
 * for an alloc plain_alloc() found no object on c->freelist for: out of
 * line, so that the common alloc keeps its registers.  As plain_alloc(). */
static __attribute__((noinline)) int
plain_alloc_refill(struct ss_run *run, struct ss_kcache *k, int ci, struct ss_slab *sl,
		   struct ss_obj *obj, uint32_t pair, unsigned cpu, uint32_t site, uint64_t size,
		   struct ss_error *err)
{
	struct ss_lockfree f = {.cycles = 0};

	obj->size = size;
	obj->cpu = (uint16_t)cpu;
	obj->site = site;
	ss_kcache_alloc_refill(k, cpu, sl, run->costs->cycles, &f);
	return plain_alloc_done(run, k, ci, sl, obj, pair, cpu, &f, err);
}

/* plain_alloc() of a kmalloc (api SS_API_KMALLOC) or of a named cache's
 * object: kmalloc a constant where it is inlined, so that each case is
 * straight code. */
static inline __attribute__((always_inline)) int
plain_alloc_as(struct ss_run *run, struct ss_cmodel *cm, unsigned cpu, struct ss_obj *obj,
	       bool kmalloc, uint32_t api, uint32_t gfp, uint32_t site, uint64_t size,
	       struct ss_error *err)
{
	struct ss_lockfree f = {.swapped = NULL};
	struct ss_kcache *k;
	struct ss_slab *sl;
	uint32_t pair;
	int ci;

	struct ss_site_route *memo = NULL;
	uint64_t key = 0;

	if (run->mem.slab_pages != run->acct.slab_pages)
		return 0;
	if (!gfp && site < SS_ROUTE_MEMO_SITES && api < 128 && size < (UINT64_C(1) << 56)) {
		memo = &run->route_memo[site];
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
	if (!kmalloc && size > run->tables->caches[api].object_size)
		return 0;
	ci = ss_cmodel_route_of(cm, kmalloc ? SS_API_KMALLOC : api, gfp, size);
	if (ci < 0 || !(k = cm->plain[ci]) ||
	    (pair = ss_account_pair(&run->acct, site, (uint32_t)ci)) == UINT32_MAX)
		return 0;
	if (memo) /* (api, size) -> ci is fixed once memoized, and so is plain[ci] */
		*memo = (struct ss_site_route){.key = key, .k = k, .pair = pair, .ci = ci};
routed:
	if (!(sl = ss_kcache_fast_slab(k, cpu)))
		return (sl = ss_kcache_refill_slab(k, cpu)) ?
			       plain_alloc_refill(run, k, ci, sl, obj, pair, cpu, site, size, err) : 0;
	obj->size = size;
	obj->cpu = (uint16_t)cpu;
	obj->site = site;
	f.cycles = ss_price_from_0(ss_kcache_alloc_fast(k, sl, run->costs->cycles));
	return plain_alloc_done(run, k, ci, sl, obj, pair, cpu, &f, err);
}

/* An alloc that slab_alloc_node()'s fast path serves from a plain cache
 * (or its lock-free refill), a slab object whose (site, cache) pair
 * heads its site's chain, with no pages moved since the totals last
 * looked: 1 done, 0 not this way (nothing changed), -1 out of memory. */
static inline __attribute__((always_inline)) int
plain_alloc(struct ss_run *run, struct ss_cmodel *cm, unsigned cpu, uint64_t id, uint32_t api,
	    uint32_t gfp, uint32_t site, uint64_t size, struct ss_error *err)
{
	struct ss_obj *obj;

	if (id >= run->objs.nr)
		return 0;
	obj = &run->objs.objs[id];
	if (obj->state != SS_OBJ_FREE)
		return 0;
	return api == SS_API_KMALLOC
		       ? plain_alloc_as(run, cm, cpu, obj, true, api, gfp, site, size, err)
		       : plain_alloc_as(run, cm, cpu, obj, false, api, gfp, site, size, err);
}

/* plain_free() of obj, live, freed on another CPU or not (remote: a
 * constant where it is inlined, so that each case is straight code). */
static inline __attribute__((always_inline)) int
plain_free_obj(struct ss_run *run, struct ss_cmodel *cm, unsigned cpu, struct ss_obj *obj,
	       bool remote, int multi, struct ss_error *err)
{
	const double *cost = run->costs->cycles;
	struct ss_lockfree f;
	struct ss_kcache *k;

	if (!(k = ss_cmodel_free_priced(cm, cpu, obj, remote, cost, &f)))
		return 0;
	ss_account_free_live(&run->acct, obj, remote);
	obj->freed = obj->state;
	obj->free_cpu = (uint16_t)cpu;
	obj->state = SS_OBJ_FREE;
	obj->slab = NULL;
	run->objs.live--;
	/* multi: several CPUs (the cache's notes_swaps), a constant where the
	 * run's topology is known to the loop, else -1 */
	if (f.swapped && (multi < 0 ? k->notes_swaps : multi) &&
	    place_swap(run, k, cpu, cost, &f, err))
		return -1;
	run->free_cycles += f.cycles;
	run->cpu_cycles[cpu] += f.cycles;
	ss_hist_add_cycles(&run->free_hist, &run->hist_memo_c[1], &run->hist_memo_b[1], f.cycles);
	return 1;
}

/* A free of a live object of a plain cache along SLUB's lock-free paths
 * (ss_cmodel_free_priced), no pages moved since the totals last looked:
 * 1 done, 0 not this way (nothing changed), -1 out of memory. */
static inline __attribute__((always_inline)) int
plain_free(struct ss_run *run, struct ss_cmodel *cm, unsigned cpu, uint64_t id, int multi,
	   struct ss_error *err)
{
	struct ss_obj *obj;

	if (id >= run->objs.nr)
		return 0;
	obj = &run->objs.objs[id];
	if (obj->state != SS_OBJ_LIVE || run->mem.slab_pages != run->acct.slab_pages)
		return 0;
	return obj->cpu != cpu ? plain_free_obj(run, cm, cpu, obj, true, multi, err)
			       : plain_free_obj(run, cm, cpu, obj, false, multi, err);
}

/* The PU of trace CPU cpu, as replay.c's replay_mapped takes it (most
 * maps send CPU c to PU c: same_cpus), or UINT32_MAX for a CPU outside
 * the topology, which replay.c words. */
static inline unsigned pu_of(const struct ss_run *run, unsigned cpu)
{
	if (cpu < run->same_cpus)
		return cpu;
	if (cpu < run->topo->nr_map && run->topo->cpu_map[cpu] != SS_NO_PU)
		return run->topo->cpu_map[cpu];
	return UINT32_MAX;
}

const struct ss_event *ss_replay_plain(struct ss_run *run, const struct ss_event *e,
				       const struct ss_event *stop, struct ss_error *err)
{
	struct ss_cmodel *cm = run->cm;

	for (; e < stop; e++) {
		unsigned pu = pu_of(run, e->cpu);
		int rc = 0;

		ss_replay_prefetch(run, e);
		if (pu != UINT32_MAX) {
			if (e->kind == SS_EV_ALLOC)
				rc = plain_alloc(run, cm, pu, e->id, e->api, e->gfp, e->site,
						 e->value, err);
			else if (e->kind == SS_EV_FREE)
				rc = plain_free(run, cm, pu, e->id, -1, err);
		}
		if (!rc)
			rc = ss_replay_event(run, e, err) ? -1 : 1;
		if (rc < 0)
			return e;
		run->events++;
	}
	return NULL;
}

/* The object-table slot of the record after the one at p (len bytes):
 * its id is in the same bytes whatever its kind, and a LONG record's
 * bytes there make a harmless prefetch. */
static inline void prefetch_next(const struct ss_run *run, const uint8_t *p, unsigned len)
{
	/* integer arithmetic: the id may be past the table */
	__builtin_prefetch((const void *)((uintptr_t)run->objs.objs +
					  ss_rec_id(ss_bin_le32(p + len)) * sizeof(struct ss_obj)));
}

/* The records of rec up to n events, the common ones straight from their
 * words: the events taken (a record the loop does not take stops it). */
static inline __attribute__((always_inline)) size_t
replay_records(struct ss_run *run, struct ss_trace_records *rec, size_t n, int *failed,
	       int multi, struct ss_error *err)
{
	struct ss_cmodel *cm = run->cm;
	const uint8_t *p = rec->p;
	/* run->events is i past it: set where a path reads it (replay.c's:
	 * messages, the peak's event) and at the end, not per event */
	uint64_t events = run->events;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t w = ss_bin_le64(p);
		unsigned tag = (uint8_t)w;
		struct ss_event ev;
		int rc = 0;

		if (tag < SS_BIN2_ALLOC_TAG) {
			prefetch_next(run, p, 4);
			if (tag < run->same_cpus)
				rc = plain_free(run, cm, tag, ss_rec_id(w), multi, err);
			if (!rc) /* a free's site, api and value are unspecified */
				ev = (struct ss_event){.kind = SS_EV_FREE, .cpu = tag,
						       .id = ss_rec_id(w)};
			p += 4;
		} else if (tag < SS_BIN2_LONG_TAG) {
			unsigned cpu = tag - SS_BIN2_ALLOC_TAG;
			uint32_t site = ss_rec_site(w), api = ss_rec_api(w);

			if (site >= rec->site_lim[api])
				break; /* ss_trace_next() words it */
			prefetch_next(run, p, 8);
			if (cpu < run->same_cpus)
				rc = plain_alloc(run, cm, cpu, ss_rec_id(w), api, 0, site,
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
			run->events = events + i;
			rc = ss_replay_event(run, &ev, err) ? -1 : 1;
		}
		if (rc < 0) {
			*failed = 1;
			break;
		}
	}
	run->events = events + i;
	rec->p = p;
	return i;
}

/* ss_replay_plain_trace, built twice below. */
static inline __attribute__((always_inline)) int64_t
plain_trace(struct ss_run *run, struct ss_trace_reader *r, uint64_t max, int *end, int multi,
	    struct ss_error *err)
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
			n = replay_records(run, &rec, safe, &failed, multi, err);
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
		if (ss_replay_event(run, &ev, err))
			return -1;
		run->events++;
		done++;
	}
	return (int64_t)done;
}

static int64_t plain_trace_base(struct ss_run *run, struct ss_trace_reader *r, uint64_t max,
				int *end, struct ss_error *err)
{
	/* every cache of the model is on the run's topology (cfg.topo) */
	return run->topo->nr_cpus > 1 ? plain_trace(run, r, max, end, 1, err)
				      : plain_trace(run, r, max, end, 0, err);
}

#ifdef SS_HAVE_AVX_LOOP
/* The same source built for AVX where the CPU has it: the free's ring
 * test (contention_swap.h) takes the ring's swaps straight from memory
 * in three-operand compares, and the prices need fewer register copies.
 * The same operations on the same doubles (no FMA: AVX has none), so the
 * same figures. */
static __attribute__((target("avx"))) int64_t
plain_trace_avx(struct ss_run *run, struct ss_trace_reader *r, uint64_t max, int *end,
		struct ss_error *err)
{
	/* every cache of the model is on the run's topology (cfg.topo) */
	return run->topo->nr_cpus > 1 ? plain_trace(run, r, max, end, 1, err)
				      : plain_trace(run, r, max, end, 0, err);
}
#endif

int64_t ss_replay_plain_trace(struct ss_run *run, struct ss_trace_reader *r, uint64_t max,
			      int *end, struct ss_error *err)
{
#ifdef SS_HAVE_AVX_LOOP
	if (run->plain_avx)
		return plain_trace_avx(run, r, max, end, err);
#endif
	return plain_trace_base(run, r, max, end, err);
}

bool ss_replay_plain_avx(void)
{
#ifdef SS_HAVE_AVX_LOOP
	return __builtin_cpu_supports("avx");
#else
	return false;
#endif
}
