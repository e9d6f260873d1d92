/* account.c - live bytes, the peak and per-site counts (account.h). */
#include "account.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "sort.h"

int ss_account_init(struct ss_account *a, const struct ss_model_desc *desc,
		    const struct ss_model *model, const struct ss_recon *recon,
		    const struct ss_target *t)
{
	memset(a, 0, sizeof(*a));
	a->desc = desc;
	a->model = model;
	a->recon = recon;
	a->page_size = t->page_size;
	a->large_counted = t->large_in_slab_stat;
	return 0;
}

void ss_account_release(struct ss_account *a)
{
	free(a->cache);
	free(a->dirty);
	free(a->site_head);
	free(a->site);
	a->cache = NULL;
	a->dirty = NULL;
	a->nr_dirty = a->cap_dirty = 0;
	a->site_head = NULL;
	a->site = NULL;
	a->nr_caches = a->nr_heads = a->nr_sites = a->cap_sites = 0;
}

static struct ss_acct_site *site_of(struct ss_account *a, uint32_t site,
				    uint32_t cache);

/* Cache c's initial-state objects as the reconciliation counts them
 * (reconcile/recon.h ss_recon_objects): `live` still allocated, `freed`
 * taken by prior frees.  Its SS_ACCT_PRIOR pair holds every object the
 * kernel's state put there (live + freed) and the prior frees applied;
 * the running totals move by the live ones' change since last counted.
 * Each such object is requested and allocated at object_size (the
 * kernel's slabs do not say what was asked for; reconcile/slab_prior.c
 * counts it so). */
static int prior_set(struct ss_account *a, struct ss_acct_cache *k, uint32_t c,
		     uint64_t live, uint64_t freed)
{
	struct ss_acct_site *s = site_of(a, SS_ACCT_PRIOR, c);
	uint64_t d = live - k->prior; /* modulo 2^64: a fall wraps back */

	if (!s)
		return -1;
	a->requested += d * k->object_size;
	k->prior = live;
	ss_account_touch(a, k, c);
	s->allocs = live + freed;
	s->frees = freed;
	s->requested = s->allocs * k->object_size;
	s->freed_requested = s->frees * k->object_size;
	if (live > s->peak_live)
		s->peak_live = live;
	return 0;
}

/* The geometry of cache c, read once from the model's report (with the
 * initial-state objects it already holds). */
static struct ss_acct_cache *cache_of(struct ss_account *a, uint32_t c)
{
	struct ss_acct_cache *k;
	struct ss_cache_report r;
	uint64_t live, freed;

	if (c >= a->nr_caches &&
	    ss_grow_zeroed((void **)&a->cache, &a->nr_caches, c, sizeof(*a->cache), 32))
		return NULL;
	/* a dirty entry per cache at most: ss_account_touch needs no test */
	if (a->cap_dirty < a->nr_caches &&
	    ss_grow_zeroed((void **)&a->dirty, &a->cap_dirty, a->nr_caches - 1, sizeof(*a->dirty), 32))
		return NULL;
	k = &a->cache[c];
	if (k->known)
		return k;
	a->desc->ops->cache_report(a->model, c, &r);
	k->object_size = r.object_size;
	k->size_nodebug = r.size_nodebug;
	k->slab_size = r.slab_size;
	k->order = r.order;
	k->align_each = r.size_nodebug - r.object_size;
	k->debug_each = r.slab_size - r.size_nodebug;
	k->lpadd = (a->page_size << r.order) - (uint64_t)r.objs_per_slab * r.slab_size;
	if (r.slab_bytes > r.nr_slabs * (a->page_size << r.order))
		k->pool_pages = (r.slab_bytes - r.nr_slabs * (a->page_size << r.order)) / a->page_size;
	k->known = true;
	ss_recon_objects(a->recon, c, &live, &freed);
	if ((live || freed) && prior_set(a, k, c, live, freed))
		return NULL;
	return k;
}

/* The (site, cache) pair, created on first use, moved to the head of its
 * site's chain so that the inline path finds it next time (a kmalloc
 * site of several sizes keeps its most recent class first). */
