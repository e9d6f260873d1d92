/* slab_prior.c - a cache's initial state from a kernel snapshot
 * (slab_prior.h).  The figures are SLUB's sysfs ones (mm/slub.c 6.18,
 * show_slab_objects(), slabs_cpu_partial_show()): slabs, partial (node
 * partial slabs), objects_partial (objects in use on them), cpu_slabs
 * (active + CPU partial slabs) and per CPU the CPU partial slabs. */
#include "slab_prior.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "partial_spread.h"
#include "relayout.h"

struct ss_recon_cache *ss_recon_cache_new(struct ss_kcache *s, uint64_t draw_seed)
{
	struct ss_recon_cache *rc = calloc(1, sizeof(*rc));

	if (!rc)
		return NULL;
	rc->s = s;
	rc->draw_seed = draw_seed;
	s->recon = rc;
	return rc;
}

void ss_recon_cache_free(struct ss_recon_cache *rc)
{
	if (!rc)
		return;
	ss_slab_pool_release(&rc->pool);
	free(rc->prior_slabs);
	free(rc->prior_tree);
	free(rc->unmapped_tree);
	free(rc->spread_fill);
	free(rc->mapped);
	free(rc->fill_slab);
	free(rc->fill_held);
	for (uint32_t i = 0; i < rc->nr_kmaps; i++)
		free(rc->kmaps[i].kslab);
	free(rc->kmaps);
	free(rc);
}

/* Free slots on the CPU slabs (each active slab's c->freelist and own
 * freelist, each CPU partial slab's), which SLUB's `objects` counts as in
 * use: show_slab_objects() (3.10 - 6.18) subtracts only the node partial
 * lists'. */
static uint64_t cpu_slabs_free(const struct ss_kcache *s)
{
	uint64_t nr = 0;

	for (unsigned c = 0; c < s->topo->nr_cpus; c++) {
		const struct ss_slab *sl = s->cpu[c].slab;

		if (sl)
			nr += sl->objects - sl->inuse + sl->cpu_free;
		for (const struct ss_link *l = s->cpu[c].partial.head; l; l = l->next) {
			sl = ss_list_entry(l, const struct ss_slab, link);
			nr += sl->objects - sl->inuse;
		}
	}
	return nr;
}

/* The initial state's slabs discard_slab() freed: they are never
 * recycled (kept), and one freed is empty on no list (a full one on no
 * list holds its objects). */
static uint64_t prior_slabs_freed(const struct ss_recon_cache *rc)
{
	uint64_t nr = 0;

	for (uint32_t i = 0; i < rc->nr_prior_slabs; i++) {
		const struct ss_slab *sl = rc->prior_slabs[i].sl;

		nr += sl->where == SS_SLAB_NONE && !sl->inuse;
	}
	return nr;
}

void ss_recon_cache_report(const struct ss_recon_cache *rc, struct ss_recon_report *r)
{
	bool mixed = rc->prior_kslabs_mixed;

	*r = (struct ss_recon_report){
		.from_snapshot = rc->from_snapshot,
		.prior_live = rc->prior_live,
		.prior_freed = rc->prior_freed,
		.prior_missing = rc->prior_missing,
		.kslabs_listed = mixed ? 0 : rc->kslabs_listed,
		.cpu_slabs_listed = rc->cpu_slabs_listed,
		.prior_listed_unseen = rc->prior_listed_unseen,
		.kslabs_seen_freed = rc->kslabs_seen_freed,
		.prior_freed_unseen = rc->prior_freed_unseen,
		.kslabs_freed_from = mixed ? 0 : rc->prior_kslabs,
		.kslabs_whole = mixed ? 0 : rc->prior_kslabs_whole,
		.prior_slabs_not_full = rc->prior_slabs_not_full,
		.prior_slabs_freed = prior_slabs_freed(rc),
		.cpu_free_estimated = rc->prior_cpu_free_est,
		.cpu_free_measured = rc->prior_cpu_free_meas,
		.cpu_free_end = cpu_slabs_free(rc->s),
		.initial_objects = rc->initial_objects,
		.initial_slabs = rc->initial_slabs,
	};
}

uint32_t ss_recon_prior_on(const struct ss_recon_cache *rc, const struct ss_slab *sl)
{
	for (uint32_t i = 0; i < rc->nr_prior_slabs; i++)
		if (rc->prior_slabs[i].sl == sl)
			return rc->prior_slabs[i].prior;
	return 0;
}

static bool debug_layout(const struct ss_snap_cache *c)
{
	return c->flags & (SS_SNAP_POISON | SS_SNAP_RED_ZONE | SS_SNAP_STORE_USER);
}

int ss_recon_take_geometry(struct ss_recon_cache *rc, const struct ss_snap_cache *c,
			   struct ss_error *err)
{
	struct ss_kcache *s = rc->s;
	struct ss_geometry *g = &s->geo;
	uint64_t slab_bytes = (uint64_t)s->t->page_size << c->order;

	if (g->debug || debug_layout(c))
		return 0;
	if (c->order > 10 || !c->objs_per_slab || !c->slab_size ||
	    (uint64_t)c->objs_per_slab * c->slab_size > slab_bytes ||
	    c->objs_per_slab > UINT16_MAX)
		return ss_errorf(err, "cache %s: the snapshot's %u objects of %u bytes do not fit an order-%u slab",
				 s->name, c->objs_per_slab, c->slab_size, c->order);
	g->size = g->size_nodebug = c->slab_size;
	g->objs_per_slab = c->objs_per_slab;
	g->order = c->order;
	switch (ss_relayout_decide(rc->kernel, s->t, c, &g->order, &g->objs_per_slab)) {
	case SS_RELAYOUT_KEEP:
		break;
	case SS_RELAYOUT_RUN:
		rc->relaid = true;
		break;
	case SS_RELAYOUT_UNEXPLAINED:
		rc->relaid_not = true;
		break;
	}
	if (c->have_geometry) {
		if (c->object_size && c->object_size <= c->slab_size)
			g->object_size = c->object_size;
		if (c->align)
			g->align = c->align;
		g->min_partial = c->min_partial;
		g->cpu_partial = c->cpu_partial;
		/* slub_set_cpu_partial() (5.16+): the object limit as slabs,
		 * assuming half-full slabs */
		g->cpu_partial_slabs = s->t->era >= SS_ERA_5_16
			? (2 * c->cpu_partial + g->objs_per_slab - 1) / g->objs_per_slab : 0;
		s->has_cpu_partial = ss_geometry_cpu_partial(g);
	}
	if (g->inuse > g->size)
		g->inuse = g->size;
	rc->from_snapshot = !rc->relaid;
	return 0;
}

