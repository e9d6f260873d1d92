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
#include <string.h>

#include "import.h"
#include "trace_io.h"

int ss_import_walk_load(struct ss_import_prior *p, const char *path,
			const struct ss_kmem_labels *l, uint64_t *n, struct ss_error *err)
{
	struct ss_inbuf in;
	char *line;
	size_t len;
	int rc;

	*n = 0;
	if (ss_inbuf_open(&in, path, err))
		return -1;
	while ((rc = ss_inbuf_line(&in, &line, &len, path, err)) == 1) {
		struct ss_kmem_rec rec;
		const char *why;
		int kind;

		if (memchr(line, '\0', len))
			continue;
		kind = ss_kmem_parse_line(line, l, &rec, &why);
		if (kind < 0) {
			rc = ss_errorf(err, "%s:%llu: %s", path, (unsigned long long)in.lines, why);
			break;
		}
		if (kind != SS_KL_EVENT || !rec.ptr ||
		    (rec.event != SS_KE_KMALLOC && rec.event != SS_KE_CACHE_ALLOC))
			continue;
		if (ss_ptrmap_find(&p->walk, rec.ptr))
			continue; /* (freed by the walk itself and allocated again) */
		if (!ss_ptrmap_insert(&p->walk, rec.ptr)) {
			rc = ss_errorf(err, "out of memory");
			break;
		}
		(*n)++;
	}
	ss_inbuf_close(&in);
	return rc < 0 ? -1 : 0;
}
