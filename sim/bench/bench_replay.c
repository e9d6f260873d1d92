/* bench_replay.c - the two replays the bench times: a model through the
 * ordinary replay loop (no outputs), and the baseline a user would reach
 * for, glibc malloc/free driven by the same events and the same dense ids. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "run.h"
#include "replay.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Everything a `slabsim run` does up to and including the replay, with
 * no outputs. */
static int bench_model(const char *trace, const char *model,
		       const struct ss_bench_opts *o, struct ss_bench_result *res,
		       struct ss_error *err)
{
	struct ss_run_spec spec = {.trace = trace, .model = model, .target = o->target,
				   .cpus = o->cpus, .max_objects = o->max_objects};
	struct ss_run_setup rs = {0};
	struct ss_run run = {.sample_every = 1};
	double t0;
	int rc = -1;

	if (ss_run_setup_load(&rs, &spec, err))
		goto out;
	t0 = now();
	rc = ss_run_setup_open(&rs, &spec, err) || ss_run_setup_start(&rs, &run, err) ||
	     ss_replay(&run, rs.reader, err) ? -1 : 0;
	res->seconds = now() - t0;
	res->events = run.books.events;
	res->peak_live = run.books.objs.peak_live;
out:
	ss_run_setup_close(&rs, &run);
	return rc;
}

/* The baseline's object table: a pointer per dense id. */
struct ptr_table {
	void **ptrs;
	uint64_t nr, cap, live, peak;
};

static void **ptr_slot(struct ptr_table *t, uint64_t id)
{
	if (id >= t->nr) {
		uint64_t nr = t->nr ? t->nr : 1024;
		void **p;

		while (nr <= id)
			nr *= 2;
		if (nr > t->cap)
			nr = t->cap;
		if (id >= nr)
			return NULL;
		p = realloc(t->ptrs, nr * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + t->nr, 0, (nr - t->nr) * sizeof(*p));
		t->ptrs = p;
		t->nr = nr;
	}
	return &t->ptrs[id];
}

/* nr: the events before ev, its position in messages (trace.h) */
static int glibc_event(struct ptr_table *t, const struct ss_trace_reader *r,
		       const struct ss_event *ev, uint64_t nr, struct ss_error *err)
{
	void **slot;

	if (ev->kind == SS_EV_ALLOC) {
		slot = ptr_slot(t, ev->id);
		if (!slot || *slot)
			return ss_trace_error_at(err, r, ss_trace_event_line(r, ev, nr),
						 "object id %llu: beyond the cap or allocated while live",
						 (unsigned long long)ev->id);
		*slot = malloc(ev->value); /* glibc: malloc(0) is a unique pointer */
		if (!*slot)
			return ss_trace_error_at(err, r, ss_trace_event_line(r, ev, nr),
						 "malloc(%llu) failed",
						 (unsigned long long)ev->value);
		if (++t->live > t->peak)
			t->peak = t->live;
	} else if (ev->kind == SS_EV_FREE) {
		if (ev->id >= t->nr || !t->ptrs[ev->id])
			return ss_trace_error_at(err, r, ss_trace_event_line(r, ev, nr),
						 "free of object id %llu, which is not allocated",
						 (unsigned long long)ev->id);
		free(t->ptrs[ev->id]);
		t->ptrs[ev->id] = NULL;
		t->live--;
	}
	return 0;
}

static int bench_glibc(const char *trace, const struct ss_bench_opts *o,
		       struct ss_bench_result *res, struct ss_error *err)
{
	struct ptr_table t = {.cap = o->max_objects};
	struct ss_trace_reader *r;
	struct ss_event ev[SS_REPLAY_BATCH];
	double t0 = now();
	int rc;

	if (ss_trace_open(&r, trace, err))
		return -1;
	while ((rc = ss_trace_next_batch(r, ev, SS_REPLAY_BATCH, err)) > 0) {
		for (int i = 0; i < rc; i++) {
			if (glibc_event(&t, r, &ev[i], res->events, err)) {
				rc = -1;
				goto out;
			}
			res->events++;
		}
	}
out:
	res->seconds = now() - t0;
	res->peak_live = t.peak;
	ss_trace_close(r);
	for (uint64_t i = 0; i < t.nr; i++)
		free(t.ptrs[i]);
	free(t.ptrs);
	return rc < 0 ? -1 : 0;
}

static int bench_read(const char *trace, struct ss_bench_result *res,
		      struct ss_error *err)
{
	struct ss_trace_reader *r;
	struct ss_event ev[SS_REPLAY_BATCH];
	double t0 = now();
	int rc;

	if (ss_trace_open(&r, trace, err))
		return -1;
	while ((rc = ss_trace_next_batch(r, ev, SS_REPLAY_BATCH, err)) > 0)
		res->events += (uint64_t)rc;
	res->seconds = now() - t0;
	ss_trace_close(r);
	return rc < 0 ? -1 : 0;
}

int ss_bench_replay(const char *trace, const char *model,
		    const struct ss_bench_opts *o, struct ss_bench_result *res,
		    struct ss_error *err)
{
	memset(res, 0, sizeof(*res));
	if (!strcmp(model, SS_BENCH_GLIBC))
		return bench_glibc(trace, o, res, err);
	if (!strcmp(model, SS_BENCH_READ))
		return bench_read(trace, res, err);
	return bench_model(trace, model, o, res, err);
}
