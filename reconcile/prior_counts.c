/* prior_counts.c - frees per kernel slab of a trace's prior frees
 * (prior_counts.h): open addressing over (cache, class, flags, slab). */
#include "prior_counts.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "slab_vector.h"

static uint64_t hash_of(uint64_t slab, uint64_t value, uint32_t api, uint32_t gfp)
{
	uint64_t x = slab * 0x9e3779b97f4a7c15ull ^ value * 0xc2b2ae3d27d4eb4full ^
		     ((uint64_t)api << 8 | gfp) * 0x165667b19e3779f9ull;

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 29);
}

/* The slot of (slab, ev's cache) in table t: its entry, or the empty
 * slot it goes to. */
static struct ss_prior_count *slot(const struct ss_prior_table *t, uint64_t slab,
				   const struct ss_event *ev)
{
	uint64_t value = ev->api == SS_API_KMALLOC ? ev->value : 0;

	for (uint64_t i = hash_of(slab, value, ev->api, ev->gfp) & (t->cap - 1);;
	     i = (i + 1) & (t->cap - 1)) {
		struct ss_prior_count *e = &t->e[i];

		if (!e->slab || (e->slab == slab && e->value == value && e->api == ev->api &&
				 e->gfp == ev->gfp))
			return e;
	}
}

/* Room in t for one more entry (load under one half); -1 out of memory. */
static int make_room(struct ss_prior_table *t)
{
	struct ss_prior_table bigger = {.cap = t->cap ? 2 * t->cap : 1024, .nr = t->nr};

	if ((t->nr + 1) * 2 <= t->cap)
		return 0;
	bigger.e = calloc(bigger.cap, sizeof(*bigger.e));
	if (!bigger.e)
		return -1;
	for (uint64_t i = 0; i < t->cap; i++) {
		struct ss_prior_count *e = &t->e[i];
		struct ss_event ev = {.value = e->value, .api = e->api, .gfp = e->gfp};

		if (e->slab)
			*slot(&bigger, e->slab, &ev) = *e;
	}
	free(t->e);
	*t = bigger;
	return 0;
}

/* The entry of (slab, ev's cache) in t, made when new; NULL out of memory. */
static struct ss_prior_count *entry(struct ss_prior_table *t, uint64_t slab,
				    const struct ss_event *ev)
{
	struct ss_prior_count *e;

	if (make_room(t))
		return NULL;
	e = slot(t, slab, ev);
	if (!e->slab) {
		*e = (struct ss_prior_count){.slab = slab, .api = ev->api, .gfp = ev->gfp,
					     .value = ev->api == SS_API_KMALLOC ? ev->value : 0};
		t->nr++;
	}
	return e;
}

int ss_prior_counts_add(struct ss_prior_counts *pc, const struct ss_event *ev)
{
	struct ss_prior_count *e;

	if (ev->kind != SS_EV_FREE_PRIOR || !ev->id)
		return 0;
	if (!(e = entry(&pc->slabs, ev->id, ev)))
		return -1;
	if (!e->n++) { /* a new kernel slab of its cache */
		struct ss_prior_count *c = entry(&pc->caches, 1, ev);

		if (!c)
			return -1;
		c->n++;
	}
	return 0;
}

/* ev's kernel slab's entry, seen freed; -1 out of memory.  Its cache's
 * entry in pc->caches (slab 1) counts the deaths. */
static int note_dead(struct ss_prior_counts *pc, const struct ss_event *ev)
{
	struct ss_prior_count *e = slot(&pc->slabs, ev->id, ev), *c;

	if (!e->slab || e->dead)
		return 0;
	if (!(c = entry(&pc->caches, 1, ev)))
		return -1;
	e->dead = e->n;
	c->dead++;
	pc->deaths++;
	return 0;
}

/* (slab, ev's cache)'s entry in t when ev is a prior free with a slab
 * and t has it, else NULL. */
static const struct ss_prior_count *lookup(const struct ss_prior_table *t, uint64_t slab,
					    const struct ss_event *ev)
{
	const struct ss_prior_count *e;

	if (!t->cap || ev->kind != SS_EV_FREE_PRIOR || !ev->id)
		return NULL;
	e = slot(t, slab, ev);
	return e->slab ? e : NULL;
}

static const struct ss_prior_count *find(const struct ss_prior_counts *pc,
					  const struct ss_event *ev)
{
	return pc ? lookup(&pc->slabs, ev->id, ev) : NULL;
}

static const struct ss_prior_count *cache_of(const struct ss_prior_counts *pc,
					      const struct ss_event *ev)
{
	return pc ? lookup(&pc->caches, 1, ev) : NULL;
}

uint32_t ss_prior_counts_get(const struct ss_prior_counts *pc, const struct ss_event *ev)
{
	const struct ss_prior_count *e = find(pc, ev);

	return e ? e->n : 0;
}

