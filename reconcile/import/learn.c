/* learn.c - the learn pass: what the whole capture tells about the frees
 * it cannot explain, before any of them is written (README.md, passes).
 *
 * A free of a pointer the capture never saw allocated is of an object
 * from before the capture, unless the kernel allocated it without an
 * event.  The pass finds, over the whole capture:
 *
 *  - per free call site, where the objects it freed and the capture saw
 *    allocated were (kmalloc class and flags, or cache): the site-share
 *    rule sends its unknown frees there in those shares;
 *  - the pointers freed twice with no allocation between: allocated
 *    without an event (rule again), never frees of objects from before;
 *  - with raw pointers and the snapshot, the cache each unknown kfree()'s
 *    slab held when it was freed (the owner rules below, then the stride
 *    rule, stride.c): the slab-owner rule places the free there;
 *  - the first allocation record of each cache (a free may have to
 *    declare it), the direct map's base (pagefree.c) and the CPU slabs'
 *    free slots at the start (cpuslab.c).
 *
 * A slab is an object's address rounded down to its cache's slab size
 * (PAGE_SIZE << order from the snapshot; slab pages come from the buddy
 * allocator, aligned to their order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "import_rules.h"
#include "kmalloc.h"
#include "kmalloc_type.h"
#include "slab_vector.h"

/* A site's unknown kfree()s of raw pointers whose owner no rule found:
 * the stride rule's candidates. */
struct site_unknown {
	uint64_t *ptr;
	uint32_t nr, cap;
};

struct learner {
	struct ss_import_learned *l;
	struct ss_import_places *places;
	const struct ss_snap *snap;
	const struct ss_target *t;
	const struct ss_ptrmap *walk;
	struct ss_ptrmap map, dead; /* live pointers -> place; freed, not since allocated */
	struct ss_ptrmap slab_owner; /* slab base | order -> the place last seen there */
	struct site_unknown *unk;    /* parallel to l->sites */
	uint32_t cap_unk;
	/* per CPU: the place of the object its last kfree() freed, when the
	 * capture saw it allocated; SS_IMPORT_NO_PLACE otherwise */
	uint32_t *last_kfree;
	uint32_t nr_cpus;
};

static struct ss_import_site *site_slot(struct ss_import_learned *l, const char *site,
					uint32_t *idx)
{
	uint32_t i = ss_strtab_intern(&l->sites, site);

	if (i == UINT32_MAX)
		return NULL;
	if (i >= l->cap_site) {
		uint32_t cap = l->cap_site ? 2 * l->cap_site : 256;
		struct ss_import_site *s = realloc(l->site, cap * sizeof(*s));

		if (!s)
			return NULL;
		memset(s + l->cap_site, 0, (cap - l->cap_site) * sizeof(*s));
		l->site = s;
		l->cap_site = cap;
	}
	if (idx)
		*idx = i;
	return &l->site[i];
}

static int count(struct ss_import_site *s, uint32_t key)
{
	for (uint32_t i = 0; i < s->nr; i++) {
		if (s->c[i].key == key) {
			s->c[i].n++;
			s->total++;
			return 0;
		}
	}
	if (s->nr == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 4;
		struct ss_import_share *c = realloc(s->c, cap * sizeof(*c));

		if (!c)
			return -1;
		s->c = c;
		s->cap = cap;
	}
	s->c[s->nr++] = (struct ss_import_share){key, 1};
	s->total++;
	return 0;
}

/* The first record of each cache: the import may have to declare one at
 * a free, before any allocation from it. */
