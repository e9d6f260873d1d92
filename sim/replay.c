/* replay.c - the hot loop: read an event, hand it to the model, account. */
#include "replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bad_free.h"
#include "contention.h"

int ss_run_init(struct ss_run *run, uint64_t max_objects, struct ss_error *err)
{
	ss_objtable_init(&run->objs, max_objects);
	ss_memcap_init(&run->mem, run->mem.max_bytes, run->target->page_size);
	ss_account_init(&run->acct, run->desc, run->model, run->target);
	run->cpu_cycles = calloc(run->topo->nr_cpus, sizeof(*run->cpu_cycles));
	if (!run->cpu_cycles)
		return ss_errorf(err, "out of memory");
	ss_contention_init(&run->cont, run->cpu_cycles, run->topo->nr_cpus);
	run->phase = "start";
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

/* llround() of an operation's (non-negative) cycles without the libm
 * call, exact below 2^53: the replay rounds once per alloc and per free. */
static inline uint64_t round_cycles(double c)
{
	uint64_t whole;

	if (!(c >= 0.5))
		return 0;
	whole = (uint64_t)c;
	return whole + (c - (double)whole >= 0.5);
}

#define BAD(r, ev, err, ...) \
	ss_error_at(err, ss_trace_path(r), (ev)->line, __VA_ARGS__)

static int do_alloc(struct ss_run *run, struct ss_trace_reader *r,
		    const struct ss_event *ev, struct ss_error *err)
{
	struct ss_obj *obj = ss_objtable_slot(&run->objs, ev->id);
	struct ss_op op;

	ss_op_init(&op, run->costs->cycles);

	if (!obj)
		return BAD(r, ev, err, "object id %llu is beyond the live-object cap of %llu (ids must be reused after free; raise --max-objects)",
			   (unsigned long long)ev->id, (unsigned long long)run->objs.cap);
	if (obj->state != SS_OBJ_FREE)
		return BAD(r, ev, err, "object id %llu allocated again while live (no free since its allocation)",
			   (unsigned long long)ev->id);
	if (ev->api != SS_API_KMALLOC &&
	    ev->value > run->tables->caches[ev->api].object_size)
		return BAD(r, ev, err, "alloc of %llu bytes from cache %s, whose objects are %u bytes (kmem_cache_alloc() cannot ask for more)",
			   (unsigned long long)ev->value,
			   ss_trace_cache_name(run->tables, ev->api),
			   run->tables->caches[ev->api].object_size);
	obj->size = ev->value;
	obj->cpu = (uint16_t)ev->cpu;
	obj->site = ev->site;
	if (run->desc->ops->alloc(run->model, ev, obj, &op, err)) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		return BAD(r, ev, err, "%s", why);
	}
	if (ss_memcap_note(&run->mem, run->desc, run->model, obj, &op))
		return ss_errorf(err, "out of memory");
	if (ss_memcap_over(&run->mem))
		return BAD(r, ev, err, "simulated memory reached %llu bytes (slab and kmalloc_large pages), over the cap of %llu (raise --max-memory)",
			   (unsigned long long)ss_memcap_bytes(&run->mem),
			   (unsigned long long)run->mem.max_bytes);
	if (ss_account_alloc(&run->acct, &run->mem, obj, run->events))
		return ss_errorf(err, "out of memory");
	run->objs.live++;
	if (run->objs.live > run->objs.peak_live)
		run->objs.peak_live = run->objs.live;
	run->alloc_ops++;
	run->zero_allocs += obj->state == SS_OBJ_ZERO;
	run->large_allocs += obj->state == SS_OBJ_LARGE;
	if (ss_contend_op(&run->cont, ev->cpu, &op)) /* locks, cmpxchgs */
		return ss_errorf(err, "out of memory");
	run->alloc_cycles += op.cycles;
	run->cpu_cycles[ev->cpu] += op.cycles;
	ss_hist_add(&run->alloc_hist, round_cycles(op.cycles));
	return 0;
}

