/* replay.c - the replay: events in batches, each handed to the model,
 * accounted.  Costs are per event here, so the common alloc and free take
 * no call the model does not need and touch nothing they need not
 * (callgrind figures in docs/bench.md).  A cache model's plain SLUB
 * caches have their own loop (replay_plain.c), which hands every event
 * it does not price itself to the paths here (ss_replay_event). */
#include "replay_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bad_free.h"
#include "contention.h"
#include "cache_model_fast.h"
#include "trace_records.h"

/* Caches the model holds before the first event (KFENCE's pool, or a
 * model that builds its initial state up front): the running byte totals
 * start with their objects; their pages reach the memory total with the
 * first operation (ss_op.slab_pages), and the accounting reads every
 * cache again when the two totals differ (account.c note_pages). */
static int start_from_model(struct ss_run *run)
{
	unsigned n = run->desc->ops->nr_caches ? run->desc->ops->nr_caches(run->model) : 0;

	for (unsigned c = 0; c < n; c++) {
		struct ss_cache_report r;

		run->desc->ops->cache_report(run->model, c, &r);
		if (!r.slab_bytes && !r.prior_live && !r.prior_freed)
			continue;
		if (ss_account_prior(&run->acct, &run->mem, c, 0, 0))
			return -1;
	}
	return 0;
}

int ss_run_init(struct ss_run *run, uint64_t max_objects, struct ss_error *err)
{
	ss_objtable_init(&run->objs, max_objects);
	ss_memcap_init(&run->mem, run->mem.max_bytes, run->target->page_size);
	ss_account_init(&run->acct, run->desc, run->model, run->target);
	run->cpu_cycles = calloc(run->topo->nr_cpus, sizeof(*run->cpu_cycles));
	if (!run->cpu_cycles)
		return ss_errorf(err, "out of memory");
	if (start_from_model(run))
		return ss_errorf(err, "out of memory");
	ss_contention_init(&run->cont, run->cpu_cycles, run->topo->nr_cpus);
	run->phase = "start";
	run->hist_memo_c[0] = run->hist_memo_c[1] = -1; /* no operation costs that */
	/* a cache model's common alloc and free are inlined here */
	run->cm = NULL;
	run->ticks = run->desc->ops->tick != NULL;
	if (run->desc->ops == &ss_cache_model_ops) {
		struct ss_cmodel *cm = (struct ss_cmodel *)run->model;

		run->cm = cm->fast ? cm : NULL;
		run->ticks = cm->timed_work;
	}
	run->plain_avx = ss_replay_plain_avx();
	run->route_memo = NULL;
	if (run->cm && !(run->route_memo = calloc(SS_ROUTE_MEMO_SITES, sizeof(*run->route_memo))))
		return ss_errorf(err, "out of memory");
	/* most maps send trace CPU c to PU c: those need no copy of the event */
	while (run->same_cpus < run->topo->nr_map &&
	       run->topo->cpu_map[run->same_cpus] == run->same_cpus)
		run->same_cpus++;
	return 0;
}

void ss_run_release(struct ss_run *run)
{
	free(run->label_cycles);
	free(run->label_events);
	run->label_cycles = NULL;
	run->label_events = NULL;
	ss_objtable_release(&run->objs);
	ss_memcap_release(&run->mem);
	ss_account_release(&run->acct);
	free(run->cpu_cycles);
	run->cpu_cycles = NULL;
	free(run->route_memo);
	run->route_memo = NULL;
}

uint64_t ss_run_footprint_bytes(const struct ss_run *run)
{
	return run->mem.slab_pages * run->mem.page_size +
	       (run->target->large_in_slab_stat ? run->mem.large_bytes : 0);
}

uint64_t ss_run_live_objects(const struct ss_run *run)
{
	return run->objs.live - run->zero_live -
	       (run->target->large_in_slab_stat ? 0 : run->large_live);
}

double ss_run_sim_cycles(const struct ss_run *run)
{
	double max = 0;

	for (unsigned c = 0; c < run->topo->nr_cpus; c++)
		if (run->cpu_cycles[c] > max)
			max = run->cpu_cycles[c];
	return max;
}

double ss_run_ns(const struct ss_run *run, double cycles)
{
	return cycles * 1000.0 / run->target->clock_mhz;
}

/* FILE:LINE for a text trace, FILE: event N for a binary one (the run
 * has replayed the N - 1 events before it: the batch carries no number) */
#define LINE(run, ev) ss_trace_event_line((run)->trace, ev, (run)->events)
#define BAD(run, ev, err, ...) \
	ss_trace_error_at(err, (run)->trace, LINE(run, ev), __VA_ARGS__)