static int note_cache(struct ss_import_learned *l, const struct ss_target *t,
		      const struct ss_kmem_rec *rec)
{
	char name[SS_IMPORT_CACHE_NAME];
	uint32_t i, nr = l->caches.nr;

	if (ss_import_cache_name(t, rec, name))
		return 0;
	i = ss_strtab_intern(&l->caches, name);
	if (i == UINT32_MAX)
		return -1;
	if (i < nr)
		return 0;
	if (i >= l->cap_caches) {
		uint32_t cap = l->cap_caches ? 2 * l->cap_caches : 64;
		struct ss_kmem_rec *r = realloc(l->first, cap * sizeof(*r));

		if (!r)
			return -1;
		l->first = r;
		l->cap_caches = cap;
	}
	l->first[i] = *rec;
	l->first[i].call_site = l->first[i].name = NULL;
	return 0;
}

/* A free of a pointer not live: a second free since its last allocation
 * event marks it as allocated without events. */
static int learn_dead(struct learner *ln, uint64_t ptr)
{
	if (!ss_ptrmap_find(&ln->dead, ptr))
		return ss_ptrmap_insert(&ln->dead, ptr) ? 0 : -1;
	if (ss_ptrmap_find(&ln->l->untraced, ptr))
		return 0;
	return ss_ptrmap_insert(&ln->l->untraced, ptr) ? 0 : -1;
}

/* Slab -> the place it was last seen holding. */
static int note_slab(struct learner *ln, uint64_t ptr, uint32_t k)
{
	struct ss_ptr_entry *e;
	int o;

	if (!ln->l->raw)
		return 0;
	o = ss_import_place_order(ln->places, k);
	if (o < 0)
		return 0;
	e = ss_ptrmap_find(&ln->slab_owner, SS_IMPORT_SLAB_KEY(ptr, o));
	if (!e && !(e = ss_ptrmap_insert(&ln->slab_owner, SS_IMPORT_SLAB_KEY(ptr, o))))
		return -1;
	e->id = k;
	return 0;
}

/* ---- the owner rules ----
 *
 * An unknown kfree() of a raw pointer: the cache its slab held when the
 * object was freed.  Only what came before the free counts: an object
 * from before the capture, live until now, kept its slab alive from
 * before the capture until now, so every event in that slab so far was
 * in that slab; an event after the free may be in a new slab on the same
 * pages (reclaim frees slabs and other caches take the pages).  Asked in
 * order; what none knows is a candidate for the stride rule. */

/* seen: an event named the slab's cache before the free (an allocation,
 * a free of an object the capture saw allocated, a kmem_cache_free that
 * names its cache). */
static uint32_t owner_seen(struct learner *ln, const struct ss_kmem_rec *rec)
{
	for (int o = 0; o <= 10; o++) {
		struct ss_ptr_entry *e = ss_ptrmap_find(&ln->slab_owner,
							SS_IMPORT_SLAB_KEY(rec->ptr, o));

		if (e && ss_import_place_order(ln->places, (uint32_t)e->id) == o)
			return (uint32_t)e->id;
	}
	return SS_IMPORT_NO_PLACE;
}

/* listed: the slab-fill file, read before the capture, listed the slab
 * in a cache: the object, live until this free, kept its slab alive from
 * the listing until now. */
static uint32_t owner_listed(struct learner *ln, const struct ss_kmem_rec *rec)
{
	for (int o = 0; ln->l->fill && o <= 10; o++) {
		struct ss_ptr_entry *e = ss_ptrmap_find(&ln->l->listed,
							SS_IMPORT_SLAB_KEY(rec->ptr, o));

		if (e && ln->snap->caches[e->site].order == (unsigned)o) {
			uint32_t k = ss_import_place_of_snap_cache(ln->places, (uint32_t)e->site);

			ln->l->listed_frees += k != SS_IMPORT_NO_PLACE;
			return k;
		}
	}
	return SS_IMPORT_NO_PLACE;
}

/* vector: a freed slab's obj_exts vector kfree()d right after a kfree()
 * of an object the capture saw allocated.  That kfree emptied the slab
 * (as a kmem_cache_free does for rule objext, which this completes): the
 * vector's class is that object's cache's objects per slab times
 * SS_OBJEXT_BYTES (mm/slub.c 6.18 alloc_slab_obj_exts(),
 * free_slab_obj_exts()).  Not for SLAB_TYPESAFE_BY_RCU caches, whose
 * slabs are freed a grace period later (rcu_free_slab()). */
