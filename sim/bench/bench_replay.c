/* bench_replay.c - the two replays the bench times: a model through the
 * ordinary replay loop (no outputs), and the baseline a user would reach
 * for, glibc malloc/free driven by the same events and the same dense ids. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "run.h"
#include "geometry.h"
#include "replay.h"
#include "site_scan.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "traced+P" -> desc of "traced", debug flags P. */
static int model_of(const char *arg, const struct ss_model_desc **desc,
		    unsigned *debug, struct ss_error *err)
{
	char name[128];
	const char *plus = strchr(arg, '+');
	size_t n = plus ? (size_t)(plus - arg) : strlen(arg);

	if (n >= sizeof(name))
		return ss_errorf(err, "model name too long");
	memcpy(name, arg, n);
	name[n] = '\0';
	*desc = ss_model_find(name);
	if (!*desc)
		return ss_errorf(err, "unknown model '%s'", name);
	*debug = 0;
	if (plus && ss_debug_parse(plus + 1, debug))
		return ss_errorf(err, "bad slub_debug letters in '%s'", arg);
	return 0;
}

struct model_run {
	struct ss_target target;
	struct ss_topology topo;
	struct ss_costs costs;
	struct ss_site_sizes sites;
	struct ss_model_config cfg;
	struct ss_trace_reader *reader;
	struct ss_run run;
	const struct ss_model_desc *desc;
};

static int model_setup(struct model_run *m, const char *model,
		       const struct ss_bench_opts *o, struct ss_error *err)
{
	if (model_of(model, &m->desc, &m->cfg.debug, err) ||
	    ss_target_load(o->target, &m->target, err) ||
	    ss_costs_load(&m->costs, NULL, err))
		return -1;
	if (o->cpus)
		m->target.cpus = o->cpus;
	return ss_topology_for_run(&m->topo, NULL, NULL, &m->target, err);
}

/* Everything a `slabsim run` does up to and including the replay. */
static int model_replay(struct model_run *m, const char *trace,
			const struct ss_bench_opts *o, struct ss_error *err)
{
	if (m->desc->needs_site_sizes && ss_site_scan(trace, &m->sites, err))
		return -1;
	if (ss_trace_open(&m->reader, trace, err))
		return -1;
	m->cfg.target = &m->target;
	m->cfg.topo = &m->topo;
	m->cfg.merge = true;
	m->cfg.tables = ss_trace_tables(m->reader);
	m->cfg.sites = m->desc->needs_site_sizes ? &m->sites : NULL;
	m->run = (struct ss_run){.target = &m->target, .topo = &m->topo,
				 .costs = &m->costs, .desc = m->desc,
				 .tables = m->cfg.tables, .sample_every = 1};
	if (m->desc->ops->create(&m->run.model, &m->cfg, m->desc->policy, err) ||
	    ss_run_init(&m->run, o->max_objects, err))
		return -1;
	return ss_replay(&m->run, m->reader, err);
}

static int bench_model(const char *trace, const char *model,
		       const struct ss_bench_opts *o, struct ss_bench_result *res,
		       struct ss_error *err)
{
	struct model_run m = {0};
	double t0;
	int rc;

	if (model_setup(&m, model, o, err)) {
		ss_topology_release(&m.topo);
		return -1;
	}
	t0 = now();
	rc = model_replay(&m, trace, o, err);
	res->seconds = now() - t0;
	res->events = m.run.events;
	res->peak_live = m.run.objs.peak_live;
	if (m.run.model)
		m.desc->ops->destroy(m.run.model);
	ss_run_release(&m.run);
	ss_trace_close(m.reader);
	ss_site_sizes_release(&m.sites);
	ss_topology_release(&m.topo);
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

static int glibc_event(struct ptr_table *t, const struct ss_event *ev,
		       struct ss_error *err)
{
	void **slot;

	if (ev->kind == SS_EV_ALLOC) {
		slot = ptr_slot(t, ev->id);
		if (!slot || *slot)
			return ss_errorf(err, "object id %llu: beyond the cap or allocated while live",
					 (unsigned long long)ev->id);
		*slot = malloc(ev->value); /* glibc: malloc(0) is a unique pointer */
		if (!*slot)
			return ss_errorf(err, "malloc(%llu) failed", (unsigned long long)ev->value);
		if (++t->live > t->peak)
			t->peak = t->live;
	} else if (ev->kind == SS_EV_FREE) {
		if (ev->id >= t->nr || !t->ptrs[ev->id])
			return ss_errorf(err, "free of object id %llu, which is not allocated",
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
	struct ss_event ev;
	double t0 = now();
	int rc;

	if (ss_trace_open(&r, trace, err))
		return -1;
	while ((rc = ss_trace_next(r, &ev, err)) == 1) {
		if (glibc_event(&t, &ev, err)) {
			rc = -1;
			break;
		}
		res->events++;
	}
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
	struct ss_event ev;
	double t0 = now();
	int rc;

	if (ss_trace_open(&r, trace, err))
		return -1;
	while ((rc = ss_trace_next(r, &ev, err)) == 1)
		res->events++;
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
