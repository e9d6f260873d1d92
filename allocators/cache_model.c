/* cache_model.c - one allocator's caches behind the model interface
 * (cache_model.h): caches created on first use (kmalloc families by
 * kmalloc_type.c, dedicated caches with find_mergeable()), zero-size
 * requests (ZERO_SIZE_PTR), kmalloc_large, the placement's route, and the
 * hooks every allocator runs through (slab_post_alloc_hook(): memcg and
 * init_on_alloc; slab_free_hook(): init_on_free; kfence_alloc()).
 */
#include "cache_model_fast.h"
#include "placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "kmalloc.h"
#include "model_recon.h"

/* ---- route memo ---- */

int ss_route_memo_get(const struct ss_route_memo *memo, uint32_t key)
{
	return key < memo->nr ? memo->slot[key] - 1 : -1;
}

int ss_route_memo_set(struct ss_route_memo *memo, uint32_t key, int cache)
{
	if (key >= memo->nr && ss_grow_zeroed((void **)&memo->slot, &memo->nr, key, sizeof(*memo->slot), 64))
		return -1;
	memo->slot[key] = cache + 1;
	return 0;
}

void ss_route_memo_release(struct ss_route_memo *memo)
{
	free(memo->slot);
	memset(memo, 0, sizeof(*memo));
}

struct ss_route_memo *ss_cmodel_memo(struct ss_cmodel *m)
{
	return &m->memo;
}

const struct ss_model_config *ss_cmodel_config(const struct ss_cmodel *m)
{
	return &m->cfg;
}

/* ---- caches ---- */

/* slub_debug=FLAGS,name1,name2 applies only to the named caches. */
static unsigned debug_for(const struct ss_cmodel *m, const char *name)
{
	char key[80];

	if (!m->cfg.debug || !m->cfg.debug_caches[0])
		return m->cfg.debug;
	snprintf(key, sizeof(key), ",%s,", name);
	return strstr(m->cfg.debug_caches, key) ? m->cfg.debug : 0;
}

/* Remember the first cache called name.  -1: out of memory. */
static int index_name(struct ss_cmodel *m, const char *name, int cache)
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

/* The pages a backend cache holds (its report's slab bytes). */
static int64_t cache_pages(const struct ss_cmodel *m, const void *be)
{
	struct ss_cache_report r;

	m->be->report(be, &r);
	return (int64_t)(r.slab_bytes / m->cfg.target->page_size);
}

/* A new cache may start as the kernel's of its name (model_recon.h
 * created); the pages that gives it reach the memory total with the next
 * operation. */
static int start_as_kernel(struct ss_cmodel *m, void *be, const char *name,
			   struct ss_error *err)
{
	const struct ss_recon_hooks *h = m->cfg.recon;
	bool changed = false;
	int64_t before;

	if (!h)
		return 0;
	before = cache_pages(m, be);
	if (h->created(h->ctx, name, m->be->kcache(be, NULL), &changed, err))
		return -1;
	if (changed) {
		m->pending_pages += cache_pages(m, be) - before;
		m->resync_pending = true;
	}
	return 0;
}

