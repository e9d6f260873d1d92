/* placement_override.c - a placement override table (override.h) applied
 * on top of a SLUB model's own placement: the model asks
 * ss_override_route() first and its placement only for sites no rule
 * names; a class set replaces the kmalloc class lookup.  Each rule's
 * cache is made on the first allocation that needs it, like every cache
 * of the model. */
#include <stdlib.h>
#include <string.h>

#include "kmalloc.h"
#include "override.h"
#include "placement.h"

struct ss_ov_state {
	const struct ss_overrides *ov;
	struct ss_route_memo site; /* site index -> rule index; ov->nr: none */
	int32_t *rule_cache;	   /* per rule: cache index, -1 not made yet */
	uint32_t *rule_cap;	   /* ... and the bytes its objects hold */
	int32_t *bucket_cache;	   /* per rule and kmalloc class index */
	int32_t class_cache[SS_OV_MAX_CLASSES]; /* per class of the set */
	int nr_kmalloc;		   /* the target's kmalloc class indexes */
};

/* "FILE:LINE: " prefix for rule i (classes line for i < 0) */
#define WHERE(st, i, buf) ss_overrides_where((st)->ov, (i), (buf), sizeof(buf))

int ss_ov_state_create(const struct ss_overrides *ov, const struct ss_target *t,
		       struct ss_ov_state **out, struct ss_error *err)
{
	struct ss_ov_state *st = calloc(1, sizeof(*st));
	size_t nb;

	if (!st)
		return ss_errorf(err, "out of memory");
	st->ov = ov;
	st->nr_kmalloc = ss_kmalloc_nr_classes(t);
	nb = (size_t)ov->nr * (size_t)st->nr_kmalloc;
	st->rule_cache = malloc((ov->nr + 1) * sizeof(*st->rule_cache));
	st->rule_cap = calloc(ov->nr + 1, sizeof(*st->rule_cap));
	st->bucket_cache = malloc((nb + 1) * sizeof(*st->bucket_cache));
	if (!st->rule_cache || !st->rule_cap || !st->bucket_cache) {
		ss_ov_state_destroy(st);
		return ss_errorf(err, "out of memory");
	}
	for (unsigned i = 0; i < ov->nr; i++)
		st->rule_cache[i] = -1;
	for (size_t i = 0; i < nb; i++)
		st->bucket_cache[i] = -1;
	for (unsigned i = 0; i < SS_OV_MAX_CLASSES; i++)
		st->class_cache[i] = -1;
	/* the set must cover every size kmalloc serves from a slab; above
	 * the largest class requests go to kmalloc_large as before */
	if (ov->nr_classes &&
	    ov->classes[ov->nr_classes - 1] != ss_kmalloc_max_cache_size(t)) {
		char where[300];

		WHERE(st, -1, where);
		ss_ov_state_destroy(st);
		return ss_errorf(err, "%sclasses end at %u; on %s they must end at KMALLOC_MAX_CACHE_SIZE, %u",
				 where, ov->classes[ov->nr_classes - 1], t->name,
				 ss_kmalloc_max_cache_size(t));
	}
	*out = st;
	return 0;
}

void ss_ov_state_destroy(struct ss_ov_state *st)
{
	if (!st)
		return;
	ss_route_memo_release(&st->site);
	free(st->rule_cache);
	free(st->rule_cap);
	free(st->bucket_cache);
	free(st);
}

bool ss_override_has_classes(const struct ss_ov_state *st)
{
	return st->ov->nr_classes > 0;
}

/* The target's kmalloc class index called name, or -1. */
static int kmalloc_class_named(const struct ss_target *t, const char *name)
{
	char buf[SS_OV_NAME_MAX];

	for (int i = 0; i < ss_kmalloc_nr_classes(t); i++) {
		if (!ss_kmalloc_class_exists(t, i))
			continue;
		ss_kmalloc_class_name(t, i, buf, sizeof(buf));
		if (!strcmp(buf, name))
			return i;
	}
	return -1;
}

/* into=CACHE: a kmalloc class of the target, or a declared cache. */
static int into_cache(struct ss_cmodel *m, struct ss_ov_state *st, int r,
		      uint64_t size, unsigned *cap, struct ss_error *err)
{
	const struct ss_model_config *cfg = ss_cmodel_config(m);
	const struct ss_ov_rule *rule = &st->ov->rule[r];
	int idx = kmalloc_class_named(cfg->target, rule->cache);
	uint32_t api;
	unsigned have;
	char where[300];

	WHERE(st, r, where);
	if (idx >= 0) {
		have = ss_kmalloc_class_size(cfg->target, idx);
		if (size > have)
			return ss_errorf(err, "%ssite %s asks %llu bytes, more than %s holds",
					 where, rule->site, (unsigned long long)size, rule->cache);
		*cap = have;
		return ss_cmodel_kmalloc_cache(m, have, err);
	}
	api = ss_strtab_find(&cfg->tables->cache_names, rule->cache);
	if (api == UINT32_MAX || api == SS_API_KMALLOC)
		return ss_errorf(err, "%sinto=%s: no kmalloc class of %s and no cache the trace declares has that name",
				 where, rule->cache, cfg->target->name);
	have = cfg->tables->caches[api].object_size;
	if (size > have)
		return ss_errorf(err, "%ssite %s asks %llu bytes, more than %s holds (%u)",
				 where, rule->site, (unsigned long long)size, rule->cache, have);
	*cap = have;
	return ss_place_declared_cache(m, api, err);
}