static struct ss_acct_site *site_of(struct ss_account *a, uint32_t site,
				    uint32_t cache)
{
	struct ss_acct_site *s;
	uint32_t *link, found, *head = &a->prior_head;

	if (site != SS_ACCT_PRIOR) {
		if (site >= a->nr_heads &&
		    ss_grow_zeroed((void **)&a->site_head, &a->nr_heads, site, sizeof(*a->site_head), 32))
			return NULL;
		head = &a->site_head[site];
	}
	/* room for a new pair first: link may point into a->site, which
	 * growing moves */
	if (a->nr_sites == a->cap_sites &&
	    ss_grow_zeroed((void **)&a->site, &a->cap_sites, a->nr_sites, sizeof(*a->site), 32))
		return NULL;
	for (link = head; *link; link = &a->site[*link - 1].next)
		if (a->site[*link - 1].cache == cache)
			break;
	if (!*link) {
		s = &a->site[a->nr_sites++];
		s->site = site;
		s->cache = cache;
		*link = a->nr_sites;
	}
	found = *link;
	s = &a->site[found - 1];
	if (link != head) { /* unlink, put first */
		*link = s->next;
		s->next = *head;
		*head = found;
	}
	return s;
}

uint64_t ss_account_footprint(const struct ss_account *a)
{
	return a->slab_pages * a->page_size + (a->large_counted ? a->large_pages : 0);
}

/* d more (modulo 2^64: a fall adds the two's complement) of cache k's
 * objects into the allocated, alignment and debug byte totals. */
static void add_parts(const struct ss_acct_cache *k, uint64_t d, uint64_t *allocated,
		      uint64_t *align, uint64_t *debug)
{
	*allocated += d * k->object_size;
	*align += d * k->align_each;
	*debug += d * k->debug_each;
}

void ss_account_now(const struct ss_account *a, struct ss_acct_bytes *b)
{
	b->footprint = ss_account_footprint(a);
	b->requested = a->requested + (a->large_counted ? a->large_requested : 0);
	b->allocated = a->allocated + (a->large_counted ? a->large_pages : 0);
	b->align = a->align;
	b->debug = a->debug;
	/* the caches whose objects moved since the fold */
	for (uint32_t i = 0; i < a->nr_dirty; i++) {
		const struct ss_acct_cache *k = &a->cache[a->dirty[i]];

		add_parts(k, k->live + k->prior - k->folded, &b->allocated, &b->align, &b->debug);
	}
	b->slab_tail = a->slab_tail;
}

/* The dirty caches' objects into the byte totals. */
static void fold(struct ss_account *a)
{
	for (uint32_t i = 0; i < a->nr_dirty; i++) {
		struct ss_acct_cache *k = &a->cache[a->dirty[i]];
		uint64_t n = k->live + k->prior;

		add_parts(k, n - k->folded, &a->allocated, &a->align, &a->debug);
		k->folded = n;
		k->dirty = false;
	}
	a->nr_dirty = 0;
}

/* The footprint grows only with slab pages or kmalloc_large pages (at an
 * alloc, or at a free that allocates a sheaf: account.h): the peak is
 * looked at only then (and the totals folded, so that a fold
 * holds only the caches moved since the last). */
static void note_peak(struct ss_account *a, uint64_t events)
{
	if (ss_account_footprint(a) <= a->peak.footprint)
		return;
	fold(a);
	ss_account_now(a, &a->peak);
	a->peak.events = events;
}

/* The slab tail bytes of cache k holding `pages` pages: one lpadd per
 * slab, and its pool pages (cache_of) whole. */
static uint64_t slab_tail_of(const struct ss_account *a, const struct ss_acct_cache *k,
			     uint64_t pages)
{
	if (!pages)
		return 0;
	if (pages < k->pool_pages)
		return pages * a->page_size;
	return ((pages - k->pool_pages) >> k->order) * k->lpadd + k->pool_pages * a->page_size;
}