static uint32_t owner_vector(struct learner *ln, const struct ss_kmem_rec *rec)
{
	const struct ss_snap_cache *c;
	uint32_t k;
	int idx;

	if (!ss_site_frees_slab_vector(rec->call_site) || rec->cpu >= ln->nr_cpus ||
	    ln->last_kfree[rec->cpu] == SS_IMPORT_NO_PLACE ||
	    !(c = ss_import_place_snap_cache(ln->places, ln->last_kfree[rec->cpu])) ||
	    !c->objs_per_slab || (c->flags & SS_SNAP_RCU) ||
	    (idx = ss_kmalloc_index(ln->t, (size_t)c->objs_per_slab * SS_OBJEXT_BYTES)) < 0)
		return SS_IMPORT_NO_PLACE;
	k = ss_import_place_kmalloc(ln->places, 0, ss_kmalloc_class_size(ln->t, idx));
	ln->l->vector_frees += k != SS_IMPORT_NO_PLACE;
	return k;
}

static const struct owner_rule {
	const char *name;
	uint32_t (*owner)(struct learner *ln, const struct ss_kmem_rec *rec);
} owner_rules[] = {
	{"seen", owner_seen},
	{"listed", owner_listed},
	{"vector", owner_vector},
};

/* An unknown kfree() of a raw pointer at its site: its owner, by the
 * owner rules, into learned.owner; the stride rule's candidate when none
 * knows it. */
static int note_unknown_kfree(struct learner *ln, const struct ss_kmem_rec *rec)
{
	uint32_t k = SS_IMPORT_NO_PLACE, i;
	struct ss_ptr_entry *e;
	struct site_unknown *u;

	for (size_t r = 0; r < sizeof(owner_rules) / sizeof(owner_rules[0]); r++)
		if ((k = owner_rules[r].owner(ln, rec)) != SS_IMPORT_NO_PLACE)
			break;
	e = ss_ptrmap_find(&ln->l->owner, rec->ptr);
	if (!e && !(e = ss_ptrmap_insert(&ln->l->owner, rec->ptr)))
		return -1;
	e->id = k == SS_IMPORT_NO_PLACE ? 0 : (uint64_t)k + 1;
	if (k != SS_IMPORT_NO_PLACE)
		return 0;
	if (!site_slot(ln->l, rec->call_site, &i))
		return -1;
	if (i >= ln->cap_unk &&
	    ss_grow_zeroed((void **)&ln->unk, &ln->cap_unk, i, sizeof(*ln->unk), 256))
		return -1;
	u = &ln->unk[i];
	if (u->nr == u->cap) {
		uint32_t cap = u->cap ? 2 * u->cap : 16;
		uint64_t *p = realloc(u->ptr, cap * sizeof(*p));

		if (!p)
			return -1;
		u->ptr = p;
		u->cap = cap;
	}
	u->ptr[u->nr++] = rec->ptr;
	return 0;
}

/* A kmem_cache_free naming its cache (6.1+) of an object from before the
 * capture: the object kept its slab alive from before the capture until
 * this free, so the slab held that cache -- as sure as an allocation
 * seen in it, and the same for a later unknown kfree() in that slab
 * (owner_seen).  kfree() takes any slab object since 6.4, so a cache's
 * objects may leave by both. */
static int note_named_prior(struct learner *ln, const struct ss_kmem_rec *rec)
{
	uint32_t k;

	if (!rec->name || !ln->l->raw || rec->ptr < SS_IMPORT_RAW_MIN)
		return 0;
	k = ss_import_place_of_rec(ln->places, ln->t, rec);
	return k == SS_IMPORT_NO_PLACE ? -1 : note_slab(ln, rec->ptr, k);
}

/* The CPU's last free for owner_vector(): place k of a kfree()d object
 * the capture saw allocated, SS_IMPORT_NO_PLACE for any other free (a
 * kmem_cache_free is rule objext's, an unknown kfree's cache not known
 * yet).  -1 out of memory. */