/* The rare outcomes of an alloc, after the model: a zero-size or
 * kmalloc_large object, or the memory cap. */
static __attribute__((noinline)) int alloc_rare(struct ss_run *run, const struct ss_event *ev,
		      const struct ss_obj *obj, const struct ss_op *op,
		      struct ss_error *err)
{
	if (ss_memcap_note(&run->mem, run->desc, run->model, obj, op))
		return BAD(run, ev, err, SS_MEMCAP_LOST);
	if (ss_memcap_over(&run->mem))
		return BAD(run, ev, err, "simulated memory reached %llu bytes (slab and kmalloc_large pages), over the cap of %llu (raise --max-memory)",
			   (unsigned long long)ss_memcap_bytes(&run->mem),
			   (unsigned long long)run->mem.max_bytes);
	/* the model gave the cache the kernel's objects: the running totals
	 * count them from here (account.h) */
	if (op->resync && obj->state == SS_OBJ_LIVE &&
	    ss_account_prior(&run->acct, &run->mem, obj->cache, 0, run->events))
		return ss_errorf(err, "out of memory");
	run->zero_allocs += obj->state == SS_OBJ_ZERO;
	run->large_allocs += obj->state == SS_OBJ_LARGE;
	run->zero_live += obj->state == SS_OBJ_ZERO;
	run->large_live += obj->state == SS_OBJ_LARGE;
	return 0;
}

static __attribute__((noinline)) int alloc_bad(struct ss_run *run, const struct ss_event *ev,
		     const struct ss_obj *obj, struct ss_error *err)
{
	if (!obj) {
		struct ss_error why;

		ss_objtable_refused(&run->objs, ev->id, &why);
		return BAD(run, ev, err, "%s", why.msg);
	}
	if (obj->state != SS_OBJ_FREE)
		return BAD(run, ev, err, "object id %llu allocated again while live (no free since its allocation)",
			   (unsigned long long)ev->id);
	return BAD(run, ev, err, "alloc of %llu bytes from cache %s, whose objects are %u bytes (kmem_cache_alloc() cannot ask for more)",
		   (unsigned long long)ev->value,
		   ss_trace_cache_name(run->tables, ev->api),
		   run->tables->caches[ev->api].object_size);
}

/* The model's error, prefixed with the event's position. */
static __attribute__((noinline)) int alloc_failed(struct ss_run *run,
						 const struct ss_event *ev,
						 struct ss_error *err)
{
	char why[sizeof(err->msg)];

	memcpy(why, err->msg, sizeof(why));
	return BAD(run, ev, err, "%s", why);
}

/* fast: the caller knows run->cm is set (ss_replay_event) */
static inline __attribute__((always_inline)) int do_alloc(struct ss_run *run, const struct ss_event *ev,
			   bool fast, struct ss_error *err)
{
	struct ss_obj *obj;
	struct ss_kcache *k;
	struct ss_op op;
	int c;

	ss_op_init(&op, run->costs->cycles);

	/* the table grown to the id first: the slot is then never NULL, and
	 * the common path does not test it */
	if (ev->id >= run->objs.nr && !ss_objtable_grow(&run->objs, ev->id))
		return alloc_bad(run, ev, NULL, err);
	obj = &run->objs.objs[ev->id];
	if (obj->state != SS_OBJ_FREE ||
	    (ev->api != SS_API_KMALLOC &&
	     ev->value > run->tables->caches[ev->api].object_size))
		return alloc_bad(run, ev, obj, err);
	obj->size = ev->value;
	obj->cpu = (uint16_t)ev->cpu;
	obj->site = ev->site;
	if ((fast || run->cm) && (k = ss_cmodel_fast_cache(run->cm, ev, &c))) {
		if (ss_cmodel_alloc_plain(k, c, ev, obj, &op, err))
			return alloc_failed(run, ev, err);
	} else if (run->desc->ops->alloc(run->model, ev, obj, &op, err)) {
		return alloc_failed(run, ev, err);
	}
	/* the memory total moves only with slabs and kmalloc_large */
	if (obj->state != SS_OBJ_LIVE || op.slab_pages || op.resync) {
		if (alloc_rare(run, ev, obj, &op, err))
			return -1;
	}
	if (ss_account_alloc(&run->acct, &run->mem, obj, run->events))
		return ss_errorf(err, "out of memory");
	if (++run->objs.live > run->objs.peak_live)
		run->objs.peak_live = run->objs.live;
	if (ss_contend_op(&run->cont, ev->cpu, &op)) /* locks, cmpxchgs */
		return ss_errorf(err, "out of memory");
	run->alloc_cycles += op.cycles;
	run->cpu_cycles[ev->cpu] += op.cycles;
	ss_hist_add_cycles(&run->alloc_hist, &run->hist_memo_c[0], &run->hist_memo_b[0],
			   op.cycles);
	return 0;
}

