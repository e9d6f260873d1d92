/* contention.c - uses of shared resources on the simulated clocks
 * (contention.h has the rules). */
#include "contention.h"

#include <math.h>
#if defined(__x86_64__) && defined(__SSE2__)
#define SS_HAVE_AVX_SWAP 1 /* ss_contend_swap built for AVX too */
#endif
#include <string.h>

#ifdef SS_HAVE_AVX_SWAP
static ss_swap_fn contend_swap_avx;
#endif
static ss_swap_fn tally_swap;

void ss_contention_init(struct ss_contention *c, const double *clocks,
			unsigned nr_cpus)
{
	memset(c, 0, sizeof(*c));
	c->clocks = clocks;
	c->nr_cpus = nr_cpus;
	c->swap = ss_contend_swap_base;
#ifdef SS_HAVE_AVX_SWAP
	if (__builtin_cpu_supports("avx"))
		c->swap = contend_swap_avx;
#endif
	if (nr_cpus == 1)
		c->swap = tally_swap;
}

/* The first of the n spans sp[] whose `from` is above x (n if none). */
static uint32_t first_above(const struct ss_res_span *sp, uint32_t n, double x)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (sp[mid].from > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The next span of h's history at sorted index *i and pending index *j,
 * in the history's order (resource.h), or NULL at its end. */
static inline const struct ss_res_span *next_span(const struct ss_res_hist *h,
						  const struct ss_res_span *sp, uint32_t *i,
						  uint32_t *j)
{
	if (*i < h->n && (*j >= h->npend || sp[*i].from <= h->pend[*j].from))
		return &sp[(*i)++];
	return *j < h->npend ? &h->pend[(*j)++] : NULL;
}

/* Lock: where a hold of len asked for at t can start. */
static double lock_start(const struct ss_res_hist *h, unsigned cpu, double t,
			 double len)
{
	const struct ss_res_span *sp, *s;
	uint32_t i, j;

	if (!h)
		return t;
	sp = h->span + h->first;
	i = first_above(sp, h->n, t);
	j = first_above(h->pend, h->npend, t);
	/* from the last span that begins no later where it is held at t (a
	 * pending one is the later of two that begin together) */
	if (j > 0 && (i == 0 || h->pend[j - 1].from >= sp[i - 1].from)) {
		if (h->pend[j - 1].until > t)
			j--;
	} else if (i > 0 && sp[i - 1].until > t) {
		i--;
	}
	while ((s = next_span(h, sp, &i, &j))) {
		if (s->cpu == cpu || s->until <= t)
			continue;
		if (s->from >= t + len) /* the gap before s is long enough */
			break;
		t = s->until;
	}
	return t;
}

/* Drop from h the spans ending before the slowest clock, from the
 * oldest on, and the oldest beyond SS_RES_HIST_MAX. */
static void drop_behind(const struct ss_contention *c, struct ss_res_hist *h)
{
	const struct ss_res_span *sp = h->span + h->first, *s;
	uint32_t total = h->n + h->npend, drop = 0, i = 0, j = 0;

	while ((s = next_span(h, sp, &i, &j)) && s->until <= c->floor)
		drop++;
	if (s) { /* (the one that stopped it stays; with j 0 it is not pending:
		  * &h->pend[j - 1] would point before the array) */
		if (j && s == &h->pend[j - 1])
			j--;
		else
			i--;
	}
	if (drop == total && total) { /* all behind: start afresh */
		h->n = h->first = h->npend = 0;
		return;
	}
	if (!drop && total == SS_RES_HIST_MAX) { /* the oldest */
		i = j = 0;
		next_span(h, sp, &i, &j);
	}
	h->first += i;
	h->n -= i;
	if (j) {
		memmove(h->pend, h->pend + j, (h->npend - j) * sizeof(h->pend[0]));
		h->npend -= j;
	}
}

/* Merge h's pending spans into its sorted ones, from the back: the
 * sorted spans after the earliest pending one move, once. */
static int flush_pending(struct ss_resource *r, struct ss_res_hist *h)
{
	uint32_t need = h->n + h->npend;
	struct ss_res_span *sp;
	int64_t i, j, k;

	if (h->first + need > h->cap) {
		if (2 * (uint64_t)need > h->cap) { /* room for as many again */
			uint32_t cap = h->cap ? h->cap : 8;

			while (cap < 2 * need)
				cap *= 2;
			h = realloc(h, sizeof(*h) + cap * sizeof(h->span[0]));
			if (!h)
				return -1;
			h->cap = cap;
			r->hist = h;
		}
		if (h->first + need > h->cap) {
			memmove(h->span, h->span + h->first, h->n * sizeof(h->span[0]));
			h->first = 0;
		}
	}
	sp = h->span + h->first;
	i = (int64_t)h->n - 1;
	j = (int64_t)h->npend - 1;
	k = (int64_t)need - 1;
	while (j >= 0) /* a sorted span before a pending one of its `from` */
		sp[k--] = i >= 0 && sp[i].from > h->pend[j].from ? sp[i--] : h->pend[j--];
	h->n = need;
	h->npend = 0;
	return 0;
}

/* Keep span in r's history, in `from` order (after the spans that begin
 * no later), once those that go are gone (drop_behind).  It joins the
 * pending spans; they join the sorted ones SS_RES_PEND at a time.  A
 * sorted array alone moved every span after a new one's place: a CPU
 * whose clock lags the others' holds near the front of a full history,
 * 49% of a 100 M event replay (hackbench -l 3125, main at d095ae0) and
 * still 18 instructions per event of the 10 M one when the shorter side
 * moved. */
static int keep(struct ss_contention *c, struct ss_resource *r,
		const struct ss_res_span *span)
{
	struct ss_res_hist *h = r->hist;
	uint32_t at;

	if (h) {
		drop_behind(c, h);
	} else {
		if (!(h = malloc(sizeof(*h))))
			return -1;
		h->n = h->cap = h->first = h->npend = 0;
		r->hist = h;
	}
	if (h->npend == SS_RES_PEND) {
		if (flush_pending(r, h))
			return -1;
		h = r->hist;
	}
	at = first_above(h->pend, h->npend, span->from);
	memmove(h->pend + at + 1, h->pend + at, (h->npend - at) * sizeof(h->pend[0]));
	h->pend[at] = *span;
	h->npend++;
	return 0;
}

static void count(struct ss_op *op, enum ss_step s)
{
	if (op->stats)
		op->stats[s]++;
}

/* First pass: in the order the uses began, each waits for (lock) or
 * loops past (cmpxchg) other CPUs' uses; after[i] is the delay the
 * operation has accumulated once use i has its lock or made its swap. */
static inline __attribute__((always_inline)) double
place(struct ss_contention *c, unsigned cpu, double clock, struct ss_op *op, unsigned n,
      double *after)
{
	double delay = 0;

	for (unsigned i = 0; i < n; i++) {
		struct ss_use *u = &op->use[i];
		double t = clock + u->at + delay;

		if (u->len < 0) /* never released: held to the op's end */
			u->len = op->cycles - u->at;
		u->stat->uses++;
		if (u->kind == SS_USE_LOCK) {
			double w = lock_start(u->res->hist, cpu, t, u->len) - t;

			if (w > 0) {
				delay += w;
				u->stat->waits++;
				u->stat->wait_cycles += w;
				c->waits++;
				c->wait_cycles += w;
				count(op, SS_STEP_LOCK_WAIT);
			}
		} else if (ss_swapped_between(ss_ring_of(u->res), cpu, t, u->len)) {
			delay += u->retry;
			u->stat->retries++;
			c->retries++;
			c->retry_cycles += u->retry;
			count(op, SS_STEP_CMPXCHG_RETRY);
		}
		after[i] = delay;
	}
	c->uses += n;
	return delay;
}

/* Second pass: each use, with the delays nested inside it, joins its
 * resource's history. */
static inline __attribute__((always_inline)) int
record(struct ss_contention *c, unsigned cpu, double clock, struct ss_op *op, unsigned n,
       const double *after)
{
	for (unsigned i = 0; i < n; i++) {
		struct ss_use *u = &op->use[i];
		double end_at = u->at + u->len, nested = after[i];
		struct ss_res_span span = {.cpu = cpu};

		if (u->kind != SS_USE_LOCK) { /* a swap: nothing nests in it */
			if (c->nr_cpus > 1 &&
			    ss_keep_swap(u->res, cpu, clock + end_at + after[i]))
				return -1;
			continue;
		}
		for (unsigned j = i + 1; j < n; j++)
			if (op->use[j].at < end_at)
				nested = after[j]; /* after[] never decreases */
		span.from = clock + u->at + after[i];
		span.until = clock + end_at + nested;
		u->stat->hold_cycles += span.until - span.from;
		if (c->nr_cpus > 1 && keep(c, u->res, &span))
			return -1;
	}
	return 0;
}

int ss_contend_swap_base(struct ss_contention *c, unsigned cpu, struct ss_resource *r,
			 struct ss_res_stat *st, double at, double len, double retry)
{
	return ss_contend_swap_at(c, cpu, r, st, at, len, retry);
}

#ifdef SS_HAVE_AVX_SWAP
/* The same source built for AVX, chosen where the CPU has it: the
 * three-operand VEX compares take the ring's swaps straight from memory,
 * without the register copies SSE2's two-operand ones need (the ring
 * test: 38 instructions -> 26, docs/bench.md).  Same answers:
 * the same compares (test_contention.c runs both). */
static __attribute__((target("avx"))) int
contend_swap_avx(struct ss_contention *c, unsigned cpu, struct ss_resource *r,
		 struct ss_res_stat *st, double at, double len, double retry)
{
	return ss_contend_swap_at(c, cpu, r, st, at, len, retry);
}
#endif

/* c->swap with one CPU: what ss_contend_tally does with any other
 * operation there (one test fewer per operation with a cmpxchg). */
static int tally_swap(struct ss_contention *c, unsigned cpu, struct ss_resource *r,
		      struct ss_res_stat *st, double at, double len, double retry)
{
	(void)cpu, (void)r, (void)at, (void)len, (void)retry;
	st->uses++;
	c->uses++;
	return 0;
}

/* The one-lock operation (one list_lock) without the nesting
 * bookkeeping. */
static int contend_one(struct ss_contention *c, unsigned cpu, double clock,
		       struct ss_op *op)
{
	struct ss_use *u = &op->use[0];
	double t = clock + u->at, delay = 0;
	struct ss_res_span span = {.cpu = cpu};

	if (u->len < 0)
		u->len = op->cycles - u->at;
	u->stat->uses++;
	c->uses++;
	if (c->nr_cpus > 1)
		delay = lock_start(u->res->hist, cpu, t, u->len) - t;
	if (delay > 0) {
		u->stat->waits++;
		u->stat->wait_cycles += delay;
		c->waits++;
		c->wait_cycles += delay;
		count(op, SS_STEP_LOCK_WAIT);
		op->cycles += delay;
	}
	span.from = t + delay;
	span.until = span.from + u->len;
	u->stat->hold_cycles += u->len;
	return c->nr_cpus > 1 ? keep(c, u->res, &span) : 0;
}

void ss_contend_tally(struct ss_contention *c, struct ss_op *op)
{
	c->lost += op->uses_lost;
	c->uses += op->nr_uses;
	for (unsigned i = 0; i < op->nr_uses; i++) {
		struct ss_use *u = &op->use[i];

		u->stat->uses++;
		if (u->kind == SS_USE_LOCK)
			u->stat->hold_cycles += u->len < 0 ? op->cycles - u->at : u->len;
	}
}

/* Both passes over n uses (n a constant where the commonest shapes are
 * inlined: their loops unrolled). */
static inline __attribute__((always_inline)) int
place_record(struct ss_contention *c, unsigned cpu, double clock, struct ss_op *op, unsigned n,
	     double *after)
{
	op->cycles += place(c, cpu, clock, op, n, after);
	return record(c, cpu, clock, op, n, after);
}

/* Two and three uses (a cmpxchg and list_lock, two cmpxchgs, or
 * get_partial_node()'s cmpxchg, lock, cmpxchg: most operations with
 * several uses) in their own unrolled copies. */
static int place_record_n(struct ss_contention *c, unsigned cpu, double clock,
			  struct ss_op *op, double *after)
{
	if (op->nr_uses == 2)
		return place_record(c, cpu, clock, op, 2, after);
	if (op->nr_uses == 3)
		return place_record(c, cpu, clock, op, 3, after);
	return place_record(c, cpu, clock, op, op->nr_uses, after);
}

int ss_contend(struct ss_contention *c, unsigned cpu, struct ss_op *op)
{
	double after[SS_OP_MAX_USES];
	double clock = c->clocks[cpu];

	if (op->nr_uses == 1 && op->use[0].kind == SS_USE_CMPXCHG) {
		if (c->nr_cpus > 1)
			return ss_contend_swap(c, cpu, op);
		c->lost += op->uses_lost;
		op->use[0].stat->uses++;
		c->uses++;
		return 0;
	}
	c->lost += op->uses_lost;
	if (c->nr_cpus > 1)
		ss_contention_tick(c);
	if (op->nr_uses == 1)
		return contend_one(c, cpu, clock, op);
	return place_record_n(c, cpu, clock, op, after);
}

