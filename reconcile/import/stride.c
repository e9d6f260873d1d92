/* stride.c - the stride rule: the kmalloc cache of unknown kfree()s no
 * owner rule places, from where raw pointers sit in their slabs (the
 * learn pass's last step; learn.c).
 *
 * kfree() names no cache, and a free call site that never freed an object
 * the capture saw allocated teaches nothing (rule site-share).  A raw
 * pointer says more than a hashed one.  SLUB lays a kmalloc cache's
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
 * other objects.  One call site frees one kind of object, so all of a
 * site's slabs, every class, go to one family (site_family()): the one
 * whose objects the capture saw in most of those slabs after the site's
 * frees, then the one whose caches can hold the most of them, then the
 * one under which the capture's not seeing those slabs is likeliest, then
 * the one with the most such slabs left, then the first in the order
 * above; its caches are then charged with them.  That is a likelihood,
 * not a proof: a site whose objects came from the smaller of two families
 * with room for them is misplaced, and the import says how many frees
 * this rule placed (stride_frees).
 *
 * Each classed free is recorded as of that cache (learned.owner), so that
 * the reading passes place it by rule slab-owner, slab ids and all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_rules.h"
#include "kmalloc.h"
#include "kmalloc_type.h"
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
static const struct ss_snap_cache *family_cache(const struct ss_import_stride *s,
						unsigned size, uint32_t gfp)
{
	char name[SS_IMPORT_CACHE_NAME];
	const struct ss_snap_cache *c;

	ss_import_kmalloc_name(gfp, size, name, sizeof(name));
	c = ss_snap_find(s->snap, name);
	if (!c || c->slab_size != size || c->order > 10 || !c->objs_per_slab ||
	    (c->flags & (SS_SNAP_POISON | SS_SNAP_RED_ZONE | SS_SNAP_STORE_USER)))
		return NULL;
	return c;
}

int ss_import_stride_begin(struct ss_import_stride *s, const struct ss_snap *snap,
			   struct ss_import_places *places, const struct ss_ptrmap *slab_owner,
			   struct ss_ptrmap *owner)
{
	*s = (struct ss_import_stride){.snap = snap, .places = places, .slab_owner = slab_owner,
				       .owner = owner};
	if (!snap || !snap->nr)
		return 0;
	s->taken = calloc(snap->nr, sizeof(*s->taken));
	s->seen = calloc(snap->nr, sizeof(*s->seen));
	if (!s->taken || !s->seen) {
		ss_import_stride_release(s);
		return -1;
	}
	/* the slabs the learn pass saw holding objects: not free for others */
	for (uint64_t i = 0; i < slab_owner->nr_slots; i++) {
		const struct ss_ptr_entry *e = &slab_owner->slots[i];
		char name[SS_IMPORT_CACHE_NAME];
		const struct ss_snap_cache *c;

		if (!e->ptr || !ss_import_place_cache_name(places, (uint32_t)e->id, name))
			continue;
		if ((c = ss_snap_find(snap, name)))
			s->taken[c - snap->caches]++;
	}
	memcpy(s->seen, s->taken, snap->nr * sizeof(*s->seen));
	return 0;
}

/* The snapshot cache of the place the learn pass last saw in the slab of
 * the given order at ptr, or NULL. */
static const struct ss_snap_cache *last_owner(const struct ss_import_stride *s, uint64_t ptr,
					      unsigned order)
{
	struct ss_ptr_entry *e = ss_ptrmap_find((struct ss_ptrmap *)s->slab_owner,
						SS_IMPORT_SLAB_KEY(ptr, order));

	return e && ss_import_place_order(s->places, (uint32_t)e->id) == (int)order
		       ? ss_import_place_snap_cache(s->places, (uint32_t)e->id)
		       : NULL;
}

/* A classed group's slab seen holding another object of its class later
 * in the capture: the family of that object, counted in seen[] (a slab
 * lives on as long as an object is in it, and the site freed only some;
 * its pages may also be a new slab by then, but of the same class). */
