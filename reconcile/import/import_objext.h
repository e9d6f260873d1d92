/* import_objext.h - the kmalloc class of a freed slab's obj_exts vector
 * (import_objext.c): per CPU, the cache of the last kmem_cache_free. */
#ifndef SS_IMPORT_OBJEXT_H
#define SS_IMPORT_OBJEXT_H

#include <stdint.h>

#include "import.h"

/* sizeof(struct slabobj_ext) on 64-bit without CONFIG_MEM_ALLOC_PROFILING
 * (one struct obj_cgroup *; 16 with profiling, include/linux/memcontrol.h
 * 6.10+); 5.9-6.9's objcgs vectors are one pointer per object too. */
#define SS_OBJEXT_BYTES 8u

struct ss_import_objext {
	uint32_t *last;		/* per CPU: names index, UINT32_MAX unknown */
	unsigned nr;
	struct ss_strtab names;
};

/* Every free record, in trace order; -1 when out of memory. */
int ss_import_objext_note(struct ss_import_objext *x, const struct ss_kmem_rec *rec);
/* A kfree at __free_slab (or its era's name) of an unknown pointer: 0 and
 * *size = the kmalloc class of the vector of the slab the CPU's last
 * kmem_cache_free emptied (its cache's objects per slab from snap); -1
 * when the rule does not apply. */
int ss_import_objext_class(const struct ss_import_objext *x, const struct ss_snap *snap,
			   const struct ss_target *t, const struct ss_kmem_rec *rec,
			   uint64_t *size);
void ss_import_objext_release(struct ss_import_objext *x);

#endif
