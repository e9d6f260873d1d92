/* placement.h - the placement policies of the cache models. */
#ifndef SS_PLACEMENT_H
#define SS_PLACEMENT_H

#include "cache_model.h"

/* Memo keys at or above this are sites, below are trace api indexes. */
#define SS_SITE_MEMO_BASE 65536u

extern const struct ss_placement ss_placement_traced;
extern const struct ss_placement ss_placement_buckets;
extern const struct ss_placement ss_placement_kmem_cache;

/* The trace's declared cache for api (shared by traced and kmem_cache). */
int ss_place_declared_cache(struct ss_cmodel *m, uint32_t api,
			    struct ss_error *err);

#endif