/* Cache c's slab pages now, as the model reports them (an initial
 * state's slabs included, which no page counter saw allocated). */
static void note_cache_pages(struct ss_account *a, struct ss_acct_cache *k, uint32_t c)
{
	uint64_t pages;

	if (a->desc->ops->cache_slab_bytes) {
		pages = a->desc->ops->cache_slab_bytes(a->model, c) / a->page_size;
	} else {
		struct ss_cache_report r;

		a->desc->ops->cache_report(a->model, c, &r);
		pages = r.slab_bytes / a->page_size;
	}
	/* modulo 2^64: a fall adds the two's complement */
	a->slab_pages += pages - k->pages;
	a->slab_tail += slab_tail_of(a, k, pages) - slab_tail_of(a, k, k->pages);
	k->pages = pages;
}

/* Slab pages changed (memcap's total moved): the object's cache first;
 * if the totals still differ, the operation moved pages of other caches
 * too (a memcg vector's kmalloc cache, a sheaf, SLAB's off-slab
 * management): every cache is read again.  One slab = 2^order pages. */
static void note_pages(struct ss_account *a, const struct ss_memcap *mem,
		       struct ss_acct_cache *k, uint32_t c)
{
	unsigned n;

	note_cache_pages(a, k, c);
	if (mem->slab_pages == a->slab_pages || !a->desc->ops->nr_caches)
		return;
	n = a->desc->ops->nr_caches(a->model);
	for (uint32_t i = 0; i < n; i++) {
		struct ss_acct_cache *o = cache_of(a, i);

		if (o)
			note_cache_pages(a, o, i);
	}
}

/* kmalloc_large: the model's own count of pages and requested bytes;
 * returns the pages this object moved. */
static uint64_t note_large(struct ss_account *a)
{
	struct ss_large_report lr;
	uint64_t before = a->large_pages;

	a->desc->ops->large_report(a->model, &lr);
	a->large_pages = lr.page_bytes;
	a->large_requested = lr.requested_live;
	return lr.page_bytes > before ? lr.page_bytes - before : before - lr.page_bytes;
}

/* __kmem_cache_alias() grew a merged cache's object_size (and with it
 * what its stride holds as alignment): every object live in it moves
 * bytes from align to allocated, as the model's report counts them --
 * those folded into the totals here, the others when they are folded. */
static void regeometry(struct ss_account *a, struct ss_acct_cache *k,
		       const struct ss_cache_report *r)
{
	uint64_t n = k->folded;
	uint32_t align = r->size_nodebug - r->object_size;
	uint32_t debug = r->slab_size - r->size_nodebug;

	/* modulo 2^64: a smaller figure adds the two's complement */
	a->allocated += n * ((uint64_t)r->object_size - k->object_size);
	/* the initial state's objects are counted at object_size, and the
	 * model's grow with it (slub_backend.c slub_alias) */
	a->requested += k->prior * ((uint64_t)r->object_size - k->object_size);
	a->align += n * ((uint64_t)align - k->align_each);
	a->debug += n * ((uint64_t)debug - k->debug_each);
	/* the initial-state pairs count object_size per object */
	k->object_size = r->object_size;
	k->size_nodebug = r->size_nodebug;
	k->slab_size = r->slab_size;
	k->align_each = align;
	k->debug_each = debug;
}

int ss_account_prior(struct ss_account *a, const struct ss_memcap *mem,
		     uint32_t c, int one, uint64_t events)
{
	bool seen = ss_account_geo(a, c) != NULL;
	struct ss_acct_cache *k = cache_of(a, c); /* first sight: counted */
	uint64_t live, freed;

	if (!k)
		return -1;
	if (seen) {
		if (one) { /* a prior free: one object out, no walk of the lists */
			struct ss_acct_site *s = site_of(a, SS_ACCT_PRIOR, c);

			if (!s)
				return -1;
			live = k->prior - 1;
			freed = s->frees + 1;
		} else {
			struct ss_cache_report r;

			a->desc->ops->cache_report(a->model, c, &r);
			regeometry(a, k, &r);
			ss_recon_objects(a->recon, c, &live, &freed);
		}
		if (prior_set(a, k, c, live, freed))
			return -1;
	}
	if (mem->slab_pages != a->slab_pages)
		note_pages(a, mem, k, c);
	note_peak(a, events);
	return 0;
}