static void count_seen(const struct ss_import_stride *s, uint64_t base, unsigned size,
		       const struct ss_snap_cache *c, uint64_t *seen)
{
	const struct ss_snap_cache *o = last_owner(s, base, c->order);

	for (unsigned f = 0; o && f < NR_FAMILIES; f++)
		if (o == family_cache(s, size, family_gfp[f])) {
			seen[f]++;
			return;
		}
}

/* Class the pointers [0, n) (sorted) of one size: mark each group that
 * fits in cls[] (0 = not classed yet), and count in seen[] the families
 * its slab was seen holding later.  Returns the groups classed. */
static uint64_t class_groups(const struct ss_import_stride *s, const uint64_t *ptr, uint32_t n,
			     unsigned size, const struct ss_snap_cache *c, unsigned *cls,
			     uint64_t *seen)
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
			count_seen(s, base, size, c, seen);
			groups++;
		}
		i = j;
	}
	return groups;
}

/* The slabs of family f's class-size cache no one else is known to use
 * (0 without such a cache), and the cache. */
static uint64_t family_room(const struct ss_import_stride *s, unsigned size, unsigned order,
			    unsigned f,
			    const struct ss_snap_cache **cache)
{
	const struct ss_snap_cache *c = family_cache(s, size, family_gfp[f]);
	uint64_t taken;

	*cache = NULL;
	if (!c || (f && c == family_cache(s, size, 0)) || c->order != order)
		return 0; /* (an alias of the plain cache is the plain cache) */
	*cache = c;
	taken = s->taken[c - s->snap->caches];
	return c->slabs > taken ? c->slabs - taken : 0;
}

/* How likely the site's slabs of one class are to have gone unseen if
 * they were cache c's: the learn pass saw `seen` of c's `slabs` holding
 * objects, so each of c's slabs is seen with probability q = (seen + 1)
 * / (slabs + 2) (Laplace's rule of succession: no constant of ours), and
 * of the site's `groups` slabs `in` were seen as c's and the rest not.
 * Returns the log-likelihood. */
static double unseen_log_likelihood(uint64_t seen, uint64_t slabs, uint64_t groups, uint64_t in)
{
	double q = (double)((seen < slabs ? seen : slabs) + 1) / (double)(slabs + 2);

	if (in > groups)
		in = groups;
	return (double)in * log(q) + (double)(groups - in) * log1p(-q);
}

/* The family of a site's classed slabs, all classes at once: one call
 * site frees one kind of object, so its classes share a type.  The
 * family whose objects the capture saw in most of those slabs after the
 * site's frees, then the one whose caches can hold the most of them
 * (summed over its classes: min(room, slabs), a slab seen being the
 * site's, not another's), then the one under which the site's slabs
 * going unseen is likeliest (unseen_log_likelihood(), summed over the
 * classes), then the one with the most room, then the first.
 *
 * Why the likelihood: a family whose slabs the capture uses is one whose
 * slabs it would have seen.  Room alone sends a site's slabs to the
 * larger family whenever both could hold them all, even when the capture
 * saw many of that family's slabs hold other objects and none of the
 * other's. */
static unsigned site_family(const struct ss_import_stride *s, const unsigned *size,
			    const unsigned *order, const uint64_t *groups,
			    const uint64_t (*seen)[NR_FAMILIES], unsigned nr)
{
	unsigned best = 0;
	uint64_t best_seen = 0, best_held = 0, best_room = 0;
	double best_ll = 0;

	for (unsigned f = 0; f < NR_FAMILIES; f++) {
		uint64_t held = 0, room = 0, in = 0;
		double ll = 0;

		for (unsigned i = 0; i < nr; i++) {
			const struct ss_snap_cache *c;
			uint64_t left = family_room(s, size[i], order[i], f, &c);

			if (c) {
				left += seen[i][f];
				ll += unseen_log_likelihood(s->seen[c - s->snap->caches], c->slabs,
							    groups[i], seen[i][f]);
			} else {
				ll = -INFINITY; /* no such cache: none of its slabs */
			}
			held += left < groups[i] ? left : groups[i];
			room += left;
			in += seen[i][f];
		}
		if (!f || in > best_seen || (in == best_seen && held > best_held) ||
		    (in == best_seen && held == best_held && ll > best_ll) ||
		    (in == best_seen && held == best_held && ll == best_ll && room > best_room)) {
			best = f;
			best_seen = in;
			best_held = held;
			best_ll = ll;
			best_room = room;
		}
	}
	return best;
}

