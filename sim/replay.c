/* replay.c - the replay: events in batches, each handed to the model,
 * accounted.  Costs are per event here, so the common alloc and free take
 * no call the model does not need and touch nothing they need not
 * (callgrind figures in docs/bench.md).  A model with a batch replay
 * (model_batch.h) takes the events in its own loop, which hands every
 * event it does not complete itself to the paths here
 * (ss_books.event). */
#include "replay.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bad_free.h"
#include "contention.h"
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
		uint64_t live, freed;

		run->desc->ops->cache_report(run->model, c, &r);
		ss_recon_objects(run->recon, c, &live, &freed);
		if (!r.slab_bytes && !live && !freed)
			continue;
		if (ss_account_prior(&run->books.acct, &run->books.mem, c, 0, 0))
			return -1;
	}
	return 0;
}

static int books_event(struct ss_books *b, const struct ss_event *ev, struct ss_error *err);
static int books_alloc_done(struct ss_books *b, const struct ss_event *ev, struct ss_obj *obj,
			    struct ss_op *op, struct ss_error *err);
static int books_free_done(struct ss_books *b, const struct ss_event *ev, struct ss_obj *obj,
			   struct ss_op *op, struct ss_error *err);

/* This CPU runs AVX code: a model's batch replay may take its AVX build
 * (ss_books avx). */
static bool cpu_has_avx(void)
{
#if defined(__x86_64__) && defined(__SSE2__)
	return __builtin_cpu_supports("avx");
#else
	return false;
#endif
}

int ss_run_init(struct ss_run *run, uint64_t max_objects, struct ss_error *err)
{
	const struct ss_model_ops *ops = run->desc->ops;
	struct ss_books *b = &run->books;

	ss_objtable_init(&b->objs, max_objects);
	ss_memcap_init(&b->mem, b->mem.max_bytes, run->target->page_size);
	ss_account_init(&b->acct, run->desc, run->model, run->recon, run->target);
	b->cpu_cycles = calloc(run->topo->nr_cpus, sizeof(*b->cpu_cycles));
	if (!b->cpu_cycles)
		return ss_errorf(err, "out of memory");
	if (start_from_model(run))
		return ss_errorf(err, "out of memory");
	ss_contention_init(&b->cont, b->cpu_cycles, run->topo->nr_cpus);
	run->phase = "start";
	b->hist_memo_c[0] = b->hist_memo_c[1] = -1; /* no operation costs that */
	b->cost = run->costs->cycles;
	b->tables = run->tables;
	b->topo = run->topo;
	b->event = books_event;
	b->alloc_done = books_alloc_done;
	b->free_done = books_free_done;
	b->avx = cpu_has_avx();
	/* the model's timed work, and its batch replay, which calls no tick */
	run->ticks = ops->tick && (!ops->timed || ops->timed(run->model));
	run->batch = !run->ticks && ops->batch ? ops->batch(run->model) : NULL;
	/* most maps send trace CPU c to PU c: those need no copy of the event */
	while (b->same_cpus < run->topo->nr_map &&
	       run->topo->cpu_map[b->same_cpus] == b->same_cpus)
		b->same_cpus++;
	return 0;
}

void ss_run_release(struct ss_run *run)
{
	free(run->label_cycles);
	free(run->label_events);
	run->label_cycles = NULL;
	run->label_events = NULL;
	ss_objtable_release(&run->books.objs);
	ss_memcap_release(&run->books.mem);
	ss_account_release(&run->books.acct);
	free(run->books.cpu_cycles);
	run->books.cpu_cycles = NULL;
}

uint64_t ss_run_footprint_bytes(const struct ss_run *run)
{
	return run->books.mem.slab_pages * run->books.mem.page_size +
	       (run->target->large_in_slab_stat ? run->books.mem.large_bytes : 0);
}

uint64_t ss_run_live_objects(const struct ss_run *run)
{
	return run->books.objs.live - run->zero_live -
	       (run->target->large_in_slab_stat ? 0 : run->large_live);
}

double ss_run_sim_cycles(const struct ss_run *run)
{
	double max = 0;

	for (unsigned c = 0; c < run->topo->nr_cpus; c++)
		if (run->books.cpu_cycles[c] > max)
			max = run->books.cpu_cycles[c];
	return max;
}

double ss_run_ns(const struct ss_run *run, double cycles)
{
	return cycles * 1000.0 / run->target->clock_mhz;
}

/* FILE:LINE for a text trace, FILE: event N for a binary one (the run
 * has replayed the N - 1 events before it: the batch carries no number) */
