/* slab_ids.c - the kernel slab a prior free names (`slab=K`, dense per
 * place), and its death (`d`) when a page free frees its pages.
 *
 * A slab is a raw pointer rounded down to its place's slab size (the
 * snapshot's order).  With --slab-fill, a slab the file lists for its
 * cache is numbered by its place in the listing (the node partial list
 * head first, then each CPU's slabs), taken once per pass: its pages may
 * hold another slab later, which then gets an id after the listing's. */
#include <stdlib.h>
#include <string.h>

#include "import_rules.h"

/* With a slab-fill file: how many ids come before place k's cache's
 * unlisted slabs (its listed slabs' places come first), and *place the id
 * of a listed slab: its place, taken once.  0 otherwise. */
static uint64_t listed_ids(struct ss_import_pass *x, uint64_t base, uint32_t k, uint64_t *place)
{
	const struct ss_import_run *r = x->run;
	const struct ss_snap_cache *sc;
	struct ss_ptr_entry *e;
	int32_t c;

	if (!r->learned.fill || (c = ss_import_place_snap_index(&x->run->places, k)) < 0 ||
	    !(sc = &r->snap.caches[c])->nr_fill)
		return 0;
	if ((e = ss_ptrmap_find((struct ss_ptrmap *)&r->learned.listed, base)) &&
	    e->site == (uint32_t)c && !ss_ptrmap_find(&x->slab_ids.taken, base)) {
		if (!ss_ptrmap_insert(&x->slab_ids.taken, base))
			return 0;
		*place = e->id;
		return 0;
	}
	return sc->nr_fill;
}

uint64_t ss_import_slab_id(struct ss_import_pass *x, uint64_t ptr, uint32_t k)
{
	struct ss_import_slab_ids *s = &x->slab_ids;
	struct ss_ptr_entry *e;
	uint64_t place, before, key;
	int o;

	if (k == SS_IMPORT_NO_PLACE || !x->run->learned.raw || ptr < SS_IMPORT_RAW_MIN ||
	    (o = ss_import_place_order(&x->run->places, k)) < 0)
		return 0;
	key = SS_IMPORT_SLAB_KEY(ptr, o);
	e = ss_ptrmap_find(&s->ids, key);
	if (e)
		return e->id;
	if (k >= s->nr) {
		uint32_t nr = s->nr ? 2 * s->nr : 256;
		uint64_t *n;

		while (nr <= k)
			nr *= 2;
		n = realloc(s->per_place, nr * sizeof(*n));
		if (!n)
			return 0;
		memset(n + s->nr, 0, (nr - s->nr) * sizeof(*n));
		s->per_place = n;
		s->nr = nr;
	}
	e = ss_ptrmap_insert(&s->ids, key);
	if (!e)
		return 0;
	place = 0;
	before = listed_ids(x, key, k, &place);
	e->id = place ? place : before + ++s->per_place[k];
	e->site = k; /* (its place, for ss_import_slab_freed) */
	return e->id;
}

bool ss_import_slab_freed(struct ss_import_pass *x, uint64_t addr, unsigned order,
			  char name[SS_IMPORT_CACHE_NAME], uint64_t *size, uint32_t *gfp,
			  uint64_t *slab)
{
	struct ss_ptr_entry *e;

	if (!x->run->learned.raw || addr & ((4096ull << order) - 1) ||
	    !(e = ss_ptrmap_find(&x->slab_ids.ids, SS_IMPORT_SLAB_KEY(addr, order))))
		return false;
	ss_import_place_decode(&x->run->places, e->site, name, size, gfp);
	*slab = e->id;
	ss_ptrmap_remove(&x->slab_ids.ids, e);
	return true;
}

void ss_import_slab_ids_release(struct ss_import_slab_ids *s)
{
	ss_ptrmap_release(&s->ids);
	ss_ptrmap_release(&s->taken);
	free(s->per_place);
	memset(s, 0, sizeof(*s));
}
