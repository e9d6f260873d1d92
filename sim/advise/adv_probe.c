/* adv_probe.c - placements without a replay (adv_probe.h). */
#include "adv_probe.h"

#include <stdio.h>
#include <string.h>

int ss_advise_probe(const struct ss_model_desc *desc, const struct ss_model_config *cfg,
	      const struct ss_overrides *ov, const struct ss_costs *costs,
	      const struct ss_advise_req *req, unsigned n, struct ss_advise_place *out,
	      struct ss_error *err)
{
	struct ss_model_config c = *cfg;
	struct ss_model *m;
	int rc = 0;

	c.overrides = ov;
	if (desc->ops->create(&m, &c, desc->policy, err))
		return -1;
	for (unsigned i = 0; i < n && !rc; i++) {
		struct ss_event ev = {.kind = SS_EV_ALLOC, .id = i, .site = req[i].site,
				      .api = req[i].api, .value = req[i].size};
		struct ss_obj obj = {.size = req[i].size, .site = req[i].site};
		struct ss_op op = {.cost = costs->cycles};
		struct ss_cache_report r;

		rc = desc->ops->alloc(m, &ev, &obj, &op, err);
		if (rc)
			break;
		out[i].stride = 0;
		if (obj.state == SS_OBJ_LIVE) {
			desc->ops->cache_report(m, obj.cache, &r);
			snprintf(out[i].cache, sizeof(out[i].cache), "%s", r.name);
			out[i].stride = r.slab_size;
		} else {
			snprintf(out[i].cache, sizeof(out[i].cache), "%s",
				 obj.state == SS_OBJ_LARGE ? "kmalloc_large" : "ZERO_SIZE_PTR");
		}
	}
	desc->ops->destroy(m);
	return rc;
}
