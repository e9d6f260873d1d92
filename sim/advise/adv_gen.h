/* adv_gen.h - the advisor's proposals: what to change where, each as a
 * placement override table (override.h) a replay applies, with an
 * estimate from one model probe (adv_probe.h) to choose which to replay.
 *
 * Kinds (docs/advise.md):
 *   dedicated   a fixed-size kmalloc site gets a cache of exactly its size
 *               (kmem_cache_create, align __alignof__ = a pointer), without
 *               and with SLAB_HWCACHE_ALIGN, never merged;
 *   group       the fixed-size kmalloc sites of one size share such a cache;
 *   merged      the same cache where find_mergeable() of the target's era
 *               would alias it at boot (only when that is not where the
 *               allocations already go: then merging undoes the change);
 *   classes     another kmalloc class set: classes the target lacks (96,
 *               192), KMALLOC_MIN_SIZE 8, a class where the sizes cluster;
 *   buckets     (imported traces) a variable-size site through its own
 *               kmem_buckets;
 *   random      (imported traces) CONFIG_RANDOM_KMALLOC_CACHES: not
 *               replayed until `--config` exists (issue 17).
 */
#ifndef SS_ADV_GEN_H
#define SS_ADV_GEN_H

#include <stdbool.h>

#include "adv_probe.h"
#include "adv_scan.h"
#include "override.h"

enum ss_advise_kind { SS_ADVISE_DEDICATED, ADV_GROUP, SS_ADVISE_MERGED, ADV_CLASSES, SS_ADVISE_BUCKETS, ADV_RANDOM };

struct ss_advise_prop {
	enum ss_advise_kind kind;
	bool hwcache;		/* the cache has SLAB_HWCACHE_ALIGN */
	bool hw_same;		/* ... and with it the layout would be the same */
	char label[96];		/* advice.csv's proposal column */
	char *sites;		/* the site, or the group's sites, ' '-separated */
	unsigned nr_sites;
	char current[64];	/* where the (first) site's objects go now */
	char cache[64];		/* the new cache, merge target, bucket set */
	char merge_into[64];	/* dedicated/group: find_mergeable()'s pick, "" none */
	unsigned object_size;	/* the struct size; classes: the class added, 0 several */
	unsigned stride, cur_stride; /* bytes per object, proposed and now (estimate) */
	struct ss_overrides ov;	/* what the replay applies */
	double predicted_kib;	/* live objects at the end x stride saved */
	double score;		/* the same with each site's peak live count */
	const char *needs;	/* NULL: replayed; else why it is not */
	char why[256];		/* the kernel's reason behind needs, "" none */
	char config[64];	/* kernel options the proposal adds to the baseline's, "" none */
	unsigned order;		/* generation order (ties) */
};

struct ss_advise_props {
	struct ss_advise_prop *p;
	unsigned nr, cap;
	unsigned dropped;	/* candidates past the replay budget */
	double dropped_kib;	/* their predicted savings, summed */
};

struct ss_advise_gen_in {
	const struct ss_advise_scan *scan;
	const struct ss_model_desc *desc;
	const struct ss_model_config *cfg; /* the baseline's; tables: the scan's */
	const struct ss_costs *costs;
	unsigned max_proposals;	/* site and group proposals replayed at most */
};

/* Every proposal for the trace, the ones to replay first (by score, then
 * generation order), those past the budget dropped and counted. */
int ss_advise_generate(const struct ss_advise_gen_in *in, struct ss_advise_props *out,
		 struct ss_error *err);
void ss_advise_props_release(struct ss_advise_props *ps);

/* A kernel-style cache name for a site: "smk_set_access:rule" ->
 * "smk_set_access_rule", "ext4_find_extent+0x30c/0x350" ->
 * "ext4_find_extent". */
void ss_advise_cache_name(const char *site, char *buf, size_t n);

#endif
