/* sheaf_start.c - the kernel's sheaves and barns when the trace began
 * (sheaf_start.h).
 *
 * SLUB's `objects` counts the objects in sheaves and barns as allocated
 * (they are off their slabs' freelists, mm/slub.c 6.18 and 7.2
 * show_slab_objects()), so the snapshot's objects are the users' and the
 * sheaves' together.  Left as initial objects, the sheaves' would never
 * be freed (no event frees them: they are no user's) while the model's
 * own sheaves filled from its slabs for the trace's first allocations,
 * which the kernel served from the objects it held: the replay would
 * count those objects twice.  Taken out of the initial objects into the
 * model's sheaves, they serve those allocations as the kernel's did.
 * Which slab each came from the read does not say: each is drawn as a
 * prior free of a hashed-pointer capture draws its object
 * (ss_recon_take_prior()). */
#include "sheaf_start.h"

#include "sheaf.h"

/* One initial object off its slab's count of initial objects (it stays
 * allocated from the slab, in a sheaf): not requested by anyone. */
static struct ss_slab *take(void *ctx)
{
	struct ss_recon_cache *rc = ctx;
	struct ss_slab *sl = rc->prior_live ? ss_recon_take_prior(rc, NULL) : NULL;

	if (sl)
		rc->s->requested_live -= rc->s->geo.object_size; /* as push_prior counted it */
	return sl;
}

static unsigned count_of(uint32_t n)
{
	return n == SS_SNAP_NO_SHEAF ? 0 : n;
}

uint64_t ss_recon_start_sheaves(struct ss_recon_cache *rc, const struct ss_snap_cache *k)
{
	struct ss_kcache *s = rc->s;
	const struct ss_topology *topo = s->topo;
	uint64_t got = 0;

	if (!k->have_sheaves || !s->sheaves)
		return 0;
	for (uint32_t c = 0; c < k->nr_pcs && c < topo->nr_cpus; c++) {
		const struct ss_snap_pcs *p = &k->pcs[c];

		if (p->listed)
			got += ss_sheaves_start_cpu(s->sheaves, c, count_of(p->main),
						    p->spare == SS_SNAP_NO_SHEAF ? SS_SHEAF_NONE : p->spare,
						    take, rc);
	}
	for (uint32_t n = 0; n < topo->nr_nodes; n++) {
		const struct ss_snap_barn *b = n < k->nr_barns ? &k->barns[n] : NULL;
		unsigned rcu = 0;

		/* the rcu_free sheaves of the node's CPUs go to its barn */
		for (uint32_t c = 0; c < k->nr_pcs && c < topo->nr_cpus; c++)
			if (k->pcs[c].listed && topo->cpu_node[c] == n)
				rcu += count_of(k->pcs[c].rcu);
		if ((b && b->listed) || rcu)
			got += ss_sheaves_start_barn(s->sheaves, n, b && b->listed ? b->full : 0,
						     b && b->listed ? count_of(b->objects) : 0,
						     b && b->listed ? b->empty : 0, rcu, take, rc);
	}
	rc->prior_sheaves = got;
	return got;
}
