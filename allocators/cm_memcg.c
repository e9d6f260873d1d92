/* cm_memcg.c - CONFIG_MEMCG's per-slab object vectors (cache_model_int.h).
 *
 * 5.9+ ("mm: memcg/slab: use a single set of kmem_caches for all
 * accounted allocations") charges each accounted object and keeps, per
 * slab, one pointer per object: memcg_alloc_page_obj_cgroups() (5.9 ..
 * 6.9) / alloc_slab_obj_exts() (6.10+, struct slabobj_ext holding just
 * the obj_cgroup pointer without CONFIG_MEM_ALLOC_PROFILING), a
 * kcalloc_node(objects, pointer) with the DMA, RECLAIMABLE and ACCOUNT
 * bits cleared (OBJCGS_CLEAR_MASK): an ordinary kmalloc object in the
 * normal family.  A SLAB_ACCOUNT cache gets it when each slab is made
 * (account_slab()); another cache on its first accounted object
 * (memcg_slab_post_alloc_hook()).  It goes with the slab
 * (unaccount_slab() / free_slab_obj_exts()).  Vectors placed in a slab's
 * unused tail (later series) are not modelled.
 */
#include "cache_model_int.h"

#include <stdlib.h>
#include <string.h>

#include "kmalloc.h"

static size_t slot_of(const struct ss_cm_vecmap *v, const void *slab)
{
	uint64_t x = (uint64_t)(uintptr_t)slab;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x & (v->cap - 1);
}

static struct ss_cm_vec *vec_find(const struct ss_cm_vecmap *v, const void *slab)
{
	if (!v->cap)
		return NULL;
	for (size_t i = slot_of(v, slab);; i = (i + 1) & (v->cap - 1)) {
		if (!v->e[i].slab)
			return NULL;
		if (v->e[i].slab == slab)
			return &v->e[i];
	}
}

static int vec_insert(struct ss_cm_vecmap *v, void *slab, const struct ss_iobj *vec)
{
	if ((v->nr + 1) * 2 > v->cap) { /* keep the load under one half */
		struct ss_cm_vecmap bigger = {.cap = v->cap ? v->cap * 2 : 64};

		bigger.e = calloc(bigger.cap, sizeof(*bigger.e));
		if (!bigger.e)
			return -1;
		for (size_t i = 0; i < v->cap; i++)
			if (v->e[i].slab)
				vec_insert(&bigger, v->e[i].slab, &v->e[i].vec);
		free(v->e);
		*v = bigger;
	}
	for (size_t i = slot_of(v, slab);; i = (i + 1) & (v->cap - 1))
		if (!v->e[i].slab) {
			v->e[i].slab = slab;
			v->e[i].vec = *vec;
			v->nr++;
			return 0;
		}
}

/* Remove e, moving later entries of its run back (no tombstones). */
static void vec_remove(struct ss_cm_vecmap *v, struct ss_cm_vec *e)
{
	size_t i = (size_t)(e - v->e), j = i;

	v->e[i].slab = NULL;
	v->nr--;
	for (;;) {
		size_t home;

		j = (j + 1) & (v->cap - 1);
		if (!v->e[j].slab)
			return;
		home = slot_of(v, v->e[j].slab);
		/* can the entry at j move to the hole at i? */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			v->e[i] = v->e[j];
			v->e[j].slab = NULL;
			i = j;
		}
	}
}

void ss_cm_vecmap_release(struct ss_cm_vecmap *v)
{
	free(v->e);
	memset(v, 0, sizeof(*v));
}

/* Whether this target charges objects one by one (5.9+): with a memory
 * cgroup below the root online (memcg_slab_pre_alloc_hook() and
 * account_slab() test memcg_kmem_online(), 6.3+; memcg_kmem_enabled()
 * before). */
static bool has_vectors(const struct ss_cmodel *m)
{
	const struct ss_kconfig *kc = &m->cfg.target->kc;

	return kc->memcg && kc->memcg_kmem_online && m->cfg.target->era >= SS_ERA_5_9;
}

