/* contention.c - uses of shared resources on the simulated clocks
 * (contention.h has the rules). */
#include "contention.h"

#include <string.h>

/* Placements between two recomputations of the slowest clock: a stale
 * floor only keeps a few spans longer. */
#define FLOOR_EVERY 64

void ss_contention_init(struct ss_contention *c, const double *clocks,
			unsigned nr_cpus)
{
	memset(c, 0, sizeof(*c));
	c->clocks = clocks;
	c->nr_cpus = nr_cpus;
}

static void update_floor(struct ss_contention *c)
{
	double min;

	if (c->until_floor--)
		return;
	c->until_floor = FLOOR_EVERY;
	min = c->clocks[0];
	for (unsigned i = 1; i < c->nr_cpus; i++)
		if (c->clocks[i] < min)
			min = c->clocks[i];
	c->floor = min;
}

/* The first span whose `from` is above x (h->n if none). */
static uint32_t first_from_above(const struct ss_res_hist *h, double x)
{
	uint32_t lo = 0, hi = h->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (h->span[mid].from > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Lock: where a hold of len asked for at t can start. */
static double lock_start(const struct ss_res_hist *h, unsigned cpu, double t,
			 double len)
{
	uint32_t i;

	if (!h)
		return t;
	i = first_from_above(h, t);
	if (i > 0 && h->span[i - 1].until > t) /* held at t */
		i--;
	for (; i < h->n; i++) {
		const struct ss_res_span *s = &h->span[i];

		if (s->cpu == cpu || s->until <= t)
			continue;
		if (s->from >= t + len) /* the gap before s is long enough */
			break;
		t = s->until;
	}
	return t;
}

/* Cmpxchg: did another CPU swap inside (t, t + len]?  A line keeps its
 * last SS_SWAP_RING swaps, in no order. */
static int swapped_between(const struct ss_res_hist *h, unsigned cpu,
			   double t, double len)
{
	int hit = 0;

	if (!h || h->latest <= t) /* every swap kept is before the read */
		return 0;
	for (uint32_t i = 0; i < h->n; i++)
		hit |= h->span[i].from > t && h->span[i].from <= t + len &&
		       h->span[i].cpu != cpu;
	return hit;
}

/* Keep a swap in r's ring, over its oldest. */
static int keep_swap(struct ss_resource *r, const struct ss_res_span *span)
{
	struct ss_res_hist *h = r->hist;

	if (!h) {
		h = malloc(sizeof(*h) + SS_SWAP_RING * sizeof(h->span[0]));
		if (!h)
			return -1;
		h->n = h->head = 0;
		h->cap = SS_SWAP_RING;
		h->latest = span->from;
		r->hist = h;
	}
	if (span->from > h->latest)
		h->latest = span->from;
	h->span[h->head] = *span;
	h->head = (h->head + 1) % SS_SWAP_RING;
	if (h->n < SS_SWAP_RING)
		h->n++;
	return 0;
}

/* Keep span in r's history, in `from` order; spans ending before the
 * slowest clock go first, then the oldest beyond SS_RES_HIST_MAX. */
static int keep(struct ss_contention *c, struct ss_resource *r,
		const struct ss_res_span *span)
{
	struct ss_res_hist *h = r->hist;
	uint32_t drop = 0, at;

	if (h) {
		while (drop < h->n && h->span[drop].until <= c->floor)
			drop++;
		if (drop == h->n && h->n) { /* all behind: start afresh */
			h->n = 0;
			drop = 0;
		}
		if (!drop && h->n == SS_RES_HIST_MAX)
			drop = 1;
		if (drop) {
			memmove(h->span, h->span + drop, (h->n - drop) * sizeof(*h->span));
			h->n -= drop;
		}
	}
	if (!h || h->n == h->cap) {
		uint32_t cap = h ? h->cap * 2 : 8;

		h = realloc(h, sizeof(*h) + cap * sizeof(h->span[0]));
		if (!h)
			return -1;
		if (!r->hist)
			h->n = h->head = 0;
		h->cap = cap;
		r->hist = h;
	}
	/* insertion from the end: a new span is mostly among the last */
	for (at = h->n; at > 0 && h->span[at - 1].from > span->from; at--)
		h->span[at] = h->span[at - 1];
	h->span[at] = *span;
	h->n++;
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
static double place(struct ss_contention *c, unsigned cpu, double clock,
		    struct ss_op *op, double *after)
{
	double delay = 0;

	for (unsigned i = 0; i < op->nr_uses; i++) {
		struct ss_use *u = &op->use[i];
		double t = clock + u->at + delay;

		if (u->len < 0) /* never released: held to the op's end */
			u->len = op->cycles - u->at;
		u->stat->uses++;
		c->uses++;
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
		} else if (swapped_between(u->res->hist, cpu, t, u->len)) {
			delay += u->retry;
			u->stat->retries++;
			c->retries++;
			c->retry_cycles += u->retry;
			count(op, SS_STEP_CMPXCHG_RETRY);
		}
		after[i] = delay;
	}
	return delay;
}

/* Second pass: each use, with the delays nested inside it, joins its
 * resource's history. */
static int record(struct ss_contention *c, unsigned cpu, double clock,
		  struct ss_op *op, const double *after)
{
	for (unsigned i = 0; i < op->nr_uses; i++) {
		struct ss_use *u = &op->use[i];
		double end_at = u->at + u->len, nested = after[i];
		struct ss_res_span span = {.cpu = cpu};

		for (unsigned j = i + 1; j < op->nr_uses; j++)
			if (op->use[j].at < end_at)
				nested = after[j]; /* after[] never decreases */
		if (u->kind == SS_USE_LOCK) {
			span.from = clock + u->at + after[i];
			span.until = clock + end_at + nested;
			u->stat->hold_cycles += span.until - span.from;
			if (c->nr_cpus > 1 && keep(c, u->res, &span))
				return -1;
		} else {
			span.from = span.until = clock + end_at + after[i];
			if (c->nr_cpus > 1 && keep_swap(u->res, &span))
				return -1;
		}
	}
	return 0;
}

/* The one-use operation (most slow paths: a cmpxchg in __slab_free or
 * get_freelist, or one list_lock) without the nesting bookkeeping. */
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
	if (u->kind == SS_USE_CMPXCHG) {
		if (c->nr_cpus == 1)
			return 0;
		if (swapped_between(u->res->hist, cpu, t, u->len)) {
			delay = u->retry;
			u->stat->retries++;
			c->retries++;
			c->retry_cycles += delay;
			count(op, SS_STEP_CMPXCHG_RETRY);
			op->cycles += delay;
		}
		span.from = span.until = t + u->len + delay;
		return keep_swap(u->res, &span);
	}
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

int ss_contend(struct ss_contention *c, unsigned cpu, struct ss_op *op)
{
	double after[SS_OP_MAX_USES];
	double clock = c->clocks[cpu];

	c->lost += op->uses_lost;
	if (c->nr_cpus > 1)
		update_floor(c);
	if (op->nr_uses == 1)
		return contend_one(c, cpu, clock, op);
	op->cycles += place(c, cpu, clock, op, after);
	return record(c, cpu, clock, op, after);
}
