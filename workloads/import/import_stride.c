/* import_stride.c - the kmalloc cache of kfree()s nothing else places,
 * from where raw pointers sit in their slabs.
 *
 * kfree() names no cache, and a free call site that never freed an object
 * the capture saw allocated teaches nothing (import_prior.c, rule 4).
 * Measured on this machine's 6.18 after drop_caches: 12,754 kfree()s at
 * __d_free_external of dentry names allocated before the capture, from
 * kmalloc-rcl-96 (__d_alloc: GFP_KERNEL_ACCOUNT | __GFP_RECLAIMABLE,
 * and kmalloc_type() picks reclaimable over accounted); none of them
 * placed, so the replay's kmalloc-rcl-96 kept the 12,117 objects the
 * kernel's lost.
 *
 * A raw pointer says more than a hashed one.  SLUB lays a kmalloc cache's
 * objects at s->size strides from the start of a slab of PAGE_SIZE <<
 * order bytes, aligned to its size (the buddy allocator's blocks are), and
 * without slub_debug s->size is the class size (mm/slub.c 6.18
 * calculate_sizes(); kmalloc caches have no constructor, no RCU and no
 * red zone).  So the frees of one site are grouped by slab, per class
 * size s from the largest down (each class with its own order from the
 * snapshot): a group of at least SS_STRIDE_MIN_GROUP pointers not yet
 * classed, every one at an offset that is a multiple of s below
 * objs_per_slab * s, is of class s.  A group of the smaller class 96
 * fits 192 only when all its pointers sit at even slots: 1 in 2^(n-1) for
 * n pointers drawn from the slab, 3% at the minimum of 6.
 *
 * Which of the class's caches (kmalloc-s, kmalloc-rcl-s, kmalloc-cg-s,
 * dma-kmalloc-s) is still open: the pointer cannot say.  The kernel's
 * before-snapshot bounds it: the site's slabs of class s must be slabs the
 * cache had before the capture, other than those the capture saw holding
 * other objects.  All of a site's class-s slabs go to the one cache with
 * the most such slabs left (one call site frees one kind of object; ties
 * go to the first in the order above), which is then charged with them.
 * That is a likelihood, not a proof: a site whose objects came from the
 * smaller of two caches with room for them is misplaced, and the import
 * says how many frees this rule placed.
 *
 * Each classed free is recorded as of that cache (prior_owner), so that
 * the second pass places it by rule 3, slab ids and all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "kmalloc.h"
#include "sort.h"

/* Families of a kmalloc class, in the order ties go. */
static const uint32_t family_gfp[] = {0, SS_GFP_RECLAIMABLE, SS_GFP_ACCOUNT, SS_GFP_DMA};
#define NR_FAMILIES (sizeof(family_gfp) / sizeof(family_gfp[0]))

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The snapshot cache of class size and family, usable for the rule:
 * plain SLUB geometry (stride = size, no debug), or NULL. */
static const struct ss_snap_cache *family_cache(const struct ss_import_prior *p,
						unsigned size, uint32_t gfp)
{
	char name[SS_IMPORT_CACHE_NAME];
	const struct ss_snap_cache *c;

	ss_import_kmalloc_name(gfp, size, name, sizeof(name));
	c = ss_snap_find(p->snap, name);
	if (!c || c->slab_size != size || c->order > 10 || !c->objs_per_slab ||
	    (c->flags & (SS_SNAP_POISON | SS_SNAP_RED_ZONE | SS_SNAP_STORE_USER)))
		return NULL;
	return c;
}

