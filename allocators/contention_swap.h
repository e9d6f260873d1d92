/* contention_swap.h - the contention engine's state (the rules are in
 * sim/contention.h), a cmpxchg line's ring of recent swaps and the
 * one-cmpxchg placement, inline: the engine (sim/contention.c) builds
 * c->swap from it, and a model's batch replay (model_batch.h) places an
 * operation's one cmpxchg without the call.  Here, below the engine, so
 * that a model's loop can keep them inline.
 */
#ifndef SS_CONTENTION_SWAP_H
#define SS_CONTENTION_SWAP_H

#include <stdint.h>

#include "resource.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define SS_RES_HIST_MAX 4096
#define SS_SWAP_RING 8

struct ss_contention;

/* One operation's one cmpxchg on r (report row st), several CPUs: it read
 * at `at` in the operation's cycles and swaps `window` later on CPU cpu,
 * whose clock has not yet advanced by the operation; another CPU's swap
 * in between makes it loop once more (`retry` cycles, which the caller
 * adds to the operation and counts as its cmpxchg_retry step).  1 when it
 * looped, 0 when not, -1 when out of memory.  An operation's one use is
 * placed like this whether it comes in a struct ss_op (ss_contend_op) or
 * straight from a model's batch replay. */
typedef int ss_swap_fn(struct ss_contention *c, unsigned cpu, struct ss_resource *r,
		       struct ss_res_stat *st, double at, double window, double retry);

struct ss_contention {
	/* set by ss_contention_init */
	const double *clocks; /* every CPU's clock (struct ss_run) */
	unsigned nr_cpus;
	/* ss_contend_swap_base as built for this CPU (contention.c), or with
	 * one CPU the tally of a use */
	ss_swap_fn *swap;
	/* the slowest clock, recomputed every few placements: no new use can
	 * begin before it, so older spans are dropped */
	double floor;
	int until_floor; /* placements left before it; < 0: now */
	/* run totals */
	uint64_t uses, waits, retries, lost;
	double wait_cycles, retry_cycles;
};

/* Placements between two recomputations of the slowest clock: a stale
 * floor only keeps a few spans longer. */
#define SS_FLOOR_EVERY 64

/* c->floor again, and the countdown to the next. */
void ss_contention_floor(struct ss_contention *c);

/* Every placement counts down, whatever its kind: the floor's schedule
 * decides which lock spans a full history drops (contention.c keep), so
 * it is part of the output. */
static inline void ss_contention_tick(struct ss_contention *c)
{
	if (--c->until_floor < 0) /* one decrement of memory, its sign tested */
		ss_contention_floor(c);
}

/* A cmpxchg line's last SS_SWAP_RING swaps (in r->hist, which only the
 * contention code reads; a resource is a lock or a line, never both):
 * the times in one array, so that all of them are tested with a few
 * packed compares and no branch per swap.  An empty slot is at
 * -infinity, before every read, so it never counts. */
struct ss_swap_ring {
	double from[SS_SWAP_RING];
	uint32_t cpu[SS_SWAP_RING];
	double latest; /* the latest swap ever kept */
	uint32_t head; /* the next slot */
};

static inline struct ss_swap_ring *ss_ring_of(const struct ss_resource *r)
{
	return (struct ss_swap_ring *)(void *)r->hist;
}

/* Cmpxchg: did another CPU swap inside (t, t + len]? */
static inline __attribute__((always_inline)) int
ss_swapped_between(const struct ss_swap_ring *g, unsigned cpu, double t, double len)
{
	double hi = t + len;
	unsigned in = 0;

	if (!g || g->latest <= t) /* every swap kept is before the read */
		return 0;
#if defined(__SSE2__) && SS_SWAP_RING == 8
	{ /* two at a time, unrolled; which ones only when one is inside (rare) */
		__m128d lo2 = _mm_set1_pd(t), hi2 = _mm_set1_pd(hi);
#define IN2(i) _mm_and_pd(_mm_cmpgt_pd(_mm_loadu_pd(g->from + (i)), lo2), \
			  _mm_cmple_pd(_mm_loadu_pd(g->from + (i)), hi2))
		if (!_mm_movemask_pd(_mm_or_pd(_mm_or_pd(IN2(0), IN2(2)),
					       _mm_or_pd(IN2(4), IN2(6)))))
			return 0;
#undef IN2
	}
#endif
	for (unsigned i = 0; i < SS_SWAP_RING; i++)
		in |= (unsigned)((g->from[i] > t) & (g->from[i] <= hi)) << i;
	for (; in; in &= in - 1)
		if (g->cpu[__builtin_ctz(in)] != cpu)
			return 1;
	return 0;
}

/* r's first swap, at `at`: an empty ring (contention_swap.c, once per
 * line; out of line: the free path that keeps a swap keeps its
 * registers). */
struct ss_swap_ring *ss_swap_ring_new(struct ss_resource *r, double at);

/* Keep a swap at `at` in r's ring, over its oldest. */
static inline int ss_keep_swap(struct ss_resource *r, unsigned cpu, double at)
{
	struct ss_swap_ring *g = ss_ring_of(r);

	if (!g && !(g = ss_swap_ring_new(r, at)))
		return -1;
	if (at > g->latest)
		g->latest = at;
	g->from[g->head] = at;
	g->cpu[g->head] = cpu;
	g->head = (g->head + 1) % SS_SWAP_RING;
	return 0;
}

/* c->swap's placement (contention.h ss_swap_fn), several CPUs: no
 * nesting, no lock history. */
static inline __attribute__((always_inline)) int
ss_contend_swap_at(struct ss_contention *c, unsigned cpu, struct ss_resource *r,
		   struct ss_res_stat *st, double at, double len, double retry)
{
	double t = c->clocks[cpu] + at, swap = t + len;
	int retried = 0;

	/* A cmpxchg's len is its window, set with it (steps.h
	 * ss_op_cmpxchg_at: a step's price, never negative, costs.c),
	 * unlike a lock's. */
	ss_contention_tick(c);
	st->uses++;
	c->uses++;
	if (ss_swapped_between(ss_ring_of(r), cpu, t, len)) {
		st->retries++;
		c->retries++;
		c->retry_cycles += retry;
		swap += retry; /* (no + 0 without a retry) */
		retried = 1;
	}
	return ss_keep_swap(r, cpu, swap) ? -1 : retried;
}

#endif
