/* rule_walk.c - rule walk: the before-snapshot walk's own objects
 * (docs/capture.md step 5).
 *
 * `make capture` reads /proc/slabinfo, turns tracing on, then walks
 * /sys/kernel/slab with the walk's events left out of the trace: its
 * objects are in neither the counts nor the trace.  Not all of their
 * frees stay out: each sysfs file the walk opens leaves a
 * kernfs_open_node in kmalloc-96, which kfree_rcu() frees after the walk
 * from a kworker, through kfree_bulk() (no event) or, when the batch goes
 * by its rcu_head list, kvfree_rcu_list() -> kvfree() (a kfree event
 * each; mm/slab_common.c, 6.18).  A second tracing instance records the
 * walk's own allocations (--walk, walk.ftrace.zst); a free of one of
 * those pointers that the trace never saw allocated is the walk's object
 * going, and is dropped like its allocation (walk_frees).  Once the trace
 * allocates the pointer, it is an object like any. */
#include "import_rules.h"

struct walk_reader {
	struct ss_ptrmap *walk;
	const char *path;
	unsigned long line;
	uint64_t n;
};

static int walk_rec(void *ctx, int kind, struct ss_kmem_rec *rec, const char *why,
		    struct ss_error *err)
{
	struct walk_reader *w = ctx;

	if (kind < 0)
		return ss_errorf(err, "%s:%lu: %s", w->path, w->line, why);
	if (kind != SS_KL_EVENT || !rec->ptr ||
	    (rec->event != SS_KE_KMALLOC && rec->event != SS_KE_CACHE_ALLOC) ||
	    ss_ptrmap_find(w->walk, rec->ptr)) /* (freed by the walk, allocated again) */
		return 0;
	if (!ss_ptrmap_insert(w->walk, rec->ptr))
		return ss_errorf(err, "out of memory");
	w->n++;
	return 0;
}

int ss_import_walk_load(struct ss_ptrmap *walk, const char *path,
			const struct ss_kmem_labels *l, uint64_t *n, struct ss_error *err)
{
	struct walk_reader w = {.walk = walk, .path = path};
	int rc = ss_kmem_text_read(path, l, walk_rec, &w, &w.line, err);

	*n = w.n;
	return rc;
}

static int begin(struct ss_import_pass *x, struct ss_error *err)
{
	return ss_ptrmap_copy(&x->rule.walk.left, &x->run->walk) ? ss_errorf(err, "out of memory")
								   : 0;
}

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	struct ss_ptrmap *left = &x->rule.walk.left;
	struct ss_ptr_entry *e;

	(void)err;
	if (!left->live || !(e = ss_ptrmap_find(left, rec->ptr)))
		return 0;
	ss_ptrmap_remove(left, e);
	x->t->walk_frees++;
	d->verdict = SS_IMPORT_DONE;
	return 0;
}

/* an allocation with an event: the pointer's next free is that object's */
static int note_alloc(struct ss_import_pass *x, const struct ss_kmem_rec *rec)
{
	struct ss_ptrmap *left = &x->rule.walk.left;
	struct ss_ptr_entry *e;

	if (left->live && (e = ss_ptrmap_find(left, rec->ptr)))
		ss_ptrmap_remove(left, e);
	return 0;
}

static void end(struct ss_import_pass *x)
{
	ss_ptrmap_release(&x->rule.walk.left);
}

const struct ss_import_free_rule ss_import_rule_walk = {
	.name = "walk",
	.counter = "walk_frees",
	.unknown = true,
	.begin = begin,
	.decide = decide,
	.note_alloc = note_alloc,
	.end = end,
};