static int note_last_free(struct learner *ln, unsigned cpu, uint32_t k)
{
	if (cpu >= ln->nr_cpus) {
		uint32_t old = ln->nr_cpus;

		if (ss_grow_zeroed((void **)&ln->last_kfree, &ln->nr_cpus, cpu,
				   sizeof(*ln->last_kfree), 64))
			return -1;
		memset(ln->last_kfree + old, 0xff, (ln->nr_cpus - old) * sizeof(*ln->last_kfree));
	}
	ln->last_kfree[cpu] = k;
	return 0;
}

static int learn_alloc(struct learner *ln, const struct ss_kmem_rec *rec, struct ss_ptr_entry *e)
{
	struct ss_import_learned *l = ln->l;
	const struct ss_snap_cache *c;
	uint32_t k = ss_import_place_of_rec(ln->places, ln->t, rec);

	if (k == SS_IMPORT_NO_PLACE || (!e && !(e = ss_ptrmap_insert(&ln->map, rec->ptr))) ||
	    note_cache(l, ln->t, rec))
		return -1;
	e->id = k;
	if ((e = ss_ptrmap_find(&ln->dead, rec->ptr)))
		ss_ptrmap_remove(&ln->dead, e);
	if (rec->has_cpu && l->raw && (c = ss_import_place_snap_cache(ln->places, k)) &&
	    ss_import_cpuslab_alloc(&l->cpuslab, ln->snap, c, rec->cpu, rec->ptr))
		return -1;
	return note_slab(ln, rec->ptr, k);
}

/* A free of a pointer the capture never saw allocated. */
static int learn_unknown_free(struct learner *ln, const struct ss_kmem_rec *rec)
{
	if (ln->walk->live && ss_ptrmap_find((struct ss_ptrmap *)ln->walk, rec->ptr))
		return 0; /* the snapshot walk's (rule walk) */
	if (note_named_prior(ln, rec))
		return -1;
	if (!rec->name && rec->ptr >= SS_IMPORT_RAW_MIN && rec->call_site &&
	    note_unknown_kfree(ln, rec))
		return -1;
	if (!ss_site_frees_slab_vector(rec->call_site) &&
	    note_last_free(ln, rec->cpu, SS_IMPORT_NO_PLACE))
		return -1;
	return learn_dead(ln, rec->ptr);
}

static int learn_free(struct learner *ln, const struct ss_kmem_rec *rec, struct ss_ptr_entry *e)
{
	/* (a vector's own kfree leaves its slab's cache known) */
	if (!ss_site_frees_slab_vector(rec->call_site) &&
	    note_last_free(ln, rec->cpu, rec->name ? SS_IMPORT_NO_PLACE : (uint32_t)e->id))
		return -1;
	if (!rec->name) {
		struct ss_import_site *s = site_slot(ln->l, rec->call_site, NULL);

		if (!s || count(s, (uint32_t)e->id))
			return -1;
	}
	if (note_slab(ln, rec->ptr, (uint32_t)e->id))
		return -1;
	ss_ptrmap_remove(&ln->map, e);
	return ss_ptrmap_insert(&ln->dead, rec->ptr) ? 0 : -1;
}

static int learn_rec(void *ctx, int kind, struct ss_kmem_rec *recp, const char *why,
		     struct ss_error *err)
{
	struct learner *ln = ctx;
	struct ss_import_learned *l = ln->l;
	struct ss_kmem_rec rec = *recp;
	struct ss_ptr_entry *e;
	int rc;

