/* bad_free.c - slub_debug-style reports of bad frees (see bad_free.h). */
#include "bad_free.h"

#include <stdio.h>
#include <string.h>

/* The CPU number a kernel would print (smp_processor_id()): the OS index
 * of the PU the trace CPU was mapped to. */
static unsigned os_cpu(const struct ss_run *run, uint16_t pu)
{
	return run->topo->cpu_os && pu < run->topo->nr_cpus ? run->topo->cpu_os[pu] : pu;
}

/* The alloc and free tracks, as print_track() prints them under
 * SLAB_STORE_USER: "Allocated in SITE ... cpu=N" (the trace has no free
 * site, no age and no pid). */
static void tracks(const struct ss_run *run, const struct ss_obj *obj,
		   char *buf, size_t n)
{
	snprintf(buf, n, "Allocated in %s cpu=%u\nFreed cpu=%u",
		 ss_trace_name(run->tables, obj->site), os_cpu(run, obj->cpu),
		 os_cpu(run, obj->free_cpu));
}

/* object_err(s, slab, object, "Object already free") */
static int slab_double_free(const struct ss_run *run, const char *where,
			    uint64_t id, const struct ss_obj *obj,
			    struct ss_error *err)
{
	struct ss_cache_report rep = {.name = "<unknown>"};
	char tr[640];

	if (obj->cache < run->desc->ops->nr_caches(run->model))
		run->desc->ops->cache_report(run->model, obj->cache, &rep);
	tracks(run, obj, tr, sizeof(tr));
	return ss_errorf(err,
			 "%s BUG %s (slabsim): Object already free\n"
			 "Object id %llu: %llu bytes requested, a %u-byte object\n"
			 "%s\nFIX %s: Object id %llu not freed",
			 where, rep.name, (unsigned long long)id,
			 (unsigned long long)obj->size, rep.object_size, tr,
			 rep.name, (unsigned long long)id);
}

int ss_bad_free(const struct ss_run *run, const struct ss_trace_reader *r,
		unsigned long line, uint64_t id, const struct ss_obj *obj,
		struct ss_error *err)
{
	char where[4200], tr[640];
	size_t n;

	ss_trace_where(r, line, where, sizeof(where) - 1);
	n = strlen(where);
	where[n] = ':';
	where[n + 1] = '\0';
	if (!obj || obj->freed == SS_OBJ_FREE)
		return ss_errorf(err, "%s free of object id %llu, which was never allocated (no alloc gave it out)",
				 where, (unsigned long long)id);
	if (obj->freed == SS_OBJ_LIVE)
		return slab_double_free(run, where, id, obj, err);
	tracks(run, obj, tr, sizeof(tr));
	if (obj->freed == SS_OBJ_LARGE) /* free_large_kmalloc(): pages, no slab */
		return ss_errorf(err,
				 "%s BUG: Bad page state (slabsim): kmalloc_large object freed twice\n"
				 "Object id %llu: %llu bytes requested, pages from the page allocator\n%s",
				 where, (unsigned long long)id,
				 (unsigned long long)obj->size, tr);
	/* kfree(ZERO_SIZE_PTR) is a no-op in the kernel, but an id in a
	 * trace is freed once per allocation. */
	return ss_errorf(err,
			 "%s free of object id %llu, a zero-size allocation (ZERO_SIZE_PTR) already freed "
			 "(the kernel ignores kfree(ZERO_SIZE_PTR); a trace frees an id once)\n%s",
			 where, (unsigned long long)id, tr);
}
