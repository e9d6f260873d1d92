/* report_kernel_fill.c - the CPU slabs' free slots after a capture, from
 * its slab-fill file read after the after-snapshot, beside the model's.
 *
 * SLUB's `objects` (show_slab_objects(), SO_ALL | SO_OBJECTS) subtracts
 * only the node partial lists' free slots: an active slab's CPU freelist
 * and own freelist, and the CPU partial slabs' free slots, count as in
 * use.  Neither snapshot shows them, so a miss in `objects` of a cache
 * with few objects per change (kmalloc-16: 256 a slab) can be no more
 * than a CPU freelist more or less at the end.  With both sides' CPU
 * slabs known the report gives the change of the objects really in use.
 */
#include "report_kernel.h"
#include "slabsnap.h"

bool ss_report_kernel_in_use_deltas(const struct ss_report_kernel_row *r, int64_t *kernel, int64_t *model)
{
	/* (the same start on both sides: the model's, from the before-fill
	 * or the estimate; every figure is below 2^56) */
	int64_t before = (int64_t)(r->cpu_free_est + r->cpu_free_meas);

	if (!r->k_cpu_free1_known || !r->m_cpu_free1_known)
		return false;
	*kernel = ss_report_kernel_delta(r->k_obj0, r->k_obj1) - ((int64_t)r->k_cpu_free1 - before);
	*model = ss_report_kernel_model_dobj(r) - ((int64_t)r->m_cpu_free1 - before);
	return true;
}

/* One cache's CPU slabs' free slots as the file lists them; false when
 * an active slab's freelist walk failed or the file lists no CPU slabs. */
static bool cpu_free_of(const struct ss_snap_cache *c, uint64_t *free)
{
	*free = 0;
	if (!c->fill_cpus)
		return false;
	for (uint32_t i = c->nr_fill_node; i < c->nr_fill; i++) {
		const struct ss_snap_fill *f = &c->fill[i];

		*free += c->objs_per_slab - f->inuse;
		if (f->kind != SS_FILL_CPU)
			continue;
		if (f->cpu_free == SS_SNAP_FREE_UNKNOWN)
			return false;
		*free += f->cpu_free;
	}
	return true;
}

int ss_report_kernel_load_fill_after(struct ss_report_kernel *k, const char *fill, struct ss_error *err)
{
	struct ss_snap a;
	uint64_t hash;
	unsigned skipped = 0;
	int rc = -1;

	if (ss_snap_load_in(&a, k->after, "slab-after.txt", err))
		return -1;
	if (ss_snap_take_fill(&a, fill, &hash, &skipped, err))
		goto out;
	for (size_t i = 0; i < k->n; i++) {
		struct ss_report_kernel_row *r = &k->rows[i];
		const struct ss_snap_cache *c = ss_snap_find(&a, r->name);

		r->k_cpu_free1_known = c && cpu_free_of(c, &r->k_cpu_free1);
	}
	rc = 0;
out:
	ss_snap_release(&a);
	return rc;
}
