/* slub_model.c - SLUB caches behind the model interface: kmalloc classes
 * created on first use, dedicated caches (with SLUB merging), zero-size
 * requests (ZERO_SIZE_PTR) and kmalloc_large, and a placement policy that
 * picks the cache. */
#include "slub_model_fast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmalloc.h"
#include "slab_prior.h"
#include "slub.h"
#include "strtab.h"

/* ---- route memo ---- */

int ss_route_memo_get(const struct ss_route_memo *memo, uint32_t key)
{
	return key < memo->nr ? memo->slot[key] - 1 : -1;
}

int ss_route_memo_set(struct ss_route_memo *memo, uint32_t key, int cache)
{
	if (key >= memo->nr) {
		uint32_t nr = memo->nr ? memo->nr : 64;
		int32_t *slot;

		while (nr <= key)
			nr *= 2;
		slot = realloc(memo->slot, nr * sizeof(*slot));
		if (!slot)
			return -1;
		memset(slot + memo->nr, 0, (nr - memo->nr) * sizeof(*slot));
		memo->slot = slot;
		memo->nr = nr;
	}
	memo->slot[key] = cache + 1;
	return 0;
}

void ss_route_memo_release(struct ss_route_memo *memo)
{
	free(memo->slot);
	memset(memo, 0, sizeof(*memo));
}

struct ss_route_memo *ss_slub_model_memo(struct ss_slub_model *m)
{
	return &m->memo;
}

const struct ss_model_config *ss_slub_model_config(const struct ss_slub_model *m)
{
	return &m->cfg;
}

/* ---- caches ---- */

/* slub_debug=FLAGS,name1,name2 applies only to the named caches. */
static unsigned debug_for(const struct ss_slub_model *m, const char *name)
{
	char key[80];

	if (!m->cfg.debug || !m->cfg.debug_caches[0])
		return m->cfg.debug;
	snprintf(key, sizeof(key), ",%s,", name);
	return strstr(m->cfg.debug_caches, key) ? m->cfg.debug : 0;
}

/* Remember the first cache called name.  -1: out of memory. */
static int index_name(struct ss_slub_model *m, const char *name, int cache)
{
	uint32_t nr = m->names.nr;
	uint32_t idx = ss_strtab_intern(&m->names, name);

	if (idx == UINT32_MAX)
		return -1;
	if (idx < nr) /* a second cache of that name: lookups keep the first */
		return 0;
	if ((idx & (idx - 1)) == 0) { /* 0, 1, 2, 4, ...: double */
		int32_t *nc = realloc(m->name_cache, 2 * ((size_t)idx + 1) * sizeof(*nc));

		if (!nc)
			return -1;
		m->name_cache = nc;
	}
	m->name_cache[idx] = cache;
	return 0;
}

/* A cache the initial-state snapshot lists starts with the kernel's
 * geometry, slabs and objects (slab_prior.h). */
static int start_as_kernel(struct ss_slub_model *m, struct ss_kcache *s,
			   struct ss_error *err)
{
	const struct ss_snap_cache *c;

	if (!m->cfg.initial || !(c = ss_snap_find(m->cfg.initial, s->name)))
		return 0;
	if (ss_kcache_take_geometry(s, c, err) < 0)
		return -1;
	/* the replay's memory total reads a cache on the operations that
	 * move pages only: the next one must say these slabs came */
	m->resync_pending = true;
	return ss_kcache_populate(s, c, err);
}

static int add_cache(struct ss_slub_model *m, const char *name,
		     const struct ss_cache_spec *spec, struct ss_error *err)
{
	struct ss_kcache *s;

	if (m->nr_caches == m->cap_caches) {
		unsigned cap = m->cap_caches ? m->cap_caches * 2 : 32;
		struct ss_kcache **c = realloc(m->caches, cap * sizeof(*c));

		if (!c)
			return ss_errorf(err, "out of memory");
		m->caches = c;
		m->cap_caches = cap;
	}
	s = malloc(sizeof(*s));
	if (!s)
		return ss_errorf(err, "out of memory");
	if (ss_kcache_init(s, name, spec, m->cfg.target, m->cfg.topo, err) ||
	    start_as_kernel(m, s, err)) {
		ss_kcache_release(s);
		free(s);
		return -1;
	}
	if (index_name(m, s->name, (int)m->nr_caches)) {
		ss_kcache_release(s);
		free(s);
		return ss_errorf(err, "out of memory");
	}
	m->caches[m->nr_caches] = s;
	return (int)m->nr_caches++;
}

