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

/* An alloc that slab_alloc_node()'s fast path serves from a plain cache,
 * a slab object whose (site, cache) pair heads its site's chain, with no
 * pages moved since the totals last looked: 1 done, 0 not this way
 * (nothing changed). */
static inline __attribute__((always_inline)) int
plain_alloc(struct ss_run *run, struct ss_cmodel *cm, const struct ss_event *ev)
{
	unsigned cpu = ev->cpu;
	struct ss_kcache *k;
	struct ss_slab *sl;
	struct ss_obj *obj;
	uint32_t pair;
	double c;
	int ci;

	if (ev->id >= run->objs.nr)
		return 0;
	obj = &run->objs.objs[ev->id];
	if (obj->state != SS_OBJ_FREE ||
	    (ev->api != SS_API_KMALLOC && ev->value > run->tables->caches[ev->api].object_size))
		return 0;
	ci = ss_cmodel_memo_route(cm, ev);
	if (ci < 0 || !(k = cm->plain[ci]) || !(sl = ss_kcache_fast_slab(k, cpu)) ||
	    run->mem.slab_pages != run->acct.slab_pages ||
	    (pair = ss_account_pair(&run->acct, ev->site, (uint32_t)ci)) == UINT32_MAX)
		return 0;
	obj->size = ev->value;
	obj->cpu = (uint16_t)cpu;
	obj->site = ev->site;
	c = ss_kcache_alloc_fast(k, sl, run->costs->cycles, 0);
	ss_cmodel_placed(k, ci, obj, sl);
	ss_account_alloc_pair(&run->acct, obj, pair);
	if (++run->objs.live > run->objs.peak_live)
		run->objs.peak_live = run->objs.live;
	run->alloc_cycles += c;
	run->cpu_cycles[cpu] += c;
	ss_hist_add_cycles(&run->alloc_hist, &run->hist_memo_c[0], &run->hist_memo_b[0], c);
	return 1;
}

/* A free of a live object of a plain cache along SLUB's lock-free paths
 * (ss_cmodel_free_priced), no pages moved since the totals last looked:
 * 1 done, 0 not this way (nothing changed), -1 out of memory. */
static inline __attribute__((always_inline)) int
plain_free(struct ss_run *run, struct ss_cmodel *cm, const struct ss_event *ev,
	   struct ss_error *err)
{
	const double *cost = run->costs->cycles;
	unsigned cpu = ev->cpu;
	struct ss_free_path f;
	struct ss_kcache *k;
	struct ss_obj *obj;

	if (ev->id >= run->objs.nr)
		return 0;
	obj = &run->objs.objs[ev->id];
	if (obj->state != SS_OBJ_LIVE || run->mem.slab_pages != run->acct.slab_pages ||
	    !(k = ss_cmodel_free_priced(cm, cpu, obj, cost, &f)))
		return 0;
	ss_account_free_live(&run->acct, obj, cpu);
	obj->freed = obj->state;
	obj->free_cpu = (uint16_t)cpu;
	obj->state = SS_OBJ_FREE;
	obj->slab = NULL;
	run->objs.live--;
	if (f.swapped) { /* ss_contend_swap, on the path's own figures */
		int rc = run->cont.swap(&run->cont, cpu, &f.swapped->freelist,
					&k->res[SS_KRES_CMPXCHG], f.read_at,
					cost[SS_STEP_CMPXCHG_DOUBLE], cost[SS_STEP_CMPXCHG_RETRY]);

		if (rc) {
			if (rc < 0)
				return ss_errorf(err, "out of memory");
			k->stats[SS_STEP_CMPXCHG_RETRY]++;
			f.cycles += cost[SS_STEP_CMPXCHG_RETRY];
		}
	}
	run->free_cycles += f.cycles;
	run->cpu_cycles[cpu] += f.cycles;
	ss_hist_add_cycles(&run->free_hist, &run->hist_memo_c[1], &run->hist_memo_b[1], f.cycles);
	return 1;
}

const struct ss_event *ss_replay_plain(struct ss_run *run, const struct ss_event *e,
				       const struct ss_event *stop, struct ss_error *err)
{
	struct ss_cmodel *cm = run->cm;

	for (; e < stop; e++) {
		int rc = 0;

		ss_replay_prefetch(run, e);
		if (e->cpu < run->same_cpus) {
			if (e->kind == SS_EV_ALLOC)
				rc = plain_alloc(run, cm, e);
			else if (e->kind == SS_EV_FREE)
				rc = plain_free(run, cm, e, err);
		}
		if (!rc)
			rc = ss_replay_event(run, e, err) ? -1 : 1;
		if (rc < 0)
			return e;
		run->events++;
	}
	return NULL;
}
