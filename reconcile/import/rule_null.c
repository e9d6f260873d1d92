/* rule_null.c - rule null: kfree(NULL), legal and a no-op (mm/slub.c
 * 6.18 kfree(): ZERO_OR_NULL_PTR returns at once).  Counted, skipped. */
#include "import_rules.h"

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	(void)err;
	if (rec->ptr)
		return 0;
	x->t->null_frees++;
	d->verdict = SS_IMPORT_DONE;
	return 0;
}

const struct ss_import_free_rule ss_import_rule_null = {
	.name = "null",
	.counter = "null_frees",
	.decide = decide,
};