#define LINE(run, ev) ss_trace_event_line((run)->trace, ev, (run)->books.events)
#define BAD(run, ev, err, ...) \
	ss_trace_error_at(err, (run)->trace, LINE(run, ev), __VA_ARGS__)

/* The rare outcomes of an alloc, after the model: a zero-size or
 * kmalloc_large object, or the memory cap. */
static __attribute__((noinline)) int alloc_rare(struct ss_run *run, const struct ss_event *ev,
		      const struct ss_obj *obj, const struct ss_op *op,
		      struct ss_error *err)
{
	if (ss_memcap_note(&run->books.mem, run->desc, run->model, obj, op))
		return BAD(run, ev, err, SS_MEMCAP_LOST);
	if (ss_memcap_over(&run->books.mem))
		return BAD(run, ev, err, "simulated memory reached %llu bytes (slab and kmalloc_large pages), over the cap of %llu (raise --max-memory)",
			   (unsigned long long)ss_memcap_bytes(&run->books.mem),
			   (unsigned long long)run->books.mem.max_bytes);
	/* the model gave the cache the kernel's objects: the running totals
	 * count them from here (account.h) */
	if (op->resync && obj->state == SS_OBJ_LIVE &&
	    ss_account_prior(&run->books.acct, &run->books.mem, obj->cache, 0, run->books.events))
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

		ss_objtable_refused(&run->books.objs, ev->id, &why);
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

/* An alloc after the model made it (op): the memory total, the account,
 * the contention, the clocks and the histogram. */
static inline __attribute__((always_inline)) int alloc_books(struct ss_run *run,
		const struct ss_event *ev, struct ss_obj *obj, struct ss_op *op, struct ss_error *err)
{
	struct ss_books *b = &run->books;

	/* the memory total moves only with slabs and kmalloc_large */
	if (obj->state != SS_OBJ_LIVE || op->slab_pages || op->resync) {
		if (alloc_rare(run, ev, obj, op, err))
			return -1;
	}
	if (ss_account_alloc(&b->acct, &b->mem, obj, b->events))
		return ss_errorf(err, "out of memory");
	if (++b->objs.live > b->objs.peak_live)
		b->objs.peak_live = b->objs.live;
	if (ss_contend_op(&b->cont, ev->cpu, op)) /* locks, cmpxchgs */
		return ss_errorf(err, "out of memory");
	b->alloc_cycles += op->cycles;
	b->cpu_cycles[ev->cpu] += op->cycles;
	ss_hist_add_cycles(&b->alloc_hist, &b->hist_memo_c[0], &b->hist_memo_b[0], op->cycles);
	return 0;
}

static inline __attribute__((always_inline)) int do_alloc(struct ss_run *run, const struct ss_event *ev,
							 struct ss_error *err)
{
	struct ss_books *b = &run->books;
	struct ss_obj *obj;
	struct ss_op op;

	ss_op_init(&op, run->costs->cycles);

	/* the table grown to the id first: the slot is then never NULL, and
	 * the common path does not test it */
	if (ev->id >= b->objs.nr && !ss_objtable_grow(&b->objs, ev->id))
		return alloc_bad(run, ev, NULL, err);
	obj = &b->objs.objs[ev->id];
	if (obj->state != SS_OBJ_FREE ||
	    (ev->api != SS_API_KMALLOC &&
	     ev->value > run->tables->caches[ev->api].object_size))
		return alloc_bad(run, ev, obj, err);
	obj->size = ev->value;
	obj->cpu = (uint16_t)ev->cpu;
	obj->site = ev->site;
	if (run->desc->ops->alloc(run->model, ev, obj, &op, err))
		return alloc_failed(run, ev, err);
	return alloc_books(run, ev, obj, &op, err);
}

/* A free's time and count, for a trace object's and a prior one alike. */
static inline __attribute__((always_inline)) int count_free(struct ss_run *run,
		const struct ss_event *ev, struct ss_op *op, struct ss_error *err)
{
	if (ss_contend_op(&run->books.cont, ev->cpu, op))
		return ss_errorf(err, "out of memory");
	run->books.free_cycles += op->cycles;
	run->books.cpu_cycles[ev->cpu] += op->cycles;
	ss_hist_add_cycles(&run->books.free_hist, &run->books.hist_memo_c[1], &run->books.hist_memo_b[1],
			   op->cycles);
	return 0;
}

/* A free after the model made it (op), the object's record not cleared
 * yet: the memory total, the account, the record, the contention, the
 * clocks and the histogram. */
static inline __attribute__((always_inline)) int free_books(struct ss_run *run,
		const struct ss_event *ev, struct ss_obj *obj, struct ss_op *op, struct ss_error *err)
{
	struct ss_books *b = &run->books;

	if (obj->state != SS_OBJ_LIVE || op->slab_pages) {
		if (ss_memcap_note(&b->mem, run->desc, run->model, obj, op))
			return BAD(run, ev, err, SS_MEMCAP_LOST);
		run->zero_live -= obj->state == SS_OBJ_ZERO;
		run->large_live -= obj->state == SS_OBJ_LARGE;
	}
	if (ss_account_free(&b->acct, &b->mem, obj, ev->cpu, b->events))
		return ss_errorf(err, "out of memory");
	obj->freed = obj->state;
	obj->free_cpu = (uint16_t)ev->cpu;
	obj->state = SS_OBJ_FREE;
	obj->slab = NULL;
	b->objs.live--;
	return count_free(run, ev, op, err);
}

static inline __attribute__((always_inline)) int do_free(struct ss_run *run, const struct ss_event *ev,
							struct ss_error *err)
{
	struct ss_books *b = &run->books;
	struct ss_obj *obj;
	struct ss_op op;

