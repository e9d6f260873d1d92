/* contention.h - the uses of shared resources an operation lists
 * (allocators/resource.h) placed on the CPUs' simulated clocks.
 *
 * Time rules (docs/cost-model.md, "Contention"):
 *  - Every CPU has a clock (cycles).  An operation on CPU c starts at c's
 *    clock; a use noted at op->cycles == at happens at clock + at plus the
 *    waits and retries of the uses before it in the same operation.
 *  - Events are replayed in trace order, and the trace order is the order
 *    in which CPUs reached the shared state: a use replayed earlier keeps
 *    its place on the clocks, a later one fits around it.
 *  - A lock keeps the holds of every CPU that may still meet a new one:
 *    those that end after the slowest CPU's clock (at most
 *    SS_RES_HIST_MAX, the oldest dropped first).  A cmpxchg line keeps
 *    its last SS_SWAP_RING swaps (in trace order).
 *  - A lock request at t for a hold of len cycles starts at the first
 *    point from t on where len cycles are free of other holds: the wait
 *    is that point minus t.  A hold spans the waits nested inside it.
 *  - A cmpxchg reads at t and swaps at t + window; it loops once more
 *    (its `retry` cycles) when another CPU swapped inside (t, t + window].
 *  - A CPU never waits for itself.  A one-CPU run keeps no history and has
 *    no waits and no retries: its time figures are those without this.
 */
#ifndef SS_CONTENTION_H
#define SS_CONTENTION_H

#include <stdint.h>

#include "contention_swap.h"
#include "steps.h"

void ss_contention_init(struct ss_contention *c, const double *clocks,
			unsigned nr_cpus);

/* Place op's uses on CPU cpu, whose clock has not yet advanced by op: add
 * the waits and retries to op->cycles (and count them in the op's
 * counters and each use's report row), then keep the uses in their
 * resources' histories.  0, or -1 when out of memory. */
int ss_contend(struct ss_contention *c, unsigned cpu, struct ss_op *op);

/* One CPU: what ss_contend would do there, counting the uses and the
 * holds, for less (nothing can wait). */
void ss_contend_tally(struct ss_contention *c, struct ss_op *op);

/* The baseline (SSE2) build of c->swap, whatever the CPU
 * (ss_contention_init sets c->swap to it or to the AVX build): for the
 * test that both agree. */
ss_swap_fn ss_contend_swap_base;

/* ss_contend for an operation whose one use is a cmpxchg (the commonest
 * operation with a use): c->swap, the loop's cycles added. */
static inline int ss_contend_swap(struct ss_contention *c, unsigned cpu, struct ss_op *op)
{
	const struct ss_use *u = &op->use[0];
	int rc = c->swap(c, cpu, u->res, u->stat, u->at, u->len, u->retry);

	if (rc > 0) {
		if (op->stats)
			op->stats[SS_STEP_CMPXCHG_RETRY]++;
		op->cycles += u->retry;
	}
	return rc < 0 ? -1 : 0;
}

/* The replay's call after a model operation. */
static inline int ss_contend_op(struct ss_contention *c, unsigned cpu,
				struct ss_op *op)
{
	if (!op->nr_uses) /* a fast path: no lock, no cmpxchg */
		return 0;
	if (op->nr_uses == 1 && op->use[0].kind == SS_USE_CMPXCHG)
		return ss_contend_swap(c, cpu, op); /* one CPU: the tally */
	if (c->nr_cpus == 1) {
		ss_contend_tally(c, op);
		return 0;
	}
	return ss_contend(c, cpu, op);
}

#endif