int ss_import_stride_begin(struct ss_import_stride *s, const struct ss_import_prior *p)
{
	memset(s, 0, sizeof(*s));
	if (!p->snap || !p->snap->nr)
		return 0;
	s->taken = calloc(p->snap->nr, sizeof(*s->taken));
	if (!s->taken)
		return -1;
	/* the slabs the first pass saw holding objects: not free for others */
	for (uint64_t i = 0; i < p->slab_owner.nr_slots; i++) {
		const struct ss_ptr_entry *e = &p->slab_owner.slots[i];
		char name[SS_IMPORT_CACHE_NAME];
		const struct ss_snap_cache *c;

		if (!e->ptr || ss_import_prior_key_cache(p, (uint32_t)e->id, name))
			continue;
		if ((c = ss_snap_find(p->snap, name)))
			s->taken[c - p->snap->caches]++;
	}
	return 0;
}

/* Class the pointers [0, n) (sorted) of one size: mark each group that
 * fits in cls[] (0 = not classed yet).  Returns the groups classed. */
static uint64_t class_groups(const uint64_t *ptr, uint32_t n, unsigned size,
			     const struct ss_snap_cache *c, unsigned *cls)
{
	uint64_t slab = 4096ull << c->order, end = (uint64_t)c->objs_per_slab * size;
	uint64_t groups = 0;

	for (uint32_t i = 0; i < n;) {
		uint64_t base = ptr[i] & ~(slab - 1);
		uint32_t j = i, open = 0;
		bool fits = true;

		for (; j < n && (ptr[j] & ~(slab - 1)) == base; j++) {
			uint64_t off = ptr[j] - base;

			if (cls[j])
				continue;
			open++;
			fits = fits && off % size == 0 && off < end;
		}
		if (fits && open >= SS_STRIDE_MIN_GROUP) {
			for (uint32_t k = i; k < j; k++)
				if (!cls[k])
					cls[k] = size;
			groups++;
		}
		i = j;
	}
	return groups;
}

int ss_import_stride_site(struct ss_import_stride *s, struct ss_import_prior *p,
			  const struct ss_target *t, uint64_t *ptr, uint32_t n)
{
	unsigned *cls;
	int rc = 0;

	if (!s->taken || n < SS_STRIDE_MIN_GROUP)
		return 0;
	cls = calloc(n, sizeof(*cls));
	if (!cls)
		return -1;
	ss_sort(ptr, n, sizeof(*ptr), cmp_u64);
	/* largest class first: a slot of 96 is also a multiple of 32 */
	for (unsigned prev = UINT32_MAX;;) {
		unsigned size = 0;
		const struct ss_snap_cache *plain, *best = NULL;
		uint64_t groups, room = 0;
		uint32_t gfp = 0;
		char key[64];
		uint32_t k;

		for (int i = 0; i < ss_kmalloc_nr_classes(t); i++) {
			unsigned c = ss_kmalloc_class_size(t, i);

			if (ss_kmalloc_class_exists(t, i) && c < prev && c > size)
				size = c;
		}
		if (!size)
			break;
		prev = size;
		plain = family_cache(p, size, 0);
		if (!plain || !(groups = class_groups(ptr, n, size, plain, cls)))
			continue;
		for (unsigned f = 0; f < NR_FAMILIES; f++) {
			const struct ss_snap_cache *c = family_cache(p, size, family_gfp[f]);
			uint64_t left;

			if (!c || (f && c == plain) || c->order != plain->order)
				continue;
			left = c->slabs > s->taken[c - p->snap->caches] ?
				       c->slabs - s->taken[c - p->snap->caches] : 0;
			if (!best || left > room) {
				best = c;
				room = left;
				gfp = family_gfp[f];
			}
		}
		s->taken[best - p->snap->caches] += groups;
		snprintf(key, sizeof(key), "k %u %u", gfp, size);
		if ((k = ss_strtab_intern(&p->keys, key)) == UINT32_MAX) {
			rc = -1;
			break;
		}
		for (uint32_t j = 0; j < n; j++) {
			if (cls[j] != size)
				continue;
			ss_import_prior_place(p, ptr[j], k);
			s->frees++;
		}
		s->slabs += groups;
	}
	free(cls);
	return rc;
}

void ss_import_stride_release(struct ss_import_stride *s)
{
	free(s->taken);
	s->taken = NULL;
}
