/* host_run.c - host mode's main thread: set up the topology, the model
 * that routes allocations and the pinned workers, then cut the trace into
 * windows of per-PU queues (host_engine.h). */
#include "host_engine.h"
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "geometry.h"
#include "host_clock.h"
#include "memcap.h"
#include "objtable.h"
#include "site_scan.h"
#include "trace.h"

#define HOST_WINDOW_DEFAULT 65536

struct host_run {
	const struct ss_host_opts *o;
	struct ss_run_setup rs;	  /* target, topology, model config, trace */
	struct ss_model *model;
	struct ss_objtable mobjs; /* the model's view of each object */
	struct ss_memcap mem;	  /* --max-memory on the model's pages */
	struct ss_pmu_set pmu;
	struct ss_host_engine e;
	double zero_costs[SS_NR_STEPS];
	uint32_t win;
	struct ss_event pending;
	int have_pending;
	uint64_t events;
};

/* ---- set-up ---- */

static int check_fit(struct host_run *h, struct ss_error *err)
{
	int host_pus = hwloc_get_nbobjs_by_type(h->e.host, HWLOC_OBJ_PU);

	if (host_pus <= 0)
		return ss_errorf(err, "host mode: hwloc finds no PU on this host");
	if (h->rs.topo.nr_cpus > (unsigned)host_pus)
		return ss_errorf(err, "host mode: topology '%s' has %u PUs but this host has %d; host mode runs one pinned thread per simulated PU (use a topology of at most %d PUs, e.g. --topology host)",
				 h->rs.topo.spec, h->rs.topo.nr_cpus, host_pus, host_pus);
	return 0;
}

static int load_host(struct host_run *h, struct ss_error *err)
{
	if (hwloc_topology_init(&h->e.host) || hwloc_topology_load(h->e.host))
		return ss_errorf(err, "host mode: hwloc cannot read this host's topology");
	return 0;
}

/* Host mode's allocator is SLUB's paths on real pages (host_slab.c):
 * another allocator, or an option that takes objects out of the caches
 * (KFENCE), has no host counterpart. */
static int check_kernel(const struct ss_target *t, struct ss_error *err)
{
	if (t->kc.allocator != SS_ALLOCATOR_SLUB)
		return ss_errorf(err, "host mode replays SLUB only, not %s",
				 ss_allocator_name(t->kc.allocator));
	if (t->kc.kfence)
		return ss_errorf(err, "host mode does not model CONFIG_KFENCE");
	return 0;
}

static int setup(struct host_run *h, struct ss_error *err)
{
	const struct ss_host_opts *o = h->o;
	struct ss_run_spec spec = o->spec;

	if (!spec.topology)
		spec.topology = "host";
	if (ss_run_setup_load(&h->rs, &spec, err) || check_kernel(&h->rs.target, err) ||
	    ss_run_setup_open(&h->rs, &spec, err) || load_host(h, err) || check_fit(h, err) ||
	    ss_pmu_parse(&h->pmu, o->events ? o->events : SS_PMU_DEFAULT_EVENTS, err) ||
	    ss_run_setup_model(&h->rs, &h->model, err))
		return -1;
	ss_objtable_init(&h->mobjs, spec.max_objects ? spec.max_objects : SS_OBJTABLE_DEFAULT_CAP);
	ss_memcap_init(&h->mem, spec.max_memory, h->rs.target.page_size);
	h->e.max_bytes = (int64_t)h->mem.max_bytes;
	h->e.topo = &h->rs.topo;
	h->e.pmu = &h->pmu;
	h->e.page_size = h->rs.target.page_size;
	h->e.nr_workers = h->rs.topo.nr_cpus;
	h->e.w = calloc(h->rs.topo.nr_cpus, sizeof(*h->e.w));
	if (!h->e.w)
		return ss_errorf(err, "out of memory");
	return ss_host_workers_start(&h->e, err);
}

/* ---- routing ---- */