/* A slab the cache holds from the start: accounted (ss_slab_adopt), no
 * steps; NULL when out of memory. */
static struct ss_slab *new_prior(struct ss_recon_cache *rc, unsigned node)
{
	struct ss_slab *sl = ss_slab_pool_get(&rc->pool);

	if (sl)
		ss_slab_adopt(rc->s, sl, node);
	return sl;
}

static int push_prior(struct ss_recon_cache *rc, struct ss_slab *sl, uint32_t objs)
{
	struct ss_kcache *s = rc->s;

	if (rc->nr_prior_slabs == rc->cap_prior_slabs) {
		uint32_t cap = rc->cap_prior_slabs ? 2 * rc->cap_prior_slabs : 64;
		struct ss_prior_slab *p = realloc(rc->prior_slabs, cap * sizeof(*p));

		if (!p)
			return -1;
		rc->prior_slabs = p;
		rc->cap_prior_slabs = cap;
	}
	rc->prior_slabs[rc->nr_prior_slabs++] = (struct ss_prior_slab){.sl = sl, .prior = objs};
	rc->prior_live += objs;
	s->live += objs;
	s->requested_live += (uint64_t)objs * s->geo.object_size;
	return 0;
}

/* A slab on no list holding `inuse` objects (full, or a debug cache's). */
static int add_full(struct ss_recon_cache *rc, uint32_t inuse)
{
	struct ss_kcache *s = rc->s;
	struct ss_slab *sl = new_prior(rc, 0);

	if (!sl)
		return -1;
	sl->inuse = inuse;
	if (s->debug_paths && inuse == sl->objects) {
		ss_list_add(&s->node[0].full, &sl->link, true);
		sl->where = SS_SLAB_FULL;
	} else if (inuse < sl->objects) {
		ss_slab_add_partial(s, sl, true);
	} else {
		sl->where = SS_SLAB_NONE;
	}
	return push_prior(rc, sl, inuse);
}

static int add_partial(struct ss_recon_cache *rc, uint32_t inuse)
{
	struct ss_slab *sl = new_prior(rc, 0);

	if (!sl)
		return -1;
	sl->inuse = inuse;
	ss_slab_add_partial(rc->s, sl, true);
	return push_prior(rc, sl, inuse);
}

/* The objects in use on a CPU slab: half of them (the estimate SLUB's
 * slabs_cpu_partial_show() makes), unless the trace showed the active
 * slab's free slots (ev, slabsnap.h: exact, or a lower bound that only
 * lowers the estimate). */
static uint32_t cpu_slab_used(uint32_t objects, uint32_t ev)
{
	uint32_t half = objects / 2, f = ev & ~SS_SNAP_FREE_ATLEAST;

	if (ev == SS_SNAP_FREE_UNKNOWN)
		return half;
	if (f > objects)
		f = objects;
	if (ev & SS_SNAP_FREE_ATLEAST)
		return objects - f < half ? objects - f : half;
	return objects - f;
}

/* A CPU slab holding `used` objects (at most its objects): the active
 * one (its free objects on the CPU freelist) or one on the CPU partial
 * list; its free slots estimated or measured. */
static int add_cpu_used(struct ss_recon_cache *rc, unsigned cpu, bool active, uint32_t used,
			bool estimated)
{
	struct ss_kcache_cpu *c = &rc->s->cpu[cpu];
	struct ss_slab *sl = new_prior(rc, 0);

	if (!sl)
		return -1;
	if (used > sl->objects)
		used = sl->objects;
	if (estimated)
		rc->prior_cpu_free_est += sl->objects - used;
	else
		rc->prior_cpu_free_meas += sl->objects - used;
	if (active && !c->slab) {
		sl->inuse = sl->objects;
		sl->cpu_free = sl->objects - used;
		sl->where = SS_SLAB_ACTIVE;
		sl->owner = (uint16_t)cpu;
		c->slab = sl;
	} else {
		sl->inuse = used;
		ss_list_add(&c->partial, &sl->link, true);
		c->pobjects += sl->objects - used;
		sl->where = SS_SLAB_CPU_PARTIAL;
		sl->owner = (uint16_t)cpu;
	}
	return push_prior(rc, sl, used);
}

/* A CPU slab as add_cpu_used() makes it; ev as cpu_slab_used() takes it. */
static int add_cpu_slab(struct ss_recon_cache *rc, unsigned cpu, bool active, uint32_t ev)
{
	uint32_t ops = rc->s->geo.objs_per_slab;

	return add_cpu_used(rc, cpu, active, cpu_slab_used(ops, ev), ev == SS_SNAP_FREE_UNKNOWN);
}

/* What plan_measured() made of the listed node partial slabs. */
enum plan {
	PLAN_LISTED, /* *fill: the listed slabs' fills, made to agree */
	PLAN_SPREAD, /* they cannot: the caller spreads the count */
	PLAN_NOMEM,  /* out of memory */
};

/* The node partial slabs as the kernel listed them (slabsnap.h
 * ss_snap_fill), head first, made to agree with the snapshot's counts:
 * `free_slots` free slots on the node partial lists (what `objects`
 * leaves out).  The file is read moments before /proc/slabinfo, so a busy
 * cache's differ.  More in use at the count than listed: allocations in
 * between, which SLUB makes from the slabs get_partial_node() takes, the
 * list's head first -- so the listed slabs are filled head first, and one
 * filled up has left the list (a full slab now, still the kernel slab at
 * that place).  Fewer: frees, taken one object at a time
 * from the tail.  cpu_slabs: the CPU slabs the others leave room for.
 * *fill: malloc'd, c->nr_fill_node of them, `ops` for a slab now full;
 * *moved: objects moved.  PLAN_SPREAD when they cannot agree, or differ
 * by more than a hundredth of the cache's objects (two slabs' worth at
 * least): read too far apart. */