/* A free's time and count, for a trace object's and a prior one alike. */
static inline __attribute__((always_inline)) int count_free(struct ss_run *run,
		const struct ss_event *ev, struct ss_op *op, struct ss_error *err)
{
	if (ss_contend_op(&run->cont, ev->cpu, op))
		return ss_errorf(err, "out of memory");
	run->free_cycles += op->cycles;
	run->cpu_cycles[ev->cpu] += op->cycles;
	ss_hist_add_cycles(&run->free_hist, &run->hist_memo_c[1], &run->hist_memo_b[1],
			   op->cycles);
	return 0;
}

static inline __attribute__((always_inline)) int do_free(struct ss_run *run, const struct ss_event *ev,
			  bool fast, struct ss_error *err)
{
	struct ss_obj *obj;
	struct ss_op op;

	ss_op_init(&op, run->costs->cycles);

	if (ev->id >= run->objs.nr) /* (the slot, unlike find's, never NULL) */
		return ss_bad_free(run, run->trace, LINE(run, ev), ev->id, NULL, err);
	obj = &run->objs.objs[ev->id];
	if (obj->state == SS_OBJ_FREE)
		return ss_bad_free(run, run->trace, LINE(run, ev), ev->id, obj, err);
	if (!((fast || run->cm) && obj->state == SS_OBJ_LIVE &&
	      ss_cmodel_free_plain(run->cm, ev->cpu, obj, &op)))
		run->desc->ops->free(run->model, ev->cpu, obj, &op);
	if (obj->state != SS_OBJ_LIVE || op.slab_pages) {
		if (ss_memcap_note(&run->mem, run->desc, run->model, obj, &op))
			return BAD(run, ev, err, SS_MEMCAP_LOST);
		run->zero_live -= obj->state == SS_OBJ_ZERO;
		run->large_live -= obj->state == SS_OBJ_LARGE;
	}
	if (ss_account_free(&run->acct, &run->mem, obj, ev->cpu, run->events))
		return ss_errorf(err, "out of memory");
	obj->freed = obj->state;
	obj->free_cpu = (uint16_t)ev->cpu;
	obj->state = SS_OBJ_FREE;
	obj->slab = NULL;
	run->objs.live--;
	return count_free(run, ev, &op, err);
}

/* A free of an object the trace never allocated: the model takes one out
 * of the cache's initial state, if it has one left. */
static __attribute__((noinline)) int do_free_prior(struct ss_run *run,
						  const struct ss_event *ev,
						  struct ss_error *err)
{
	struct ss_op op;
	struct ss_obj obj = {.state = SS_OBJ_LIVE};
	int rc = 0;

	ss_op_init(&op, run->costs->cycles);
	if (run->desc->ops->free_prior)
		rc = run->desc->ops->free_prior(run->model, ev, &op, &obj.cache, err);
	if (rc < 0) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		return BAD(run, ev, err, "%s", why);
	}
	if (ss_memcap_note(&run->mem, run->desc, run->model, &obj, &op))
		return BAD(run, ev, err, SS_MEMCAP_LOST);
	/* the route may have given the cache the kernel's objects or grown
	 * its objects (op.resync): then the cache is read again, else one
	 * prior object is out */
	if ((rc || op.resync) &&
	    ss_account_prior(&run->acct, &run->mem, obj.cache, rc && !op.resync, run->events))
		return ss_errorf(err, "out of memory");
	if (!rc) {
		run->prior_missing++;
		return 0;
	}
	run->prior_frees++;
	return count_free(run, ev, &op, err);
}

/* The trace saw a kernel slab's pages freed (the pre-pass read what that
 * says of it: prior_counts.h): it was empty then, so the slab it maps
 * onto here is emptied too -- its initial objects taken as prior frees of
 * that kernel slab, and put back on node partial slabs no event touched
 * where the snapshot leaves room, else counted freed without an event
 * (slab_prior.h ss_kcache_kslab_left).  Their cycles go to the frees'
 * total and the CPU's clock, not to the latency histogram: they are not
 * one operation. */
static __attribute__((noinline)) int do_slab_freed(struct ss_run *run, const struct ss_event *ev,
						  struct ss_error *err)
{
	struct ss_event prior = *ev;
	struct ss_obj obj = {.state = SS_OBJ_LIVE};
	struct ss_op op;
	int64_t taken;