/* A host cache for every model cache created so far. */
static int sync_caches(struct host_run *h, struct ss_error *err)
{
	struct ss_host_engine *e = &h->e;
	unsigned want = h->rs.desc->ops->nr_caches(h->model);

	if (want > e->cap_caches) {
		unsigned cap = want * 2;
		struct ss_hostslab_cache **c = realloc(e->caches, cap * sizeof(*c));

		if (!c)
			return ss_errorf(err, "out of memory");
		e->caches = c;
		e->cap_caches = cap;
	}
	for (; e->nr_caches < want; e->nr_caches++) {
		struct ss_cache_report r;
		struct ss_hostslab_geometry g;
		struct ss_hostslab_cache *s = malloc(sizeof(*s));

		if (!s)
			return ss_errorf(err, "out of memory");
		h->rs.desc->ops->cache_report(h->model, e->nr_caches, &r);
		ss_hostslab_geometry_from_model(&g, &r, h->rs.target.page_size);
		if (ss_hostslab_cache_init(s, r.name, &g, &h->rs.topo, &e->mapped_bytes,
				  &e->peak_bytes, err)) {
			free(s);
			return -1;
		}
		s->max_bytes = e->max_bytes;
		e->caches[e->nr_caches] = s;
	}
	return 0;
}

static struct ss_host_obj *host_slot(struct host_run *h, uint64_t id,
				  struct ss_error *err)
{
	struct ss_host_engine *e = &h->e;

	if (id >= e->nr_objs) {
		uint64_t nr = e->nr_objs ? e->nr_objs : 1024;
		struct ss_host_obj *o;

		while (nr <= id)
			nr *= 2;
		o = realloc(e->objs, nr * sizeof(*o));
		if (!o) {
			ss_errorf(err, "out of memory");
			return NULL;
		}
		memset(o + e->nr_objs, 0, (nr - e->nr_objs) * sizeof(*o));
		e->objs = o;
		e->nr_objs = nr;
	}
	return &e->objs[id];
}

static int push(struct ss_host_worker *w, const struct ss_host_op *op,
		struct ss_error *err)
{
	if (w->nq == w->capq) {
		size_t cap = w->capq ? w->capq * 2 : 1024;
		struct ss_host_op *q = realloc(w->q, cap * sizeof(*q));

		if (!q)
			return ss_errorf(err, "out of memory");
		w->q = q;
		w->capq = cap;
	}
	w->q[w->nq++] = *op;
	return 0;
}

#define BAD(h, ev, err, ...) \
	ss_trace_error_at(err, (h)->rs.reader, (ev)->line, __VA_ARGS__)

static int route_alloc(struct host_run *h, const struct ss_event *ev,
		       struct ss_host_obj *ho, struct ss_error *err)
{
	struct ss_obj *mo = ss_objtable_slot(&h->mobjs, ev->id);
	struct ss_op op = {.cost = h->zero_costs};
	struct ss_host_op q = {.id = ev->id, .kind = HQ_ALLOC};

	if (!mo) {
		struct ss_error why;

		ss_objtable_refused(&h->mobjs, ev->id, &why);
		return BAD(h, ev, err, "%s", why.msg);
	}
	if (ho->state != HO_FREE)
		return BAD(h, ev, err, "object id %llu allocated again while live",
			   (unsigned long long)ev->id);
	mo->size = ev->value;
	mo->cpu = (uint16_t)ev->cpu;
	mo->site = ev->site;
	if (h->rs.desc->ops->alloc(h->model, ev, mo, &op, err)) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		return BAD(h, ev, err, "%s", why);
	}
	/* the model's pages first: the same cap and message as a model run,
	 * at the trace line (the workers check what they really map too) */
	if (ss_memcap_note(&h->mem, h->rs.desc, h->model, mo, &op))
		return ss_errorf(err, SS_MEMCAP_LOST);
	if (ss_memcap_over(&h->mem))
		return BAD(h, ev, err, "simulated memory reached %llu bytes (slab and kmalloc_large pages), over the cap of %llu (raise --max-memory)",
			   (unsigned long long)ss_memcap_bytes(&h->mem),
			   (unsigned long long)h->mem.max_bytes);
	if (sync_caches(h, err))
		return -1;
	q.state = mo->state == SS_OBJ_ZERO ? HO_ZERO : mo->state == SS_OBJ_LARGE ? HO_LARGE : HO_SLAB;
	q.cache = mo->cache;
	q.bytes = (uint64_t)h->rs.target.page_size << ss_get_order(&h->rs.target, ev->value);
	ho->state = q.state;
	ho->size = ev->value;
	ho->alloc_pu = (uint16_t)ev->cpu;
	return push(&h->e.w[ev->cpu], &q, err);
}