static enum plan plan_measured(const struct ss_snap_cache *c, uint32_t ops, uint64_t free_slots,
			       uint64_t cpu_slabs, uint32_t **fill_out, uint64_t *moved)
{
	uint32_t n = c->nr_fill_node, *fill;
	uint64_t sum = 0, limit = c->objects / 100 > 2ull * ops ? c->objects / 100 : 2ull * ops;
	int64_t d;

	if (!n || n + cpu_slabs > c->slabs || free_slots > (uint64_t)n * ops)
		return PLAN_SPREAD;
	if (!(fill = malloc(n * sizeof(*fill))))
		return PLAN_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		sum += fill[i] = c->fill[i].inuse < ops ? c->fill[i].inuse : ops - 1;
	/* objects to add (> 0) or take (< 0): listed free slots less counted */
	d = (int64_t)((uint64_t)n * ops - sum) - (int64_t)free_slots;
	*moved = (uint64_t)(d < 0 ? -d : d);
	if (*moved > limit || (d < 0 && (uint64_t)-d > sum)) {
		free(fill);
		return PLAN_SPREAD;
	}
	for (uint32_t i = 0; d > 0; i++) { /* (ends: free_slots <= n * ops) */
		uint32_t add = (uint64_t)d < ops - fill[i] ? (uint32_t)d : ops - fill[i];

		fill[i] += add;
		d -= add;
	}
	while (d < 0) /* (ends: no more than the listed objects) */
		for (uint32_t i = n; i-- > 0 && d < 0;)
			if (fill[i] > 0)
				fill[i]--, d++;
	*fill_out = fill;
	return PLAN_LISTED;
}

/* Room for the listed slabs' prior slab indexes, none used yet. */
static int fill_slabs_new(struct ss_recon_cache *rc, const struct ss_snap_cache *c)
{
	if (rc->fill_slab)
		return 0;
	if (!(rc->fill_slab = malloc(c->nr_fill * sizeof(*rc->fill_slab))) ||
	    !(rc->fill_held = calloc(c->nr_fill, sizeof(*rc->fill_held))))
		return -1;
	for (uint32_t i = 0; i < c->nr_fill; i++)
		rc->fill_slab[i] = UINT32_MAX;
	rc->nr_fill_slab = c->nr_fill;
	rc->fill_ids = c->fill_ids;
	return 0;
}

/* Listed slab i is the prior slab just pushed, holding `held`. */
static void fill_slab_is(struct ss_recon_cache *rc, uint32_t i, uint32_t held)
{
	rc->fill_slab[i] = rc->nr_prior_slabs - 1;
	rc->fill_held[i] = held;
}

/* The planned node partial slabs, in list order (on the node partial
 * list, or full when filled up). */
static int add_measured(struct ss_recon_cache *rc, const struct ss_snap_cache *c, const uint32_t *fill)
{
	uint32_t ops = rc->s->geo.objs_per_slab;

	if (fill_slabs_new(rc, c))
		return -1;
	for (uint32_t i = 0; i < c->nr_fill_node; i++) {
		if (fill[i] < ops ? add_partial(rc, fill[i]) : add_full(rc, ops))
			return -1;
		fill_slab_is(rc, i, fill[i]);
	}
	return 0;
}

/* The CPU slabs as the kernel listed them (slabsnap.h ss_snap_fill): an
 * active slab with its own count (remote frees taken off it) and the
 * objects on its CPU's freelist, which SLUB counts as in use; a CPU
 * partial slab with its count (not frozen from 6.8: accurate).  Pushed
 * after the full and node partial slabs, CPU partial before active as
 * populate_lists() does.  An active slab whose freelist walk failed
 * keeps SLUB's half-full estimate for it. */
static int add_cpu_listed(struct ss_recon_cache *rc, const struct ss_snap_cache *c, bool active)
{
	struct ss_kcache *s = rc->s;
	unsigned ncpu = s->topo->nr_cpus;

	if (fill_slabs_new(rc, c))
		return -1;
	for (uint32_t i = c->nr_fill_node; i < c->nr_fill; i++) {
		const struct ss_snap_fill *f = &c->fill[i];
		struct ss_kcache_cpu *cc = &s->cpu[f->where % ncpu];
		struct ss_slab *sl;
		uint32_t used;

		if ((f->kind == SS_FILL_CPU) != active)
			continue;
		if (!(sl = new_prior(rc, 0)))
			return -1;
		sl->owner = (uint16_t)(f->where % ncpu);
		sl->inuse = f->inuse < sl->objects ? f->inuse : sl->objects;
		if (active && !cc->slab) {
			uint32_t cf = f->cpu_free != SS_SNAP_FREE_UNKNOWN ? f->cpu_free
				: sl->inuse - cpu_slab_used(sl->inuse, SS_SNAP_FREE_UNKNOWN);

			if (cf > sl->inuse)
				cf = sl->inuse;
			used = sl->inuse - cf;
			sl->cpu_free = cf;
			sl->where = SS_SLAB_ACTIVE;
			cc->slab = sl;
			if (f->cpu_free != SS_SNAP_FREE_UNKNOWN)
				rc->prior_cpu_free_meas += cf + (sl->objects - sl->inuse);
			else
				rc->prior_cpu_free_est += cf + (sl->objects - sl->inuse);
		} else {
			/* (a CPU listed twice, as when the model has fewer:
			 * its slab joins the CPU partial list) */
			used = sl->inuse;
			ss_list_add(&cc->partial, &sl->link, true);
			cc->pobjects += sl->objects - used;
			sl->where = SS_SLAB_CPU_PARTIAL;
			rc->prior_cpu_free_meas += sl->objects - used;
		}
		if (push_prior(rc, sl, used))
			return -1;
		fill_slab_is(rc, i, used);
		rc->cpu_slabs_listed++;
	}
	return 0;
}

/* The CPU slabs as slab-fill listed them (version 2), when the counts
 * read a moment later leave room for them. */
static bool cpu_measured(const struct ss_snap_cache *c)
{
	uint32_t listed = c->fill_cpus ? c->nr_fill - c->nr_fill_node : 0;

	return c->fill_cpus && (uint64_t)listed + c->partial <= c->slabs &&
	       (uint64_t)listed + c->nr_fill_node <= c->slabs;
}

/* The kernel's own layout and lists.  Pushed in the reverse order of
 * ss_recon_take_prior(): full, node partial, CPU partial, active. */
