/* slab_order.c - calculate_order() and slab_order()/calc_slab_order() of
 * mm/slub.c, in the two shapes the kernel has had:
 *
 *  - up to 6.6: try min_objects objects per slab with waste <= 1/16, 1/8,
 *    1/4, lowering min_objects one at a time, then one object per slab;
 *  - 6.7 on (Babka, "SLUB: calculate_order() cleanups"): min_order from
 *    min_objects once, waste 1/16 .. 1/2 from there, then get_order(size).
 *
 * The CPU count feeding min_objects is nr_cpu_ids up to 5.10 and
 * num_present_cpus() from 5.11 (nr_cpu_ids when that is <= 1); a target
 * gives both (cpus, nr_cpu_ids).
 */
#include "slab_order.h"

#include "geometry.h"

/* fls(): 1-based index of the highest set bit, 0 for 0.  A builtin, not a
 * loop: kmalloc_index() calls it on every kmalloc of the replay. */
unsigned ss_fls(unsigned long v)
{
	return v ? (unsigned)(8 * sizeof(v)) - (unsigned)__builtin_clzl(v) : 0;
}

unsigned ss_get_order(const struct ss_target *t, unsigned long size)
{
	unsigned order = 0;

	while (((unsigned long)t->page_size << order) < size)
		order++;
	return order;
}

unsigned ss_order_objects(const struct ss_target *t, unsigned order,
			  unsigned size)
{
	return (unsigned)(((unsigned long)t->page_size << order) / size);
}

/* The CPU count calculate_order() scales min_objects with.  Up to 5.10
 * `4 * (fls(nr_cpu_ids) + 1)`; from 5.11 ("mm, slub: better heuristic for
 * number of cpus when calculating slab order", after 045ab8c9487b tried
 * num_online_cpus() in 5.11-rc) `nr_cpus = num_present_cpus(); if
 * (nr_cpus <= 1) nr_cpus = nr_cpu_ids;`, unchanged by the 6.7 rewrite.
 * The target's cpus are the present CPUs. */
static unsigned order_cpus(const struct ss_target *t)
{
	if (t->era < SS_ERA_5_11 || t->cpus <= 1)
		return ss_target_nr_cpu_ids(t);
	return t->cpus;
}

unsigned ss_min_objects(const struct ss_target *t)
{
	if (t->slub_min_objects)
		return t->slub_min_objects;
	return 4 * (ss_fls(order_cpus(t)) + 1);
}

/* calc_slab_order() (6.7; the same loop ends slab_order() before): the
 * first order in [min_order, max_order] with leftover <= slab/fract,
 * max_order + 1 if none. */
static unsigned calc_slab_order(const struct ss_target *t, unsigned size,
				unsigned min_order, unsigned max_order,
				unsigned fract)
{
	unsigned order;

	for (order = min_order; order <= max_order; order++) {
		unsigned long slab = (unsigned long)t->page_size << order;

		if (slab % size <= slab / fract)
			break;
	}
	return order;
}

/* slab_order() up to 6.6: the lowest order in [max(slub_min_order,
 * get_order(min_objects * size)), max_order] whose leftover is at most
 * slab/fract; max_order + 1 if there is none. */
static unsigned legacy_slab_order(const struct ss_target *t, unsigned size,
				  unsigned min_objects, unsigned max_order,
				  unsigned fract)
{
	unsigned order = ss_get_order(t, (unsigned long)min_objects * size);

	if (ss_order_objects(t, t->slub_min_order, size) > SS_MAX_OBJS_PER_SLAB)
		return ss_get_order(t, (unsigned long)size *
					       SS_MAX_OBJS_PER_SLAB) - 1;
	if (order < t->slub_min_order)
		order = t->slub_min_order;
	return calc_slab_order(t, size, order, max_order, fract);
}

/* calculate_order() up to 6.6 (3.10 has the same loop). */
static int legacy_calculate_order(const struct ss_target *t, unsigned size)
{
	unsigned max_order = t->slub_max_order;
	unsigned min_objects = ss_min_objects(t);
	unsigned max_objects = ss_order_objects(t, max_order, size);
	unsigned order;

	if (min_objects > max_objects)
		min_objects = max_objects;
	for (; min_objects > 1; min_objects--) {
		for (unsigned fract = 16; fract >= 4; fract /= 2) {
			order = legacy_slab_order(t, size, min_objects,
						  max_order, fract);
			if (order <= max_order)
				return (int)order;
		}
	}
	/* One object per slab, within slub_max_order, then anywhere. */
	order = legacy_slab_order(t, size, 1, max_order, 1);
	if (order <= max_order)
		return (int)order;
	order = legacy_slab_order(t, size, 1, SS_MAX_PAGE_ORDER, 1);
	if (order <= SS_MAX_PAGE_ORDER)
		return (int)order;
	return -1;
}

/* calculate_order() from 6.7. */
static int modern_calculate_order(const struct ss_target *t, unsigned size)
{
	unsigned max_order = t->slub_max_order;
	unsigned min_objects = ss_min_objects(t);
	unsigned max_objects = ss_order_objects(t, max_order, size);
	unsigned min_order, order;

	if (max_objects < 1)
		max_objects = 1;
	if (min_objects > max_objects)
		min_objects = max_objects;
	min_order = ss_get_order(t, (unsigned long)min_objects * size);
	if (min_order < t->slub_min_order)
		min_order = t->slub_min_order;
	if (ss_order_objects(t, min_order, size) > SS_MAX_OBJS_PER_SLAB)
		return (int)ss_get_order(t, (unsigned long)size *
						    SS_MAX_OBJS_PER_SLAB) - 1;
	for (unsigned fract = 16; fract > 1; fract /= 2) {
		order = calc_slab_order(t, size, min_order, max_order, fract);
		if (order <= max_order)
			return (int)order;
	}
	order = ss_get_order(t, size);
	return order <= SS_MAX_PAGE_ORDER ? (int)order : -1;
}

int ss_calculate_order(const struct ss_target *t, unsigned size)
{
	if (!size)
		return -1;
	if (t->era >= SS_ERA_6_7)
		return modern_calculate_order(t, size);
	return legacy_calculate_order(t, size);
}