	if (!run->desc->ops->kslab_freed)
		return 0;
	prior.kind = SS_EV_FREE_PRIOR;
	ss_op_init(&op, run->costs->cycles);
	taken = run->desc->ops->kslab_freed(run->model, &prior, &op, &obj.cache, err);
	if (taken < 0) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		return BAD(run, ev, err, "%s", why);
	}
	if (!taken)
		return 0;
	if (ss_memcap_note(&run->mem, run->desc, run->model, &obj, &op))
		return BAD(run, ev, err, SS_MEMCAP_LOST);
	/* (one = 0: more than one initial object moved, the cache is read again) */
	if (ss_account_prior(&run->acct, &run->mem, obj.cache, 0, run->events))
		return ss_errorf(err, "out of memory");
	if (ss_contend_op(&run->cont, ev->cpu, &op))
		return ss_errorf(err, "out of memory");
	run->free_cycles += op.cycles;
	run->cpu_cycles[ev->cpu] += op.cycles;
	return 0;
}

/* The model's timed work on the event's CPU (SLAB's cache_reap), after
 * the event: on the CPU's clock and the allocator's time; the slabs it
 * frees leave the memory total. */
static __attribute__((noinline)) int do_tick(struct ss_run *run, const struct ss_event *ev,
					    struct ss_error *err)
{
	unsigned cpu = ev->cpu < run->same_cpus ? ev->cpu : run->topo->cpu_map[ev->cpu];
	struct ss_op op;

	ss_op_init(&op, run->costs->cycles);
	run->desc->ops->tick(run->model, cpu, run->cpu_cycles[cpu], &op);
	if (op.slab_pages && ss_memcap_note(&run->mem, run->desc, run->model, NULL, &op))
		return BAD(run, ev, err, SS_MEMCAP_LOST);
	if (ss_contend_op(&run->cont, cpu, &op))
		return ss_errorf(err, "out of memory");
	run->cpu_cycles[cpu] += op.cycles;
	run->timer_cycles += op.cycles;
	return 0;
}

/* Work time per label: arrays indexed by the label's name index. */
static int do_work(struct ss_run *run, const struct ss_event *ev,
		   struct ss_error *err)
{
	if (ev->site >= run->nr_labels) {
		uint32_t nr = run->nr_labels ? run->nr_labels : 16;
		double *c;
		uint64_t *e;

		while (nr <= ev->site)
			nr *= 2;
		c = realloc(run->label_cycles, nr * sizeof(*c));
		if (c)
			run->label_cycles = c;
		e = realloc(run->label_events, nr * sizeof(*e));
		if (e)
			run->label_events = e;
		if (!c || !e)
			return ss_errorf(err, "out of memory");
		memset(c + run->nr_labels, 0, (nr - run->nr_labels) * sizeof(*c));
		memset(e + run->nr_labels, 0, (nr - run->nr_labels) * sizeof(*e));
		run->nr_labels = nr;
	}
	run->label_cycles[ev->site] += (double)ev->value;
	run->label_events[ev->site]++;
	run->work_cycles += (double)ev->value;
	run->cpu_cycles[ev->cpu] += (double)ev->value;
	return 0;
}

static int do_phase(struct ss_run *run, const struct ss_event *ev,
		    struct ss_error *err)
{
	run->phase = ss_trace_name(run->tables, ev->site);
	run->phase_index++;
	return run->on_phase ? run->on_phase(run, run->phase, err) : 0;
}

static __attribute__((noinline)) int cpu_outside(struct ss_run *run,
						const struct ss_event *ev,
						struct ss_error *err)
{
	return BAD(run, ev, err, "cpu %u is outside the topology (%u PUs, map %s; set --cpus or --topology)",
		   ev->cpu, run->topo->nr_cpus, ss_cpu_map_name(run->topo->map));
}

/* An event whose trace CPU is another PU (or none): the batch is shared,
 * so the mapping goes into a copy (trace CPU -> PU, topology.h). */
static __attribute__((noinline)) int replay_mapped(struct ss_run *run,
						  const struct ss_event *ev,
						  struct ss_error *err)
{
	struct ss_event mapped = *ev;

	if (ev->cpu >= run->topo->nr_map || run->topo->cpu_map[ev->cpu] == SS_NO_PU)
		return cpu_outside(run, ev, err);
	mapped.cpu = run->topo->cpu_map[ev->cpu];
	switch (ev->kind) {
	case SS_EV_ALLOC:
		return do_alloc(run, &mapped, false, err);
	case SS_EV_FREE:
		return do_free(run, &mapped, false, err);
	case SS_EV_FREE_PRIOR:
		return do_free_prior(run, &mapped, err);
	case SS_EV_SLAB_FREED:
		return do_slab_freed(run, &mapped, err);
	default:
		return do_work(run, &mapped, err);
	}
}

