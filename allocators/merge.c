/* merge.c - find_mergeable() and slab_unmergeable() of the target's era
 * (merge.h). */
#include "merge.h"

#include <stdio.h>
#include <stdlib.h>

#include "kmalloc.h"

/* Eras where merging changed (major*100+minor; merge.h cites them). */
#define ERA_MERGE_OLDEST_FIRST 402 /* 54362057bfd6: walk oldest first */
#define ERA_KMALLOC_USERCOPY 416   /* kmalloc classes carry a usersize */

bool ss_merge_fits(const struct ss_target *t, unsigned size, unsigned align,
		   unsigned have_size)
{
	if (size > have_size)
		return false;
	/* "Check if alignment is compatible": the old stride is a multiple
	 * of the new alignment */
	if ((have_size & ~(align - 1)) != have_size)
		return false;
	return have_size - size < t->ptr_size;
}

int ss_merge_boot_candidates(const struct ss_target *t,
			     const struct ss_trace_tables *tables,
			     struct ss_merge_cand **out, unsigned *nr,
			     struct ss_error *err)
{
	unsigned nr_decl = tables ? tables->cache_names.nr : 0;
	int nk = ss_kmalloc_nr_classes(t);
	struct ss_merge_cand *c = calloc((size_t)nk + nr_decl + 1, sizeof(*c));
	unsigned n = 0;

	if (!c)
		return ss_errorf(err, "out of memory");
	/* create_kmalloc_caches(): power-of-two classes upwards, kmalloc-96
	 * right after kmalloc-64, kmalloc-192 right after kmalloc-128 */
	for (int i = 3; i < nk; i++) {
		int idx[2] = {i, i == 6 ? 1 : i == 7 ? 2 : -1};

		for (int k = 0; k < 2; k++) {
			if (idx[k] < 0 || !ss_kmalloc_class_exists(t, idx[k]))
				continue;
			ss_kmalloc_class_name(t, idx[k], c[n].name, sizeof(c[n].name));
			ss_kmalloc_spec(t, idx[k], 0, &c[n].spec);
			c[n++].kmalloc = true;
		}
	}
	for (unsigned api = 1; api < nr_decl; api++) {
		const struct ss_trace_cache *tc = &tables->caches[api];

		snprintf(c[n].name, sizeof(c[n].name), "%s", ss_trace_cache_name(tables, api));
		c[n].spec.object_size = tc->object_size;
		c[n].spec.align = tc->align;
		c[n].spec.flags = tc->flags;
		n++;
	}
	*out = c;
	*nr = n;
	return 0;
}

/* slab_unmergeable() of an existing cache, debug aside (the advisor asks
 * about caches without slub_debug). */
static bool unmergeable(const struct ss_target *t, const struct ss_merge_cand *c)
{
	if (c->spec.flags & SS_MERGE_NEVER)
		return true;
	return c->kmalloc && t->era >= ERA_KMALLOC_USERCOPY;
}

static bool cand_fits(const struct ss_target *t, const struct ss_merge_cand *c,
		      const struct ss_geometry *g)
{
	struct ss_geometry have;

	if (unmergeable(t, c) || ss_geometry_compute(t, &c->spec, &have, NULL))
		return false;
	return ss_merge_fits(t, g->size_nodebug, g->align, have.size_nodebug);
}

int ss_merge_find(const struct ss_target *t, const struct ss_cache_spec *spec,
		  const struct ss_merge_cand *cand, unsigned nr)
{
	struct ss_geometry g;

	if ((spec->flags & SS_MERGE_NEVER) || spec->debug ||
	    ss_geometry_compute(t, spec, &g, NULL))
		return -1;
	if (t->era >= ERA_MERGE_OLDEST_FIRST) {
		for (unsigned i = 0; i < nr; i++)
			if (cand_fits(t, &cand[i], &g))
				return (int)i;
	} else {
		for (unsigned i = nr; i-- > 0;)
			if (cand_fits(t, &cand[i], &g))
				return (int)i;
	}
	return -1;
}
