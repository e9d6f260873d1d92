/* slub_backend.c - SLUB and SLUB_TINY caches behind backend.h.
 *
 * SLUB up to 6.18: slub.c's paths (slub_debug.c for debug caches), with
 * CONFIG_SLUB_CPU_PARTIAL=n taking kmem_cache_has_cpu_partial() away, and
 * per-CPU sheaves (sheaf.c) for a cache the kernel creates with a sheaf
 * capacity (6.18; not for debug caches: do_kmem_cache_create() ignores
 * sheaf_capacity when slub_debug flags are set).  SLUB 7.0+: sheaves for
 * every cache calculate_sheaf_capacity() gives a capacity, over
 * slub7.c's slab paths (no CPU slabs).  SLUB_TINY: slub_tiny.c on the
 * same cache structure.
 */
#include <stdlib.h>

#include "backend.h"
#include "sheaf.h"
#include "slub.h"
#include "slub7.h"
#include "slub_tiny.h"

struct slub_cache {
	struct ss_kcache s;
	struct ss_backend_env env;
	int index;
	unsigned cpu;		   /* the CPU of the operation in progress */
	bool tiny;
	bool seven;		   /* SLUB of 7.0+ (slub7.c) */
	struct ss_sheaves *sheaves; /* NULL: none */
};

static void on_slab(void *ctx, struct ss_slab *sl, bool created, struct ss_op *op)
{
	struct slub_cache *c = ctx;

	c->env.slab_event(c->env.ctx, c->index, sl, sl->objects, created, c->cpu, op);
}

/* SLUB lays out what the kernel's SLUB sees: no cache-model flags. */
static struct ss_cache_spec slub_spec(const struct ss_cache_spec *spec)
{
	struct ss_cache_spec s = *spec;

	s.flags &= ~SS_CF_MODEL_ONLY;
	return s;
}

static int slub_layout(const struct ss_target *t, const struct ss_cache_spec *spec_in,
		       unsigned *size, unsigned *align, struct ss_error *err)
{
	struct ss_cache_spec spec = slub_spec(spec_in);
	struct ss_geometry g;

	if (ss_geometry_compute(t, &spec, &g, err))
		return -1;
	*size = g.size_nodebug;
	*align = g.align;
	return 0;
}

static bool slub_merges(const struct ss_target *t)
{
	(void)t;
	return true;
}

static void *create_common(const char *name, const struct ss_cache_spec *spec_in,
			   const struct ss_target *t, const struct ss_topology *topo,
			   const struct ss_backend_env *env, int index, bool tiny,
			   struct ss_error *err)
{
	struct slub_cache *c = calloc(1, sizeof(*c));
	struct ss_cache_spec spec = slub_spec(spec_in);
	unsigned cap;

	if (!c) {
		ss_errorf(err, "out of memory");
		return NULL;
	}
	if (ss_kcache_init(&c->s, name, &spec, t, topo, err)) {
		free(c);
		return NULL;
	}
	c->env = *env;
	c->index = index;
	c->tiny = tiny;
	c->s.on_slab = on_slab;
	c->s.on_slab_ctx = c;
	if (tiny) {
		ss_tiny_setup(&c->s);
	} else if (!t->kc.cpu_partial) { /* CONFIG_SLUB_CPU_PARTIAL=n */
		c->s.has_cpu_partial = false;
		c->s.geo.cpu_partial = 0;
		c->s.geo.cpu_partial_slabs = 0;
	}
	c->seven = !tiny && t->era >= SS_ERA_7_0;
	/* 6.18: the capacity the cache asks for; 7.0+: calculate_sheaf_capacity()
	 * (0 for a debug cache, SLAB_NO_SHEAVES and SLAB_NOLEAKTRACE ones) */
	cap = ss_kconfig_sheaf_capacity(t, name);
	if (c->seven)
		cap = ss_sheaf_capacity(t, &c->s.geo, cap, ss_sheaf_none_named(name));
	if (cap && !c->s.debug_paths && !(c->sheaves = ss_sheaves_create(&c->s, cap, env))) {
		ss_kcache_release(&c->s);
		free(c);
		ss_errorf(err, "out of memory");
		return NULL;
	}
	c->s.sheaves = c->sheaves;
	return c;
}

static void *slub_create(const char *name, const struct ss_cache_spec *spec,
			 const struct ss_target *t, const struct ss_topology *topo,
			 const struct ss_backend_env *env, int index, struct ss_error *err)
{
	return create_common(name, spec, t, topo, env, index, false, err);
}

static void *tiny_create(const char *name, const struct ss_cache_spec *spec,
			 const struct ss_target *t, const struct ss_topology *topo,
			 const struct ss_backend_env *env, int index, struct ss_error *err)
{
	/* SLUB_DEBUG depends on !SLUB_TINY: no slub_debug */
	if (spec->debug) {
		ss_errorf(err, "%s: slub_debug needs CONFIG_SLUB_DEBUG, which SLUB_TINY rules out", name);
		return NULL;
	}
	return create_common(name, spec, t, topo, env, index, true, err);
}