	(void)why;
	if (ss_import_pagefree_learn(&l->pagefree, kind, &rec))
		return ss_errorf(err, "out of memory");
	if (kind != SS_KL_EVENT || !rec.ptr)
		return 0; /* the write pass reports what is malformed */
	if (!l->named_sites && ss_site_named(rec.call_site))
		l->named_sites = true;
	l->slab_vectors += (rec.event == SS_KE_KMALLOC && ss_site_allocs_slab_vector(rec.call_site)) ||
			   (rec.event == SS_KE_KFREE && ss_site_frees_slab_vector(rec.call_site));
	if (rec.ptr >= SS_IMPORT_RAW_MIN)
		l->raw = true;
	e = ss_ptrmap_find(&ln->map, rec.ptr);
	if (rec.event == SS_KE_KMALLOC || rec.event == SS_KE_CACHE_ALLOC)
		rc = learn_alloc(ln, &rec, e);
	else if (l->raw && ln->snap && ss_import_cpuslab_free(&l->cpuslab, rec.ptr))
		rc = -1;
	else
		rc = e ? learn_free(ln, &rec, e) : learn_unknown_free(ln, &rec);
	return rc ? ss_errorf(err, "out of memory") : 0;
}

/* The kmalloc flags of site s's learned frees when they are all kmalloc
 * objects of one family (kmalloc_type()'s on target t), else -1: a named
 * cache's objects are no class's, and two families no one's. */
static int64_t site_kmalloc_gfp(const struct ss_import_places *p, const struct ss_target *t,
				const struct ss_import_site *s)
{
	int64_t gfp = -1;

	for (uint32_t j = 0; j < s->nr; j++) {
		unsigned g;
		unsigned long long size;

		if (!ss_import_place_kmalloc_class(p, s->c[j].key, &g, &size) ||
		    (gfp >= 0 && ss_kmalloc_gfp_type(t, g) != ss_kmalloc_gfp_type(t, (uint32_t)gfp)))
			return -1;
		gfp = g;
	}
	return gfp;
}

/* After the pass: the stride rule (stride.c) for the kfree sites that
 * learned nothing, on their pointers in slabs no owner rule knew -- and
 * for those that learned only kmalloc objects of one family, within that
 * family: a site that frees strings or arrays frees every class their
 * lengths reach, and what the capture saw it free need not be all of
 * them.  Pointers the rule leaves unclassed (fewer than
 * SS_STRIDE_MIN_GROUP in a slab, or fitting no class) keep the learned
 * shares (rule site-share). */
static int learn_strides(struct learner *ln)
{
	struct ss_import_learned *l = ln->l;
	struct ss_import_stride st;
	int rc = 0;

	if (!l->raw || ss_import_stride_begin(&st, ln->snap, ln->places, &ln->slab_owner, &l->owner))
		return l->raw ? -1 : 0;
	for (uint32_t i = 0; i < l->sites.nr && !rc; i++) {
		struct ss_import_site *s = &l->site[i];
		struct site_unknown *u = i < ln->cap_unk ? &ln->unk[i] : NULL;
		uint32_t n = 0;
		int64_t gfp;

		/* not known when freed, nor placed since by the rule */
		for (uint32_t j = 0; u && j < u->nr; j++) {
			struct ss_ptr_entry *e = ss_ptrmap_find(&l->owner, u->ptr[j]);

			if (e && !e->id)
				u->ptr[n++] = u->ptr[j];
		}
		if (!s->total)
			rc = ss_import_stride_site(&st, ln->t, u ? u->ptr : NULL, n, -1);
		else if ((gfp = site_kmalloc_gfp(ln->places, ln->t, s)) >= 0)
			rc = ss_import_stride_site(&st, ln->t, u ? u->ptr : NULL, n, gfp);
	}
	l->stride_frees = st.frees;
	l->stride_slabs = st.slabs;
	ss_import_stride_release(&st);
	return rc;
}

/* A listed slab that showed no free object (a CPU's active slab handed
 * out whole) is found by its struct page instead, once the direct map's
 * base is exact (ss_import_pagefree_fill): its pages are the frame's. */
