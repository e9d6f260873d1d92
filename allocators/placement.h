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

/* placement_override.c: a model's placement overrides (override.h).  The
 * state is per model instance; the route returns a cache index, -1 with
 * err, or SS_ROUTE_BASE for what no rule names. */
struct ss_overrides;
struct ss_ov_state;
int ss_ov_state_create(const struct ss_overrides *ov, const struct ss_target *t,
		       struct ss_ov_state **out, struct ss_error *err);
void ss_ov_state_destroy(struct ss_ov_state *st);
int ss_override_route(struct ss_cmodel *m, struct ss_ov_state *st,
		      const struct ss_event *ev, struct ss_error *err);
/* The set's class for a kmalloc request of size bytes (its cache). */
bool ss_override_has_classes(const struct ss_ov_state *st);
int ss_override_class_cache(struct ss_cmodel *m, struct ss_ov_state *st,
			    uint64_t size, struct ss_error *err);

#endif