static void *slub_alloc(void *cache, unsigned cpu, struct ss_op *op)
{
	struct slub_cache *c = cache;

	struct ss_slab *sl;

	c->cpu = cpu;
	if (c->tiny)
		return ss_tiny_alloc(&c->s, cpu, op);
	/* slab_alloc_node(): alloc_from_pcs(), else the slabs (7.x
	 * ___slab_alloc(); 6.18, a failed refill: the CPU-slab paths) */
	if (c->sheaves && (sl = ss_sheaves_alloc(c->sheaves, cpu, op)))
		return sl;
	if (c->seven)
		return ss7_slab_alloc(&c->s, cpu, op);
	return ss_kcache_alloc(&c->s, cpu, op);
}

static void slub_free(void *cache, unsigned cpu, void *slab, bool cross_cpu,
		      struct ss_op *op)
{
	struct slub_cache *c = cache;

	c->cpu = cpu;
	if (cross_cpu) {
		op->stats = c->s.stats;
		ss_step(op, SS_STEP_REMOTE_FREE, 1);
	}
	if (c->tiny)
		ss_tiny_free(&c->s, cpu, slab, op);
	else if (c->sheaves && ss_sheaves_free(c->sheaves, cpu, slab, op))
		return; /* free_to_pcs() */
	else if (c->seven)
		ss7_slab_free(&c->s, cpu, slab, op);
	else
		ss_kcache_free(&c->s, cpu, slab, op);
}

/* The cache the initial state fills (model_recon.h), with or without
 * sheaves: the sheaves start empty, the kernel's objects are in slabs. */
static struct ss_kcache *slub_kcache(void *cache, bool *sheaves)
{
	struct slub_cache *c = cache;

	if (sheaves)
		*sheaves = c->sheaves != NULL;
	return &c->s;
}

/* __kmem_cache_alias() (mm/slub.c, 3.x-6.18): the merged cache's
 * object_size and inuse grow to the new cache's size, so a 192-byte
 * dentry merged into 184-byte filp objects is a 192-byte object.  (The
 * initial state's objects grow with it: model_recon.h grows.) */
static void slub_alias(void *cache, unsigned object_size)
{
	struct ss_kcache *s = &((struct slub_cache *)cache)->s;
	unsigned w = s->t->ptr_size, inuse = (object_size + w - 1) / w * w;

	if (object_size > s->geo.object_size)
		s->geo.object_size = object_size;
	if (inuse > s->geo.inuse)
		s->geo.inuse = inuse;
}

static struct ss_kcache *slub_plain(void *cache)
{
	struct slub_cache *c = cache;

	return c->tiny || c->sheaves || c->seven ? NULL : &c->s;
}

static void slub_report(const void *cache, struct ss_cache_report *r)
{
	const struct slub_cache *c = cache;

	ss_kcache_report(&c->s, r);
	if (c->sheaves) {
		r->live -= ss_sheaves_parked(c->sheaves);
		r->sheaf_capacity = ss_sheaves_capacity(c->sheaves);
	}
}

static uint64_t slub_slab_bytes(const void *cache)
{
	return ((const struct slub_cache *)cache)->s.slab_bytes;
}

static void slub_destroy(void *cache)
{
	struct slub_cache *c = cache;

	if (!c)
		return;
	ss_sheaves_destroy(c->sheaves);
	ss_kcache_release(&c->s);
	free(c);
}

const struct ss_backend_ops ss_backend_slub = {
	.allocator = SS_ALLOCATOR_SLUB,
	.layout = slub_layout,
	.merges = slub_merges,
	.create = slub_create,
	.alloc = slub_alloc,
	.free = slub_free,
	.report = slub_report,
	.slab_bytes = slub_slab_bytes,
	.destroy = slub_destroy,
	.kcache = slub_kcache,
	.alias = slub_alias,
	.plain = slub_plain,
};

/* No initial state: it fills per-CPU slabs and partial lists
 * (reconcile/slab_prior.c), which SLUB_TINY does not have. */
const struct ss_backend_ops ss_backend_slub_tiny = {
	.allocator = SS_ALLOCATOR_SLUB_TINY,
	.layout = slub_layout,
	.merges = slub_merges,
	.create = tiny_create,
	.alloc = slub_alloc,
	.free = slub_free,
	.report = slub_report,
	.destroy = slub_destroy,
	.alias = slub_alias,
};

const struct ss_backend_ops *ss_backend_for(const struct ss_target *t)
{
	switch (t->kc.allocator) {
	case SS_ALLOCATOR_SLAB:
		return &ss_backend_slab;
	case SS_ALLOCATOR_SLUB_TINY:
		return &ss_backend_slub_tiny;
	default:
		return &ss_backend_slub;
	}
}
