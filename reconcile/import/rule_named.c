/* rule_named.c - rule named: a kmem_cache_free that names its cache
 * (name=, 6.1+; 5.12+ on some kernels) of an object the capture never saw
 * allocated: a prior free of that cache, its kernel slab numbered by
 * slab_ids.c (raw pointers).  A cache the capture never allocated from is
 * declared from the snapshot, or dropped as unattributed when nothing
 * gives its size. */
#include "import_rules.h"

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	(void)err;
	if (!rec->name)
		return 0;
	ss_import_cache_name(&x->run->target, rec, d->name);
	d->size = 0;
	d->gfp = 0;
	d->slab = ss_import_slab_id(x, rec->ptr, ss_import_place_cache(&x->run->places, d->name));
	d->verdict = SS_IMPORT_PRIOR;
	return 0;
}

const struct ss_import_free_rule ss_import_rule_named = {
	.name = "named",
	.counter = "prior_frees",
	.unknown = true,
	.decide = decide,
};
