/* relayout.c - a kernel cache's initial state under the run's rules
 * (relayout.h). */
#include "relayout.h"

#include <stdlib.h>

#include "partial_spread.h"
#include "slab_order.h"

/* calculate_order() of stride size under t: *order and *objs, false when
 * nothing fits. */
static bool layout_of(const struct ss_target *t, unsigned size, unsigned *order, unsigned *objs)
{
	int o = ss_calculate_order(t, size);

	if (o < 0)
		return false;
	*order = (unsigned)o;
	*objs = ss_order_objects(t, *order, size);
	return *objs > 0 && *objs <= SS_MAX_OBJS_PER_SLAB;
}

enum ss_relayout ss_relayout_decide(const struct ss_target *kernel, const struct ss_target *run,
				    const struct ss_snap_cache *c, unsigned *order, unsigned *objs)
{
	unsigned ka, kn, ra, rn;

	if (!kernel || !layout_of(run, c->slab_size, &ra, &rn) ||
	    (ra == c->order && rn == c->objs_per_slab))
		return SS_RELAYOUT_KEEP;
	/* the what-if does not change this cache's answer */
	if (layout_of(kernel, c->slab_size, &ka, &kn) && ka == ra && kn == rn)
		return SS_RELAYOUT_KEEP;
	if (!layout_of(kernel, c->slab_size, &ka, &kn) || ka != c->order || kn != c->objs_per_slab)
		return SS_RELAYOUT_UNEXPLAINED;
	*order = ra;
	*objs = rn;
	return SS_RELAYOUT_RUN;
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

int ss_relayout_plan(const struct ss_snap_cache *c, uint32_t ops, uint64_t nr_cpu,
		     uint64_t cpu_free, struct ss_relayout_plan *p)
{
	uint64_t kops = c->objs_per_slab, free_slots, a_partial, node, full_objs, n, slabs;

	*p = (struct ss_relayout_plan){0};
	p->objects = c->objects > cpu_free ? c->objects - cpu_free : 0;
	/* the CPU slabs: half of each of B's (cpu_slab_used(), slab_prior.c) */
	p->cpu_used = ops / 2;
	p->cpu_objects = nr_cpu * p->cpu_used < p->objects ? nr_cpu * p->cpu_used : p->objects;
	/* A's node partial slabs: its lists, or (/proc/slabinfo) as many as
	 * populate_slabinfo() makes of the free slots, half empty each */
	free_slots = c->total_objects > c->objects ? c->total_objects - c->objects : 0;
	a_partial = c->have_lists ? c->partial : kops > 1 ? div_up(2 * free_slots, kops) : 0;
	node = a_partial * kops > free_slots ? a_partial * kops - free_slots : 0;
	if (node > p->objects - p->cpu_objects)
		node = p->objects - p->cpu_objects;
	full_objs = p->objects - p->cpu_objects - node;
	p->full = full_objs / ops;
	n = node + full_objs % ops;
	if (ops < 2) { /* a slab of one object is full or empty: never partial */
		p->full += n;
		return 0;
	}
	if (!n && !free_slots)
		return 0;
	slabs = div_up(n + free_slots, ops);
	if (n > slabs * (ops - 1))
		slabs = div_up(n, ops - 1);
	if (slabs > UINT32_MAX)
		return -1;
	if (!(p->partial = malloc(slabs * sizeof(*p->partial))))
		return -1;
	p->nr_partial = (uint32_t)slabs;
	ss_partial_spread(p->nr_partial, n, n >= slabs ? 1 : 0, ops - 1, p->partial);
	return 0;
}

void ss_relayout_plan_release(struct ss_relayout_plan *p)
{
	free(p->partial);
	p->partial = NULL;
	p->nr_partial = 0;
}