int ss_slub_model_kmalloc_cache(struct ss_slub_model *m, uint64_t size,
				struct ss_error *err)
{
	const struct ss_target *t = m->cfg.target;
	int idx = ss_kmalloc_index(t, (size_t)size);
	struct ss_cache_spec spec;
	char name[64];
	int c;

	if (idx < 0)
		return ss_errorf(err, "no kmalloc class for %llu bytes",
				 (unsigned long long)size);
	if (m->kmalloc_cache[idx] >= 0)
		return m->kmalloc_cache[idx];
	ss_kmalloc_class_name(t, idx, name, sizeof(name));
	ss_kmalloc_spec(t, idx, debug_for(m, name), &spec);
	c = add_cache(m, name, &spec, err);
	if (c >= 0)
		m->kmalloc_cache[idx] = c;
	return c;
}

/* find_mergeable() (mm/slab_common.c): an existing cache whose stride
 * fits the new one within a pointer, with no debug, RCU or constructor. */
static int find_mergeable(const struct ss_slub_model *m,
			  const struct ss_cache_spec *spec, unsigned size)
{
	const unsigned never = SS_CF_RCU | SS_CF_CTOR | SS_CF_FREEPTR;
	unsigned align = 0;

	if (spec->debug || (spec->flags & never))
		return -1;
	{ /* the new cache's stride, as kmem_cache_create would compute it */
		struct ss_geometry g;
		if (ss_geometry_compute(m->cfg.target, spec, &g, NULL))
			return -1;
		align = g.align;
	}
	for (unsigned i = m->nr_caches; i-- > 0;) {
		const struct ss_kcache *s = m->caches[i];

		if (s->geo.debug || (s->spec.flags & never))
			continue;
		if (size > s->geo.size || (s->geo.size & ~(align - 1)) != s->geo.size)
			continue;
		if (s->geo.size - size >= m->cfg.target->ptr_size)
			continue;
		return (int)i;
	}
	return -1;
}

int ss_slub_model_named_cache(struct ss_slub_model *m, const char *name,
			      const struct ss_cache_spec *spec_in,
			      struct ss_error *err)
{
	return ss_slub_model_cache(m, name, spec_in, m->cfg.merge, err);
}

int ss_slub_model_cache(struct ss_slub_model *m, const char *name,
			const struct ss_cache_spec *spec_in, bool merge,
			struct ss_error *err)
{
	struct ss_cache_spec spec = *spec_in;
	struct ss_geometry g;

	uint32_t idx = ss_strtab_find(&m->names, name);

	if (idx != UINT32_MAX)
		return m->name_cache[idx];
	spec.debug = debug_for(m, name);
	if (merge) {
		int c;

		if (ss_geometry_compute(m->cfg.target, &spec, &g, err))
			return -1;
		c = find_mergeable(m, &spec, g.size_nodebug);
		if (c >= 0) {
			/* __kmem_cache_alias() (mm/slub.c, 3.x-6.18): the
			 * merged cache's object_size and inuse grow to the
			 * new cache's size, so a 192-byte dentry merged into
			 * 184-byte filp objects is a 192-byte object */
			struct ss_kcache *s = m->caches[c];
			unsigned w = m->cfg.target->ptr_size;

			if (spec.object_size > s->geo.object_size)
				s->geo.object_size = spec.object_size;
			if ((spec.object_size + w - 1) / w * w > s->geo.inuse)
				s->geo.inuse = (spec.object_size + w - 1) / w * w;
			/* the replay's running byte totals read the
			 * cache's geometry again (op->resync) */
			m->resync_pending = true;
			return c;
		}
	}
	return add_cache(m, name, &spec, err);
}

/* ---- model ops ---- */

static int slub_create(struct ss_model **out, const struct ss_model_config *cfg,
		       const void *policy, struct ss_error *err)
{
	struct ss_slub_model *m = calloc(1, sizeof(*m));
	int n = ss_kmalloc_nr_classes(cfg->target);

	if (!m)
		return ss_errorf(err, "out of memory");
	m->cfg = *cfg;
	m->policy = policy;
	m->kmalloc_cache = malloc((size_t)n * sizeof(*m->kmalloc_cache));
	if (!m->kmalloc_cache) {
		free(m);
		return ss_errorf(err, "out of memory");
	}
	for (int i = 0; i < n; i++)
		m->kmalloc_cache[i] = -1;
	*out = (struct ss_model *)m;
	return 0;
}