static int route_free(struct host_run *h, const struct ss_event *ev,
		      struct ss_host_obj *ho, struct ss_error *err)
{
	struct ss_obj *mo = ss_objtable_find(&h->mobjs, ev->id);
	struct ss_op op = {.cost = h->zero_costs};
	struct ss_host_op q = {.id = ev->id, .kind = HQ_FREE, .state = ho->state};

	if (!mo || ho->state == HO_FREE || mo->state == SS_OBJ_FREE)
		return BAD(h, ev, err, "free of object id %llu, which is not allocated",
			   (unsigned long long)ev->id);
	h->rs.desc->ops->free(h->model, ev->cpu, mo, &op);
	if (ss_memcap_note(&h->mem, h->rs.desc, h->model, mo, &op))
		return ss_errorf(err, SS_MEMCAP_LOST);
	mo->freed = mo->state;
	mo->free_cpu = (uint16_t)ev->cpu;
	mo->state = SS_OBJ_FREE;
	mo->slab = NULL;
	q.cache = mo->cache;
	q.bytes = (uint64_t)h->rs.target.page_size << ss_get_order(&h->rs.target, ho->size);
	q.remote = ho->alloc_pu != ev->cpu;
	ho->state = HO_FREE;
	return push(&h->e.w[ev->cpu], &q, err);
}

/* 1: event queued, 0: the window must end before it, -1: error. */
static int route(struct host_run *h, struct ss_event *ev, struct ss_error *err)
{
	struct ss_host_obj *ho;

	if (ev->cpu >= h->rs.topo.nr_map || h->rs.topo.cpu_map[ev->cpu] == SS_NO_PU)
		return BAD(h, ev, err, "cpu %u is outside the topology (%u PUs, map %s)",
			   ev->cpu, h->rs.topo.nr_cpus, ss_cpu_map_name(h->rs.topo.map));
	ev->cpu = h->rs.topo.cpu_map[ev->cpu];
	ho = host_slot(h, ev->id, err);
	if (!ho)
		return -1;
	if (ho->win == h->win && ho->touch_pu != ev->cpu)
		return 0; /* another PU touched it in this window */
	if (ev->kind == SS_EV_ALLOC ? route_alloc(h, ev, ho, err) : route_free(h, ev, ho, err))
		return -1;
	ho->win = h->win;
	ho->touch_pu = (uint16_t)ev->cpu;
	return 1;
}

/* Fill the queues of one window; 1 if anything was queued. */
static int fill_window(struct host_run *h, struct ss_error *err)
{
	unsigned limit = h->o->window ? h->o->window : HOST_WINDOW_DEFAULT;
	unsigned n = 0;
	int rc;

	h->win++;
	while (n < limit) {
		struct ss_event *ev = &h->pending;
		uint32_t trace_cpu;

		if (!h->have_pending) {
			rc = ss_trace_next(h->rs.reader, ev, err);
			if (rc <= 0)
				return rc < 0 ? -1 : n > 0;
			h->have_pending = 1;
		}
		/* host mode replays the trace's own objects; a prior free has
		 * none of its ids (no initial state in real memory), nor has a
		 * kernel slab's freeing */
		if (ev->kind == SS_EV_WORK || ev->kind == SS_EV_PHASE ||
		    ev->kind == SS_EV_FREE_PRIOR || ev->kind == SS_EV_SLAB_FREED) {
			h->have_pending = 0;
			h->events++;
			if (ev->kind == SS_EV_PHASE && n)
				break;
			continue;
		}
		trace_cpu = ev->cpu;
		rc = route(h, ev, err);
		if (rc < 0)
			return -1;
		if (rc == 0) { /* keep it for the next window, as read */
			ev->cpu = trace_cpu;
			break;
		}
		h->have_pending = 0;
		h->events++;
		n++;
	}
	return n > 0;
}

