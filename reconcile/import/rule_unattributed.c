/* rule_unattributed.c - rule unattributed: a free of an object from
 * before the capture that no rule before placed (a kfree() whose site
 * freed nothing the capture saw allocated, on standard input or with
 * hashed pointers): counted in prior_unattributed and dropped. */
#include "import_rules.h"

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	(void)x;
	(void)rec;
	(void)err;
	d->verdict = SS_IMPORT_UNATTRIBUTED;
	return 0;
}

const struct ss_import_free_rule ss_import_rule_unattributed = {
	.name = "unattributed",
	.counter = "prior_unattributed",
	.unknown = true,
	.decide = decide,
};
