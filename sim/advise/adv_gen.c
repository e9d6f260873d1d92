/* adv_gen.c - the advisor's proposals (adv_gen.h). */
#include "adv_gen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kconfig.h"
#include "kmalloc.h"
#include "merge.h"
#include "sort.h"

/* Bucket proposals per imported trace: the variable-size sites with the
 * most objects live at once. */
#define ADV_BUCKET_SITES 3
/* Cluster classes proposed: the best ones by estimate. */
#define ADV_CLUSTER_CLASSES 2

struct gen {
	const struct ss_advise_gen_in *in;
	const struct ss_advise_scan *scan;
	const struct ss_target *t;
	struct ss_advise_props *out;
	struct ss_advise_place *cur;	 /* per site index: where it goes now */
	/* kmalloc objects of the sites whose sizes vary, per request size (the
	 * scan's counts less the fixed-size sites'), placed as var_site's */
	uint64_t *var_live, *var_peak;
	uint32_t var_site;	 /* a kmalloc site of varying sizes, or UINT32_MAX */
	unsigned *size_stride;	 /* per size: stride now (0: no such object) */
	uint32_t *kfixed;	 /* fixed-size kmalloc sites (all of them) */
	unsigned nr_kfixed;
	struct ss_merge_cand *cand;
	unsigned nr_cand;
	uint32_t *fixed;	 /* fixed-size kmalloc sites, by size then index */
	unsigned nr_fixed;
	char (*names)[SS_OV_NAME_MAX]; /* per fixed site: its cache name */
};

void ss_advise_cache_name(const char *site, char *buf, size_t n)
{
	size_t len = strcspn(site, "+"), j = 0;

	if (n < 2)
		return;
	for (size_t i = 0; i < len && j + 1 < n && j < 40; i++)
		buf[j++] = isalnum((unsigned char)site[i]) ? site[i] : '_';
	if (!j)
		buf[j++] = 'c';
	buf[j] = '\0';
}

static struct ss_advise_prop *new_prop(struct gen *g, enum ss_advise_kind kind,
				 struct ss_error *err)
{
	struct ss_advise_props *ps = g->out;
	struct ss_advise_prop *p;

	if (ps->nr == ps->cap) {
		unsigned cap = ps->cap ? ps->cap * 2 : 32;

		p = realloc(ps->p, cap * sizeof(*p));
		if (!p) {
			ss_errorf(err, "out of memory");
			return NULL;
		}
		ps->p = p;
		ps->cap = cap;
	}
	p = &ps->p[ps->nr];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->order = ps->nr++;
	return p;
}

static int set_sites(struct ss_advise_prop *p, const char *sites, struct ss_error *err)
{
	p->sites = strdup(sites);
	return p->sites ? 0 : ss_errorf(err, "out of memory");
}

static const char *site_name(const struct gen *g, uint32_t site)
{
	return ss_trace_name(g->scan->tables, site);
}

/* ---- where things go now ---- */

static int current_places(struct gen *g, struct ss_error *err)
{
	const struct ss_advise_scan *s = g->scan;
	struct ss_advise_req *req = calloc(s->nr_site + 1, sizeof(*req));
	struct ss_advise_place *pl = malloc((s->nr_site + 1) * sizeof(*pl));
	uint32_t *idx = malloc((s->nr_site + 1) * sizeof(*idx));
	unsigned n = 0;
	int rc = -1;

	g->cur = calloc(s->nr_site + 1, sizeof(*g->cur));
	if (!req || !pl || !idx || !g->cur) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < s->nr_site; i++) {
		if (!s->site[i].allocs)
			continue;
		req[n] = (struct ss_advise_req){.site = i, .api = s->site[i].api, .size = s->site[i].max};
		idx[n++] = i;
	}
	if (ss_advise_probe(g->in->desc, g->in->cfg, NULL, g->in->costs, req, n, pl, err))
		goto out;
	for (unsigned k = 0; k < n; k++)
		g->cur[idx[k]] = pl[k];
	rc = 0;
out:
	free(req);
	free(pl);
	free(idx);
	return rc;
}