static int populate_lists(struct ss_recon_cache *rc, const struct ss_snap_cache *c)
{
	unsigned ncpu = rc->s->topo->nr_cpus;
	uint64_t cpu_partial = 0, active, full, free_slots, partial, moved = 0, cpu_slabs;
	uint32_t ops = rc->s->geo.objs_per_slab, *fill = NULL;
	uint32_t cpu_listed = c->fill_cpus ? c->nr_fill - c->nr_fill_node : 0;
	bool measured;
	enum plan planned;

	for (unsigned i = 0; i < c->nr_cpus; i++)
		cpu_partial += c->cpu_partial_slabs[i];
	if (cpu_partial > c->cpu_slabs)
		cpu_partial = 0; /* read while they moved: all CPU slabs active */
	active = c->cpu_slabs - cpu_partial;
	/* measured (slab-fill 2): the CPU slabs as listed, whatever the
	 * count read a moment later says, unless the two leave no room */
	measured = cpu_measured(c);
	cpu_slabs = measured ? cpu_listed : c->cpu_slabs;
	/* The free slots of node partial slabs are what `objects` leaves
	 * out, so they are taken from it (total_objects - objects) rather
	 * than from objects_partial: the files are read one after another
	 * and disagree by a slab or two on a busy machine, and `objects` is
	 * the figure compared with the kernel. */
	free_slots = c->total_objects - c->objects;
	/* measured (slab-fill): the kernel's own slabs in its list order,
	 * and the full slabs what the CPU and listed ones leave */
	if ((planned = plan_measured(c, ops, free_slots, cpu_slabs, &fill, &moved)) == PLAN_NOMEM)
		return -1;
	/* (listed: some may be full now) */
	partial = planned == PLAN_LISTED ? c->nr_fill_node : c->partial;
	if (partial + cpu_slabs > c->slabs) /* (the counts read apart) */
		partial = c->slabs - cpu_slabs;
	full = c->slabs - partial - cpu_slabs;
	for (uint64_t i = 0; i < full; i++)
		if (add_full(rc, ops))
			return free(fill), -1;
	if (fill) {
		int failed;

		rc->fill_moved = moved;
		failed = add_measured(rc, c, fill);
		free(fill);
		if (failed)
			return -1;
	} else if (partial) {
		/* Else spread as partial_spread.h says (the most even-handed
		 * guess the count and sum allow, not an even spread); a node
		 * partial slab may be empty (up to min_partial are kept) but
		 * never full. */
		uint64_t used;

		if (free_slots > partial * ops)
			free_slots = partial * ops;
		if (free_slots < partial)
			free_slots = partial;
		used = partial * ops - free_slots;
		if (!(fill = partial <= UINT32_MAX ? malloc(partial * sizeof(*fill)) : NULL))
			return -1;
		ss_partial_spread((uint32_t)partial, used, used >= partial ? 1 : 0, ops - 1, fill);
		for (uint64_t i = 0; i < partial; i++)
			if (add_partial(rc, fill[i]))
				return free(fill), -1;
		free(fill);
	}
	if (measured)
		return add_cpu_listed(rc, c, false) || add_cpu_listed(rc, c, true) ? -1 : 0;
	if (cpu_partial) {
		for (unsigned i = 0; i < c->nr_cpus; i++)
			for (uint32_t k = 0; k < c->cpu_partial_slabs[i]; k++)
				if (add_cpu_slab(rc, i % ncpu, false, SS_SNAP_FREE_UNKNOWN))
					return -1;
	}
	/* the active slabs: CPU 0, 1, ...; more than CPUs join partial lists.
	 * A raw-pointer trace may say how many free slots each CPU's active
	 * slab had (reconcile/import/cpuslab.c). */
	for (uint64_t i = 0; i < active; i++) {
		uint32_t ev = i < ncpu && i < c->nr_cpu_free ? c->cpu_free[i] : SS_SNAP_FREE_UNKNOWN;

		if (add_cpu_slab(rc, (unsigned)(i % ncpu), i < ncpu, ev))
			return -1;
	}
	return 0;
}

/* /proc/slabinfo: the free objects (all on node partial lists) in slabs
 * half empty each, the rest full. */
static int populate_slabinfo(struct ss_recon_cache *rc, const struct ss_snap_cache *c)
{
	uint32_t ops = rc->s->geo.objs_per_slab;
	uint64_t free = c->total_objects - c->objects;
	uint64_t partial = ops > 1 ? (2 * free + ops - 1) / ops : 0;

	if (partial > c->slabs)
		partial = c->slabs;
	for (uint64_t i = 0; i < c->slabs - partial; i++)
		if (add_full(rc, ops))
			return -1;
	for (uint64_t i = 0; i < partial; i++) {
		uint64_t f = free / partial + (i < free % partial);

		if (add_partial(rc, (uint32_t)(f < ops ? ops - f : 0)))
			return -1;
	}
	return 0;
}

/* Another cache's objects (ss_recon_add_prior): packed into ours. */
static int populate_packed(struct ss_recon_cache *rc, const struct ss_snap_cache *c)
{
	uint32_t ops = rc->s->geo.objs_per_slab;

	for (uint64_t left = c->objects; left;) {
		uint32_t n = left < ops ? (uint32_t)left : ops;

		if (add_full(rc, n))
			return -1;
		left -= n;
	}
	return 0;
}

/* A CPU slab of the snapshot: its CPU there, and whether it is active. */
struct cpu_slab_at {
	unsigned cpu;
	bool active;
};

/* The kernel's CPU slabs as populate_lists() makes them, in its push
 * order (CPU partial slabs, then the active ones): with at (may be NULL)
 * where each one is; *free: the free slots it gives them, of the
 * kernel's objects per slab.  Their count. */
static uint64_t kernel_cpu_slabs(const struct ss_snap_cache *c, struct cpu_slab_at *at,
				 uint64_t *free)
{
	uint32_t kops = c->objs_per_slab;
	uint64_t n = 0, cpu_partial = 0, active;

	*free = 0;
	if (!c->have_lists)
		return 0;
	if (cpu_measured(c)) {
		for (int pass = 0; pass < 2; pass++)
			for (uint32_t i = c->nr_fill_node; i < c->nr_fill; i++) {
				const struct ss_snap_fill *f = &c->fill[i];
				uint32_t inuse = f->inuse < kops ? f->inuse : kops, used = inuse;

				if ((f->kind == SS_FILL_CPU) != (pass == 1))
					continue;
				if (pass == 1) /* (add_cpu_listed: the CPU freelist's) */
					used -= f->cpu_free != SS_SNAP_FREE_UNKNOWN
						? (f->cpu_free < inuse ? f->cpu_free : inuse)
						: inuse - cpu_slab_used(inuse, SS_SNAP_FREE_UNKNOWN);
				*free += kops - used;
				if (at)
					at[n] = (struct cpu_slab_at){f->where, pass == 1};
				n++;
			}
		return n;
	}
	for (unsigned i = 0; i < c->nr_cpus; i++)
		cpu_partial += c->cpu_partial_slabs[i];
	if (cpu_partial > c->cpu_slabs)
		cpu_partial = 0;
	for (unsigned i = 0; cpu_partial && i < c->nr_cpus; i++)
		for (uint32_t k = 0; k < c->cpu_partial_slabs[i]; k++) {
			*free += kops - cpu_slab_used(kops, SS_SNAP_FREE_UNKNOWN);
			if (at)
				at[n] = (struct cpu_slab_at){i, false};
			n++;
		}
	active = c->cpu_slabs - cpu_partial;
	for (uint64_t i = 0; i < active; i++) {
		uint32_t ev = i < c->nr_cpu_free ? c->cpu_free[i] : SS_SNAP_FREE_UNKNOWN;

		*free += kops - cpu_slab_used(kops, ev);
		if (at)
			at[n] = (struct cpu_slab_at){(unsigned)i, true};
		n++;
	}
	return n;
}

