/* placement_kmem_cache.c - model `kmem_cache`: every kmalloc site that
 * always asks for the same size gets its own cache of exactly that size,
 * as if each were converted to KMEM_CACHE(); variable-size sites stay in
 * kmalloc, named caches stay as declared.  SLUB merging (find_mergeable)
 * applies unless disabled, as it would in the kernel. */
#include <stdio.h>
#include <string.h>

#include "kmalloc.h"
#include "placement.h"

static bool fixed_size_site(const struct ss_model_config *cfg, uint32_t site,
			    uint64_t *size)
{
	const struct ss_site_sizes *ss = cfg->sites;

	if (!ss || site >= ss->nr || ss->min[site] != ss->max[site])
		return false;
	*size = ss->min[site];
	return *size > 0 && *size <= ss_kmalloc_max_cache_size(cfg->target);
}

/* The cache is named after its site.  Cache names are at most 63 bytes
 * and caches are found by name, so a longer site name is cut and tagged
 * with the site's index: two sites that share 63 bytes must not share a
 * cache (found by fuzzing; tests/fuzz/regressions/replay/). */
static void site_cache_name(char *buf, size_t n, const char *site, uint32_t idx)
{
	if (strlen(site) < n)
		snprintf(buf, n, "%s", site);
	else
		snprintf(buf, n, "%.48s~site%u", site, idx);
}

static int route_kmem_cache(struct ss_cmodel *m, const struct ss_event *ev,
			    struct ss_error *err)
{
	const struct ss_model_config *cfg = ss_cmodel_config(m);
	struct ss_route_memo *memo = ss_cmodel_memo(m);
	struct ss_cache_spec spec = {0};
	uint64_t size;
	char name[64];
	int c;

	if (ev->api != SS_API_KMALLOC)
		return ss_place_declared_cache(m, ev->api, err);
	/* memo keys: site names live above the api range of the memo */
	c = ss_route_memo_get(memo, SS_SITE_MEMO_BASE + ev->site);
	if (c >= 0)
		return c;
	if (!fixed_size_site(cfg, ev->site, &size))
		c = SS_ROUTE_KMALLOC;
	else {
		/* KMEM_CACHE() passes __alignof__(struct): pointer alignment
		 * for the structures kernel code allocates (documented). */
		spec.object_size = (unsigned)size;
		spec.align = cfg->target->ptr_size;
		site_cache_name(name, sizeof(name), ss_trace_name(cfg->tables, ev->site),
				ev->site);
		c = ss_cmodel_named_cache(m, name, &spec, err);
		if (c < 0)
			return -1;
	}
	if (c >= 0 && ss_route_memo_set(memo, SS_SITE_MEMO_BASE + ev->site, c))
		return ss_errorf(err, "out of memory");
	return c;
}

const struct ss_placement ss_placement_kmem_cache = {.route = route_kmem_cache,
						     .kmalloc_by_site = true};