	ss_op_init(&op, run->costs->cycles);

	if (ev->id >= b->objs.nr) /* (the slot, unlike find's, never NULL) */
		return ss_bad_free(run, run->trace, LINE(run, ev), ev->id, NULL, err);
	obj = &b->objs.objs[ev->id];
	if (obj->state == SS_OBJ_FREE)
		return ss_bad_free(run, run->trace, LINE(run, ev), ev->id, obj, err);
	run->desc->ops->free(run->model, ev->cpu, obj, &op);
	return free_books(run, ev, obj, &op, err);
}

/* A free of an object the trace never allocated: one of the cache's
 * initial state goes, if it has one left (reconcile/recon.h). */
static __attribute__((noinline)) int do_free_prior(struct ss_run *run,
						  const struct ss_event *ev,
						  struct ss_error *err)
{
	struct ss_op op;
	struct ss_obj obj = {.state = SS_OBJ_LIVE};
	bool took;

	ss_op_init(&op, run->costs->cycles);
	if (ss_recon_free_prior(run->recon, ev, &op, &obj.cache, &took, err)) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		return BAD(run, ev, err, "%s", why);
	}
	if (ss_memcap_note(&run->books.mem, run->desc, run->model, &obj, &op))
		return BAD(run, ev, err, SS_MEMCAP_LOST);
	/* the route may have given the cache the kernel's objects or grown
	 * its objects (op.resync): then the cache is read again, else one
	 * prior object is out */
	if ((took || op.resync) &&
	    ss_account_prior(&run->books.acct, &run->books.mem, obj.cache, took && !op.resync, run->books.events))
		return ss_errorf(err, "out of memory");
	if (!took) {
		run->prior_missing++;
		return 0;
	}
	run->prior_frees++;
	return count_free(run, ev, &op, err);
}

/* The trace saw a kernel slab's pages freed (the pre-pass read what that
 * says of it: prior_counts.h): the slab it maps onto here is emptied too
 * (reconcile/recon.h ss_recon_kslab_freed).  Their cycles go to the
 * frees' total and the CPU's clock, not to the latency histogram: they
 * are not one operation. */
static __attribute__((noinline)) int do_slab_freed(struct ss_run *run, const struct ss_event *ev,
						  struct ss_error *err)
{
	struct ss_event prior = *ev;
	struct ss_obj obj = {.state = SS_OBJ_LIVE};
	struct ss_op op;
	uint32_t taken;

	prior.kind = SS_EV_FREE_PRIOR;
	ss_op_init(&op, run->costs->cycles);
	if (ss_recon_kslab_freed(run->recon, &prior, &op, &obj.cache, &taken, err)) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		return BAD(run, ev, err, "%s", why);
	}
	if (!taken)
		return 0;
	if (ss_memcap_note(&run->books.mem, run->desc, run->model, &obj, &op))
		return BAD(run, ev, err, SS_MEMCAP_LOST);
	/* (one = 0: more than one initial object moved, the cache is read again) */
	if (ss_account_prior(&run->books.acct, &run->books.mem, obj.cache, 0, run->books.events))
		return ss_errorf(err, "out of memory");
	if (ss_contend_op(&run->books.cont, ev->cpu, &op))
		return ss_errorf(err, "out of memory");
	run->books.free_cycles += op.cycles;
	run->books.cpu_cycles[ev->cpu] += op.cycles;
	return 0;
}

/* The model's timed work on the event's CPU (SLAB's cache_reap), after
 * the event: on the CPU's clock and the allocator's time; the slabs it
 * frees leave the memory total. */
