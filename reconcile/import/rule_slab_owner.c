/* rule_slab_owner.c - rule slab-owner: an unknown kfree() of a raw
 * pointer whose owner the learn pass found: the cache its slab held when
 * the object was freed, by the owner rules (an event seen in the slab
 * before the free, the slab-fill's listing, a vector after a kfree) or
 * the stride rule (learn.c, stride.c).  A prior free of that place, its
 * kernel slab numbered by slab_ids.c. */
#include "import_rules.h"

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	uint32_t k = ss_import_learned_owner(&x->run->learned, rec->ptr);

	(void)err;
	if (k == SS_IMPORT_NO_PLACE)
		return 0;
	ss_import_place_decode(&x->run->places, k, d->name, &d->size, &d->gfp);
	d->slab = ss_import_slab_id(x, rec->ptr, k);
	d->verdict = SS_IMPORT_PRIOR;
	return 0;
}

const struct ss_import_free_rule ss_import_rule_slab_owner = {
	.name = "slab-owner",
	.counter = "prior_frees",
	.unknown = true,
	.decide = decide,
};
