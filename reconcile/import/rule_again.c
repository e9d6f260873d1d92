/* rule_again.c - rule again: a free of a pointer the capture saw freed,
 * with no allocation since, or that the learn pass saw freed twice with
 * no allocation between.  Its object was allocated without an event (by
 * a task no tracepoint reports: docs/capture.md, "Tasks no tracepoint
 * sees"), and is no object from before the capture: such objects come
 * and go in equal numbers, and taking the first free of each for one
 * from before would empty the initial state by that many.  Replayed or
 * dropped (untraced.c); counted in untraced_allocs. */
#include "import_rules.h"

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	(void)err;
	if (ss_ptrmap_find(&x->dead, rec->ptr) ||
	    ss_ptrmap_find(&x->run->learned.untraced, rec->ptr))
		d->verdict = SS_IMPORT_UNTRACED;
	return 0;
}

const struct ss_import_free_rule ss_import_rule_again = {
	.name = "again",
	.counter = "untraced_allocs",
	.unknown = true,
	.decide = decide,
};
