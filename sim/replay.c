/* replay.c - the hot loop: read an event, hand it to the model, account. */
#include "replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ss_run_init(struct ss_run *run, uint64_t max_objects, struct ss_error *err)
{
	ss_objtable_init(&run->objs, max_objects);
	run->cpu_cycles = calloc(run->topo->nr_cpus, sizeof(*run->cpu_cycles));
	if (!run->cpu_cycles)
		return ss_errorf(err, "out of memory");
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

#define BAD(r, ev, err, ...) \
	ss_error_at(err, ss_trace_path(r), (ev)->line, __VA_ARGS__)

static int do_alloc(struct ss_run *run, struct ss_trace_reader *r,
		    const struct ss_event *ev, struct ss_error *err)
{
	struct ss_obj *obj = ss_objtable_slot(&run->objs, ev->id);
	struct ss_op op = {.cost = run->costs->cycles};

	if (!obj)
		return BAD(r, ev, err, "object id %llu is beyond the live-object cap of %llu (ids must be reused after free; raise --max-objects)",
			   (unsigned long long)ev->id, (unsigned long long)run->objs.cap);
	if (obj->state != SS_OBJ_FREE)
		return BAD(r, ev, err, "object id %llu allocated again while live (no free since its allocation)",
			   (unsigned long long)ev->id);
	obj->size = ev->value;
	obj->cpu = (uint16_t)ev->cpu;
	if (run->desc->ops->alloc(run->model, ev, obj, &op, err)) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		return BAD(r, ev, err, "%s", why);
	}
	run->objs.live++;
	if (run->objs.live > run->objs.peak_live)
		run->objs.peak_live = run->objs.live;
	run->alloc_ops++;
	run->zero_allocs += obj->state == SS_OBJ_ZERO;
	run->large_allocs += obj->state == SS_OBJ_LARGE;
	run->alloc_cycles += op.cycles;
	run->cpu_cycles[ev->cpu] += op.cycles;
	ss_hist_add(&run->alloc_hist, (uint64_t)llround(op.cycles));
	return 0;
}

static int do_free(struct ss_run *run, struct ss_trace_reader *r,
		   const struct ss_event *ev, struct ss_error *err)
{
	struct ss_obj *obj = ss_objtable_find(&run->objs, ev->id);
	struct ss_op op = {.cost = run->costs->cycles};

	if (!obj || obj->state == SS_OBJ_FREE)
		return BAD(r, ev, err, "free of object id %llu, which is not allocated (double free or never allocated)",
			   (unsigned long long)ev->id);
	run->desc->ops->free(run->model, ev->cpu, obj, &op);
	obj->state = SS_OBJ_FREE;
	obj->slab = NULL;
	run->objs.live--;
	run->free_ops++;
	run->free_cycles += op.cycles;
	run->cpu_cycles[ev->cpu] += op.cycles;
	ss_hist_add(&run->free_hist, (uint64_t)llround(op.cycles));
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

int ss_replay(struct ss_run *run, struct ss_trace_reader *r,
	      struct ss_error *err)
{
	struct ss_event ev;
	int rc;

	while ((rc = ss_trace_next(r, &ev, err)) == 1) {
		if (ev.kind != SS_EV_PHASE && ev.cpu >= run->topo->nr_cpus)
			return BAD(r, &ev, err, "cpu %u is outside the topology (%u CPUs; set --cpus)",
				   ev.cpu, run->topo->nr_cpus);
		switch (ev.kind) {
		case SS_EV_ALLOC:
			rc = do_alloc(run, r, &ev, err);
			break;
		case SS_EV_FREE:
			rc = do_free(run, r, &ev, err);
			break;
		case SS_EV_WORK:
			rc = do_work(run, &ev, err);
			break;
		case SS_EV_PHASE:
			run->phase = ss_trace_name(run->tables, ev.site);
			run->phase_index++;
			rc = run->on_phase ? run->on_phase(run, run->phase, err) : 0;
			break;
		}
		if (rc)
			return -1;
		run->events++;
		if (run->on_sample && run->events % run->sample_every == 0 &&
		    run->on_sample(run, err))
			return -1;
	}
	if (rc < 0)
		return -1;
	return run->on_phase ? run->on_phase(run, NULL, err) : 0;
}
