/* settle.h - the settling rule (reconcile/settle_rule.h) applied to a
 * run at its end: the objects it picks freed through the model, with the
 * memory total and sites.csv's counts following, as a free event would
 * leave them (docs/own-trace.md).
 */
#ifndef SS_SETTLE_H
#define SS_SETTLE_H

#include <stdio.h>

#include "replay.h"
#include "settle_rule.h"
#include "slabsnap.h"

/* Apply the rule to the run's model against the kernel's after-snapshot:
 * 0 and *out what it released (ss_settle_release() it), or -1 with err
 * and *out released. */
int ss_settle_run(struct ss_run *run, const struct ss_snap *after,
		  struct ss_settle *out, struct ss_error *err);
/* settled.csv: cache,site,objects (one row per cache and site released). */
void ss_settle_csv(FILE *fp, const struct ss_run *run, const struct ss_settle *s);

#endif
