/* contention_swap.h - a cmpxchg line's ring of recent swaps and the
 * one-cmpxchg placement (contention.h's rules), inline: contention.c
 * builds c->swap from it, and the replay loop of plain SLUB caches
 * (replay_plain.c) places a free's cmpxchg without the call.  Only those
 * two include it.
 */
#ifndef SS_CONTENTION_SWAP_H
#define SS_CONTENTION_SWAP_H

#include "contention.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Placements between two recomputations of the slowest clock: a stale
 * floor only keeps a few spans longer. */
#define SS_FLOOR_EVERY 64

/* c->floor again, and the countdown to the next (contention.c). */
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

/* r's first swap, at `at`: an empty ring (contention.c, once per line). */
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