/* kmalloc_large(): whole pages from the page allocator. */
static void alloc_large(struct ss_slub_model *m, struct ss_obj *obj,
			struct ss_op *op)
{
	const struct ss_target *t = m->cfg.target;
	uint64_t bytes = (uint64_t)t->page_size << ss_get_order(t, obj->size);

	obj->state = SS_OBJ_LARGE;
	m->large.live++;
	m->large.requested_live += obj->size;
	m->large.page_bytes += bytes;
	if (m->large.page_bytes > m->large.peak_page_bytes)
		m->large.peak_page_bytes = m->large.page_bytes;
	op->cycles += op->cost[SS_STEP_KMALLOC_LARGE];
}

static int kmalloc_cache_memo(struct ss_slub_model *m, uint64_t size,
			      struct ss_error *err)
{
	int32_t *slot;
	int c;

	if (size > SS_SIZE_MEMO_MAX)
		return ss_slub_model_kmalloc_cache(m, size, err);
	slot = &m->size_memo[(size - 1) >> 3];
	if (*slot)
		return *slot - 1;
	c = ss_slub_model_kmalloc_cache(m, size, err);
	if (c >= 0)
		*slot = c + 1;
	return c;
}

/* With an initial state, a declared cache the placement puts into a cache
 * of another name (kmalloc-buckets: dentry into kmalloc-192) brings the
 * kernel's objects of that cache along, on its first route: the what-if
 * starts with the same objects, placed its way. */
static int place_prior(struct ss_slub_model *m, uint32_t api, int c, struct ss_op *op,
		       struct ss_error *err)
{
	const struct ss_snap_cache *k;
	const char *name;

	if (!m->cfg.initial || api == SS_API_KMALLOC || c < 0)
		return 0;
	if (api >= m->nr_prior_placed) {
		uint32_t nr = m->nr_prior_placed ? 2 * m->nr_prior_placed : 64;
		uint8_t *p;

		while (nr <= api)
			nr *= 2;
		p = realloc(m->prior_placed, nr);
		if (!p)
			return ss_errorf(err, "out of memory");
		memset(p + m->nr_prior_placed, 0, nr - m->nr_prior_placed);
		m->prior_placed = p;
		m->nr_prior_placed = nr;
	}
	if (m->prior_placed[api])
		return 0;
	m->prior_placed[api] = 1;
	name = ss_trace_cache_name(m->cfg.tables, api);
	if (!strcmp(name, m->caches[c]->name) || !(k = ss_snap_find(m->cfg.initial, name)))
		return 0;
	op->resync = true;
	return ss_kcache_add_prior(m->caches[c], k, err);
}

/* The placement's answer, and what the model does with SS_ROUTE_KMALLOC:
 * -1 error, -2 no object needed (zero size, kmalloc_large), else the
 * cache. */
static int route_slow(struct ss_slub_model *m, const struct ss_event *ev,
		      struct ss_obj *obj, struct ss_op *op, struct ss_error *err)
{
	int c = m->policy->route(m, ev, err);

	if (c == SS_ROUTE_KMALLOC) {
		if (ev->value == 0) { /* ZERO_SIZE_PTR: no object */
			obj->state = SS_OBJ_ZERO;
			return -2;
		}
		if (ev->value > ss_kmalloc_max_cache_size(m->cfg.target)) {
			alloc_large(m, obj, op);
			return -2;
		}
		c = kmalloc_cache_memo(m, ev->value, err);
		return c < 0 || place_prior(m, ev->api, c, op, err) ? -1 : c;
	}
	/* first route of a declared cache (api_memo is set below) */
	if (c < 0 || place_prior(m, ev->api, c, op, err))
		return -1;
	if (ev->api != SS_API_KMALLOC && ss_route_memo_set(&m->api_memo, ev->api, c))
		return ss_errorf(err, "out of memory");
	return c;
}

static int slub_alloc(struct ss_model *mm, const struct ss_event *ev,
		      struct ss_obj *obj, struct ss_op *op, struct ss_error *err)
{
	struct ss_slub_model *m = (struct ss_slub_model *)mm;
	int c = ss_slub_memo_route(m, ev);