static int listed_bare(struct ss_import_learned *l, const struct ss_snap *snap)
{
	const struct ss_import_pagefree *pf = &l->pagefree;

	for (unsigned c = 0; c < snap->nr; c++) {
		const struct ss_snap_cache *sc = &snap->caches[c];

		for (uint32_t i = 0; i < sc->nr_fill; i++) {
			const struct ss_snap_fill *f = &sc->fill[i];
			struct ss_ptr_entry *e;
			uint64_t off;

			if (f->base || sc->order > 10 || !ss_import_pagefree_frame(pf, f->page, &off))
				continue;
			if (!(e = ss_ptrmap_insert(&l->listed, pf->base + off)))
				return -1;
			e->id = i + 1;
			e->site = c;
		}
	}
	return 0;
}

static void learner_release(struct learner *ln)
{
	ss_ptrmap_release(&ln->map);
	ss_ptrmap_release(&ln->dead);
	ss_ptrmap_release(&ln->slab_owner);
	for (uint32_t i = 0; i < ln->cap_unk; i++)
		free(ln->unk[i].ptr);
	free(ln->unk);
	free(ln->last_kfree);
}

int ss_import_learn(struct ss_import_run *r, struct ss_error *err)
{
	struct ss_import_learned *l = &r->learned;
	struct learner ln = {.l = l, .places = &r->places, .t = &r->target, .walk = &r->walk,
			     .snap = r->have_snap ? &r->snap : NULL};
	int rc;

	if (r->dat)
		rc = ss_import_dat_read(r->o->input, learn_rec, &ln, NULL, err);
	else
		rc = ss_kmem_text_read(r->o->input, &r->labels, learn_rec, &ln, NULL, err);
	if (rc == 0 && learn_strides(&ln))
		rc = ss_errorf(err, "out of memory");
	learner_release(&ln);
	ss_import_pagefree_finish(&l->pagefree);
	if (l->fill && ss_import_pagefree_fill(&l->pagefree, ln.snap) && listed_bare(l, ln.snap))
		rc = ss_errorf(err, "out of memory");
	return rc < 0 ? -1 : 0;
}

int ss_import_learn_listed(struct ss_import_learned *l, const struct ss_snap *snap)
{
	l->fill = true;
	for (unsigned c = 0; snap && c < snap->nr; c++) {
		const struct ss_snap_cache *sc = &snap->caches[c];

		for (uint32_t i = 0; i < sc->nr_fill; i++) {
			struct ss_ptr_entry *e;

			if (!sc->fill[i].base || sc->order > 10)
				continue;
			e = ss_ptrmap_insert(&l->listed, SS_IMPORT_SLAB_KEY(sc->fill[i].base, sc->order));
			if (!e)
				return -1;
			e->id = i + 1;
			e->site = c;
		}
	}
	return 0;
}

uint32_t ss_import_learned_owner(const struct ss_import_learned *l, uint64_t ptr)
{
	struct ss_ptr_entry *e;

	if (!l->raw || ptr < SS_IMPORT_RAW_MIN ||
	    !(e = ss_ptrmap_find((struct ss_ptrmap *)&l->owner, ptr)) || !e->id)
		return SS_IMPORT_NO_PLACE;
	return (uint32_t)(e->id - 1);
}

const struct ss_kmem_rec *ss_import_learned_first(const struct ss_import_learned *l,
						  const char *cache)
{
	uint32_t i = ss_strtab_find(&l->caches, cache);

	return i == UINT32_MAX ? NULL : &l->first[i];
}

void ss_import_learned_release(struct ss_import_learned *l)
{
	for (uint32_t i = 0; i < l->sites.nr; i++)
		free(l->site[i].c);
	free(l->site);
	free(l->first);
	ss_ptrmap_release(&l->untraced);
	ss_ptrmap_release(&l->listed);
	ss_ptrmap_release(&l->owner);
	ss_import_pagefree_release(&l->pagefree);
	ss_import_cpuslab_release(&l->cpuslab);
	ss_strtab_release(&l->sites);
	ss_strtab_release(&l->caches);
	memset(l, 0, sizeof(*l));
}