int ss_cm_add_cache(struct ss_cmodel *m, const char *name, const struct ss_cache_spec *spec,
		 bool with_backend, struct ss_error *err)
{
	struct ss_cm_cache *fc;
	struct ss_cache_report r;

	if (m->nr_caches == m->cap_caches) {
		unsigned cap = m->cap_caches ? m->cap_caches * 2 : 32;
		struct ss_cm_cache **c = realloc(m->caches, cap * sizeof(*c));
		struct ss_kcache **p;
		void **t;

		if (!c)
			return ss_errorf(err, "out of memory");
		m->caches = c;
		t = realloc(m->timed, cap * sizeof(*t));
		if (!t)
			return ss_errorf(err, "out of memory");
		m->timed = t;
		p = realloc(m->plain, cap * sizeof(*p));
		if (!p)
			return ss_errorf(err, "out of memory");
		m->plain = p;
		m->cap_caches = cap;
	}
	fc = calloc(1, sizeof(*fc));
	if (!fc)
		return ss_errorf(err, "out of memory");
	snprintf(fc->name, sizeof(fc->name), "%s", name);
	fc->spec = *spec;
	if (with_backend) {
		fc->be = m->be->create(name, spec, m->cfg.target, m->cfg.topo, &m->env,
				       (int)m->nr_caches, err);
		if (!fc->be) {
			free(fc);
			return -1;
		}
		if (start_as_kernel(m, fc->be, name, err) ||
		    (index_name(m, fc->name, (int)m->nr_caches) && ss_errorf(err, "out of memory"))) {
			m->be->destroy(fc->be);
			free(fc);
			return -1;
		}
		m->be->report(fc->be, &r);
		fc->stride = r.slab_size;
		fc->debug = r.debug;
		/* slab_unmergeable(): a cache with sheaves (6.18); from 7.0,
		 * when every cache has them, a cache created with a capacity
		 * (SLAB_NO_MERGE, __kmem_cache_create_args()) */
		fc->nomerge = m->cfg.target->era >= SS_ERA_7_0
				      ? ss_kconfig_sheaf_capacity(m->cfg.target, name) > 0
				      : r.sheaf_capacity > 0;
	}
	m->caches[m->nr_caches] = fc;
	m->plain[m->nr_caches] = fc->be && m->be->plain ? m->be->plain(fc->be) : NULL;
	return (int)m->nr_caches++;
}



/* The cache of kmalloc class idx in family `type`, created on first use. */
static int family_cache(struct ss_cmodel *m, unsigned type, int idx, struct ss_error *err)
{
	const struct ss_target *t = m->cfg.target;
	struct ss_cache_spec spec;
	bool account, nomerge;
	char name[64];
	int c;

	if (!m->kcache[type]) {
		m->kcache[type] = malloc((size_t)m->nr_classes * sizeof(*m->kcache[type]));
		if (!m->kcache[type])
			return ss_errorf(err, "out of memory");
		for (int i = 0; i < m->nr_classes; i++)
			m->kcache[type][i] = -1;
	}
	if (m->kcache[type][idx] >= 0)
		return m->kcache[type][idx];
	ss_kmalloc_type_name(t, type, idx, name, sizeof(name));
	ss_kmalloc_type_spec(t, type, idx, debug_for(m, name), &spec, &account, &nomerge);
	c = ss_cm_add_cache(m, name, &spec, true, err);
	if (c < 0)
		return -1;
	m->caches[c]->account = account;
	m->caches[c]->nomerge |= nomerge;
	if (account) /* slab_post_alloc_hook() charges every object: no inline path */
		m->plain[c] = NULL;
	m->kcache[type][idx] = c;
	return c;
}

/* The cache for a kmalloc of size bytes in family `type`. */
static int kmalloc_cache(struct ss_cmodel *m, unsigned type, uint64_t size,
			 struct ss_error *err)
{
	int idx = ss_kmalloc_index(m->cfg.target, (size_t)size);
	int32_t *slot = NULL;
	int c;

	if (type == SS_KT_NORMAL && size <= SS_SIZE_MEMO_MAX) {
		slot = &m->size_memo[(size - 1) >> 3];
		if (*slot)
			return *slot - 1;
	}
	if (type == SS_KT_NORMAL && m->ov && ss_override_has_classes(m->ov))
		c = ss_override_class_cache(m, m->ov, size, err); /* another class set */
	else if (idx < 0)
		return ss_errorf(err, "no kmalloc class for %llu bytes", (unsigned long long)size);
	else
		c = family_cache(m, type, idx, err);
	if (c >= 0 && slot)
		*slot = c + 1;
	return c;
}

int ss_cmodel_kmalloc_cache(struct ss_cmodel *m, uint64_t size, struct ss_error *err)
{
	return kmalloc_cache(m, SS_KT_NORMAL, size, err);
}

int ss_cmodel_kmalloc_class(struct ss_cmodel *m, int idx, struct ss_error *err)
{
	return family_cache(m, SS_KT_NORMAL, idx, err);
}