static int do_free(struct ss_run *run, struct ss_trace_reader *r,
		   const struct ss_event *ev, struct ss_error *err)
{
	struct ss_obj *obj = ss_objtable_find(&run->objs, ev->id);
	struct ss_op op;

	ss_op_init(&op, run->costs->cycles);

	if (!obj || obj->state == SS_OBJ_FREE)
		return ss_bad_free(run, ss_trace_path(r), ev->line, ev->id, obj, err);
	run->desc->ops->free(run->model, ev->cpu, obj, &op);
	if (ss_memcap_note(&run->mem, run->desc, run->model, obj, &op))
		return ss_errorf(err, "out of memory");
	if (ss_account_free(&run->acct, &run->mem, obj, ev->cpu))
		return ss_errorf(err, "out of memory");
	obj->freed = obj->state;
	obj->free_cpu = (uint16_t)ev->cpu;
	obj->state = SS_OBJ_FREE;
	obj->slab = NULL;
	run->objs.live--;
	run->free_ops++;
	if (ss_contend_op(&run->cont, ev->cpu, &op))
		return ss_errorf(err, "out of memory");
	run->free_cycles += op.cycles;
	run->cpu_cycles[ev->cpu] += op.cycles;
	ss_hist_add(&run->free_hist, round_cycles(op.cycles));
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

/* Events are read a few ahead of the one replayed, and the object-table
 * slot each will use is prefetched: with many live objects the slot is
 * otherwise a cache miss per event (docs/bench.md: +10-30% events/s on the
 * hackbench trace).  A read error is returned once the events read before
 * it are replayed. */
#define LOOKAHEAD 8
struct lookahead {
	struct ss_event ev[LOOKAHEAD];
	unsigned head, n;
	int rc; /* the reader's last answer: 1 more, 0 end, -1 error */
};

/* The next event, in place in the ring (valid until the next call), or
 * NULL at the end or on a read error (la->rc says which). */
static struct ss_event *next_event(struct ss_run *run, struct ss_trace_reader *r,
				   struct lookahead *la, struct ss_error *err)
{
	struct ss_event *ev;

	while (la->n < LOOKAHEAD && la->rc == 1) {
		struct ss_event *e = &la->ev[(la->head + la->n) % LOOKAHEAD];

		la->rc = ss_trace_next(r, e, err);
		if (la->rc != 1)
			break;
		if (e->id < run->objs.nr)
			__builtin_prefetch(&run->objs.objs[e->id]);
		la->n++;
	}
	if (!la->n)
		return NULL;
	ev = &la->ev[la->head];
	la->head = (la->head + 1) % LOOKAHEAD;
	la->n--;
	return ev;
}

int ss_replay(struct ss_run *run, struct ss_trace_reader *r,
	      struct ss_error *err)
{
	struct lookahead la = {.rc = 1};
	struct ss_event *ev;
	/* a countdown, not events % sample_every: no division per event */
	uint64_t until_sample = run->sample_every;
	int rc;

	while ((ev = next_event(run, r, &la, err))) {
		if (ev->kind != SS_EV_PHASE) { /* trace CPU -> PU (topology.h) */
			if (ev->cpu >= run->topo->nr_map ||
			    run->topo->cpu_map[ev->cpu] == SS_NO_PU)
				return BAD(r, ev, err, "cpu %u is outside the topology (%u PUs, map %s; set --cpus or --topology)",
					   ev->cpu, run->topo->nr_cpus,
					   ss_cpu_map_name(run->topo->map));
			ev->cpu = run->topo->cpu_map[ev->cpu];
		}
		switch (ev->kind) {
		case SS_EV_ALLOC:
			rc = do_alloc(run, r, ev, err);
			break;
		case SS_EV_FREE:
			rc = do_free(run, r, ev, err);
			break;
		case SS_EV_WORK:
			rc = do_work(run, ev, err);
			break;
		case SS_EV_PHASE:
		default:
			run->phase = ss_trace_name(run->tables, ev->site);
			run->phase_index++;
			rc = run->on_phase ? run->on_phase(run, run->phase, err) : 0;
			break;
		}
		if (rc)
			return -1;
		run->events++;
		if (run->on_sample && --until_sample == 0) {
			until_sample = run->sample_every;
			if (run->on_sample(run, err))
				return -1;
		}
	}
	if (la.rc < 0)
		return -1;
	return run->on_phase ? run->on_phase(run, NULL, err) : 0;
}
