/* import_walk.c - the before-snapshot's own objects (docs/capture.md
 * step 5).
 *
 * `make capture` reads /proc/slabinfo, turns tracing on, then walks
 * /sys/kernel/slab with the walk's events left out of the trace: its
 * objects are in neither the counts nor the trace.  Not all of their
 * frees stay out: each sysfs file the walk opens leaves a
 * kernfs_open_node in kmalloc-96, which kfree_rcu() frees after the walk
 * from a kworker, through kfree_bulk() (no event) or, when the batch
 * goes by its rcu_head list, kvfree_rcu_list() -> kvfree() (a kfree
 * event each; mm/slab_common.c, 6.18).  Measured: 4,949 such kfrees
 * 0.84 s into one capture, which the import had taken as frees of
 * objects from before the capture (kmalloc-96 -4,708 in the model, +462
 * in the kernel).  A second tracing instance records the walk's own
 * allocations (walk.ftrace.zst); a free of one of those pointers that
 * the trace never saw allocated is the walk's object going, and is
 * dropped like its allocation.
 */
#include "import.h"

struct walk_reader {
	struct ss_import_prior *p;
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
	    ss_ptrmap_find(&w->p->walk, rec->ptr)) /* (freed by the walk, allocated again) */
		return 0;
	if (!ss_ptrmap_insert(&w->p->walk, rec->ptr))
		return ss_errorf(err, "out of memory");
	w->n++;
	return 0;
}

int ss_import_walk_load(struct ss_import_prior *p, const char *path,
			const struct ss_kmem_labels *l, uint64_t *n, struct ss_error *err)
{
	struct walk_reader w = {.p = p, .path = path};
	int rc = ss_kmem_text_read(path, l, walk_rec, &w, &w.line, err);

	*n = w.n;
	return rc;
}