int ss_cmodel_own_cache(struct ss_cmodel *m, const char *name,
			const struct ss_cache_spec *spec_in, struct ss_error *err)
{
	struct ss_cache_spec spec = *spec_in;
	uint32_t idx = ss_strtab_find(&m->names, name);

	if (idx != UINT32_MAX) {
		const struct ss_cache_spec *have = &m->caches[m->name_cache[idx]]->spec;

		if (have->object_size != spec.object_size || have->align != spec.align ||
		    have->flags != spec.flags)
			return ss_errorf(err, "cache %s exists with other arguments (%u bytes, align %u)",
					 name, have->object_size, have->align);
		return m->name_cache[idx];
	}
	spec.debug = debug_for(m, name);
	return ss_cm_add_cache(m, name, &spec, true, err);
}

/* find_mergeable() (mm/slab_common.c): an existing cache whose stride
 * fits the new one within a pointer, with no debug, RCU or constructor. */
static int find_mergeable(const struct ss_cmodel *m, const struct ss_cache_spec *spec,
			  unsigned size, unsigned align)
{
	const unsigned never = SS_CF_RCU | SS_CF_CTOR | SS_CF_FREEPTR;

	if (spec->debug || (spec->flags & never))
		return -1;
	for (unsigned i = m->nr_caches; i-- > 0;) {
		const struct ss_cm_cache *s = m->caches[i];

		if (!s->be || s->nomerge || s->debug || (s->spec.flags & never))
			continue;
		if (size > s->stride || (s->stride & ~(align - 1)) != s->stride)
			continue;
		if (s->stride - size >= m->cfg.target->ptr_size)
			continue;
		return (int)i;
	}
	return -1;
}

int ss_cmodel_named_cache(struct ss_cmodel *m, const char *name,
			  const struct ss_cache_spec *spec_in, struct ss_error *err)
{
	return ss_cmodel_cache(m, name, spec_in, m->cfg.merge, err);
}

int ss_cmodel_cache(struct ss_cmodel *m, const char *name, const struct ss_cache_spec *spec_in,
		    bool merge, struct ss_error *err)
{
	const struct ss_target *t = m->cfg.target;
	struct ss_cache_spec spec = *spec_in;
	uint32_t idx = ss_strtab_find(&m->names, name);
	unsigned size, align;

	if (idx != UINT32_MAX)
		return m->name_cache[idx];
	spec.debug = debug_for(m, name);
	/* a cache created with a sheaf capacity skips __kmem_cache_alias() */
	if (merge && !t->kc.nomerge && m->be->merges(t) && !ss_kconfig_sheaf_capacity(t, name)) {
		int c;

		if (m->be->layout(t, &spec, &size, &align, err))
			return -1;
		c = find_mergeable(m, &spec, size, align);
		if (c >= 0) {
			/* __kmem_cache_alias(): the merged cache's object
			 * size grows to the new cache's (backend.h alias) */
			struct ss_cm_cache *fc = m->caches[c];

			if (spec.object_size > fc->spec.object_size) {
				fc->spec.object_size = spec.object_size;
				m->resync_pending = true; /* take_pending */
			}
			if (m->cfg.recon)
				m->cfg.recon->grows(m->cfg.recon->ctx, m->be->kcache(fc->be, NULL),
						    spec.object_size);
			m->be->alias(fc->be, spec.object_size);
			return c;
		}
	}
	return ss_cm_add_cache(m, name, &spec, true, err);
}

/* ---- the allocator's own kmalloc ---- */

int ss_cm_internal_kmalloc(void *ctx, uint64_t bytes, const char *site, unsigned cpu,
			struct ss_iobj *out, struct ss_op *op)
{
	struct ss_cmodel *m = ctx;
	uint64_t *saved = op->stats;
	struct ss_error err;
	/* the random copy by the call site; buckets are for their own sites */
	unsigned type = ss_kmalloc_site_type(m->cfg.target, site);
	int c;

	if (type >= SS_KT_BUCKET || bytes > UINT32_MAX)
		type = SS_KT_NORMAL;
	c = kmalloc_cache(m, type, bytes, &err);
	out->cache = -1;
	if (c < 0)
		return -1;
	out->slab = m->be->alloc(m->caches[c]->be, cpu, op);
	op->stats = saved;
	if (!out->slab)
		return -1;
	out->cache = c;
	out->bytes = (uint32_t)bytes;
	*cm_requested(m, (unsigned)c) += bytes;
	m->caches[c]->internal_live++;
	m->caches[c]->internal_requested += bytes;
	return 0;
}