static inline __attribute__((always_inline)) int replay_event(struct ss_run *run, const struct ss_event *ev,
			       bool fast, struct ss_error *err)
{
	_Static_assert(SS_EV_ALLOC == 0 && SS_EV_FREE == 1, "one test for both");

	if (__builtin_expect((unsigned)ev->kind <= SS_EV_FREE && ev->cpu < run->same_cpus, 1))
		return ev->kind == SS_EV_ALLOC ? do_alloc(run, ev, fast, err)
					       : do_free(run, ev, fast, err);
	if (ev->kind == SS_EV_PHASE)
		return do_phase(run, ev, err);
	if (ev->cpu >= run->same_cpus)
		return replay_mapped(run, ev, err);
	if (ev->kind == SS_EV_FREE_PRIOR)
		return do_free_prior(run, ev, err);
	if (ev->kind == SS_EV_SLAB_FREED)
		return do_slab_freed(run, ev, err);
	return do_work(run, ev, err);
}

void ss_replay_start(struct ss_run *run, const struct ss_trace_reader *r)
{
	run->trace = r;
	run->until_sample = run->sample_every;
}

int ss_replay_event(struct ss_run *run, const struct ss_event *ev, struct ss_error *err)
{
	return replay_event(run, ev, true, err);
}

/* Events e up to stop, for every run (a cache model without timed work
 * takes ss_replay_plain instead).  NULL, or the event that failed. */
static const struct ss_event *replay_events(struct ss_run *run, const struct ss_event *e,
					    const struct ss_event *stop, struct ss_error *err)
{
	for (; e < stop; e++) {
		ss_replay_prefetch(run, e);
		if (replay_event(run, e, false, err))
			return e;
		/* (a phase marker has no CPU of its own) */
		if (run->ticks && e->kind != SS_EV_PHASE && do_tick(run, e, err))
			return e;
		run->events++;
	}
	return NULL;
}

int ss_replay_batch(struct ss_run *run, const struct ss_event *ev, unsigned n,
		    struct ss_error *err)
{
	const struct ss_event *e = ev, *last = ev + n;

	while (e < last) {
		/* up to the next timeline sample: no countdown per event */
		const struct ss_event *stop = run->on_sample && run->until_sample < (uint64_t)(last - e)
						      ? e + run->until_sample : last;
		uint64_t done = (uint64_t)(stop - e);

		if (run->cm && !run->ticks ? ss_replay_plain(run, e, stop, err)
					   : replay_events(run, e, stop, err))
			return -1;
		e = stop;
		if (run->on_sample && (run->until_sample -= done) == 0) {
			run->until_sample = run->sample_every;
			if (run->on_sample(run, err))
				return -1;
		}
	}
	return 0;
}

int ss_replay_finish(struct ss_run *run, struct ss_error *err)
{
	return run->on_phase ? run->on_phase(run, NULL, err) : 0;
}

/* ss_replay for a run that ss_replay_plain_trace serves: records read in
 * place, no batch; the timeline samples where the batches would take
 * them (every sample_every events). */
static int replay_in_place(struct ss_run *run, struct ss_trace_reader *r, struct ss_error *err)
{
	int end = 0;

	while (!end) {
		int64_t done = ss_replay_plain_trace(run, r, run->on_sample ? run->until_sample
									   : UINT64_MAX,
						     &end, err);

		if (done < 0)
			return -1;
		if (run->on_sample && (run->until_sample -= (uint64_t)done) == 0) {
			run->until_sample = run->sample_every;
			if (run->on_sample(run, err))
				return -1;
		}
	}
	return ss_replay_finish(run, err);
}

int ss_replay(struct ss_run *run, struct ss_trace_reader *r,
	      struct ss_error *err)
{
	struct ss_event ev[SS_REPLAY_BATCH + SS_REPLAY_PAD] = {{0}};
	int n;

	ss_replay_start(run, r);
	/* (a run whose map sends some trace CPU to another PU takes the
	 * batches: ss_replay_plain maps it, the in-place loop does not) */
	if (run->cm && !run->ticks && ss_trace_has_records(r) &&
	    run->same_cpus >= run->topo->nr_map)
		return replay_in_place(run, r, err);
	while ((n = ss_trace_next_batch(r, ev, SS_REPLAY_BATCH, err)) > 0)
		if (ss_replay_batch(run, ev, (unsigned)n, err))
			return -1;
	if (n < 0)
		return -1;
	return ss_replay_finish(run, err);
}