uint32_t ss_prior_counts_dead(const struct ss_prior_counts *pc, const struct ss_event *ev)
{
	const struct ss_prior_count *e = find(pc, ev);

	return e ? e->dead : 0;
}

uint32_t ss_prior_counts_held(const struct ss_prior_counts *pc, const struct ss_event *ev)
{
	const struct ss_prior_count *e = find(pc, ev), *c;

	if (!e)
		return 0;
	if (e->dead)
		return e->n;
	/* not seen freed, in a cache whose slabs the trace sees die: K
	 * outlived its prior frees, an object left.  In a cache it sees none
	 * of die (no vectors: a plain kmalloc cache, one never accounted)
	 * nothing says K outlived them: at least what it gave. */
	c = cache_of(pc, ev);
	return e->n + (c && c->dead);
}

/* CPU cpu's last event, the table grown to it; NULL when out of memory. */
static struct ss_event *last_of(struct ss_prior_counts *pc, unsigned cpu)
{
	if (cpu >= pc->nr_last &&
	    ss_grow_zeroed((void **)&pc->last, &pc->nr_last, cpu, sizeof(*pc->last), 16))
		return NULL;
	return &pc->last[cpu];
}

int ss_prior_counts_note(struct ss_prior_counts *pc, const struct ss_event *ev,
			 const char *site, unsigned cflags)
{
	struct ss_event *last;

	if (ev->kind == SS_EV_PHASE)
		return 0; /* (no CPU of its own) */
	/* The capture saw K's pages freed (a capture with mm_page_free,
	 * docs/import.md): K is empty then, so every object it held from
	 * before the trace was freed by then, by a prior free naming K.  Not
	 * a CPU's next event for the vector rule below: __free_slab() frees
	 * the vector (free_slab_obj_exts()) before the pages. */
	if (ev->kind == SS_EV_SLAB_FREED) {
		pc->page_deaths = true;
		return pc->slabs.cap ? note_dead(pc, ev) : 0; /* (no prior free yet: not K) */
	}
	if (!(last = last_of(pc, ev->cpu)))
		return -1;
	if (ev->kind == SS_EV_FREE_PRIOR && ev->api == SS_API_KMALLOC &&
	    ss_site_frees_slab_vector(site)) {
		if (last->id && note_dead(pc, last))
			return -1;
		/* Never K itself for the next vector's free: a vector's own
		 * slab has no vector whose free could follow (alloc_slab_obj_exts()
		 * clears __GFP_ACCOUNT and sets __GFP_NO_OBJ_EXT, 6.10+: it goes to a
		 * plain kmalloc slab, which no accounted object gets into), so
		 * a vector freed right after a vector is another slab's, freed
		 * with no event for its own last object (a sheaf or bulk free),
		 * never K's death (test_slab_prior.c test_prior_counts_caches). */
		last->id = 0;
		return ss_prior_counts_add(pc, ev);
	}
	if (ss_prior_counts_add(pc, ev))
		return -1;
	*last = *ev;
	/* A SLAB_TYPESAFE_BY_RCU cache's empty slab is freed by an RCU
	 * callback, a grace period later (free_slab() -> call_rcu(...,
	 * rcu_free_slab) -> __free_slab(), mm/slub.c 6.18): the vector kfree
	 * after one of its frees is another slab's, and its own deaths are
	 * not seen: none is taken for one, or the +1 of
	 * ss_prior_counts_held would keep an object in every other slab of
	 * the cache (test_slab_prior.c test_prior_counts_rcu_not_dead). */
	if (ev->kind != SS_EV_FREE_PRIOR || (cflags & SS_CF_RCU))
		last->id = 0;
	return 0;
}

/* The cache entry of kernel slab entry e, and e's ss_prior_counts_held. */
static struct ss_prior_count *cache_and_held(struct ss_prior_counts *pc,
					     const struct ss_prior_count *e, uint32_t *held)
{
	struct ss_event ev = {.kind = SS_EV_FREE_PRIOR, .id = e->slab, .value = e->value,
			      .api = e->api, .gfp = e->gfp};
	struct ss_prior_count *c = slot(&pc->caches, 1, &ev); /* (ss_prior_counts_add made it) */

	*held = ss_prior_counts_held(pc, &ev);
	return c->slab ? c : NULL;
}

/* Where held h counts in by_held: up to SS_PRIOR_HELD_MAX.  No slab holds
 * more objects (slab_prior.c takes a snapshot's objs_per_slab up to
 * UINT16_MAX; SLUB's own limit is MAX_OBJS_PER_PAGE, 32767), so a bigger
 * count says no more, and the counts stay small whatever the trace. */
#define SS_PRIOR_HELD_MAX 65536u
static uint32_t held_at(uint32_t h)
{
	return h < SS_PRIOR_HELD_MAX ? h : SS_PRIOR_HELD_MAX;
}