void ss_cm_internal_kfree(void *ctx, struct ss_iobj *obj, unsigned cpu, struct ss_op *op)
{
	struct ss_cmodel *m = ctx;
	uint64_t *saved = op->stats;
	struct ss_cm_cache *fc;

	if (obj->cache < 0)
		return;
	fc = m->caches[obj->cache];
	m->be->free(fc->be, cpu, obj->slab, false, op);
	*cm_requested(m, (unsigned)obj->cache) -= obj->bytes;
	fc->internal_live--;
	fc->internal_requested -= obj->bytes;
	op->stats = saved;
	obj->cache = -1;
}

/* ---- model ops ---- */

static void cm_destroy(struct ss_model *mm);

static int cm_create(struct ss_model **out, const struct ss_model_config *cfg,
		     const void *policy, struct ss_error *err)
{
	struct ss_cmodel *m = calloc(1, sizeof(*m));
	const struct ss_target *t = cfg->target;
	unsigned cpus = cfg->topo->nr_cpus;

	if (!m)
		return ss_errorf(err, "out of memory");
	if (cfg->recon && !ss_backend_for(t)->kcache) {
		free(m);
		return ss_errorf(err, "--initial-state: the kernel's caches are modelled for SLUB only, not %s",
				 ss_allocator_name(t->kc.allocator));
	}
	m->cfg = *cfg;
	m->policy = policy;
	m->be = ss_backend_for(t);
	m->env = (struct ss_backend_env){.ctx = m, .kmalloc = ss_cm_internal_kmalloc,
					 .kfree = ss_cm_internal_kfree, .slab_event = ss_cm_slab_event,
					 .no_recurse = &m->sheaf_no_recurse};
	m->nr_classes = ss_kmalloc_nr_classes(t);
	m->kfence.cache = -1;
	m->fast = !t->kc.kfence && !t->kc.init_on_alloc && !t->kc.init_on_free && !t->kc.memcg;
	m->kmalloc_by_size = !t->kc.random_kmalloc && !t->kc.slab_buckets &&
			     !m->policy->kmalloc_by_site;
	m->timed_work = m->be->cpu_timer || t->kc.kfence;
	m->size_memo = calloc(SS_SIZE_MEMO_MAX / 8, sizeof(*m->size_memo));
	m->now_ns = calloc(cpus, sizeof(*m->now_ns));
	m->timer_ns = malloc(cpus * sizeof(*m->timer_ns));
	if (!m->size_memo || !m->now_ns || !m->timer_ns) {
		cm_destroy((struct ss_model *)m);
		return ss_errorf(err, "out of memory");
	}
	for (unsigned i = 0; i < cpus; i++)
		m->timer_ns[i] = -1;
	if (cfg->overrides && ss_ov_state_create(cfg->overrides, t, &m->ov, err)) {
		cm_destroy((struct ss_model *)m);
		return -1;
	}
	/* an override's route depends on the site: no route by size alone */
	m->kmalloc_by_size = m->kmalloc_by_size && !m->ov;
	if (t->kc.kfence) {
		struct ss_cache_report r;

		if (ss_cm_kfence_init(m, err)) {
			cm_destroy((struct ss_model *)m);
			return -1;
		}
		/* the pool is reserved at boot: the first operation says so */
		ss_cm_kfence_report(m, &r);
		m->pending_pages += (int64_t)(r.slab_bytes / t->page_size);
	}
	*out = (struct ss_model *)m;
	return 0;
}

/* kmalloc_large(): whole pages from the page allocator. */
static void alloc_large(struct ss_cmodel *m, struct ss_obj *obj, struct ss_op *op)
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