/* Whether the model makes the vectors itself: not for a trace that holds
 * the kernel's own (an imported capture of a kernel that charged: kmalloc
 * events at alloc_slab_obj_exts, kfrees at __free_slab, docs/import.md
 * rule 2); making them again counted each twice (apt-install-trace-cmd:
 * +1792 kmalloc-128 objects, ext4_inode_cache's 112-byte vectors).  A
 * capture of a kernel that charged nothing (no memory cgroup, or no
 * CONFIG_MEMCG) replayed with charging (a what-if) gets them here, as a
 * workload does. */
static bool makes_vectors(const struct ss_cmodel *m)
{
	return has_vectors(m) && !m->cfg.kernel_vectors;
}

static int add_vector(struct ss_cmodel *m, void *slab, unsigned objects, unsigned cpu,
		      struct ss_op *op)
{
	const struct ss_target *t = m->cfg.target;
	struct ss_iobj vec;
	const char *site = t->era >= SS_ERA_6_10 ? "alloc_slab_obj_exts"
						 : "memcg_alloc_page_obj_cgroups";

	if (ss_cm_internal_kmalloc(m, (uint64_t)objects * t->ptr_size, site, cpu, &vec, op))
		return -1;
	/* counted on the slab's cache: the vector itself is an object of
	 * its kmalloc cache */
	ss_step(op, SS_STEP_MEMCG_VECTOR, 1);
	ss_step(op, SS_STEP_MEMCG_VECTOR_BYTES, vec.bytes);
	return vec_insert(&m->vecs, slab, &vec);
}

void ss_cm_slab_event(void *ctx, int cache, void *slab, unsigned objects,
		   bool created, unsigned cpu, struct ss_op *op)
{
	struct ss_cmodel *m = ctx;
	struct ss_cm_vec *e;

	if (!makes_vectors(m))
		return;
	if (created) {
		/* account_slab(): an out-of-memory here shows as the owning
		 * allocation's failure in ss_cm_memcg_charge() (no vector) */
		if (m->caches[cache]->account)
			add_vector(m, slab, objects, cpu, op);
		return;
	}
	e = vec_find(&m->vecs, slab);
	if (e) {
		struct ss_iobj vec = e->vec;

		vec_remove(&m->vecs, e);
		ss_cm_internal_kfree(m, &vec, cpu, op);
	}
}

int ss_cm_memcg_charge(struct ss_cmodel *m, struct ss_cm_cache *fc, struct ss_obj *obj,
		    struct ss_op *op, struct ss_error *err)
{
	const struct ss_target *t = m->cfg.target;
	struct ss_cache_report r;
	uint64_t bytes;

	if (!has_vectors(m))
		return 0; /* before 5.9: per-memcg cache clones, not modelled */
	obj->mflags |= SS_CM_ACCOUNTED;
	ss_step(op, SS_STEP_MEMCG_CHARGE, 1);
	if (!makes_vectors(m) || (obj->mflags & SS_CM_KFENCE) || vec_find(&m->vecs, obj->slab))
		return 0;
	m->be->report(fc->be, &r);
	/* a vector above KMALLOC_MAX_CACHE_SIZE (more than 1,024 objects a
	 * slab: slub_min_order=3's kmalloc-8 holds 4,096) is the kernel's
	 * kmalloc_large(), pages the replay's books take only from the
	 * trace's own objects: refused, not left out */
	bytes = (uint64_t)r.objs_per_slab * t->ptr_size;
	if (ss_kmalloc_index(t, (size_t)bytes) < 0)
		return ss_errorf(err, "cache %s: its memcg vector of %llu bytes (%u objects a slab) "
				      "is above the largest kmalloc class: kmalloc_large() of the "
				      "allocator's own objects is not modelled",
				 r.name, (unsigned long long)bytes, r.objs_per_slab);
	if (add_vector(m, obj->slab, r.objs_per_slab, obj->cpu, op))
		return ss_errorf(err, "out of memory for memcg vectors");
	return 0;
}