/* Another geometry than the kernel's (relaid, or a slub_debug what-if's
 * own): its objects in the run's slabs as relayout.h's plan says, pushed
 * as populate_lists() pushes:
 * full, node partial, CPU partial, active.  The CPU slabs stay on the
 * CPUs they were on (modulo the run's CPUs, more than the run has
 * joining partial lists, as there). */
static int populate_relaid(struct ss_recon_cache *rc, const struct ss_snap_cache *c)
{
	unsigned ncpu = rc->s->topo->nr_cpus;
	struct ss_relayout_plan plan;
	struct cpu_slab_at *at = NULL;
	uint64_t kfree, nr = kernel_cpu_slabs(c, NULL, &kfree), left;
	int failed = 0;

	if (nr && !(at = malloc(nr * sizeof(*at))))
		return -1;
	kernel_cpu_slabs(c, at, &kfree);
	if (ss_relayout_plan(c, rc->s->geo.objs_per_slab, nr, kfree, &plan))
		return free(at), -1;
	for (uint64_t i = 0; !failed && i < plan.full; i++)
		failed = add_full(rc, rc->s->geo.objs_per_slab);
	for (uint32_t i = 0; !failed && i < plan.nr_partial; i++)
		failed = add_partial(rc, plan.partial[i]);
	left = plan.cpu_objects;
	for (uint64_t i = 0; !failed && i < nr; i++) {
		uint32_t used = left < plan.cpu_used ? (uint32_t)left : plan.cpu_used;

		failed = add_cpu_used(rc, at[i].cpu % ncpu, at[i].active, used, true);
		left -= used;
	}
	ss_relayout_plan_release(&plan);
	free(at);
	return failed;
}

/* ---- picking the object a prior free takes ----
 * Fenwick trees over the slabs' prior counts: one object drawn uniformly
 * from those left is a prefix-sum search, O(log slabs).  prior_tree
 * counts every prior slab, unmapped_tree those no kernel slab is mapped
 * onto (below). */

static void tree_add(uint32_t *tree, uint32_t n, uint32_t i, int32_t d)
{
	for (i++; i <= n; i += i & -i)
		tree[i - 1] += (uint32_t)d;
}

static void tree_build(uint32_t *tree, const struct ss_prior_slab *slabs, const uint8_t *skip,
		       uint32_t n)
{
	memset(tree, 0, n * sizeof(*tree));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t j = i + 1;

		if (!skip || !skip[i])
			tree[i] += slabs[i].prior;
		j += j & -j;
		if (j <= n)
			tree[j - 1] += tree[i];
	}
}

/* The slab holding object k (0-based) of those the tree counts, in slab
 * order. */
static uint32_t tree_find(const uint32_t *tree, uint32_t n, uint64_t k)
{
	uint32_t pos = 0, step = 1;

	while (step * 2 <= n)
		step *= 2;
	for (; step; step /= 2) {
		if (pos + step <= n && tree[pos + step - 1] <= k) {
			pos += step;
			k -= tree[pos - 1];
		}
	}
	return pos;
}

/* A prior slab holding a whole slab of initial-state objects. */
static bool whole(const struct ss_prior_slab *p)
{
	return p->prior == p->sl->objects;
}

/* Both trees over the prior slabs; the mapped flags of the first `had`
 * slabs, there before, are kept (ss_recon_add_prior adds slabs to a
 * cache whose kernel slabs may be mapped already). */
static int build_tree(struct ss_recon_cache *rc, uint32_t had)
{
	uint32_t n = rc->nr_prior_slabs, cap = n ? n : 1;
	uint32_t *t = realloc(rc->prior_tree, cap * sizeof(*t));
	uint32_t *u, *f;
	uint8_t *m;

	if (!t)
		return -1;
	rc->prior_tree = t;
	if (!(u = realloc(rc->unmapped_tree, cap * sizeof(*u))))
		return -1;
	rc->unmapped_tree = u;
	if (!(f = realloc(rc->spread_fill, cap * sizeof(*f))))
		return -1;
	rc->spread_fill = f;
	if (!(m = calloc(cap, 1)))
		return -1;
	for (uint32_t i = 0; rc->mapped && i < had && i < n; i++)
		m[i] = rc->mapped[i];
	free(rc->mapped);
	rc->mapped = m;
	tree_build(t, rc->prior_slabs, NULL, n);
	tree_build(u, rc->prior_slabs, m, n);
	rc->unmapped_live = 0;
	rc->prior_full_unmapped = 0;
	for (uint32_t i = 0; i < n; i++) {
		rc->unmapped_live += m[i] ? 0 : rc->prior_slabs[i].prior;
		rc->prior_full_unmapped += !m[i] && whole(&rc->prior_slabs[i]);
	}
	return 0;
}

/* One object of prior slab i is gone. */
static void take_from(struct ss_recon_cache *rc, uint32_t i)
{
	rc->prior_full_unmapped -= !rc->mapped[i] && whole(&rc->prior_slabs[i]);
	rc->prior_slabs[i].prior--;
	tree_add(rc->prior_tree, rc->nr_prior_slabs, i, -1);
	rc->prior_live--;
	if (!rc->mapped[i]) {
		tree_add(rc->unmapped_tree, rc->nr_prior_slabs, i, -1);
		rc->unmapped_live--;
	}
}

/* A kernel slab is mapped onto prior slab i: no other one will be. */
static void set_mapped(struct ss_recon_cache *rc, uint32_t i)
{
	uint32_t left = rc->prior_slabs[i].prior;

	if (rc->mapped[i]) {
		rc->mapped[i] = 2; /* (ss_recon_kslab_left: no longer one kernel slab's) */
		return;
	}
	rc->prior_full_unmapped -= whole(&rc->prior_slabs[i]);
	rc->mapped[i] = 1;
	tree_add(rc->unmapped_tree, rc->nr_prior_slabs, i, -(int32_t)left);
	rc->unmapped_live -= left;
}

/* splitmix64: reproducible, seeded from the cache name so that a cache's
 * picks do not depend on which other caches the run created first. */