/* The stride of every kmalloc size seen, now. */
static int size_strides(struct gen *g, const struct ss_overrides *ov,
			unsigned *stride, struct ss_error *err)
{
	const struct ss_advise_scan *s = g->scan;
	struct ss_advise_req *req = calloc(s->max_size + 1, sizeof(*req));
	struct ss_advise_place *pl = malloc((s->max_size + 1) * sizeof(*pl));
	unsigned n = 0;
	int rc = -1;

	if (!req || !pl) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	for (unsigned sz = 1; sz <= s->max_size && g->var_site != UINT32_MAX; sz++)
		if (g->var_peak[sz])
			req[n++] = (struct ss_advise_req){.site = g->var_site,
						    .api = SS_API_KMALLOC, .size = sz};
	if (ss_advise_probe(g->in->desc, g->in->cfg, ov, g->in->costs, req, n, pl, err))
		goto out;
	memset(stride, 0, (s->max_size + 1) * sizeof(*stride));
	for (unsigned k = 0; k < n; k++)
		stride[req[k].size] = pl[k].stride;
	rc = 0;
out:
	free(req);
	free(pl);
	return rc;
}

/* ---- estimates ---- */

/* Under overrides ov, each site's objects at the end (and at most at
 * once, for the score) times the bytes it saves per object; pl[0] is the
 * first site's new place. */
static int site_sums(struct gen *g, const struct ss_overrides *ov, const uint32_t *sites,
		     unsigned n, double *pred, double *score, struct ss_advise_place *first,
		     struct ss_error *err)
{
	struct ss_advise_req *req = calloc(n + 1, sizeof(*req));
	struct ss_advise_place *pl = calloc(n + 1, sizeof(*pl));
	int rc = -1;

	if (!req || !pl) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	for (unsigned k = 0; k < n; k++) {
		const struct ss_advise_site *st = &g->scan->site[sites[k]];

		req[k] = (struct ss_advise_req){.site = sites[k], .api = st->api, .size = st->max};
	}
	if (n && ss_advise_probe(g->in->desc, g->in->cfg, ov, g->in->costs, req, n, pl, err))
		goto out;
	*pred = *score = 0;
	for (unsigned k = 0; k < n; k++) {
		const struct ss_advise_site *st = &g->scan->site[sites[k]];
		double d = (double)g->cur[sites[k]].stride - (double)pl[k].stride;
		uint64_t most = st->peak_live > st->live ? st->peak_live : st->live;

		*pred += d * (double)st->live / 1024.0;
		*score += d * (double)most / 1024.0;
	}
	if (first)
		*first = pl[0];
	rc = 0;
out:
	free(req);
	free(pl);
	return rc;
}

/* A site or group proposal's estimate. */
static int estimate_sites(struct gen *g, struct ss_advise_prop *p, const uint32_t *sites,
			  unsigned n, struct ss_error *err)
{
	struct ss_advise_place first;

	if (site_sums(g, &p->ov, sites, n, &p->predicted_kib, &p->score, &first, err))
		return -1;
	p->stride = first.stride;
	p->cur_stride = g->cur[sites[0]].stride;
	snprintf(p->current, sizeof(p->current), "%s", g->cur[sites[0]].cache);
	return 0;
}

/* A class set's estimate: the fixed-size kmalloc sites one by one (a
 * model may have moved them out of kmalloc), the rest by request size. */
static int estimate_classes(struct gen *g, struct ss_advise_prop *p, struct ss_error *err)
{
	const struct ss_advise_scan *s = g->scan;
	unsigned *stride = malloc((s->max_size + 1) * sizeof(*stride));

	if (!stride)
		return ss_errorf(err, "out of memory");
	if (size_strides(g, &p->ov, stride, err) ||
	    site_sums(g, &p->ov, g->kfixed, g->nr_kfixed, &p->predicted_kib, &p->score, NULL,
		      err)) {
		free(stride);
		return -1;
	}
	for (unsigned sz = 1; sz <= s->max_size; sz++) {
		double d = (double)g->size_stride[sz] - (double)stride[sz];

		p->predicted_kib += d * (double)g->var_live[sz] / 1024.0;
		p->score += d * (double)g->var_peak[sz] / 1024.0;
	}
	free(stride);
	return 0;
}

/* The scan's kmalloc counts by size, less what fixed-size sites hold:
 * those are estimated site by site.  (Their peaks were not at one moment:
 * the difference is floored at 0, an estimate.) */
