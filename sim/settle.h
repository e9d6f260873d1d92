/* settle.h - objects the trace left live because the kernel freed them
 * without a free event (kfree_rcu() batches through kfree_bulk(), maple
 * tree bulk frees, sheaf frees: docs/capture.md), settled at the end of a
 * run by one rule (docs/own-trace.md):
 *
 *   a cache whose simulated `objects` exceed the kernel's after-snapshot
 *   releases its live objects from the sites the import found freed
 *   without events (meta untraced_frees), in object id order, until the
 *   excess is gone or those objects are.
 *
 * Only sites with that evidence are touched: an excess from anything else
 * stays, and shows in the comparison with the kernel.
 */
#ifndef SS_SETTLE_H
#define SS_SETTLE_H

#include <stdio.h>

#include "replay.h"
#include "slabsnap.h"

struct ss_settled {
	uint32_t cache, site; /* model cache index, trace site index */
	uint64_t objects;
};

struct ss_settle {
	struct ss_settled *rows; /* by cache, then site */
	size_t nr, cap;
	uint64_t total;
};

/* Apply the rule to the run's model against the kernel's after-snapshot. */
int ss_settle_run(struct ss_run *run, const struct ss_snap *after,
		  struct ss_settle *out, struct ss_error *err);
/* settled.csv: cache,site,objects (one row per cache and site released). */
void ss_settle_csv(FILE *fp, const struct ss_run *run, const struct ss_settle *s);
void ss_settle_release(struct ss_settle *s);

#endif