static __attribute__((noinline)) int do_tick(struct ss_run *run, const struct ss_event *ev,
					    struct ss_error *err)
{
	unsigned cpu = ev->cpu < run->books.same_cpus ? ev->cpu : run->topo->cpu_map[ev->cpu];
	struct ss_op op;

	ss_op_init(&op, run->costs->cycles);
	run->desc->ops->tick(run->model, cpu, run->books.cpu_cycles[cpu], &op);
	if (op.slab_pages && ss_memcap_note(&run->books.mem, run->desc, run->model, NULL, &op))
		return BAD(run, ev, err, SS_MEMCAP_LOST);
	if (ss_contend_op(&run->books.cont, cpu, &op))
		return ss_errorf(err, "out of memory");
	run->books.cpu_cycles[cpu] += op.cycles;
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
	run->books.cpu_cycles[ev->cpu] += (double)ev->value;
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
		return do_alloc(run, &mapped, err);
	case SS_EV_FREE:
		return do_free(run, &mapped, err);
	case SS_EV_FREE_PRIOR:
		return do_free_prior(run, &mapped, err);
	case SS_EV_SLAB_FREED:
		return do_slab_freed(run, &mapped, err);
	default:
		return do_work(run, &mapped, err);
	}
}

static inline __attribute__((always_inline)) int replay_event(struct ss_run *run, const struct ss_event *ev,
							    struct ss_error *err)
{
	_Static_assert(SS_EV_ALLOC == 0 && SS_EV_FREE == 1, "one test for both");

	if (__builtin_expect((unsigned)ev->kind <= SS_EV_FREE && ev->cpu < run->books.same_cpus, 1))
		return ev->kind == SS_EV_ALLOC ? do_alloc(run, ev, err) : do_free(run, ev, err);
	if (ev->kind == SS_EV_PHASE)
		return do_phase(run, ev, err);
	if (ev->cpu >= run->books.same_cpus)
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

/* The run whose books b are. */
static inline struct ss_run *run_of(struct ss_books *b)
{
	return (struct ss_run *)(void *)((char *)b - offsetof(struct ss_run, books));
}

/* ss_books event, alloc_done, free_done: what a model's batch replay
 * hands back. */
static int books_event(struct ss_books *b, const struct ss_event *ev, struct ss_error *err)
{
	return replay_event(run_of(b), ev, err);
}

static int books_alloc_done(struct ss_books *b, const struct ss_event *ev, struct ss_obj *obj,
			    struct ss_op *op, struct ss_error *err)
{
	struct ss_run *run = run_of(b);

	if (!op) /* the model's alloc failed (err) */
		return alloc_failed(run, ev, err);
	return alloc_books(run, ev, obj, op, err);
}

static int books_free_done(struct ss_books *b, const struct ss_event *ev, struct ss_obj *obj,
			   struct ss_op *op, struct ss_error *err)
{
	return free_books(run_of(b), ev, obj, op, err);
}

/* Events e up to stop, for every run (a model with a batch replay takes
 * its own loop instead).  NULL, or the event that failed. */
static const struct ss_event *replay_events(struct ss_run *run, const struct ss_event *e,
					    const struct ss_event *stop, struct ss_error *err)
{
	for (; e < stop; e++) {
		ss_books_prefetch(&run->books, e);
		if (replay_event(run, e, err))
			return e;
		/* (a phase marker has no CPU of its own) */
		if (run->ticks && e->kind != SS_EV_PHASE && do_tick(run, e, err))
			return e;
		run->books.events++;
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

		if (run->batch ? run->batch->events(run->model, &run->books, e, stop, err)
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

/* ss_replay for a run whose batch replay reads the trace's records in
 * place: no batch; the timeline samples where the batches would take
 * them (every sample_every events). */
static int replay_in_place(struct ss_run *run, struct ss_trace_reader *r, struct ss_error *err)
{
	int end = 0;

	while (!end) {
		int64_t done = run->batch->records(run->model, &run->books, r,
						   run->on_sample ? run->until_sample : UINT64_MAX,
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
	 * batches: the batch loop maps it, the in-place loop does not) */
	if (run->batch && run->batch->records && ss_trace_has_records(r) &&
	    run->books.same_cpus >= run->topo->nr_map)
		return replay_in_place(run, r, err);
	while ((n = ss_trace_next_batch(r, ev, SS_REPLAY_BATCH, err)) > 0)
		if (ss_replay_batch(run, ev, (unsigned)n, err))
			return -1;
	if (n < 0)
		return -1;
	return ss_replay_finish(run, err);
}