/* buckets=SET: kmem_buckets_create() makes SET-<size> for every kmalloc
 * class, align 0 (so ARCH_SLAB_MINALIGN) and SLAB_NO_MERGE
 * (mm/slab_common.c, 6.11); kmem_buckets_alloc() picks the class as
 * kmalloc does, and sends what is larger to the page allocator. */
static int bucket_cache(struct ss_cmodel *m, struct ss_ov_state *st, int r,
			uint64_t size, struct ss_error *err)
{
	const struct ss_target *t = ss_cmodel_config(m)->target;
	int idx = ss_kmalloc_index(t, (size_t)size);
	int32_t *slot;
	struct ss_cache_spec spec = {0};
	char cls[SS_OV_NAME_MAX], name[2 * SS_OV_NAME_MAX + 8];
	int c;

	if (idx < 0)
		return SS_ROUTE_BASE; /* 0 bytes or kmalloc_large, as before */
	slot = &st->bucket_cache[(size_t)r * (size_t)st->nr_kmalloc + (size_t)idx];
	if (*slot >= 0)
		return *slot;
	ss_kmalloc_class_name(t, idx, cls, sizeof(cls));
	snprintf(name, sizeof(name), "%s-%s", st->ov->rule[r].cache, cls + strlen("kmalloc-"));
	spec.object_size = ss_kmalloc_class_size(t, idx);
	c = ss_cmodel_own_cache(m, name, &spec, err);
	if (c >= 0)
		*slot = c;
	return c;
}

static int rule_of_site(struct ss_ov_state *st, const struct ss_model_config *cfg,
			uint32_t site, struct ss_error *err)
{
	int r = ss_route_memo_get(&st->site, site);

	if (r >= 0)
		return r;
	r = ss_overrides_find(st->ov, ss_trace_name(cfg->tables, site));
	if (r < 0)
		r = (int)st->ov->nr;
	if (ss_route_memo_set(&st->site, site, r))
		return ss_errorf(err, "out of memory");
	return r;
}

int ss_override_route(struct ss_cmodel *m, struct ss_ov_state *st,
		      const struct ss_event *ev, struct ss_error *err)
{
	const struct ss_model_config *cfg = ss_cmodel_config(m);
	const struct ss_ov_rule *rule;
	char where[300];
	int r = rule_of_site(st, cfg, ev->site, err);
	unsigned cap = 0;
	int c;

	if (r < 0)
		return -1;
	if ((unsigned)r == st->ov->nr || ev->value == 0)
		return SS_ROUTE_BASE; /* no rule; kmalloc(0) stays ZERO_SIZE_PTR */
	rule = &st->ov->rule[r];
	if (rule->kind == SS_OV_BUCKETS)
		return bucket_cache(m, st, r, ev->value, err);
	if (st->rule_cache[r] >= 0 && ev->value <= st->rule_cap[r])
		return st->rule_cache[r];
	if (rule->kind == SS_OV_INTO) {
		c = into_cache(m, st, r, ev->value, &cap, err);
	} else if (ev->value > rule->spec.object_size) {
		WHERE(st, r, where);
		return ss_errorf(err, "%ssite %s asks %llu bytes, more than cache %s holds (%u)",
				 where, rule->site, (unsigned long long)ev->value, rule->cache,
				 rule->spec.object_size);
	} else {
		cap = rule->spec.object_size;
		c = ss_cmodel_own_cache(m, rule->cache, &rule->spec, err);
	}
	if (c >= 0 && st->rule_cache[r] < 0) {
		st->rule_cache[r] = c;
		st->rule_cap[r] = cap;
	}
	return c;
}

int ss_override_class_cache(struct ss_cmodel *m, struct ss_ov_state *st,
			    uint64_t size, struct ss_error *err)
{
	const struct ss_target *t = ss_cmodel_config(m)->target;
	const struct ss_overrides *ov = st->ov;
	struct ss_cache_spec spec;
	char name[SS_OV_NAME_MAX];
	unsigned pos = 0, cls;
	int idx, c;

	while (pos < ov->nr_classes && ov->classes[pos] < size)
		pos++;
	if (pos == ov->nr_classes) /* ss_ov_state_create checked the end */
		return ss_errorf(err, "no kmalloc class for %llu bytes", (unsigned long long)size);
	if (st->class_cache[pos] >= 0)
		return st->class_cache[pos];
	cls = ov->classes[pos];
	idx = ss_kmalloc_index(t, cls);
	if (!ov->minalign && idx >= 0 && ss_kmalloc_class_size(t, idx) == cls) {
		c = ss_cmodel_kmalloc_class(m, idx, err); /* the target's own */
	} else {
		ss_kmalloc_size_name(t, cls, name, sizeof(name));
		ss_kmalloc_spec_size(t, cls, ov->minalign, 0, &spec);
		c = ss_cmodel_own_cache(m, name, &spec, err);
	}
	if (c >= 0)
		st->class_cache[pos] = c;
	return c;
}