int ss_account_slow(struct ss_account *a, const struct ss_memcap *mem,
		    struct ss_obj *obj, int dir, unsigned free_cpu,
		    uint64_t events)
{
	struct ss_acct_cache *k = NULL;
	struct ss_acct_site *s;
	uint32_t cache = obj->state == SS_OBJ_LIVE ? obj->cache :
			 obj->state == SS_OBJ_LARGE ? SS_ACCT_LARGE : SS_ACCT_ZERO;
	uint64_t bytes = 0;

	if (obj->state == SS_OBJ_LIVE && !(k = cache_of(a, obj->cache)))
		return -1;
	if (!(s = site_of(a, obj->site, cache)))
		return -1;
	if (dir > 0)
		obj->acct = (uint32_t)(s - a->site); /* for its free (ss_account_free) */
	if (k) { /* (its pair's bytes: its counts times object_size) */
		k->live += (uint64_t)(int64_t)dir;
		ss_account_touch(a, k, obj->cache);
		if (dir > 0)
			a->requested += obj->size;
		else
			a->requested -= obj->size;
		if (mem->slab_pages != a->slab_pages)
			note_pages(a, mem, k, obj->cache);
	} else if (obj->state == SS_OBJ_LARGE) {
		bytes = note_large(a);
	}
	if (dir > 0) {
		s->allocs++;
		s->requested += obj->size;
		s->allocated += bytes;
		if (s->allocs - s->frees > s->peak_live)
			s->peak_live = s->allocs - s->frees;
		note_peak(a, events);
	} else {
		s->frees++;
		s->freed_requested += obj->size;
		s->freed_allocated += bytes;
		s->cross_cpu += obj->cpu != free_cpu;
		note_peak(a, events);
	}
	return 0;
}

const char *ss_account_site_name(const struct ss_acct_site *s,
				 const struct ss_trace_tables *tables)
{
	return s->site == SS_ACCT_PRIOR ? SS_ACCT_PRIOR_NAME : ss_trace_name(tables, s->site);
}

const char *ss_account_cache_name(const struct ss_account *a,
				  const struct ss_acct_site *s)
{
	struct ss_cache_report r;

	if (s->cache == SS_ACCT_LARGE)
		return "kmalloc_large";
	if (s->cache == SS_ACCT_ZERO)
		return "ZERO_SIZE_PTR";
	a->desc->ops->cache_report(a->model, s->cache, &r);
	return r.name;
}

/* qsort has no context argument: the two it needs, for one sort at a time
 * (the sort runs once per run, at the end, on one thread). */
static const struct ss_account *sort_acct;
static const struct ss_trace_tables *sort_tables;

static int cmp_pair(const void *x, const void *y)
{
	const struct ss_acct_site *p = &sort_acct->site[*(const uint32_t *)x];
	const struct ss_acct_site *q = &sort_acct->site[*(const uint32_t *)y];
	int c = strcmp(ss_account_site_name(p, sort_tables),
		       ss_account_site_name(q, sort_tables));

	if (c)
		return c;
	return strcmp(ss_account_cache_name(sort_acct, p),
		      ss_account_cache_name(sort_acct, q));
}

int ss_account_sorted(const struct ss_account *a,
		      const struct ss_trace_tables *tables, uint32_t **order)
{
	*order = malloc((a->nr_sites ? a->nr_sites : 1) * sizeof(**order));
	if (!*order)
		return -1;
	for (uint32_t i = 0; i < a->nr_sites; i++)
		(*order)[i] = i;
	sort_acct = a;
	sort_tables = tables;
	ss_sort(*order, a->nr_sites, sizeof(**order), cmp_pair);
	return 0;
}
