/* rule_objext.c - rule objext: the kfree() of a freed slab's obj_exts
 * vector.
 *
 * A slab of a cache with memcg-accounted objects carries a vector of one
 * struct slabobj_ext per object (mm/slub.c 6.18: alloc_slab_obj_exts(),
 * kcalloc_node(slab->objects, sizeof(struct slabobj_ext)); 5.9-6.9:
 * memcg_alloc_slab_cgroups(), one struct obj_cgroup * per object).  When
 * the slab is freed, __free_slab() -> unaccount_slab() ->
 * free_slab_obj_exts() kfree()s it, and that kfree event is the only trace
 * of it: a vector allocated before the capture has no allocation event and
 * kfree() names no cache.  Its kmalloc class is the freed slab's object
 * count times SS_OBJEXT_BYTES; the slab is the one the last
 * kmem_cache_free on the same CPU emptied (the free that found the slab
 * empty and the node's partial list full calls discard_slab() ->
 * free_slab() -> __free_slab() before returning: __slab_free(), 6.18).
 * A prior free of plain kmalloc of that class (alloc_slab_obj_exts()
 * masks __GFP_DMA, __GFP_RECLAIMABLE and __GFP_ACCOUNT off:
 * OBJCGS_CLEAR_MASK), its kernel slab numbered by slab_ids.c.
 *
 * Not applied: SLAB_TYPESAFE_BY_RCU caches (their slabs are freed from an
 * RCU callback, rcu_free_slab(), not right after the free), a CPU whose
 * last free was a kfree() (a kmalloc-cg slab: the cache is unknown; the
 * learn pass's owner rule `vector` covers it), or a cache the snapshot
 * does not list.
 */
#include <stdlib.h>
#include <string.h>

#include "import_rules.h"
#include "kmalloc.h"
#include "slab_vector.h"

/* The kmalloc class of the vector the CPU's last kmem_cache_free freed,
 * or false when the rule does not apply. */
static bool vector_class(struct ss_import_pass *x, const struct ss_kmem_rec *rec, uint64_t *size)
{
	const struct ss_import_rule_objext *o = &x->rule.objext;
	const struct ss_snap_cache *c;
	int idx;

	if (!x->run->have_snap || rec->event != SS_KE_KFREE ||
	    !ss_site_frees_slab_vector(rec->call_site) || rec->cpu >= o->nr ||
	    o->last[rec->cpu] == UINT32_MAX)
		return false;
	c = ss_snap_find(&x->run->snap, o->names.strs[o->last[rec->cpu]]);
	if (!c || !c->objs_per_slab || (c->flags & SS_SNAP_RCU))
		return false;
	idx = ss_kmalloc_index(&x->run->target, (size_t)c->objs_per_slab * SS_OBJEXT_BYTES);
	if (idx < 0)
		return false;
	*size = ss_kmalloc_class_size(&x->run->target, idx);
	return true;
}

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	(void)err;
	if (rec->name || !vector_class(x, rec, &d->size))
		return 0;
	d->name[0] = '\0'; /* kmalloc-N of the size; the vector has no flags */
	d->gfp = 0;
	d->slab = ss_import_slab_id(x, rec->ptr, ss_import_place_kmalloc(&x->run->places, 0, d->size));
	d->verdict = SS_IMPORT_PRIOR;
	return 0;
}

/* Every free record, in trace order: the cache the CPU's last
 * kmem_cache_free named (a kfree leaves it unknown, but not the vector's
 * own kfree: the slab's cache stays known).  -1 out of memory. */
static int note_free(struct ss_import_pass *x, const struct ss_kmem_rec *rec)
{
	struct ss_import_rule_objext *o = &x->rule.objext;
	uint32_t v = UINT32_MAX;

	if (rec->event != SS_KE_CACHE_FREE && rec->event != SS_KE_KFREE)
		return 0;
	if (rec->event == SS_KE_KFREE && ss_site_frees_slab_vector(rec->call_site))
		return 0;
	if (rec->cpu >= o->nr) {
		unsigned nr = o->nr ? 2 * o->nr : 64;
		uint32_t *l;

		while (nr <= rec->cpu)
			nr *= 2;
		l = realloc(o->last, nr * sizeof(*l));
		if (!l)
			return -1;
		memset(l + o->nr, 0xff, (nr - o->nr) * sizeof(*l));
		o->last = l;
		o->nr = nr;
	}
	if (rec->event == SS_KE_CACHE_FREE && rec->name &&
	    (v = ss_strtab_intern(&o->names, rec->name)) == UINT32_MAX)
		return -1;
	o->last[rec->cpu] = v;
	return 0;
}

static void end(struct ss_import_pass *x)
{
	struct ss_import_rule_objext *o = &x->rule.objext;

	free(o->last);
	ss_strtab_release(&o->names);
	memset(o, 0, sizeof(*o));
}

const struct ss_import_free_rule ss_import_rule_objext = {
	.name = "objext",
	.counter = "prior_frees",
	.unknown = true,
	.decide = decide,
	.note_free = note_free,
	.end = end,
};