static uint64_t next_rand(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* An object drawn uniformly from those tree counts (live of them). */
static uint32_t draw(struct ss_recon_cache *rc, const uint32_t *tree, uint64_t live,
		     uint64_t *rng)
{
	return tree_find(tree, rc->nr_prior_slabs, next_rand(rng) % live);
}

/* The draws' first state: the cache's name (FNV-1a), so that a cache's
 * picks do not depend on the other caches, and the run's draw seed
 * (0: the name's alone). */
static uint64_t name_seed(struct ss_recon_cache *rc)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const char *n = rc->s->name; *n; n++)
		h = (h ^ (unsigned char)*n) * 0x100000001b3ull;
	return h + rc->draw_seed * 0x9e3779b97f4a7c15ull;
}

/* The prior slabs from index `from` on that started on a CPU or node
 * partial list: the ones a kernel slab may have held fewer objects in
 * than a whole slab (the report's bound, rp_kernel_note). */
static void count_not_full(struct ss_recon_cache *rc, uint32_t from)
{
	for (uint32_t i = from; i < rc->nr_prior_slabs; i++) {
		unsigned w = rc->prior_slabs[i].sl->where;

		rc->prior_slabs_not_full += w == SS_SLAB_ACTIVE || w == SS_SLAB_CPU_PARTIAL ||
					   w == SS_SLAB_NODE_PARTIAL;
	}
}

int ss_recon_populate(struct ss_recon_cache *rc, const struct ss_snap_cache *c,
		      struct ss_error *err)
{
	struct ss_kcache *s = rc->s;
	struct ss_cache_report r;
	int failed;

	if (s->nr_slabs || s->live)
		return ss_errorf(err, "cache %s: initial state on a cache in use", s->name);
	if (!rc->from_snapshot || s->geo.objs_per_slab != c->objs_per_slab)
		failed = populate_relaid(rc, c);
	else if (c->have_lists && c->partial + c->cpu_slabs <= c->slabs)
		failed = populate_lists(rc, c);
	else
		failed = populate_slabinfo(rc, c);
	rc->prior_rng = name_seed(rc);
	if (failed || build_tree(rc, 0))
		return ss_errorf(err, "cache %s: out of memory for its initial slabs", s->name);
	/* the listed slabs are the trace's kernel slabs 1..n: no other kernel
	 * slab is drawn onto them (fill_slab_of) */
	for (uint32_t i = 0; rc->fill_ids && i < rc->nr_fill_slab; i++)
		if (rc->fill_slab[i] != UINT32_MAX)
			set_mapped(rc, rc->fill_slab[i]);
	count_not_full(rc, 0);
	ss_kcache_report(s, &r);
	rc->initial_objects = r.total_objects - r.node_partial_free;
	rc->initial_slabs = s->nr_slabs;
	return 0;
}

/* Draws before the best fit: enough that a slab able to hold what K
 * frees is found when a few percent of the objects are in one. */
#define SS_PRIOR_REDRAWS 64

/* Of the prior slabs (the unmapped ones only, when `unmapped`), the one
 * holding the fewest initial-state objects that are at least need, else
 * the one holding the most (the first of equals). */
static uint32_t best_fit(struct ss_recon_cache *rc, uint32_t need, bool unmapped)
{
	uint32_t best = UINT32_MAX, most = UINT32_MAX;

	for (uint32_t i = 0; i < rc->nr_prior_slabs; i++) {
		uint32_t c = rc->prior_slabs[i].prior;

		if (unmapped && rc->mapped[i])
			continue;
		if (c >= need && (best == UINT32_MAX || c < rc->prior_slabs[best].prior)) {
			best = i;
			if (c == need)
				break;
		}
		if (most == UINT32_MAX || c > rc->prior_slabs[most].prior)
			most = i;
	}
	return best != UINT32_MAX ? best : most;
}

/* ---- a kernel slab seen freed: a slab of ours that held as much ----
 * Prior slabs that hold initial-state objects only, on a node partial
 * list, with no kernel slab mapped onto them, are interchangeable: what
 * each holds is the snapshot's spread (partial_spread.h), a guess.  Spreading their
 * objects otherwise is another guess at the same node partial objects
 * (the cache's objects, slabs and partial figures stay the snapshot's),
 * and no event has depended on it: none had an object of the trace in
 * it, and none is filled (a node partial slab keeps a free slot; where
 * fewer objects than slabs are left, some are left empty, as SLUB keeps
 * empty node partial slabs up to min_partial). */
static bool spread_slab(const struct ss_recon_cache *rc, uint32_t i)
{
	const struct ss_prior_slab *p = &rc->prior_slabs[i];

	return !rc->mapped[i] && p->sl->where == SS_SLAB_NODE_PARTIAL && p->sl->inuse == p->prior;
}

/* Prior slab i holds `want` initial-state objects from now on (both
 * trees follow). */
static void set_prior(struct ss_recon_cache *rc, uint32_t i, uint32_t want)
{
	struct ss_prior_slab *p = &rc->prior_slabs[i];
	int32_t d = (int32_t)want - (int32_t)p->prior;

	if (!d)
		return; /* (a re-spread leaves many slabs as they were) */
	rc->prior_full_unmapped -= whole(p); /* (spread slabs are unmapped) */
	p->prior = want;
	p->sl->inuse = want;
	rc->prior_full_unmapped += whole(p);
	tree_add(rc->prior_tree, rc->nr_prior_slabs, i, d);
	tree_add(rc->unmapped_tree, rc->nr_prior_slabs, i, d);
}

/* A spread slab made to hold n objects, and the other spread slabs
 * spread again over what is left (none filled, partial_spread.h): the snapshot's
 * node partial objects less what the kernel slabs seen freed held, the
 * same guess as before for everything the trace does not say.  When the
 * others cannot take what is left, the slab keeps the rest (it then holds
 * more than n).  UINT32_MAX when no spread slab has room for n.
 * O(spread slabs) per kernel slab. */
static uint32_t spread_take(struct ss_recon_cache *rc, uint32_t n)
{
	uint32_t nr = rc->nr_prior_slabs, i = UINT32_MAX, count = 0, k = 0, max = 0;
	uint64_t total = 0;

	for (uint32_t j = 0; j < nr; j++) {
		if (!spread_slab(rc, j))
			continue;
		if (i == UINT32_MAX && n && n < rc->prior_slabs[j].sl->objects)
			i = j;
		else
			count++;
		total += rc->prior_slabs[j].prior;
		max = rc->prior_slabs[j].sl->objects - 1; /* (one cache: one size) */
	}
	if (i == UINT32_MAX || total < n)
		return UINT32_MAX;
	total -= n;
	if (total > (uint64_t)count * max) { /* the others are full up */
		n += (uint32_t)(total - (uint64_t)count * max);
		total = (uint64_t)count * max;
	}
	set_prior(rc, i, n);
	ss_partial_spread(count, total, 0, max, rc->spread_fill); /* (count < nr) */
	for (uint32_t j = 0; j < nr; j++)
		if (j != i && spread_slab(rc, j))
			set_prior(rc, j, rc->spread_fill[k++]);
	return i;
}