/* ---- results ---- */

static void merge_counters(struct host_run *h)
{
	struct ss_pmu_thread *th = calloc(h->e.nr_workers, sizeof(*th));

	if (!th) { /* keep the events, without values */
		for (unsigned i = 0; i < h->pmu.nr; i++)
			h->pmu.ev[i].value = 0;
		return;
	}
	for (unsigned i = 0; i < h->e.nr_workers; i++)
		th[i] = h->e.w[i].pmu;
	ss_pmu_merge(&h->pmu, th, h->e.nr_workers);
	free(th);
}

static void collect(struct host_run *h, struct ss_host_stats *st)
{
	st->nr_threads = h->e.nr_workers;
	for (unsigned i = 0; i < h->e.nr_workers; i++) {
		const struct ss_host_worker *w = &h->e.w[i];

		st->threads[i] = w->info;
		for (unsigned b = 0; b < SS_HIST_BUCKETS; b++) {
			st->alloc_hist.count[b] += w->alloc_hist.count[b];
			st->free_hist.count[b] += w->free_hist.count[b];
		}
		st->alloc_hist.total += w->alloc_hist.total;
		st->free_hist.total += w->free_hist.total;
		st->alloc_ops += w->allocs;
		st->free_ops += w->frees;
		st->alloc_ticks += w->alloc_ticks;
		st->free_ticks += w->free_ticks;
		st->fast_allocs += w->ctx.alloc_path[SS_HOSTSLAB_FAST];
		st->refill_allocs += w->ctx.alloc_path[HS_REFILL];
		st->cpu_partial_allocs += w->ctx.alloc_path[SS_HOSTSLAB_CPU_PARTIAL];
		st->node_partial_allocs += w->ctx.alloc_path[HS_NODE_PARTIAL];
		st->new_slab_allocs += w->ctx.alloc_path[SS_HOSTSLAB_NEW_SLAB];
		st->fast_frees += w->ctx.free_path[SS_HOSTSLAB_FAST];
		st->slow_frees += w->ctx.free_path[HS_FREE_SLOW];
		st->remote_frees += w->remote_frees;
		st->large_ops += w->large_ops;
		st->zero_ops += w->zero_ops;
		st->slabs_mapped += w->ctx.slabs_mapped;
		st->slabs_unmapped += w->ctx.slabs_unmapped;
		st->poison_written += w->ctx.poison_written;
		st->poison_checked += w->ctx.poison_checked;
	}
	st->peak_mapped_bytes = (uint64_t)atomic_load(&h->e.peak_bytes);
	merge_counters(h);
	st->pmu = h->pmu;
	snprintf(st->topology, sizeof(st->topology), "%s", h->rs.topo.desc);
}

static void teardown(struct host_run *h)
{
	struct ss_host_engine *e = &h->e;

	for (uint64_t i = 0; i < e->nr_objs; i++)
		if (e->objs[i].state == HO_LARGE && e->objs[i].ptr)
			munmap(e->objs[i].ptr, (size_t)h->rs.target.page_size
						       << ss_get_order(&h->rs.target, e->objs[i].size));
	for (unsigned i = 0; i < e->nr_caches; i++) {
		ss_hostslab_cache_destroy(e->caches[i]);
		free(e->caches[i]);
	}
	free(e->caches);
	free(e->objs);
	for (unsigned i = 0; e->w && i < e->nr_workers; i++)
		free(e->w[i].q);
	free(e->w);
	if (e->host)
		hwloc_topology_destroy(e->host);
	if (h->model)
		h->rs.desc->ops->destroy(h->model);
	ss_objtable_release(&h->mobjs);
	ss_memcap_release(&h->mem);
	ss_run_setup_close(&h->rs, NULL);
}

/* ---- the replay ---- */