/* The family of a kmalloc at this site with these flags. */
static int kmalloc_family(struct ss_cmodel *m, const struct ss_event *ev,
			  unsigned *type, struct ss_error *err)
{
	const struct ss_target *t = m->cfg.target;
	unsigned st;

	if (ev->site >= m->nr_site_type &&
	    ss_grow_zeroed((void **)&m->site_type, &m->nr_site_type, ev->site, 1, 64))
		return ss_errorf(err, "out of memory");
	if (!m->site_type[ev->site])
		m->site_type[ev->site] = (uint8_t)(1 + ss_kmalloc_site_type(
			t, ss_trace_name(m->cfg.tables, ev->site)));
	st = m->site_type[ev->site] - 1u;
	*type = st;
	/* kmem_buckets_alloc() ignores kmalloc_type(); otherwise a flag the
	 * kernel has a family for wins over the random copy */
	if (st < SS_KT_BUCKET && (ev->gfp & SS_GFP_ALL)) {
		unsigned g = ss_kmalloc_gfp_type(t, ev->gfp);

		if (g != SS_KT_NORMAL)
			*type = g;
	}
	return 0;
}

/* The cache of a kmalloc request, or SS_ROUTE_KMALLOC again for zero-size
 * and large requests (handled by the caller), or -1. */
static int route_kmalloc(struct ss_cmodel *m, const struct ss_event *ev,
			 struct ss_obj *obj, struct ss_op *op, struct ss_error *err)
{
	const struct ss_target *t = m->cfg.target;
	unsigned type = SS_KT_NORMAL;

	if (ev->value == 0) { /* ZERO_SIZE_PTR: no object */
		obj->state = SS_OBJ_ZERO;
		return SS_ROUTE_KMALLOC;
	}
	if (ev->value > ss_kmalloc_max_cache_size(t)) {
		if (!ss_kmalloc_has_large(t))
			return ss_errorf(err, "kmalloc of %llu bytes: above the largest class (%u) "
					      "of this SLAB, which fails it (no kmalloc_large before 6.1)",
					 (unsigned long long)ev->value, ss_kmalloc_max_cache_size(t));
		alloc_large(m, obj, op);
		return SS_ROUTE_KMALLOC;
	}
	if (t->kc.random_kmalloc || t->kc.slab_buckets || (ev->gfp & SS_GFP_ALL)) {
		if (kmalloc_family(m, ev, &type, err))
			return -1;
	}
	return kmalloc_cache(m, type, ev->value, err);
}

/* slab_post_alloc_hook(): memcg charge, init_on_alloc's memset. */
static int post_alloc(struct ss_cmodel *m, struct ss_cm_cache *fc, const struct ss_event *ev,
		      struct ss_obj *obj, struct ss_op *op, struct ss_error *err)
{
	const struct ss_kconfig *kc = &m->cfg.target->kc;

	if (kc->memcg && ((ev->gfp & SS_GFP_ACCOUNT) || fc->account) &&
	    ss_cm_memcg_charge(m, fc, obj, op, err))
		return -1;
	if (kc->init_on_alloc) {
		ss_step(op, SS_STEP_INIT_ON_ALLOC, 1);
		ss_step(op, SS_STEP_INIT_ON_ALLOC_BYTES, fc->spec.object_size);
	}
	return 0;
}

/* Pages given to slabs outside an operation go with this one. */
static void take_pending(struct ss_cmodel *m, struct ss_op *op)
{
	op->slab_pages += m->pending_pages;
	op->resync |= m->resync_pending;
	m->pending_pages = 0;
	m->resync_pending = false;
}

/* With an initial state, a declared cache the placement puts into a cache
 * of another name (kmalloc-buckets: dentry into kmalloc-192) brings the
 * kernel's objects of that cache along, on its first route: the what-if
 * starts with the same objects, placed its way (model_recon.h joined). */
static int place_prior(struct ss_cmodel *m, uint32_t api, int c, struct ss_op *op,
		       struct ss_error *err)
{
	const struct ss_recon_hooks *h = m->cfg.recon;
	const char *name;
	bool changed = false;
	void *be;
	int64_t before;

