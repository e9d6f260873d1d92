/* cpuslab.c - how many free slots each CPU's active slab had when the
 * capture began, from raw pointers (the learn pass; docs/import.md, "The
 * CPU slabs' free slots at the start").
 *
 * SLUB's `objects` counts the free slots of CPU slabs as objects in use
 * (mm/slub.c 6.18 show_slab_objects(): total objects less the free ones
 * on node partial lists), so a replay that starts a cache from the
 * kernel's snapshot must also guess how many of its CPU slabs' slots
 * were free: the snapshot cannot say, and slab_prior.c guesses half (the
 * estimate slabs_cpu_partial_show() makes).  A capture with raw pointers
 * says it for the slab a CPU allocates from first: ___slab_alloc() hands
 * out the active slab's free objects before it takes another slab, so
 * the allocations the CPU makes from its first slab until it allocates
 * from another are the free slots the slab had at the start plus the
 * objects freed into it meanwhile (by any CPU: a local free goes to the
 * CPU freelist, a remote one to the slab's, and both are handed out
 * again before the slab is left).
 *
 * A CPU that never leaves its first slab gives a lower bound only (the
 * allocations less the frees: the slab may have more slots left at the
 * end).  Caches with sheaves (6.18 sheaf_capacity) hand out objects from
 * the sheaves first, and caches of order above SS_CPUSLAB_MAX_ORDER are
 * left out: frees are counted per slab for those orders only, whatever
 * their cache (an unknown kfree() names none). */
#include <stdlib.h>
#include <string.h>

#include "import_rules.h"

/* a state's key: cache index + 1 and CPU (never 0) */
#define STATE_KEY(cache, cpu) (((uint64_t)(cache) + 1) << 20 | (cpu))

enum { TRACKING, EXACT };

int ss_import_cpuslab_free(struct ss_import_cpuslab *cs, uint64_t ptr)
{
	if (ptr < SS_IMPORT_RAW_MIN)
		return 0;
	for (unsigned o = 0; o <= SS_CPUSLAB_MAX_ORDER; o++) {
		struct ss_ptr_entry *e = ss_ptrmap_find(&cs->frees, SS_IMPORT_SLAB_KEY(ptr, o));

		if (!e && !(e = ss_ptrmap_insert(&cs->frees, SS_IMPORT_SLAB_KEY(ptr, o))))
			return -1;
		e->id++;
	}
	return 0;
}

static uint64_t frees_into(struct ss_import_cpuslab *cs, uint64_t slab)
{
	struct ss_ptr_entry *e = ss_ptrmap_find(&cs->frees, slab);

	return e ? e->id : 0;
}

/* What the state says: allocations less frees, 0 at least. */
static uint32_t free_slots(struct ss_import_cpuslab *cs, const struct ss_ptr_entry *st)
{
	uint64_t f = frees_into(cs, st->id);

	return st->bytes_alloc > f ? (uint32_t)(st->bytes_alloc - f) : 0;
}

int ss_import_cpuslab_alloc(struct ss_import_cpuslab *cs, const struct ss_snap *snap,
			    const struct ss_snap_cache *c, unsigned cpu, uint64_t ptr)
{
	struct ss_ptr_entry *st;
	uint64_t slab, key;

	if (ptr < SS_IMPORT_RAW_MIN || c->order > SS_CPUSLAB_MAX_ORDER || c->sheaf_capacity ||
	    cpu >= SS_SNAP_MAX_CPUS)
		return 0;
	slab = SS_IMPORT_SLAB_KEY(ptr, c->order);
	key = STATE_KEY(c - snap->caches, cpu);
	st = ss_ptrmap_find(&cs->states, key);
	if (!st) {
		if (!(st = ss_ptrmap_insert(&cs->states, key)))
			return -1;
		st->id = slab;
		st->bytes_alloc = 1;
		st->cpu = TRACKING;
		return 0;
	}
	if (st->cpu != TRACKING)
		return 0;
	if (st->id == slab) {
		st->bytes_alloc++;
		return 0;
	}
	st->site = free_slots(cs, st); /* it left its first slab */
	st->cpu = EXACT;
	return 0;
}

static int by_key(const void *a, const void *b)
{
	const struct ss_ptr_entry *x = *(const struct ss_ptr_entry *const *)a;
	const struct ss_ptr_entry *y = *(const struct ss_ptr_entry *const *)b;

	return x->ptr < y->ptr ? -1 : x->ptr > y->ptr;
}

int ss_import_cpuslab_meta(struct ss_import_cpuslab *cs, const struct ss_snap *snap,
			   char *buf, size_t n)
{
	struct ss_ptr_entry **v = malloc((cs->states.live ? cs->states.live : 1) * sizeof(*v));
	size_t nv = 0, len = 0;

	if (!v)
		return -1;
	for (uint64_t i = 0; i < cs->states.nr_slots; i++)
		if (cs->states.slots[i].ptr)
			v[nv++] = &cs->states.slots[i];
	qsort(v, nv, sizeof(*v), by_key);
	buf[0] = '\0';
	for (size_t i = 0; i < nv; i++) {
		const struct ss_snap_cache *c = &snap->caches[(v[i]->ptr >> 20) - 1];
		unsigned cpu = (unsigned)(v[i]->ptr & 0xfffff);
		bool exact = v[i]->cpu == EXACT;
		uint32_t f = exact ? v[i]->site : free_slots(cs, v[i]);
		int w;

		if (f > c->objs_per_slab)
			f = c->objs_per_slab;
		w = snprintf(buf + len, n - len, "%s%s:%u:%u%s", len ? " " : "", c->name, cpu, f,
			     exact ? "" : "+");
		if (w < 0 || (size_t)w >= n - len) { /* full: the caches so far */
			buf[len] = '\0';
			break;
		}
		len += (size_t)w;
	}
	free(v);
	return 0;
}

void ss_import_cpuslab_release(struct ss_import_cpuslab *cs)
{
	ss_ptrmap_release(&cs->frees);
	ss_ptrmap_release(&cs->states);
}