/* The family (index in family_gfp[]) of kmalloc flags gfp: the first
 * whose flags kmalloc_type() sends where it sends gfp's on target t
 * (ss_kmalloc_gfp_type: DMA over reclaimable over accounted, per era). */
static unsigned family_of(const struct ss_target *t, uint32_t gfp)
{
	unsigned type = ss_kmalloc_gfp_type(t, gfp);

	for (unsigned f = 0; f < NR_FAMILIES; f++)
		if (ss_kmalloc_gfp_type(t, family_gfp[f]) == type)
			return f;
	return 0;
}

int ss_import_stride_site(struct ss_import_stride *s, const struct ss_target *t, uint64_t *ptr,
			  uint32_t n, int64_t gfp_seen)
{
	unsigned *cls, size[SS_STRIDE_MAX_CLASSES], order[SS_STRIDE_MAX_CLASSES], nr = 0, f;
	uint64_t groups[SS_STRIDE_MAX_CLASSES], seen[SS_STRIDE_MAX_CLASSES][NR_FAMILIES] = {{0}};
	int rc = 0;

	if (!s->taken || n < SS_STRIDE_MIN_GROUP)
		return 0;
	cls = calloc(n, sizeof(*cls));
	if (!cls)
		return -1;
	ss_sort(ptr, n, sizeof(*ptr), cmp_u64);
	/* largest class first: a slot of 96 is also a multiple of 32 */
	for (unsigned prev = UINT32_MAX; nr < SS_STRIDE_MAX_CLASSES;) {
		const struct ss_snap_cache *plain;
		unsigned sz = 0;

		for (int i = 0; i < ss_kmalloc_nr_classes(t); i++) {
			unsigned c = ss_kmalloc_class_size(t, i);

			if (ss_kmalloc_class_exists(t, i) && c < prev && c > sz)
				sz = c;
		}
		if (!sz)
			break;
		prev = sz;
		plain = family_cache(s, sz, 0);
		if (!plain || !(groups[nr] = class_groups(s, ptr, n, sz, plain, cls, seen[nr])))
			continue;
		size[nr] = sz;
		order[nr++] = plain->order;
	}
	f = gfp_seen >= 0 ? family_of(t, (uint32_t)gfp_seen)
			  : site_family(s, size, order, groups, (const uint64_t(*)[NR_FAMILIES])seen, nr);
	for (unsigned i = 0; i < nr && !rc; i++) {
		const struct ss_snap_cache *c;
		uint32_t k, gfp = family_gfp[f];

		family_room(s, size[i], order[i], f, &c);
		if (!c) { /* the family has no such cache: the plain one */
			gfp = 0;
			c = family_cache(s, size[i], 0);
		}
		s->taken[c - s->snap->caches] += groups[i];
		if ((k = ss_import_place_kmalloc(s->places, gfp, size[i])) == SS_IMPORT_NO_PLACE) {
			rc = -1;
			break;
		}
		for (uint32_t j = 0; j < n; j++) {
			struct ss_ptr_entry *e;

			if (cls[j] != size[i])
				continue;
			if ((e = ss_ptrmap_find(s->owner, ptr[j])))
				e->id = (uint64_t)k + 1;
			s->frees++;
		}
		s->slabs += groups[i];
	}
	free(cls);
	return rc;
}

void ss_import_stride_release(struct ss_import_stride *s)
{
	free(s->taken);
	free(s->seen);
	s->taken = s->seen = NULL;
}