	if (!h || api == SS_API_KMALLOC || c < 0)
		return 0;
	if (api >= m->nr_prior_placed &&
	    ss_grow_zeroed((void **)&m->prior_placed, &m->nr_prior_placed, api, 1, 64))
		return ss_errorf(err, "out of memory");
	if (m->prior_placed[api])
		return 0;
	m->prior_placed[api] = 1;
	name = ss_trace_cache_name(m->cfg.tables, api);
	be = m->caches[c]->be;
	if (!be || !strcmp(name, m->caches[c]->name))
		return 0;
	before = cache_pages(m, be);
	if (h->joined(h->ctx, name, m->be->kcache(be, NULL), &changed, err))
		return -1;
	if (changed) {
		op->slab_pages += cache_pages(m, be) - before;
		op->resync = true;
	}
	return 0;
}

/* A placement override's cache for ev's site, else the placement's. */
static int route_base(struct ss_cmodel *m, const struct ss_event *ev, struct ss_error *err)
{
	int c = m->ov ? ss_override_route(m, m->ov, ev, err) : SS_ROUTE_BASE;

	return c == SS_ROUTE_BASE ? m->policy->route(m, ev, err) : c;
}

/* The placement's answer and what the model does with SS_ROUTE_KMALLOC:
 * -1 error, SS_ROUTE_KMALLOC no object needed (zero size,
 * kmalloc_large), else the cache, memoized for a declared cache's api. */
static int route_slow(struct ss_cmodel *m, const struct ss_event *ev,
		      struct ss_obj *obj, struct ss_op *op, struct ss_error *err)
{
	int c = route_base(m, ev, err);

	if (c == SS_ROUTE_KMALLOC)
		return route_kmalloc(m, ev, obj, op, err);
	/* first route of a declared cache (api_memo is set below) */
	if (c < 0 || place_prior(m, ev->api, c, op, err))
		return -1;
	if (ev->api != SS_API_KMALLOC && !m->ov && /* overrides route by site */
	    ss_route_memo_set(&m->api_memo, ev->api, c))
		return ss_errorf(err, "out of memory");
	return c;
}

static int cm_alloc(struct ss_model *mm, const struct ss_event *ev,
		    struct ss_obj *obj, struct ss_op *op, struct ss_error *err)
{
	struct ss_cmodel *m = (struct ss_cmodel *)mm;
	int c = ss_cmodel_memo_route(m, ev);
	struct ss_kcache *k;
	struct ss_cm_cache *fc;

	/* a plain cache of a model with no hook: slub.h's paths, inline */
	if (m->fast && c >= 0 && (k = m->plain[c]))
		return ss_cmodel_alloc_plain(k, c, ev, obj, op, err);
	obj->mflags = 0;
	if (c < 0) {
		c = route_slow(m, ev, obj, op, err);
		take_pending(m, op); /* the route may have made a kernel's cache */
		if (c == SS_ROUTE_KMALLOC)
			return 0; /* zero-size or large */
		if (c < 0)
			return -1;
	}
	fc = m->caches[c];
	if (m->cfg.target->kc.kfence && ss_cm_kfence_wants(m, ev->cpu, fc->spec.object_size)) {
		ss_cm_kfence_alloc(m, ev->cpu, obj, op);
	} else {
		obj->slab = m->be->alloc(fc->be, ev->cpu, op);
		if (!obj->slab)
			return ss_errorf(err, "out of memory for slab descriptors");
		obj->cache = (uint32_t)c;
		obj->state = SS_OBJ_LIVE;
		*cm_requested(m, (unsigned)c) += obj->size;
	}
	if (post_alloc(m, fc, ev, obj, op, err))
		return -1;
	return 0;
}

static void cm_free(struct ss_model *mm, unsigned cpu, struct ss_obj *obj,
		    struct ss_op *op)
{
	struct ss_cmodel *m = (struct ss_cmodel *)mm;
	const struct ss_target *t = m->cfg.target;
	struct ss_cm_cache *fc;

