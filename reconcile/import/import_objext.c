/* import_objext.c - the kfree() of a freed slab's obj_exts vector.
 *
 * A slab of a cache with memcg-accounted objects carries a vector of one
 * struct slabobj_ext per object (mm/slub.c 6.18: alloc_slab_obj_exts(),
 * kcalloc_node(slab->objects, sizeof(struct slabobj_ext)); 5.9-6.9:
 * memcg_alloc_slab_cgroups(), one struct obj_cgroup * per object).  When
 * the slab is freed, __free_slab() -> unaccount_slab() ->
 * free_slab_obj_exts() kfree()s it, and that kfree event is the only trace
 * of it: a vector allocated before the capture has no allocation event and
 * kfree() names no cache.  Its kmalloc class is the freed slab's object
 * count times the element size; the slab is the one the last
 * kmem_cache_free on the same CPU emptied (the free that found the slab
 * empty and the node's partial list full calls discard_slab() ->
 * free_slab() -> __free_slab() before returning: __slab_free(), 6.18).
 *
 * Measured on this machine's 6.18 (find-usr-cold after drop_caches):
 * 22182 such kfrees, all at __free_slab, right after frees of dentry (21
 * objects a slab: 168 bytes, kmalloc-192), ext4_inode_cache (14: 112,
 * kmalloc-128), buffer_head (39: 312, kmalloc-512) ...; the vectors the
 * capture saw allocated at alloc_slab_obj_exts are 112, 168 and 312 bytes.
 * Without this rule the site's frees went where its learned frees did (one
 * 168-byte vector): all 22182 to kmalloc-192.
 *
 * Not applied: SLAB_TYPESAFE_BY_RCU caches (their slabs are freed from an
 * RCU callback, rcu_free_slab(), not right after the free), a CPU whose
 * last free was a kfree() (a kmalloc-cg slab: the cache is unknown) or a
 * cache the snapshot does not list.
 */
#include "import_objext.h"

#include <stdlib.h>
#include <string.h>

#include "kmalloc.h"
#include "slab_vector.h"

int ss_import_objext_note(struct ss_import_objext *x, const struct ss_kmem_rec *rec)
{
	uint32_t v = UINT32_MAX;

	if (rec->event != SS_KE_CACHE_FREE && rec->event != SS_KE_KFREE)
		return 0;
	if (rec->event == SS_KE_KFREE && ss_site_frees_slab_vector(rec->call_site))
		return 0; /* the vector itself: the slab's cache stays known */
	if (rec->cpu >= x->nr) {
		unsigned nr = x->nr ? 2 * x->nr : 64;
		uint32_t *l;

		while (nr <= rec->cpu)
			nr *= 2;
		l = realloc(x->last, nr * sizeof(*l));
		if (!l)
			return -1;
		memset(l + x->nr, 0xff, (nr - x->nr) * sizeof(*l));
		x->last = l;
		x->nr = nr;
	}
	if (rec->event == SS_KE_CACHE_FREE && rec->name &&
	    (v = ss_strtab_intern(&x->names, rec->name)) == UINT32_MAX)
		return -1;
	x->last[rec->cpu] = v;
	return 0;
}

int ss_import_objext_class(const struct ss_import_objext *x, const struct ss_snap *snap,
			   const struct ss_target *t, const struct ss_kmem_rec *rec,
			   uint64_t *size)
{
	const struct ss_snap_cache *c;
	int idx;

	if (!snap || rec->event != SS_KE_KFREE || !ss_site_frees_slab_vector(rec->call_site) ||
	    rec->cpu >= x->nr || x->last[rec->cpu] == UINT32_MAX)
		return -1;
	c = ss_snap_find(snap, x->names.strs[x->last[rec->cpu]]);
	if (!c || !c->objs_per_slab || (c->flags & SS_SNAP_RCU))
		return -1;
	idx = ss_kmalloc_index(t, (size_t)c->objs_per_slab * SS_OBJEXT_BYTES);
	if (idx < 0)
		return -1;
	*size = ss_kmalloc_class_size(t, idx);
	return 0;
}

void ss_import_objext_release(struct ss_import_objext *x)
{
	free(x->last);
	ss_strtab_release(&x->names);
	memset(x, 0, sizeof(*x));
}