	if (c < 0) {
		c = route_slow(m, ev, obj, op, err);
		if (c == -2)
			return 0;
		if (c < 0)
			return -1;
		if (m->resync_pending) { /* the route made a cache as the kernel had it */
			op->resync = true;
			m->resync_pending = false;
		}
	}
	return ss_slub_alloc_in(m, c, ev, obj, op, err);
}

static void slub_free(struct ss_model *mm, unsigned cpu, struct ss_obj *obj,
		      struct ss_op *op)
{
	struct ss_slub_model *m = (struct ss_slub_model *)mm;
	const struct ss_target *t = m->cfg.target;

	if (obj->state == SS_OBJ_LARGE) {
		m->large.live--;
		m->large.requested_live -= obj->size;
		m->large.page_bytes -= (uint64_t)t->page_size << ss_get_order(t, obj->size);
		op->cycles += op->cost[SS_STEP_KFREE_LARGE];
		return;
	}
	if (obj->state != SS_OBJ_LIVE)
		return; /* kfree(ZERO_SIZE_PTR) is a no-op */
	ss_slub_free_live(m, cpu, obj, op);
}

/* The cache a prior free's object was in: kmalloc objects in the class
 * of their size (the site of a free says nothing of the allocation's
 * site), a declared cache wherever the placement puts its allocations. */
static int slub_free_prior(struct ss_model *mm, const struct ss_event *ev,
			   struct ss_op *op, uint32_t *cache, struct ss_error *err)
{
	struct ss_slub_model *m = (struct ss_slub_model *)mm;
	struct ss_kcache *s;
	struct ss_slab *sl;
	int c;

	if (ev->api == SS_API_KMALLOC) {
		if (!ev->value || ev->value > ss_kmalloc_max_cache_size(m->cfg.target))
			return 0; /* ZERO_SIZE_PTR or kmalloc_large: no slab object */
		c = kmalloc_cache_memo(m, ev->value, err);
	} else {
		c = m->policy->route(m, ev, err);
		if (c == SS_ROUTE_KMALLOC)
			c = kmalloc_cache_memo(m, ev->value, err);
		if (place_prior(m, ev->api, c, op, err))
			return -1;
	}
	if (c < 0)
		return -1;
	if (m->resync_pending) { /* the route made or grew a cache: as slub_alloc */
		op->resync = true;
		m->resync_pending = false;
	}
	/* set even when none is left: with op->resync the replay reads the
	 * cache again (place_prior may have given it the kernel's objects) */
	*cache = (uint32_t)c;
	s = m->caches[c];
	sl = ss_kcache_take_prior(s, ev->id ? (uint32_t)ev->id : 0);
	if (!sl) {
		s->prior_missing++;
		return 0;
	}
	s->prior_freed++;
	s->requested_live -= s->geo.object_size;
	ss_kcache_free(s, ev->cpu, sl, op);
	return 1;
}

static unsigned slub_nr_caches(const struct ss_model *mm)
{
	return ((const struct ss_slub_model *)mm)->nr_caches;
}

static void slub_cache_report(const struct ss_model *mm, unsigned i,
			      struct ss_cache_report *r)
{
	ss_kcache_report(((const struct ss_slub_model *)mm)->caches[i], r);
}

static void slub_large_report(const struct ss_model *mm,
			      struct ss_large_report *r)
{
	*r = ((const struct ss_slub_model *)mm)->large;
}

static void slub_destroy(struct ss_model *mm)
{
	struct ss_slub_model *m = (struct ss_slub_model *)mm;

	if (!m)
		return;
	for (unsigned i = 0; i < m->nr_caches; i++) {
		ss_kcache_release(m->caches[i]);
		free(m->caches[i]);
	}
	free(m->caches);
	free(m->kmalloc_cache);
	free(m->prior_placed);
	ss_route_memo_release(&m->memo);
	ss_strtab_release(&m->names);
	free(m->name_cache);
	ss_route_memo_release(&m->api_memo);
	free(m);
}

const struct ss_model_ops ss_slub_model_ops = {
	.create = slub_create,
	.alloc = slub_alloc,
	.free = slub_free,
	.free_prior = slub_free_prior,
	.nr_caches = slub_nr_caches,
	.cache_report = slub_cache_report,
	.large_report = slub_large_report,
	.destroy = slub_destroy,
};
