/* placement_buckets.c - model `kmalloc-buckets`: every allocation, named
 * cache or not, goes to the kmalloc class of its object size: what the
 * kernel did before a dedicated cache was introduced (e.g. smack_rule in
 * kmalloc-32 before the SMACK patch 3).  An object above the largest
 * class (task_struct of 7.2's Debian build: 8,904 bytes) would be a
 * kmalloc_large() (the cache model's large kmalloc path). */
#include "kmalloc.h"
#include "placement.h"

static int route_buckets(struct ss_cmodel *m, const struct ss_event *ev,
			 struct ss_error *err)
{
	struct ss_route_memo *memo = ss_cmodel_memo(m);
	const struct ss_trace_tables *tb = ss_cmodel_config(m)->tables;
	int c;

	if (ev->api == SS_API_KMALLOC)
		return SS_ROUTE_KMALLOC;
	c = ss_route_memo_get(memo, ev->api);
	if (c >= 0)
		return c;
	if (tb->caches[ev->api].object_size > ss_kmalloc_max_cache_size(ss_cmodel_config(m)->target))
		return SS_ROUTE_KMALLOC;
	c = ss_cmodel_kmalloc_cache(m, tb->caches[ev->api].object_size, err);
	if (c >= 0 && ss_route_memo_set(memo, ev->api, c))
		return ss_errorf(err, "out of memory");
	return c;
}

const struct ss_placement ss_placement_buckets = {.route = route_buckets};