	/* a plain cache of a model with no hook: slub.h's paths, inline */
	if (m->fast && obj->state == SS_OBJ_LIVE && ss_cmodel_free_plain(m, cpu, obj, op))
		return;
	take_pending(m, op); /* a sheaf's kmalloc may have made a kernel's cache */
	if (obj->state == SS_OBJ_LARGE) {
		m->large.live--;
		m->large.requested_live -= obj->size;
		m->large.page_bytes -= (uint64_t)t->page_size << ss_get_order(t, obj->size);
		op->cycles += op->cost[SS_STEP_KFREE_LARGE];
		return;
	}
	if (obj->state != SS_OBJ_LIVE)
		return; /* kfree(ZERO_SIZE_PTR) is a no-op */
	if (obj->mflags & SS_CM_KFENCE) {
		ss_cm_kfence_free(m, obj, op);
		return;
	}
	fc = m->caches[obj->cache];
	*cm_requested(m, obj->cache) -= obj->size;
	m->be->free(fc->be, cpu, obj->slab, obj->cpu != cpu, op);
	/* slab_free_hook(): memcg uncharge, init_on_free's memset (SLUB
	 * also clears the metadata after the object: the stride) */
	if (obj->mflags & SS_CM_ACCOUNTED)
		ss_step(op, SS_STEP_MEMCG_UNCHARGE, 1);
	if (t->kc.init_on_free) {
		ss_step(op, SS_STEP_INIT_ON_FREE, 1);
		ss_step(op, SS_STEP_INIT_ON_FREE_BYTES,
			t->kc.allocator == SS_ALLOCATOR_SLAB ? fc->spec.object_size : fc->stride);
	}
}

/* The cache a prior free's object was in: kmalloc objects in the class
 * of their size, of the family their flags pick (kmalloc_type(); the
 * import writes the flags it learned: docs/import.md, "Frees of objects
 * from before the capture"), never a random copy or a bucket (the free
 * says nothing of the allocation's site); a declared cache wherever the
 * placement puts its allocations.  SS_ROUTE_KMALLOC: no slab object
 * (ZERO_SIZE_PTR, kmalloc_large); -1 with err.  *declared: the event is
 * a declared cache's, whose first prior free gives the cache the
 * kernel's objects (place_prior). */
static int prior_route(struct ss_cmodel *m, const struct ss_event *ev, bool *declared,
		       struct ss_error *err)
{
	int c;

	*declared = ev->api != SS_API_KMALLOC;
	if (!*declared) {
		if (!ev->value || ev->value > ss_kmalloc_max_cache_size(m->cfg.target))
			return SS_ROUTE_KMALLOC;
		return kmalloc_cache(m, ev->gfp & SS_GFP_ALL ?
				     ss_kmalloc_gfp_type(m->cfg.target, ev->gfp) : SS_KT_NORMAL,
				     ev->value, err);
	}
	c = route_base(m, ev, err);
	if (c != SS_ROUTE_KMALLOC)
		return c;
	/* a kmalloc of a declared cache's objects (kmalloc-buckets): large
	 * ones had no slab object */
	if (!ev->value || ev->value > ss_kmalloc_max_cache_size(m->cfg.target))
		return SS_ROUTE_KMALLOC;
	return kmalloc_cache(m, SS_KT_NORMAL, ev->value, err);
}

static int cm_prior_cache(struct ss_model *mm, const struct ss_event *ev, struct ss_op *op,
			  int *cache, struct ss_error *err)
{
	struct ss_cmodel *m = (struct ss_cmodel *)mm;
	bool declared;
	int c = prior_route(m, ev, &declared, err);

	*cache = -1;
	if (c == SS_ROUTE_KMALLOC)
		return 0;
	if (op) {
		if (declared && place_prior(m, ev->api, c, op, err))
			return -1;
		take_pending(m, op);
	}
	if (c < 0)
		return -1;
	*cache = c;
	return 0;
}

static struct ss_kcache *cm_slub_cache(struct ss_model *mm, uint32_t cache, bool *sheaves)
{
	struct ss_cmodel *m = (struct ss_cmodel *)mm;
	const struct ss_cm_cache *fc = m->caches[cache];

	return fc->be && m->be->kcache ? m->be->kcache(fc->be, sheaves) : NULL;
}

static void cm_free_on_slab(struct ss_model *mm, uint32_t cache, unsigned cpu, void *slab,
			    struct ss_op *op)
{
	struct ss_cmodel *m = (struct ss_cmodel *)mm;

