/* rule_traced.c - rule traced: the free of an object the capture saw
 * allocated, written as a free of its id. */
#include "import_rules.h"

int ss_import_emit_free(struct ss_import_pass *x, struct ss_ptr_entry *e, unsigned cpu)
{
	if (ss_trace_write_free(x->w, cpu, e->id))
		return -1;
	ss_idpool_put(&x->ids, e->id);
	if (!ss_ptrmap_find(&x->dead, e->ptr) && !ss_ptrmap_insert(&x->dead, e->ptr))
		return -1;
	ss_ptrmap_remove(&x->live, e);
	x->t->events++;
	return 0;
}

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	struct ss_import_totals *t = x->t;
	struct ss_ptr_entry *e = ss_ptrmap_find(&x->live, rec->ptr);

	if (!e)
		return 0;
	t->frees++;
	t->bytes_freed += e->bytes_alloc;
	t->cross_cpu_frees += e->cpu != rec->cpu;
	d->verdict = SS_IMPORT_DONE;
	return ss_import_emit_free(x, e, rec->cpu) ? ss_trace_writer_failed(x->w, err) : 0;
}

const struct ss_import_free_rule ss_import_rule_traced = {
	.name = "traced",
	.counter = "frees",
	.decide = decide,
};