static int split_sizes(struct gen *g, struct ss_error *err)
{
	const struct ss_advise_scan *s = g->scan;

	g->var_live = malloc((s->max_size + 1) * sizeof(*g->var_live));
	g->var_peak = malloc((s->max_size + 1) * sizeof(*g->var_peak));
	g->kfixed = malloc((s->nr_site + 1) * sizeof(*g->kfixed));
	if (!g->var_live || !g->var_peak || !g->kfixed)
		return ss_errorf(err, "out of memory");
	memcpy(g->var_live, s->size_live, (s->max_size + 1) * sizeof(*g->var_live));
	memcpy(g->var_peak, s->size_peak, (s->max_size + 1) * sizeof(*g->var_peak));
	g->var_site = UINT32_MAX;
	for (uint32_t i = 0; i < s->nr_site; i++) {
		const struct ss_advise_site *st = &s->site[i];

		if (!st->allocs || st->api != SS_API_KMALLOC || st->mixed_api)
			continue;
		if (st->min != st->max) {
			if (g->var_site == UINT32_MAX)
				g->var_site = i;
			continue;
		}
		if (st->max == 0 || st->max > s->max_size)
			continue;
		g->kfixed[g->nr_kfixed++] = i;
		g->var_live[st->max] -= st->live;
		g->var_peak[st->max] -= st->peak_live < g->var_peak[st->max] ? st->peak_live
									    : g->var_peak[st->max];
	}
	return 0;
}

/* ---- dedicated caches, their groups, and what merging does ---- */

static void kmem_cache_spec(const struct gen *g, unsigned size, bool hwcache,
			    struct ss_cache_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->object_size = size;
	/* KMEM_CACHE() passes __alignof__(struct): taken as a pointer's, as
	 * the kmem_cache model does (the struct itself is not in the trace) */
	spec->align = g->t->ptr_size;
	spec->flags = hwcache ? SS_CF_HWCACHE : 0;
}

