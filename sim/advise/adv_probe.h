/* adv_probe.h - where a model puts one allocation, without a replay: the
 * cache an allocation site lands in under the model's placement and a
 * proposal's overrides, and that cache's stride.  The advisor's estimates
 * (predicted_saving_kib) are built on it; the savings it reports come
 * from full replays (adv_replay.h). */
#ifndef SS_ADV_PROBE_H
#define SS_ADV_PROBE_H

#include <stdint.h>

#include "costs.h"
#include "model.h"

struct ss_advise_req {
	uint32_t site, api; /* trace name index, SS_API_KMALLOC or a cache */
	uint64_t size;	    /* bytes requested */
};

struct ss_advise_place {
	char cache[64];	 /* cache name; "kmalloc_large", "ZERO_SIZE_PTR" */
	unsigned stride; /* bytes per object in its slab (slab_size); 0: none */
};

/* One fresh model instance of desc with cfg and overrides ov (NULL: none)
 * takes one allocation per request, on CPU 0.  -1 with err (a cache the
 * target cannot lay out, an override that does not fit). */
int ss_advise_probe(const struct ss_model_desc *desc, const struct ss_model_config *cfg,
	      const struct ss_overrides *ov, const struct ss_costs *costs,
	      const struct ss_advise_req *req, unsigned n, struct ss_advise_place *out,
	      struct ss_error *err);

#endif