int ss_prior_counts_finish(struct ss_prior_counts *pc)
{
	for (uint64_t i = 0; i < pc->caches.cap; i++) {
		struct ss_prior_count *c = &pc->caches.e[i];

		c->held = 0;
		free(c->by_held);
		c->by_held = NULL;
		c->nr_by_held = 0;
	}
	/* the largest held per cache, then a count by held, then the suffix
	 * sums (at least h) */
	for (uint64_t i = 0; i < pc->slabs.cap; i++) {
		struct ss_prior_count *c;
		uint32_t h;

		if (pc->slabs.e[i].slab && (c = cache_and_held(pc, &pc->slabs.e[i], &h))) {
			c->held += h;
			if (held_at(h) + 1 > c->nr_by_held)
				c->nr_by_held = held_at(h) + 1;
		}
	}
	for (uint64_t i = 0; i < pc->caches.cap; i++) {
		struct ss_prior_count *c = &pc->caches.e[i];

		if (c->slab && !(c->by_held = calloc(c->nr_by_held, sizeof(*c->by_held))))
			return -1;
	}
	for (uint64_t i = 0; i < pc->slabs.cap; i++) {
		struct ss_prior_count *c;
		uint32_t h;

		if (pc->slabs.e[i].slab && (c = cache_and_held(pc, &pc->slabs.e[i], &h)))
			c->by_held[held_at(h)]++;
	}
	for (uint64_t i = 0; i < pc->caches.cap; i++) {
		struct ss_prior_count *c = &pc->caches.e[i];

		for (uint32_t h = c->nr_by_held; h-- > 1;)
			c->by_held[h - 1] += c->by_held[h];
	}
	return 0;
}

void ss_prior_counts_about(const struct ss_prior_counts *pc, const struct ss_event *ev,
			   struct ss_kslab_info *out)
{
	const struct ss_prior_count *c = cache_of(pc, ev);

	*out = (struct ss_kslab_info){.kslab = (uint32_t)ev->id, .src_api = ev->api,
				      .src_gfp = ev->gfp,
				      .src_value = ev->api == SS_API_KMALLOC ? ev->value : 0};
	if (!find(pc, ev))
		return; /* (no counts for K: it maps by draws alone) */
	out->frees = find(pc, ev)->n;
	out->held = ss_prior_counts_held(pc, ev);
	out->dead = ss_prior_counts_dead(pc, ev);
	out->outlived = !out->dead && (out->held > out->frees || pc->page_deaths);
	if (c) {
		out->cache_held = c->held;
		out->cache_kslabs = c->n;
		out->by_held = c->by_held;
		out->nr_by_held = c->nr_by_held;
	}
}

/* The SS_CF_* flags of ev's cache (0 for kmalloc: no kmalloc cache is
 * RCU). */
static unsigned cache_flags(const struct ss_trace_tables *tb, const struct ss_event *ev)
{
	if (ev->kind != SS_EV_FREE_PRIOR || ev->api == SS_API_KMALLOC ||
	    ev->api >= tb->cache_names.nr)
		return 0;
	return tb->caches[ev->api].flags;
}

int ss_prior_counts_scan(const char *path, struct ss_prior_counts *pc, struct ss_error *err)
{
	struct ss_trace_reader *r;
	struct ss_event ev;
	int rc;

	if (ss_trace_open(&r, path, err))
		return -1;
	while ((rc = ss_trace_next(r, &ev, err)) == 1)
		if (ss_prior_counts_note(pc, &ev, ev.kind == SS_EV_FREE_PRIOR ?
					 ss_trace_name(ss_trace_tables(r), ev.site) : NULL,
					 cache_flags(ss_trace_tables(r), &ev))) {
			rc = ss_errorf(err, "out of memory");
			break;
		}
	/* (the import's meta, after the events: the page frees could name
	 * every kernel slab that died, whether or not one did) */
	if (rc == 0 && ss_trace_meta(ss_trace_tables(r), "page_base"))
		pc->page_deaths = true;
	ss_trace_close(r);
	if (rc < 0)
		return -1;
	if (ss_prior_counts_finish(pc))
		return ss_errorf(err, "out of memory");
	return 0;
}

void ss_prior_counts_release(struct ss_prior_counts *pc)
{
	free(pc->slabs.e);
	for (uint64_t i = 0; i < pc->caches.cap; i++)
		free(pc->caches.e[i].by_held);
	free(pc->caches.e);
	free(pc->last);
	memset(pc, 0, sizeof(*pc));
}

int ss_prior_counts_take(struct ss_prior_counts *pc, const struct ss_event *ev,
			 const struct ss_trace_tables *tb)
{
	return ss_prior_counts_note(pc, ev, ev->kind == SS_EV_FREE_PRIOR ?
				    ss_trace_name(tb, ev->site) : NULL, cache_flags(tb, ev));
}

int ss_prior_counts_end(struct ss_prior_counts *pc, const struct ss_trace_tables *tb)
{
	if (ss_trace_meta(tb, "page_base"))
		pc->page_deaths = true;
	return ss_prior_counts_finish(pc);
}