	m->be->free(m->caches[cache]->be, cpu, slab, false, op);
}

static const struct ss_model_recon cm_recon = {
	.prior_cache = cm_prior_cache,
	.slub_cache = cm_slub_cache,
	.free_on_slab = cm_free_on_slab,
};

/* The KFENCE pool, when configured, is cache 0. */
static unsigned cm_nr_caches(const struct ss_model *mm)
{
	return ((const struct ss_cmodel *)mm)->nr_caches;
}

static void cm_cache_report(const struct ss_model *mm, unsigned i,
			    struct ss_cache_report *r)
{
	const struct ss_cmodel *m = (const struct ss_cmodel *)mm;
	const struct ss_cm_cache *fc = m->caches[i];

	if (!fc->be) {
		ss_cm_kfence_report(m, r);
		r->requested_live = fc->requested_live;
	} else {
		m->be->report(fc->be, r);
		r->name = fc->name;
		r->requested_live += fc->requested_live; /* see cm_requested() */
	}
	r->internal_live = fc->internal_live;
	r->internal_requested = fc->internal_requested;
}

static uint64_t cm_cache_slab_bytes(const struct ss_model *mm, unsigned i)
{
	const struct ss_cmodel *m = (const struct ss_cmodel *)mm;
	const struct ss_cm_cache *fc = m->caches[i];
	struct ss_cache_report r;

	if (fc->be && m->be->slab_bytes)
		return m->be->slab_bytes(fc->be);
	cm_cache_report(mm, i, &r);
	return r.slab_bytes;
}

static void cm_large_report(const struct ss_model *mm, struct ss_large_report *r)
{
	*r = ((const struct ss_cmodel *)mm)->large;
}

static void cm_tick(struct ss_model *mm, unsigned cpu, double now, struct ss_op *op)
{
	struct ss_cmodel *m = (struct ss_cmodel *)mm;
	double ns;
	unsigned nr = 0;

	take_pending(m, op);
	if (!m->timed_work)
		return;
	ns = now * 1000.0 / m->cfg.target->clock_mhz;
	m->now_ns[cpu] = ns;
	if (!m->be->cpu_timer || (m->timer_ns[cpu] >= 0 && ns < m->timer_ns[cpu]))
		return;
	for (unsigned i = 0; i < m->nr_caches; i++)
		if (m->caches[i]->be)
			m->timed[nr++] = m->caches[i]->be;
	m->timer_ns[cpu] = m->be->cpu_timer(m->timed, nr, cpu, ns, m->timer_ns[cpu] < 0, op);
}

static bool cm_timed(const struct ss_model *mm)
{
	return ((const struct ss_cmodel *)mm)->timed_work;
}

static void cm_destroy(struct ss_model *mm)
{
	struct ss_cmodel *m = (struct ss_cmodel *)mm;

	if (!m)
		return;
	for (unsigned i = 0; i < m->nr_caches; i++) {
		if (m->caches[i]->be)
			m->be->destroy(m->caches[i]->be);
		free(m->caches[i]);
	}
	for (int k = 0; k < SS_NR_KT; k++)
		free(m->kcache[k]);
	free(m->caches);
	free(m->plain);
	free(m->timed);
	free(m->prior_placed);
	free(m->name_cache);
	ss_strtab_release(&m->names);
	ss_route_memo_release(&m->api_memo);
	ss_ov_state_destroy(m->ov);
	free(m->size_memo);
	free(m->site_type);
	free(m->now_ns);
	free(m->timer_ns);
	free(m->route_memo);
	ss_cm_vecmap_release(&m->vecs);
	ss_route_memo_release(&m->memo);
	free(m);
}

const struct ss_model_ops ss_cache_model_ops = {
	.create = cm_create,
	.alloc = cm_alloc,
	.free = cm_free,
	.nr_caches = cm_nr_caches,
	.cache_report = cm_cache_report,
	.cache_slab_bytes = cm_cache_slab_bytes,
	.large_report = cm_large_report,
	.destroy = cm_destroy,
	.tick = cm_tick,
	.timed = cm_timed,
	.batch = ss_cmodel_batch,
	.recon = &cm_recon,
};