/* The slab a kernel slab with `need` prior frees still to make maps onto:
 * an object drawn uniformly among the slabs that can hold them (redrawn
 * up to SS_PRIOR_REDRAWS times, then the best fit), from the slabs no
 * other kernel slab maps onto -- two kernel slabs are two slabs: drawn
 * from all, a cache whose slabs were all full (files made by one command,
 * removed by the next) had two or three kernel slabs' frees empty one of
 * its slabs where the kernel emptied none -- and from all only when
 * those are used up.  `drawn` is the first candidate of the latter.
 * `slack`: how many more objects than the kernel slabs still to map need
 * the unmapped slabs hold, per kernel slab still to map.  A slab holding
 * more than K needs keeps the rest from every other kernel slab, so a
 * draw leaving K more than that share is drawn again: the kernel slabs to
 * come held their objects too.
 * Where the trace frees a few of a cache's objects the slack is large and
 * nothing changes; where it frees nearly all of them (a shrink freeing a
 * cache's obj_exts vectors) each kernel slab gets about what it gave, and
 * its frees empty it as the kernel's did (test_slab_prior.c
 * test_take_prior_tight). */
static bool fits(struct ss_recon_cache *rc, uint32_t i, uint32_t need, uint64_t slack)
{
	const struct ss_prior_slab *p = &rc->prior_slabs[i];
	uint32_t c = p->prior;

	/* a whole slab is kept for the kernel slabs still to come that held
	 * one (no other slab can take them; a node partial slab can be
	 * reshaped to hold anything less) */
	if (need < p->sl->objects && whole(p) && !rc->mapped[i] &&
	    rc->prior_full_unmapped <= rc->prior_full_needs)
		return false;
	return c >= need && c - need <= slack;
}

static uint32_t map_draw(struct ss_recon_cache *rc, uint32_t need, uint64_t slack, uint32_t drawn)
{
	bool unmapped = rc->unmapped_live > 0;
	const uint32_t *tree = unmapped ? rc->unmapped_tree : rc->prior_tree;
	uint64_t live = unmapped ? rc->unmapped_live : rc->prior_live;

	if (unmapped)
		drawn = draw(rc, tree, live, &rc->prior_rng);
	else
		slack = UINT64_MAX; /* (all mapped: no other kernel slab's to keep) */
	for (unsigned t = 0; need && !fits(rc, drawn, need, slack); t++) {
		if (t == SS_PRIOR_REDRAWS) {
			uint32_t best = best_fit(rc, need, unmapped), i;

			/* none holds need, or within the slack: the spread is
			 * wrong about this one, reshaped as for a kernel slab
			 * seen freed */
			if (!fits(rc, best, need, slack) && unmapped &&
			    (i = spread_take(rc, need)) != UINT32_MAX)
				return i;
			return best;
		}
		drawn = draw(rc, tree, live, &rc->prior_rng);
	}
	return drawn;
}

/* The map of ki's kernel cache, or NULL when none was made.  A cache
 * holds one kernel cache's objects, or a few (a what-if's): a short
 * list. */
static struct ss_kslab_map *kmap_of(struct ss_recon_cache *rc, const struct ss_kslab_info *ki)
{
	for (uint32_t i = 0; i < rc->nr_kmaps; i++)
		if (rc->kmaps[i].src_api == ki->src_api && rc->kmaps[i].src_gfp == ki->src_gfp &&
		    rc->kmaps[i].src_value == ki->src_value)
			return &rc->kmaps[i];
	return NULL;
}

/* ki's kernel slab's entry in the map of its kernel cache (both made
 * when new); NULL out of memory. */
static struct ss_kslab *kslab_entry(struct ss_recon_cache *rc, const struct ss_kslab_info *ki)
{
	struct ss_kslab_map *map = kmap_of(rc, ki);
	uint32_t k = ki->kslab - 1;

	if (!map) {
		struct ss_kslab_map *m = realloc(rc->kmaps, (rc->nr_kmaps + 1) * sizeof(*m));

		if (!m)
			return NULL;
		rc->kmaps = m;
		rc->prior_kslabs_mixed |= rc->nr_kmaps > 0; /* (a second kernel cache) */
		map = &m[rc->nr_kmaps++];
		*map = (struct ss_kslab_map){.src_api = ki->src_api, .src_gfp = ki->src_gfp,
					     .src_value = ki->src_value};
	}
	if (k >= map->nr_kslab &&
	    ss_grow_zeroed((void **)&map->kslab, &map->nr_kslab, k, sizeof(*map->kslab), 256))
		return NULL;
	return &map->kslab[k];
}

/* The entry of ki's kernel slab, or NULL when none was made. */
static const struct ss_kslab *kslab_find(struct ss_recon_cache *rc, const struct ss_kslab_info *ki)
{
	const struct ss_kslab_map *map = kmap_of(rc, ki);

	return map && ki->kslab - 1 < map->nr_kslab ? &map->kslab[ki->kslab - 1] : NULL;
}

uint32_t ss_recon_kslab_left(struct ss_recon_cache *rc, const struct ss_kslab_info *ki)
{
	const struct ss_kslab *m;
	uint32_t i;

	if (!ki->kslab || rc->prior_kslabs_mixed || !(m = kslab_find(rc, ki)) || !m->slab ||
	    m->remapped) /* (the second slab's objects were never K's) */
		return 0;
	i = m->slab - 1;
	if (rc->mapped[i] != 1) /* another kernel slab's objects too: not all K's */
		return 0;
	return rc->prior_slabs[i].prior;
}

uint32_t ss_recon_prior_respread(struct ss_recon_cache *rc, uint32_t n)
{
	struct ss_kcache *s = rc->s;
	uint32_t nr = rc->nr_prior_slabs, count = 0, max = 0, k = 0, add;
	uint64_t total = 0, room = 0;

	for (uint32_t j = 0; j < nr; j++) {
		if (!spread_slab(rc, j))
			continue;
		count++;
		total += rc->prior_slabs[j].prior;
		max = rc->prior_slabs[j].sl->objects - 1; /* (one cache: one size) */
		room += max - rc->prior_slabs[j].prior;
	}
	add = room < n ? (uint32_t)room : n;
	rc->prior_freed_unseen += n - add;
	if (!add)
		return 0;
	ss_partial_spread(count, total + add, 0, max, rc->spread_fill);
	for (uint32_t j = 0; j < nr; j++)
		if (spread_slab(rc, j)) {
			uint32_t was = rc->prior_slabs[j].prior;
			int64_t d;

			set_prior(rc, j, rc->spread_fill[k++]);
			/* (signed: the spread lowers some slabs as it raises others) */
			d = (int64_t)rc->prior_slabs[j].prior - was;
			rc->prior_live = (uint64_t)((int64_t)rc->prior_live + d);
			rc->unmapped_live = (uint64_t)((int64_t)rc->unmapped_live + d);
		}
	s->live += add;
	s->requested_live += (uint64_t)add * s->geo.object_size;
	return add;
}

