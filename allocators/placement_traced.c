/* placement_traced.c - model `traced`: every allocation goes where the
 * traced kernel put it: kmalloc to its size class, a named cache to that
 * cache, created with the arguments the trace declared. */
#include "placement.h"

/* The trace's own cache for api, created on first use. */
int ss_place_declared_cache(struct ss_cmodel *m, uint32_t api,
			    struct ss_error *err)
{
	struct ss_route_memo *memo = ss_cmodel_memo(m);
	const struct ss_trace_tables *tb = ss_cmodel_config(m)->tables;
	const struct ss_trace_cache *tc = &tb->caches[api];
	struct ss_cache_spec spec = {
		.object_size = tc->object_size,
		.align = tc->align,
		.flags = tc->flags,
	};
	int c = ss_route_memo_get(memo, api);

	if (c >= 0)
		return c;
	/* a kernel's own cache (imported trace) is already what merging
	 * made it: its allocations never move into another */
	c = ss_cmodel_cache(m, ss_trace_cache_name(tb, api), &spec,
			    ss_cmodel_config(m)->merge && !ss_cmodel_config(m)->kernel_caches, err);
	if (c >= 0 && ss_route_memo_set(memo, api, c))
		return ss_errorf(err, "out of memory");
	return c;
}

static int route_traced(struct ss_cmodel *m, const struct ss_event *ev,
			struct ss_error *err)
{
	if (ev->api == SS_API_KMALLOC)
		return SS_ROUTE_KMALLOC;
	return ss_place_declared_cache(m, ev->api, err);
}

const struct ss_placement ss_placement_traced = {.route = route_traced};
