/* slab_oracle.h - a live (or saved) kernel's caches as an oracle for the
 * geometry model: /sys/kernel/slab/<cache>/ attributes and /proc/slabinfo
 * 2.1 lines, and the comparison `slabsim validate` prints.
 */
#ifndef SS_SLAB_ORACLE_H
#define SS_SLAB_ORACLE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "geometry.h"
#include "target.h"

/* One non-alias cache directory of /sys/kernel/slab. */
struct ss_oracle_cache {
	char name[128];
	unsigned object_size, slab_size, order, objs_per_slab, align;
	bool hwcache, rcu, ctor, kmalloc;
	unsigned debug;		/* SS_DBG_* from sanity_checks red_zone poison
				 * store_user trace */
	bool have_min_partial, have_cpu_partial, have_sheaf_capacity;
	unsigned min_partial, cpu_partial;
	unsigned sheaf_capacity;	/* 6.18+ */
};

struct ss_oracle {
	struct ss_oracle_cache *caches; /* sorted by name */
	size_t nr, cap;
};

/* Read every cache directory of dir that is not a symlink (aliases are
 * symlinks).  Required attributes: object_size slab_size order
 * objs_per_slab align hwcache_align poison red_zone store_user ctor and
 * destroy_by_rcu (or typesafe_by_rcu); optional: sanity_checks trace
 * min_partial cpu_partial sheaf_capacity.  Errors name the file. */
int ss_oracle_read_sysfs(const char *dir, struct ss_oracle *o,
			 struct ss_error *err);
void ss_oracle_release(struct ss_oracle *o);

/* kmalloc-*, dma-kmalloc-* (covers kmalloc-cg-, -rcl-, -rnd-). */
bool ss_oracle_is_kmalloc_name(const char *name);

enum ss_verdict {
	SS_VERDICT_MATCH,
	SS_VERDICT_MISMATCH,
	SS_VERDICT_FREEPTR, /* matches only with an explicit freeptr_offset */
};

struct ss_oracle_result {
	enum ss_verdict verdict;
	struct ss_geometry model; /* the model's answer without a freeptr offset */
	unsigned sheaf_capacity;  /* the model's s->sheaf_capacity (6.18+) */
	char reason[160];
};

/* Recompute c on t and compare slab_size, order, objs_per_slab (and
 * min_partial, cpu_partial when the kernel shows them); r->sheaf_capacity
 * is the model's for the layout that matched (ss_sheaf_capacity() with
 * the target's sheaf_capacity.NAME as the request). */
int ss_oracle_check(const struct ss_target *t, const struct ss_oracle_cache *c,
		    struct ss_oracle_result *r, struct ss_error *err);

/* One /proc/slabinfo 2.1 line (objsize there is s->size, the stride). */
struct ss_slabinfo_line {
	char name[128];
	unsigned long active_objs, num_objs;
	unsigned objsize, objperslab, pagesperslab;
};

int ss_slabinfo_read(const char *path, struct ss_slabinfo_line **lines,
		     size_t *nr, struct ss_error *err);

/* Check one slabinfo line: objsize a multiple of W, pagesperslab a power
 * of two, objperslab = (PAGE << order) / objsize, and order = the model's
 * calculate_order(objsize).  Fills the model's order and objects. */
enum ss_verdict ss_slabinfo_check(const struct ss_target *t,
				  const struct ss_slabinfo_line *l,
				  int *model_order, unsigned *model_objs,
				  char *reason, size_t n);

/* Count the CPUs in a cpulist such as "0-3,6" (sysfs .../cpu/present). */
int ss_parse_cpulist(const char *s, unsigned *count);

#endif