/* The listed slab (slab-fill) that kernel slab ki->kslab is, when the
 * trace numbers its kernel slabs by their place on the list (import
 * --slab-fill) and this cache holds that kernel cache's objects alone and
 * started from its list; UINT32_MAX otherwise.  (A kernel slab not listed
 * was full or a CPU's: it is drawn as before, from the others.) */
static uint32_t fill_slab_of(struct ss_recon_cache *rc, const struct ss_kslab_info *ki)
{
	if (!rc->fill_ids || rc->prior_kslabs_mixed || ki->kslab > rc->nr_fill_slab)
		return UINT32_MAX;
	return rc->fill_slab[ki->kslab - 1]; /* (UINT32_MAX when not used) */
}

/* What kslab_slab() found for a prior free of a kernel slab. */
enum kslab_found {
	KSLAB_MAPPED,	/* *slab: the prior slab K maps onto */
	KSLAB_UNSEEN,	/* a listed slab's free beyond what it held */
	KSLAB_NOMEM,	/* out of memory */
};

/* The prior slab ki's kernel slab maps to, mapping it anew when it is
 * new or its slab has nothing left: a spread slab made to hold what K
 * held when K was seen freed (`dead`), else map_draw(). */
static enum kslab_found kslab_slab(struct ss_recon_cache *rc, const struct ss_kslab_info *ki,
				   uint32_t drawn, uint32_t *slab)
{
	uint32_t frees = ki->held, dead = ki->dead, i;
	struct ss_kslab *m = kslab_entry(rc, ki);

	if (!m)
		return KSLAB_NOMEM;
	if ((i = fill_slab_of(rc, ki)) != UINT32_MAX) {
		/* A listed slab held fill_held objects: a free of it beyond
		 * them is of an object allocated there after the list was
		 * read, by a task no tracepoint reports, which the kernel
		 * counts neither before nor after */
		uint32_t held = rc->fill_held[ki->kslab - 1];

		/* Such a slab that outlived its frees (not seen die where
		 * the trace would show it) was kept alive by those unseen
		 * objects: one of its objects is left for them, so that its
		 * frees do not empty it where the kernel's did not */
		if (ki->frees > held && ki->outlived && held)
			held--;
		if (m->taken >= held)
			return KSLAB_UNSEEN;
		if (!m->slab) {
			m->slab = 1 + i; /* (mapped when populated) */
			rc->kslabs_listed++;
			/* its kernel slab outlived the capture: never
			 * discarded (slub_cache.h pinned) */
			rc->prior_slabs[i].sl->pinned |= ki->outlived;
		}
	}
	if (!m->slab && dead && (i = spread_take(rc, dead)) != UINT32_MAX) {
		m->slab = 1 + i;
		set_mapped(rc, i);
		rc->kslabs_seen_freed++;
	} else if (!m->slab || !rc->prior_slabs[m->slab - 1].prior) {
		uint32_t need = frees > m->taken ? frees - m->taken : 0;
		/* (a kernel slab running out again: its need is not in
		 * prior_needs any more) */
		uint64_t needs = rc->prior_needs + (m->slab ? need : 0);
		uint64_t left = rc->prior_kslabs_left + !!m->slab;
		uint64_t slack = !rc->prior_needs_set ? UINT64_MAX
			: rc->unmapped_live > needs ? (rc->unmapped_live - needs) / (left ? left : 1) : 0;

		m->remapped |= m->slab != 0;
		m->slab = 1 + map_draw(rc, need, slack, drawn);
		set_mapped(rc, m->slab - 1);
	}
	if (!m->taken) { /* K mapped for the first time: its need is met */
		rc->prior_needs -= rc->prior_needs > frees ? frees : rc->prior_needs;
		rc->prior_kslabs_left -= !!rc->prior_kslabs_left;
		rc->prior_full_needs -= frees >= rc->s->geo.objs_per_slab && rc->prior_full_needs;
	}
	m->taken++;
	*slab = m->slab - 1;
	return KSLAB_MAPPED;
}

int ss_recon_add_prior(struct ss_recon_cache *rc, const struct ss_snap_cache *c,
		       struct ss_error *err)
{
	uint32_t had = rc->nr_prior_slabs;

	if (populate_packed(rc, c))
		return ss_errorf(err, "cache %s: out of memory for its initial slabs", rc->s->name);
	/* the trees are rebuilt over all prior slabs (once per cache added) */
	if (!rc->prior_rng)
		rc->prior_rng = name_seed(rc);
	if (build_tree(rc, had))
		return ss_errorf(err, "out of memory");
	rc->prior_kslabs_mixed |= had > 0; /* (a second kernel cache's slabs) */
	count_not_full(rc, had);
	return 0;
}

struct ss_slab *ss_recon_take_prior(struct ss_recon_cache *rc, const struct ss_kslab_info *ki)
{
	static const struct ss_kslab_info none;
	uint32_t i, ops = rc->s->geo.objs_per_slab;

	if (!ki)
		ki = &none;
	if (!rc->prior_live) {
		rc->prior_missing++;
		return NULL;
	}
	if (!rc->prior_needs_set && ki->cache_kslabs) {
		rc->prior_needs = ki->cache_held;
		rc->prior_kslabs_left = ki->cache_kslabs;
		rc->prior_full_needs = ops < ki->nr_by_held ? ki->by_held[ops] : 0;
		rc->prior_needs_set = true;
		rc->prior_kslabs = ki->cache_kslabs;
		rc->prior_kslabs_whole = rc->prior_full_needs;
	}
	i = draw(rc, rc->prior_tree, rc->prior_live, &rc->prior_rng);
	if (ki->kslab) {
		switch (kslab_slab(rc, ki, i, &i)) {
		case KSLAB_MAPPED:
			break;
		case KSLAB_UNSEEN:
			rc->prior_listed_unseen++;
			return NULL;
		case KSLAB_NOMEM:
			rc->prior_missing++;
			return NULL;
		}
	}
	take_from(rc, i);
	return rc->prior_slabs[i].sl;
}