static int cmp_fixed(const void *a, const void *b, void *ctx)
{
	const struct ss_advise_scan *s = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (s->site[x].max != s->site[y].max)
		return s->site[x].max < s->site[y].max ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Fixed-size kmalloc sites, sorted by size, each with a cache name no
 * other site has. */
static int fixed_sites(struct gen *g, struct ss_error *err)
{
	const struct ss_advise_scan *s = g->scan;

	g->fixed = malloc((s->nr_site + 1) * sizeof(*g->fixed));
	g->names = malloc((s->nr_site + 1) * sizeof(*g->names));
	if (!g->fixed || !g->names)
		return ss_errorf(err, "out of memory");
	for (uint32_t i = 0; i < s->nr_site; i++)
		if (adv_site_fixed(&s->site[i]) && s->site[i].api == SS_API_KMALLOC &&
		    s->site[i].max > 0 && s->site[i].max <= s->max_size)
			g->fixed[g->nr_fixed++] = i;
	qsort_r(g->fixed, g->nr_fixed, sizeof(*g->fixed), cmp_fixed, (void *)s);
	for (unsigned k = 0; k < g->nr_fixed; k++) {
		char base[48]; /* adv_cache_name keeps 40, "_site" 5 more */
		unsigned dup = 1;

		ss_advise_cache_name(site_name(g, g->fixed[k]), base, sizeof(base));
		/* a cache the trace declares keeps its name (a site called
		 * like a cache would otherwise share it) */
		if (ss_strtab_find(&s->tables->cache_names, base) != UINT32_MAX)
			strcat(base, "_site");
		snprintf(g->names[k], sizeof(g->names[k]), "%s", base);
		for (unsigned j = 0; j < k; j++)
			if (!strcmp(g->names[j], g->names[k])) {
				snprintf(g->names[k], sizeof(g->names[k]), "%s_%u", base, ++dup);
				j = (unsigned)-1; /* look again from the start */
			}
	}
	return 0;
}

/* find_mergeable() at boot for spec: the candidate, or NULL. */
static const struct ss_merge_cand *merge_target(const struct gen *g,
						const struct ss_cache_spec *spec)
{
	int i = ss_merge_find(g->t, spec, g->cand, g->nr_cand);

	return i < 0 ? NULL : &g->cand[i];
}

/* A rule sending site to existing cache c: a kmalloc class by name; a
 * declared cache by its arguments, as the trace may declare it only after
 * the site's first allocation (the kernel had it from boot; the model
 * then finds it by name). */
static int add_into(struct ss_overrides *ov, const char *site,
		    const struct ss_merge_cand *c, struct ss_error *err)
{
	if (c->kmalloc)
		return ss_overrides_add(ov, site, SS_OV_INTO, c->name, NULL, err);
	return ss_overrides_add(ov, site, SS_OV_CACHE, c->name, &c->spec, err);
}

/* The merged twin of dedicated or group proposal p (index pi), when the
 * alias find_mergeable() picks is not where the objects go now. */
static int add_merged(struct gen *g, unsigned pi, const struct ss_merge_cand *c,
		      const uint32_t *sites, unsigned n, struct ss_error *err)
{
	struct ss_advise_prop *m, *p = &g->out->p[pi];
	char into[64];

	if (!c || !strcmp(c->name, p->current))
		return 0;
	snprintf(into, sizeof(into), "%s", c->name);
	if (!(m = new_prop(g, SS_ADVISE_MERGED, err)))
		return -1;
	p = &g->out->p[pi]; /* new_prop may have moved it */
	m->hwcache = p->hwcache;
	m->object_size = p->object_size;
	m->nr_sites = n;
	snprintf(m->cache, sizeof(m->cache), "%s", into);
	snprintf(m->label, sizeof(m->label), "%s%s:%s", p->kind == ADV_GROUP ? "group-" : "",
		 p->hwcache ? "merged+hwcache" : "merged", into);
	if (set_sites(m, p->sites, err))
		return -1;
	for (unsigned k = 0; k < n; k++)
		if (add_into(&m->ov, site_name(g, sites[k]), c, err))
			return -1;
	return estimate_sites(g, m, sites, n, err);
}

/* One dedicated (n == 1) or group proposal: sites to cache `name`. */
static int add_cache_prop(struct gen *g, const uint32_t *sites, unsigned n,
			  const char *name, bool hwcache, struct ss_error *err)
{
	enum ss_advise_kind kind = n > 1 ? ADV_GROUP : SS_ADVISE_DEDICATED;
	struct ss_advise_prop *p = new_prop(g, kind, err);
	unsigned pi = g->out->nr - 1;
	struct ss_cache_spec spec;
	size_t len = 0;
	const struct ss_merge_cand *into;

	if (!p)
		return -1;
	kmem_cache_spec(g, (unsigned)g->scan->site[sites[0]].max, hwcache, &spec);
	p->hwcache = hwcache;
	p->object_size = spec.object_size;
	p->nr_sites = n;
	snprintf(p->cache, sizeof(p->cache), "%s", name);
	snprintf(p->label, sizeof(p->label), "%s%s", n > 1 ? "group" : "dedicated",
		 hwcache ? "+hwcache" : "");
	for (unsigned k = 0; k < n; k++)
		len += strlen(site_name(g, sites[k])) + 1;
	p->sites = malloc(len + 1);
	if (!p->sites)
		return ss_errorf(err, "out of memory");
	p->sites[0] = '\0';
	for (unsigned k = 0; k < n; k++) {
		if (k)
			strcat(p->sites, " ");
		strcat(p->sites, site_name(g, sites[k]));
		if (ss_overrides_add(&p->ov, site_name(g, sites[k]), SS_OV_CACHE, name, &spec, err))
			return -1;
	}
	into = merge_target(g, &spec);
	snprintf(p->merge_into, sizeof(p->merge_into), "%s", into ? into->name : "");
	if (estimate_sites(g, p, sites, n, err))
		return -1;
	return add_merged(g, pi, into, sites, n, err);
}

static void drop_from(struct ss_advise_props *ps, unsigned from)
{
	while (ps->nr > from) {
		struct ss_advise_prop *p = &ps->p[--ps->nr];

		free(p->sites);
		ss_overrides_release(&p->ov);
	}
}

/* The plain and the hwcache proposal, kept when either could save; the
 * hwcache one only when SLAB_HWCACHE_ALIGN changes the layout (a 12-byte
 * object on a 32-byte line is 16 bytes apart either way). */
static int add_both(struct gen *g, const uint32_t *sites, unsigned n,
		    const char *name, struct ss_error *err)
{
	unsigned first = g->out->nr, hw;
	struct ss_advise_prop *a, *b;
	bool any = false;

	if (add_cache_prop(g, sites, n, name, false, err))
		return -1;
	hw = g->out->nr;
	if (add_cache_prop(g, sites, n, name, true, err))
		return -1;
	for (unsigned i = first; i < g->out->nr; i++)
		any |= g->out->p[i].score > 0;
	if (!any) { /* nothing to gain: not a proposal */
		drop_from(g->out, first);
		return 0;
	}
	a = &g->out->p[first];
	b = &g->out->p[hw];
	if (a->stride == b->stride && !strcmp(a->merge_into, b->merge_into)) {
		a->hw_same = true;
		drop_from(g->out, hw);
	}
	return 0;
}

/* "smk_set_access" for sites smk_set_access:rule and smk_set_access:x,
 * else "fixed<size>". */
static void group_name(const struct gen *g, const uint32_t *sites, unsigned n,
		       char *buf, size_t len)
{
	char first[SS_OV_NAME_MAX], other[SS_OV_NAME_MAX];
	size_t common;

	ss_advise_cache_name(site_name(g, sites[0]), first, sizeof(first));
	common = strlen(first);
	for (unsigned k = 1; k < n; k++) {
		size_t i = 0;

		ss_advise_cache_name(site_name(g, sites[k]), other, sizeof(other));
		while (i < common && first[i] == other[i])
			i++;
		common = i;
	}
	while (common && first[common - 1] == '_')
		common--;
	if (common >= 4)
		snprintf(buf, len, "%.*s_%llu", (int)common, first,
			 (unsigned long long)g->scan->site[sites[0]].max);
	else
		snprintf(buf, len, "fixed%llu", (unsigned long long)g->scan->site[sites[0]].max);
}

static int site_proposals(struct gen *g, struct ss_error *err)
{
	for (unsigned k = 0; k < g->nr_fixed; k++)
		if (add_both(g, &g->fixed[k], 1, g->names[k], err))
			return -1;
	for (unsigned k = 0, end; k < g->nr_fixed; k = end) {
		char name[SS_OV_NAME_MAX];

		for (end = k + 1; end < g->nr_fixed &&
				  g->scan->site[g->fixed[end]].max == g->scan->site[g->fixed[k]].max;
		     end++)
			;
		if (end - k < 2)
			continue;
		group_name(g, &g->fixed[k], end - k, name, sizeof(name));
		if (add_both(g, &g->fixed[k], end - k, name, err))
			return -1;
	}
	return 0;
}

/* ---- kmalloc class sets ---- */

/* The target's class sizes, ascending. */
static unsigned target_classes(const struct ss_target *t, unsigned *out)
{
	unsigned n = 0;

	for (int i = 3; i < ss_kmalloc_nr_classes(t); i++) {
		out[n++] = ss_kmalloc_class_size(t, i);
		if (i == 6 && ss_kmalloc_class_exists(t, 1))
			out[n++] = 96;
		if (i == 7 && ss_kmalloc_class_exists(t, 2))
			out[n++] = 192;
	}
	/* below KMALLOC_MIN_SIZE the power-of-two indexes do not exist */
	for (unsigned i = 0; i < n;)
		if (out[i] < ss_kmalloc_min_size(t))
			memmove(&out[i], &out[i + 1], (--n - i) * sizeof(*out));
		else
			i++;
	return n;
}

/* Sorted union of a[0..na) and the sizes in add[0..nadd). */
static unsigned with_classes(const unsigned *a, unsigned na, const unsigned *add,
			     unsigned nadd, unsigned *out)
{
	unsigned n = 0;

	memcpy(out, a, na * sizeof(*a));
	n = na;
	for (unsigned k = 0; k < nadd; k++) {
		unsigned i = 0;

		while (i < n && out[i] < add[k])
			i++;
		if (i < n && out[i] == add[k])
			continue;
		memmove(&out[i + 1], &out[i], (n - i) * sizeof(*out));
		out[i] = add[k];
		n++;
	}
	return n;
}

static int add_class_prop(struct gen *g, const char *label, const unsigned *cls,
			  unsigned n, unsigned minalign, unsigned added,
			  const char *current, const char *cache, struct ss_error *err)
{
	struct ss_advise_prop *p = new_prop(g, ADV_CLASSES, err);

	if (!p)
		return -1;
	snprintf(p->label, sizeof(p->label), "%s", label);
	snprintf(p->current, sizeof(p->current), "%s", current);
	snprintf(p->cache, sizeof(p->cache), "%s", cache);
	p->object_size = added;
	p->nr_sites = 0;
	if (set_sites(p, "*", err) ||
	    ss_overrides_set_classes(&p->ov, cls, n, minalign, err))
		return -1;
	return estimate_classes(g, p, err);
}

/* The stride a kmalloc class of `size` bytes has on the target. */
static unsigned class_stride(const struct ss_target *t, unsigned size)
{
	struct ss_cache_spec spec;
	struct ss_geometry geo;

	ss_kmalloc_spec_size(t, size, 0, 0, &spec);
	return ss_geometry_compute(t, &spec, &geo, NULL) ? 0 : geo.size;
}

/* The classes the sizes cluster at: for every multiple of 8 the target
 * lacks, the bytes a class there would save (objects at most at once,
 * of the variable-size sites and of the fixed-size ones still in a
 * kmalloc class). */
static int cluster_classes(struct gen *g, const unsigned *std, unsigned nstd,
			   struct ss_error *err)
{
	const struct ss_advise_scan *s = g->scan;
	unsigned best[ADV_CLUSTER_CLASSES] = {0};
	double gain[ADV_CLUSTER_CLASSES] = {0};
	double *w = calloc(s->max_size + 1, sizeof(*w));
	unsigned *st_now = malloc((s->max_size + 1) * sizeof(*st_now));

	if (!w || !st_now) {
		free(w);
		free(st_now);
		return ss_errorf(err, "out of memory");
	}
	memcpy(st_now, g->size_stride, (s->max_size + 1) * sizeof(*st_now));
	for (unsigned sz = 1; sz <= s->max_size; sz++)
		w[sz] = (double)g->var_peak[sz];
	for (unsigned k = 0; k < g->nr_kfixed; k++) {
		const struct ss_advise_site *st = &s->site[g->kfixed[k]];
		const struct ss_advise_place *now = &g->cur[g->kfixed[k]];

		if (strncmp(now->cache, "kmalloc-", 8))
			continue; /* the model has it in a cache of its own */
		w[st->max] += (double)(st->peak_live > st->live ? st->peak_live : st->live);
		st_now[st->max] = now->stride;
	}
	for (unsigned c = 8, k = 0; c < s->max_size; c += 8) {
		unsigned st, prev;
		double sum = 0;

		while (k < nstd && std[k] < c)
			k++;
		if (k < nstd && std[k] == c)
			continue;
		prev = k ? std[k - 1] : 0;
		st = class_stride(g->t, c);
		for (unsigned sz = prev + 1; st && sz <= c; sz++)
			if (w[sz] > 0 && st_now[sz] > st)
				sum += w[sz] * (double)(st_now[sz] - st);
		for (unsigned b = 0; b < ADV_CLUSTER_CLASSES; b++)
			if (sum > gain[b]) {
				memmove(&best[b + 1], &best[b], (ADV_CLUSTER_CLASSES - b - 1) * sizeof(*best));
				memmove(&gain[b + 1], &gain[b], (ADV_CLUSTER_CLASSES - b - 1) * sizeof(*gain));
				best[b] = c;
				gain[b] = sum;
				break;
			}
	}
	free(w);
	free(st_now);
	for (unsigned b = 0; b < ADV_CLUSTER_CLASSES && best[b]; b++) {
		unsigned cls[SS_OV_MAX_CLASSES], n, next = 0;
		char label[32], cur[64], name[64];

		n = with_classes(std, nstd, &best[b], 1, cls);
		for (unsigned k = 0; k < nstd && !next; k++)
			if (std[k] > best[b])
				next = std[k];
		ss_kmalloc_size_name(g->t, next, cur, sizeof(cur));
		ss_kmalloc_size_name(g->t, best[b], name, sizeof(name));
		snprintf(label, sizeof(label), "classes:+%u", best[b]);
		if (add_class_prop(g, label, cls, n, 0, best[b], cur, name, err))
			return -1;
	}
	return 0;
}

static int class_proposals(struct gen *g, struct ss_error *err)
{
	const struct ss_target *t = g->t;
	unsigned std[SS_OV_MAX_CLASSES], cls[SS_OV_MAX_CLASSES], add[8], nadd = 0;
	unsigned nstd = target_classes(t, std), n;
	char cur[64], name[64];

	g->size_stride = malloc((g->scan->max_size + 1) * sizeof(*g->size_stride));
	if (!g->size_stride)
		return ss_errorf(err, "out of memory");
	if (split_sizes(g, err) || size_strides(g, NULL, g->size_stride, err))
		return -1;
	/* kmalloc-96 and kmalloc-192, where KMALLOC_MIN_SIZE leaves them out
	 * (create_kmalloc_caches(): 96 needs MIN_SIZE <= 32, 192 <= 64, so
	 * one alone is always 96) */
	if (!ss_kmalloc_class_exists(t, 1))
		add[nadd++] = 96;
	if (!ss_kmalloc_class_exists(t, 2))
		add[nadd++] = 192;
	if (nadd) {
		n = with_classes(std, nstd, add, nadd, cls);
		ss_kmalloc_size_name(t, 128, cur, sizeof(cur));
		ss_kmalloc_size_name(t, 96, name, sizeof(name));
		if (add_class_prop(g, nadd == 2 ? "classes:+96,192" : "classes:+96", cls, n, 0,
				   nadd == 2 ? 0 : 96, cur, name, err))
			return -1;
	}
	/* KMALLOC_MIN_SIZE 8: every class from 8 up, kmalloc aligned to 8
	 * (what "mm/slab: decouple ARCH_KMALLOC_MINALIGN from
	 * ARCH_DMA_MINALIGN" allows from 6.5 where DMA bounces small buffers) */
	if (ss_kmalloc_min_size(t) > 8) {
		unsigned small[] = {8, 16, 32, 64, 96, 128, 192};

		n = with_classes(std, nstd, small, 7, cls);
		ss_kmalloc_size_name(t, ss_kmalloc_min_size(t), cur, sizeof(cur));
		ss_kmalloc_size_name(t, 8, name, sizeof(name));
		if (add_class_prop(g, "classes:min8", cls, n, 8, 0, cur, name, err))
			return -1;
	}
	return cluster_classes(g, std, nstd, err);
}

/* ---- imported traces: kmem_buckets and random kmalloc caches ---- */

/* CONFIG_RANDOM_KMALLOC_CACHES (6.6) flipped from the baseline's: with it,
 * kmalloc_type() sends each kmalloc site to one of RANDOM_KMALLOC_CACHES_NR
 * + 1 copies of every class, chosen by a hash of the caller's address and
 * random_kmalloc_seed (create_kmalloc_caches()).  Replayed with the option
 * added to the baseline's --config; where the target's kernel or allocator
 * cannot have it (before 6.6, SLAB, SLUB_TINY), listed with the reason. */
static int random_proposal(struct gen *g, struct ss_error *err)
{
	struct ss_target t = *g->t;
	struct ss_error why = {{0}};
	struct ss_advise_prop *p;
	const bool on = !g->t->kc.random_kmalloc;

	if (!(p = new_prop(g, ADV_RANDOM, err)))
		return -1;
	snprintf(p->config, sizeof(p->config), "CONFIG_RANDOM_KMALLOC_CACHES=%s", on ? "y" : "n");
	snprintf(p->label, sizeof(p->label), "random_kmalloc_caches=%s", on ? "y" : "n");
	snprintf(p->current, sizeof(p->current), "%s", on ? "kmalloc-*" : "kmalloc-rnd-*");
	snprintf(p->cache, sizeof(p->cache), "%s", on ? "kmalloc-rnd-*" : "kmalloc-*");
	if (ss_kconfig_apply_list(&t, p->config, &why) || ss_kconfig_finish(&t, &why)) {
		snprintf(p->why, sizeof(p->why), "%.*s", (int)sizeof(p->why) - 1, why.msg);
		p->needs = "the target's kernel cannot have it";
	}
	return set_sites(p, "*", err);
}

static int cmp_peak(const void *a, const void *b, void *ctx)
{
	const struct ss_advise_scan *s = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (s->site[x].peak_live != s->site[y].peak_live)
		return s->site[x].peak_live > s->site[y].peak_live ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int hardening_proposals(struct gen *g, struct ss_error *err)
{
	const struct ss_advise_scan *s = g->scan;
	uint32_t *var = malloc((s->nr_site + 1) * sizeof(*var));
	struct ss_advise_prop *p;
	unsigned n = 0;

	if (!var)
		return ss_errorf(err, "out of memory");
	for (uint32_t i = 0; i < s->nr_site; i++)
		if (s->site[i].allocs && s->site[i].api == SS_API_KMALLOC &&
		    !s->site[i].mixed_api && s->site[i].min != s->site[i].max)
			var[n++] = i;
	qsort_r(var, n, sizeof(*var), cmp_peak, (void *)s);
	for (unsigned k = 0; k < n && k < ADV_BUCKET_SITES; k++) {
		char name[SS_OV_NAME_MAX];

		if (!(p = new_prop(g, SS_ADVISE_BUCKETS, err))) {
			free(var);
			return -1;
		}
		ss_advise_cache_name(site_name(g, var[k]), name, SS_OV_NAME_MAX - 8);
		snprintf(p->cache, sizeof(p->cache), "%s", name);
		snprintf(p->label, sizeof(p->label), "kmem_buckets");
		p->nr_sites = 1;
		if (set_sites(p, site_name(g, var[k]), err) ||
		    ss_overrides_add(&p->ov, site_name(g, var[k]), SS_OV_BUCKETS, name, NULL, err) ||
		    estimate_sites(g, p, &var[k], 1, err)) {
			free(var);
			return -1;
		}
	}
	free(var);
	return random_proposal(g, err);
}

/* ---- order and budget ---- */

static bool budgeted(const struct ss_advise_prop *p)
{
	return p->kind == SS_ADVISE_DEDICATED || p->kind == ADV_GROUP || p->kind == SS_ADVISE_MERGED;
}

static int cmp_score(const void *a, const void *b)
{
	const struct ss_advise_prop *x = a, *y = b;

	if (budgeted(x) != budgeted(y))
		return budgeted(x) ? -1 : 1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void apply_budget(struct ss_advise_props *ps, unsigned max)
{
	unsigned kept = 0, w = 0;

	ss_sort(ps->p, ps->nr, sizeof(*ps->p), cmp_score);
	for (unsigned i = 0; i < ps->nr; i++) {
		struct ss_advise_prop *p = &ps->p[i];

		if (budgeted(p) && kept++ >= max) {
			ps->dropped++;
			if (p->predicted_kib > 0)
				ps->dropped_kib += p->predicted_kib;
			free(p->sites);
			ss_overrides_release(&p->ov);
			continue;
		}
		ps->p[w++] = *p;
	}
	ps->nr = w;
}

int ss_advise_generate(const struct ss_advise_gen_in *in, struct ss_advise_props *out,
		 struct ss_error *err)
{
	struct gen g = {.in = in, .scan = in->scan, .t = in->cfg->target, .out = out};
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (ss_merge_boot_candidates(g.t, in->scan->tables, &g.cand, &g.nr_cand, err) ||
	    current_places(&g, err) || fixed_sites(&g, err) || site_proposals(&g, err) ||
	    class_proposals(&g, err) || (in->scan->imported && hardening_proposals(&g, err)))
		goto out;
	apply_budget(out, in->max_proposals);
	rc = 0;
out:
	free(g.cur);
	free(g.size_stride);
	free(g.var_live);
	free(g.var_peak);
	free(g.kfixed);
	free(g.cand);
	free(g.fixed);
	free(g.names);
	if (rc)
		ss_advise_props_release(out);
	return rc;
}

void ss_advise_props_release(struct ss_advise_props *ps)
{
	for (unsigned i = 0; i < ps->nr; i++) {
		free(ps->p[i].sites);
		ss_overrides_release(&ps->p[i].ov);
	}
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}
