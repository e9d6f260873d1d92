/* settle_rule.h - objects the trace left live because the kernel freed
 * them without a free event (kfree_rcu() batches through kfree_bulk(),
 * maple tree bulk frees, sheaf frees: docs/capture.md), settled at the
 * end of a run by one rule (docs/own-trace.md):
 *
 *   a cache whose simulated `objects` exceed the kernel's after-snapshot
 *   releases its live objects from the sites the import found freed
 *   without events (meta untraced_frees), in object id order, until the
 *   excess is gone or those objects are.
 *
 * Only sites with that evidence are touched: an excess from anything else
 * stays, and shows in the comparison with the kernel.  The rule picks;
 * the engine frees what it picks (sim/settle.h ss_settle_run).
 */
#ifndef SS_SETTLE_RULE_H
#define SS_SETTLE_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"
#include "slabsnap.h"
#include "trace.h"

struct ss_settled {
	uint32_t cache, site; /* model cache index, trace site index */
	uint64_t objects;
};

struct ss_settle {
	struct ss_settled *rows; /* by cache, then site (once ended) */
	size_t nr, cap;
	uint64_t total;
	/* while the rule runs: each model cache's excess over the kernel's
	 * `objects`, and the sites with evidence (by trace name index) */
	int64_t *excess;
	unsigned nr_caches;
	uint8_t *site_ok;
	uint32_t nr_sites;
};

/* The rule for the model's caches as they are now against the kernel's
 * after-snapshot, and the sites of the trace's meta untraced_frees.  0,
 * or -1 with err (out of memory). */
int ss_settle_begin(struct ss_settle *s, const struct ss_model_desc *desc,
		    const struct ss_model *model, const struct ss_trace_tables *tables,
		    const struct ss_snap *after, struct ss_error *err);
/* Whether the rule releases live object o (in object id order). */
bool ss_settle_wants(const struct ss_settle *s, const struct ss_obj *o);
/* o is released: its cache's excess is one less, its row one more.  0,
 * or -1 with err (out of memory). */
int ss_settle_note(struct ss_settle *s, const struct ss_obj *o, struct ss_error *err);
/* The rows in order, the rule's state gone. */
void ss_settle_end(struct ss_settle *s);
void ss_settle_release(struct ss_settle *s);

#endif