static int replay(struct host_run *h, struct ss_host_stats *st,
		  struct ss_error *err)
{
	double t0 = ss_host_now_ns();
	uint64_t c0 = host_ticks();
	int rc, failed = 0;

	while ((rc = fill_window(h, err)) == 1) {
		st->windows++;
		if (ss_host_window(&h->e, err)) {
			failed = 1;
			break;
		}
	}
	ss_host_workers_stop(&h->e);
	st->wall_ns = ss_host_now_ns() - t0;
	st->ticks_per_ns = (double)(host_ticks() - c0) / st->wall_ns;
	st->events = h->events;
	if (failed || rc < 0)
		return -1;
	for (unsigned i = 0; i < h->e.nr_workers; i++) /* e.g. a failed bind */
		if (h->e.w[i].failed[0])
			return ss_errorf(err, "host mode: %s", h->e.w[i].failed);
	return 0;
}

void ss_host_describe(char *buf, size_t n, hwloc_topology_t t)
{
	hwloc_obj_t root = hwloc_get_root_obj(t);
	const char *cpu = hwloc_obj_get_info_by_name(root, "CPUModel");
	hwloc_obj_t pkg = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);

	if (!cpu && pkg)
		cpu = hwloc_obj_get_info_by_name(pkg, "CPUModel");
	snprintf(buf, n, "%.120s; %d packages, %d NUMA nodes, %d cores, %d PUs",
		 cpu ? cpu : "unknown CPU",
		 hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE),
		 hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE),
		 hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE),
		 hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU));
	for (char *p = buf; *p; p++) /* reports are JSON */
		if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20)
			*p = ' ';
	for (char *p = strstr(buf, "  "); p; p = strstr(buf, "  ")) /* padded model names */
		memmove(p, p + 1, strlen(p));
	{
		char *semi = strstr(buf, " ;");
		if (semi)
			memmove(semi, semi + 1, strlen(semi));
	}
}

static int labels(struct host_run *h, struct ss_host_stats *st)
{
	const char *wl = ss_trace_meta(h->rs.cfg.tables, "workload");
	const char *var = ss_trace_meta(h->rs.cfg.tables, "variant");

	free(st->workload);
	free(st->variant);
	st->workload = strdup(wl ? wl : "trace");
	st->variant = strdup(h->o->variant ? h->o->variant : var ? var : "-");
	ss_debug_str(h->rs.cfg.debug, st->slub_debug, sizeof(st->slub_debug));
	return st->workload && st->variant ? 0 : -1;
}

int ss_host_replay(const struct ss_host_opts *o, struct ss_host_stats *st,
		   struct ss_error *err)
{
	struct host_run *h = calloc(1, sizeof(*h));
	int rc = -1;

	memset(st, 0, sizeof(*st));
	if (!h)
		return ss_errorf(err, "out of memory");
	h->o = o;
	if (setup(h, err))
		goto out;
	st->threads = calloc(h->e.nr_workers, sizeof(*st->threads));
	if (!st->threads) {
		ss_errorf(err, "out of memory");
		ss_host_workers_stop(&h->e);
		goto out;
	}
	ss_host_describe(st->host, sizeof(st->host), h->e.host);
	rc = replay(h, st, err);
	/* trace meta lines are read with the first events */
	if (labels(h, st) && !rc)
		rc = ss_errorf(err, "out of memory");
	collect(h, st);
out:
	teardown(h);
	free(h);
	return rc;
}

void ss_host_stats_release(struct ss_host_stats *st)
{
	free(st->threads);
	st->threads = NULL;
	free(st->workload);
	free(st->variant);
	st->workload = st->variant = NULL;
}

int ss_host_run_cmd(const struct ss_host_opts *o, struct ss_error *err)
{
	struct ss_host_stats *st = calloc(1, sizeof(*st));
	int rc;

	if (!st)
		return ss_errorf(err, "out of memory");
	rc = ss_host_replay(o, st, err);
	if (!rc && o->out)
		rc = ss_host_write_results(o->out, o, st, err);
	ss_host_stats_release(st);
	free(st);
	return rc;
}
