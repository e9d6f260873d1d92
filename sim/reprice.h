/* reprice.h - a finished run's simulated time under another cost table,
 * from the steps it counted, without replaying it (make sensitivity:
 * docs/cost-model.md, "Sensitivity").
 *
 * A model counts steps and a cost table prices them (steps.h); memory
 * never depends on the prices.  A run's simulated time is its busiest
 * CPU's clock: the work on it plus each operation's steps times their
 * prices, plus the waits the clocks give.  So with one CPU (no lock
 * waits, no cmpxchg retries), no kmalloc_large (its price is added but
 * not counted per cache) and a model whose decisions never read the
 * clock, the time under table B is the time under A plus, for each step,
 * its count times (B - A).  SLAB's cache_reap and KFENCE's sample gate
 * do read the clock: ss_reprice_check tests the sum against the run's
 * own time, and make sensitivity compares the prices with two full
 * replays (every cost at its low end, then at its high end) before it
 * takes them.
 */
#ifndef SS_REPRICE_H
#define SS_REPRICE_H

#include <stdint.h>

#include "costs.h"
#include "error.h"

struct ss_reprice {
	double n[SS_NR_STEPS]; /* the run's step counts (counters.csv) */
	unsigned clock_mhz;    /* the target's (summary.json) */
	uint64_t large_allocs; /* kmalloc_large allocations (summary.json) */
	/* from summary.csv, as the caller read it */
	double sim_ns, work_ns;
	double cpus, lock_waits, cmpxchg_retries;
};

/* The counts, the clock and the large allocations of the run in
 * run_dir; the caller sets the summary.csv fields. */
int ss_reprice_load(struct ss_reprice *r, const char *run_dir, struct ss_error *err);
/* 0 when the run's time is its work plus its counts priced by `costs`
 * (the table it ran with) to within the 1 us summary.csv gives the work
 * to, and nothing above rules the sum out; -1 with err saying why not. */
int ss_reprice_check(const struct ss_reprice *r, const struct ss_costs *costs,
		     struct ss_error *err);
/* The run's simulated time in ns under `to`, it having run under `from`. */
double ss_reprice_ns(const struct ss_reprice *r, const struct ss_costs *from,
		     const struct ss_costs *to);

#endif
