/* test_contention.c - locks, cmpxchg retries and slab line transfers on
 * the simulated clocks (sim/contention.h), with hand-worked times; and
 * the SLUB paths that note them (allocators/slub/slub_cache.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "contention.h"
#include "slub.h"
#include "test_util.h"

struct bench {
	double clocks[3];
	struct ss_contention c;
	struct ss_resource lock, lock2, line;
	struct ss_res_stat st;
	uint64_t stats[SS_NR_STEPS];
	double costs[SS_NR_STEPS];
};

static void bench_init(struct bench *b, unsigned cpus)
{
	memset(b, 0, sizeof(*b));
	ss_contention_init(&b->c, b->clocks, cpus);
	ss_resource_init(&b->lock);
	ss_resource_init(&b->lock2);
	ss_resource_init(&b->line);
}

static void bench_release(struct bench *b)
{
	ss_resource_release(&b->lock);
	ss_resource_release(&b->lock2);
	ss_resource_release(&b->line);
}

static void op_start(struct bench *b, struct ss_op *op)
{
	ss_op_init(op, b->costs);
	op->stats = b->stats;
}

/* An operation on cpu: `pre` cycles, then lock held `hold` cycles, then
 * `post`; replayed and the CPU's clock advanced.  Its cycles. */
static double locked_op(struct bench *b, unsigned cpu, struct ss_resource *r,
			double pre, double hold, double post)
{
	struct ss_op op;

	op_start(b, &op);
	op.cycles = pre;
	ss_op_lock(&op, r, &b->st);
	op.cycles += hold;
	ss_op_unlock(&op, r);
	op.cycles += post;
	assert_int_equal(ss_contend(&b->c, cpu, &op), 0);
	b->clocks[cpu] += op.cycles;
	return op.cycles;
}

/* Two CPUs, one list_lock, both clocks at 0.  CPU 0 (first in the trace)
 * holds it over [10, 60).  CPU 1 asks at 20 for 30 cycles: it is held,
 * so CPU 1 waits until 60 (40 cycles) and holds [60, 90).  CPU 0's next
 * op starts at 100 and asks at 100: free, no wait. */
static void test_two_cpus_one_lock(void **state)
{
	struct bench b;
	(void)state;

	bench_init(&b, 2);
	assert_true(locked_op(&b, 0, &b.lock, 10, 50, 40) == 100);
	assert_true(locked_op(&b, 1, &b.lock, 20, 30, 10) == 60 + 40);
	assert_int_equal(b.c.waits, 1);
	assert_true(b.c.wait_cycles == 40);
	assert_true(b.st.wait_cycles == 40);
	assert_int_equal(b.stats[SS_STEP_LOCK_WAIT], 1);
	assert_true(b.st.hold_cycles == 50 + 30);
	assert_true(locked_op(&b, 0, &b.lock, 0, 50, 0) == 50);
	assert_int_equal(b.c.waits, 1);
	assert_int_equal(b.st.uses, 3);
	bench_release(&b);
}

/* The trace order decides who had the lock: CPU 1, replayed after CPU 0,
 * fits into the gaps CPU 0 left.  CPU 0 holds [10, 60) and [70, 100)
 * (clocks 0 and 60).  CPU 1 at 0 asking for 10 cycles fits before 10;
 * asking for 11 it does not, nor in the 10-cycle gap [60, 70): it gets
 * the lock at 100; at 50 for 15 cycles it waits past [10, 60), finds
 * [60, 70) too short again, and gets it at 100 too. */
static void test_gaps(void **state)
{
	struct bench b;
	(void)state;

	bench_init(&b, 2);
	locked_op(&b, 0, &b.lock, 10, 50, 0);  /* [10, 60), clock 60 */
	locked_op(&b, 0, &b.lock, 10, 30, 0);  /* [70, 100), clock 100 */
	assert_true(locked_op(&b, 1, &b.lock, 0, 10, 0) == 10);
	assert_int_equal(b.c.waits, 0);
	bench_release(&b);
	bench_init(&b, 2);
	locked_op(&b, 0, &b.lock, 10, 50, 0);
	locked_op(&b, 0, &b.lock, 10, 30, 0);
	assert_true(locked_op(&b, 1, &b.lock, 0, 11, 0) == 11 + 100);
	bench_release(&b);
	bench_init(&b, 2);
	locked_op(&b, 0, &b.lock, 10, 50, 0);
	locked_op(&b, 0, &b.lock, 10, 30, 0);
	assert_true(locked_op(&b, 1, &b.lock, 50, 15, 0) == 50 + 15 + 50);
	assert_true(b.c.wait_cycles == 50);
	bench_release(&b);
}

/* A hold replayed later may begin earlier (the CPUs' clocks differ): the
 * history stays in `from` order.  CPU 0 holds [100, 110) and [200, 210),
 * then CPU 1 [10, 20), kept before them.  CPU 2 asking at 15 for 10
 * cycles waits for CPU 1's hold (5 cycles) and fits before CPU 0's. */
static void test_hold_kept_in_order(void **state)
{
	struct bench b;
	(void)state;

	bench_init(&b, 3);
	locked_op(&b, 0, &b.lock, 100, 10, 0); /* clock 110 */
	locked_op(&b, 0, &b.lock, 90, 10, 0);
	locked_op(&b, 1, &b.lock, 10, 10, 0);
	assert_true(locked_op(&b, 2, &b.lock, 15, 10, 0) == 15 + 5 + 10);
	assert_int_equal(b.c.waits, 1);
	assert_true(b.c.wait_cycles == 5);
	bench_release(&b);
}

/* The history as one sorted array, the way contention.c kept it before
 * its pending spans (main at d095ae0): the reference the engine's waits
 * must equal, hold for hold. */
#define REF_MAX (SS_RES_HIST_MAX + 1)
struct ref_hist {
	struct ss_res_span sp[REF_MAX];
	uint32_t n;
};

static uint32_t ref_above(const struct ref_hist *h, double x)
{
	uint32_t i = 0;

	while (i < h->n && h->sp[i].from <= x)
		i++;
	return i;
}

static double ref_start(const struct ref_hist *h, unsigned cpu, double t, double len)
{
	uint32_t i = ref_above(h, t);

	if (i > 0 && h->sp[i - 1].until > t)
		i--;
	for (; i < h->n; i++) {
		const struct ss_res_span *s = &h->sp[i];

		if (s->cpu == cpu || s->until <= t)
			continue;
		if (s->from >= t + len)
			break;
		t = s->until;
	}
	return t;
}

static void ref_keep(struct ref_hist *h, double floor, struct ss_res_span span)
{
	uint32_t drop = 0, at;

	while (drop < h->n && h->sp[drop].until <= floor)
		drop++;
	if (drop == h->n)
		drop = h->n;
	else if (!drop && h->n == SS_RES_HIST_MAX)
		drop = 1;
	memmove(h->sp, h->sp + drop, (h->n - drop) * sizeof(h->sp[0]));
	h->n -= drop;
	at = ref_above(h, span.from);
	memmove(h->sp + at + 1, h->sp + at, (h->n - at) * sizeof(h->sp[0]));
	h->sp[at] = span;
	h->n++;
}

/* 30,000 holds of one lock from 3 CPUs, CPU 2's clock lagging (the
 * history full, its holds landing near the front) and integer times (so
 * that holds begin together): every wait is the reference's, through the
 * pending spans' merges, the drops behind the slowest clock and the cap. */
static void test_history_matches_sorted_array(void **state)
{
	static struct ref_hist ref;
	struct bench b;
	uint64_t rng = 42, waits = 0;
	(void)state;

	bench_init(&b, 3);
	ref.n = 0;
	for (int k = 0; k < 30000; k++) {
		unsigned cpu;
		double pre, hold, t, want, got;

		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		cpu = (unsigned)(rng >> 33) % 3;
		pre = (double)((rng >> 40) % 8);
		hold = (double)(1 + (rng >> 48) % 6);
		t = b.clocks[cpu] + pre;
		got = locked_op(&b, cpu, &b.lock, pre, hold, 0) - pre - hold;
		want = ref_start(&ref, cpu, t, hold) - t;
		assert_true(got == want);
		waits += want > 0;
		ref_keep(&ref, b.c.floor, (struct ss_res_span){.from = t + want,
							      .until = t + want + hold,
							      .cpu = cpu});
		/* CPUs 0 and 1 also run other work; CPU 2 lags further */
		if (cpu < 2)
			b.clocks[cpu] += (double)(8 + (rng >> 20) % 4);
	}
	assert_true(waits > 1000);
	assert_int_equal(ref.n, SS_RES_HIST_MAX); /* the cap was reached */
	bench_release(&b);
}

/* A hold spans the waits nested inside it.  CPU 1 holds lock2 [5, 40).
 * CPU 0 takes lock at 0 and, 10 cycles in, lock2 for 20: lock2 is held
 * until 40, so CPU 0 waits 30 and its lock is held [0, 100 + 30).  CPU 2
 * then asks for lock at 50 and waits until 130. */
static void test_nested_wait(void **state)
{
	struct bench b;
	struct ss_op op;
	(void)state;

	bench_init(&b, 3);
	locked_op(&b, 1, &b.lock2, 5, 35, 0);
	op_start(&b, &op);
	ss_op_lock(&op, &b.lock, &b.st);
	op.cycles = 10;
	ss_op_lock(&op, &b.lock2, &b.st);
	op.cycles = 30;
	ss_op_unlock(&op, &b.lock2);
	op.cycles = 100;
	ss_op_unlock(&op, &b.lock);
	assert_int_equal(ss_contend(&b.c, 0, &op), 0);
	assert_true(op.cycles == 130);
	assert_true(locked_op(&b, 2, &b.lock, 50, 10, 0) == 50 + 10 + 80);
	bench_release(&b);
}

/* A cmpxchg whose window (read at t, swap at t + 20) holds another CPU's
 * swap loops once more (retry 170).  CPU 0 swaps at 100.  CPU 1 reading
 * at 90 sees it (90 < 100 <= 110): one retry, its swap at 280.  CPU 1
 * reading at 100 does not (the swap is not after the read), nor does
 * CPU 0 itself at 90. */
static void test_cmpxchg_retry(void **state)
{
	struct bench b;
	struct ss_op op;
	(void)state;

	bench_init(&b, 2);
	op_start(&b, &op);
	op.cycles = 100;
	ss_op_cmpxchg(&op, &b.line, &b.st, 20, 170);
	assert_int_equal(ss_contend(&b.c, 0, &op), 0);
	assert_true(op.cycles == 100);
	op_start(&b, &op);
	op.cycles = 110;
	ss_op_cmpxchg(&op, &b.line, &b.st, 20, 170);
	assert_int_equal(ss_contend(&b.c, 1, &op), 0);
	assert_true(op.cycles == 110 + 170);
	assert_int_equal(b.c.retries, 1);
	assert_int_equal(b.stats[SS_STEP_CMPXCHG_RETRY], 1);
	op_start(&b, &op);
	op.cycles = 120;
	ss_op_cmpxchg(&op, &b.line, &b.st, 20, 170);
	assert_int_equal(ss_contend(&b.c, 1, &op), 0);
	assert_true(op.cycles == 120);
	op_start(&b, &op);
	op.cycles = 110;
	ss_op_cmpxchg(&op, &b.line, &b.st, 20, 170);
	assert_int_equal(ss_contend(&b.c, 0, &op), 0);
	assert_true(op.cycles == 110);
	assert_int_equal(b.c.retries, 1);
	assert_int_equal(b.st.retries, 1);
	bench_release(&b);
}

/* A swap read at op.cycles - 20 on cpu, through the replay's call
 * (ss_contend_op: one cmpxchg, several CPUs, the ring's packed test):
 * did it loop once more? */
static int swap_retried(struct bench *b, unsigned cpu, double at)
{
	struct ss_op op;

	op_start(b, &op);
	op.cycles = at;
	ss_op_cmpxchg(&op, &b->line, &b->st, 20, 170);
	assert_int_equal(ss_contend_op(&b->c, cpu, &op), 0);
	return op.cycles != at;
}

/* The line keeps its last SS_SWAP_RING (8) swaps, each slot tested: the
 * oldest kept (slot 7 here) still counts, the one before it is gone.
 * CPU 1 swaps at 1000..1600 (slots 0-6), CPU 0 at 100 (slot 7).  CPU 2
 * reading at 100 does not see 100 (not after the read); CPU 1 reading at
 * 80 sees it (inclusive at 80 + 20).  Six more swaps overwrite slot 7:
 * CPU 2 reading at 80 then sees nothing. */
static void cmpxchg_ring(ss_swap_fn *swap)
{
	struct bench b;

	bench_init(&b, 3);
	if (swap)
		b.c.swap = swap;
	for (unsigned i = 0; i < 7; i++)
		assert_false(swap_retried(&b, 1, 1000 + 100 * i));
	assert_false(swap_retried(&b, 0, 100));
	assert_false(swap_retried(&b, 2, 120));
	assert_true(swap_retried(&b, 1, 100));
	for (unsigned i = 0; i < 6; i++)
		assert_false(swap_retried(&b, 1, 2000 + 100 * i));
	assert_false(swap_retried(&b, 2, 100));
	assert_int_equal(b.c.retries, 1);
	assert_int_equal(b.c.uses, 17);
	assert_int_equal(b.st.uses, 17);
	bench_release(&b);
}

/* The build ss_contention_init chose for this CPU (AVX where it has it),
 * and the baseline one. */
static void test_cmpxchg_ring(void **state)
{
	(void)state;
	cmpxchg_ring(NULL);
	cmpxchg_ring(ss_contend_swap_base);
}

/* Both builds of ss_contend_swap give the same retries on the same
 * 20,000 swaps of three CPUs on three lines, read times drawn so that
 * windows overlap often (on a CPU without AVX both are the baseline). */
static void test_swap_builds_agree(void **state)
{
	struct bench a, b;
	uint64_t rng = 12345;
	(void)state;

	bench_init(&a, 3);
	bench_init(&b, 3);
	b.c.swap = ss_contend_swap_base;
	for (unsigned i = 0; i < 20000; i++) {
		struct ss_op oa, ob;
		unsigned cpu, line;
		double at;

		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		cpu = (unsigned)(rng >> 60) % 3;
		line = (unsigned)(rng >> 50) % 3;
		at = (double)((rng >> 20) % 64) + 0.5 * (double)((rng >> 40) & 1);
		op_start(&a, &oa);
		op_start(&b, &ob);
		oa.cycles = ob.cycles = at;
		ss_op_cmpxchg(&oa, line ? line == 1 ? &a.lock : &a.lock2 : &a.line, &a.st, 20, 170);
		ss_op_cmpxchg(&ob, line ? line == 1 ? &b.lock : &b.lock2 : &b.line, &b.st, 20, 170);
		assert_int_equal(ss_contend_op(&a.c, cpu, &oa), 0);
		assert_int_equal(ss_contend_op(&b.c, cpu, &ob), 0);
		assert_true(oa.cycles == ob.cycles);
		a.clocks[cpu] += oa.cycles / 8;
		b.clocks[cpu] += ob.cycles / 8;
	}
	assert_int_equal(a.c.retries, b.c.retries);
	assert_true(a.c.retries > 100); /* the windows did overlap */
	assert_true(a.c.retries < 20000);
	bench_release(&a);
	bench_release(&b);
}

/* One CPU never waits for itself, and keeps no history. */
static void test_one_cpu(void **state)
{
	struct bench b;
	(void)state;

	bench_init(&b, 1);
	assert_true(locked_op(&b, 0, &b.lock, 10, 50, 0) == 60);
	b.clocks[0] = 0; /* even overlapping holds on one CPU */
	assert_true(locked_op(&b, 0, &b.lock, 10, 50, 0) == 60);
	assert_int_equal(b.c.waits, 0);
	assert_null(b.lock.hist);
	assert_int_equal(b.st.uses, 2);
	bench_release(&b);
}

/* ---- the SLUB paths ---- */

struct kfix {
	struct ss_target t;
	struct ss_topology topo;
	struct ss_costs costs;
	struct ss_kcache s;
};

static void kfix_setup(struct kfix *f, int era, unsigned cpus, unsigned debug)
{
	tu_kcache_512_cpus(&f->s, &f->t, &f->topo, era, debug, cpus);
	memset(&f->costs, 0, sizeof(f->costs));
}

static void kfix_teardown(struct kfix *f)
{
	ss_kcache_release(&f->s);
	ss_topology_release(&f->topo);
}

/* A slab CPU 0 allocates from (its line is CPU 0's) takes a remote free
 * from CPU 1: __slab_free writes slab->freelist, the line moves
 * (slab_line_transfer 1), and the op notes one cmpxchg on the slab.  A
 * second remote free from CPU 1 finds the line there already.  CPU 0's
 * get_freelist then takes the line back: 2 transfers in all. */
static void test_slab_line_transfers(void **state)
{
	struct kfix f;
	struct ss_slab *a[20];
	struct ss_op op;
	unsigned n;
	(void)state;

	kfix_setup(&f, 406, 2, 0);
	n = f.s.geo.objs_per_slab;
	assert_true(n >= 3 && n <= 20);
	for (unsigned i = 0; i < n; i++) {
		ss_op_init(&op, f.costs.cycles);
		a[i] = ss_kcache_alloc(&f.s, 0, &op);
	}
	assert_int_equal(f.s.stats[SS_STEP_SLAB_LINE], 0);
	ss_op_init(&op, f.costs.cycles);
	ss_kcache_free(&f.s, 1, a[0], &op);
	assert_int_equal(f.s.stats[SS_STEP_SLAB_LINE], 1);
	assert_int_equal(op.nr_uses, 1);
	assert_int_equal(op.use[0].kind, SS_USE_CMPXCHG);
	assert_ptr_equal(op.use[0].res, &a[0]->freelist);
	ss_op_init(&op, f.costs.cycles);
	ss_kcache_free(&f.s, 1, a[1], &op);
	assert_int_equal(f.s.stats[SS_STEP_SLAB_LINE], 1);
	/* CPU 0's freelist is empty: ___slab_alloc -> get_freelist() */
	ss_op_init(&op, f.costs.cycles);
	assert_ptr_equal(ss_kcache_alloc(&f.s, 0, &op), a[0]);
	assert_int_equal(f.s.stats[SS_STEP_ALLOC_REFILL], 1);
	assert_int_equal(f.s.stats[SS_STEP_SLAB_LINE], 2);
	assert_int_equal(op.nr_uses, 1);
	kfix_teardown(&f);
}

/* 6.1 debug alloc (alloc_single_from_partial / _new_slab): one list_lock
 * hold spanning alloc_debug_processing.  With list_lock 36 and
 * alloc_debug_processing 20 priced, the hold is 56 cycles. */
static void test_debug_alloc_hold_61(void **state)
{
	struct kfix f;
	struct ss_op op;
	(void)state;

	kfix_setup(&f, 601, 2, SS_DBG_P);
	f.costs.cycles[SS_STEP_LIST_LOCK] = 36;
	f.costs.cycles[SS_STEP_DEBUG_ALLOC] = 20;
	ss_op_init(&op, f.costs.cycles);
	assert_non_null(ss_kcache_alloc(&f.s, 0, &op));
	assert_int_equal(op.nr_uses, 1);
	assert_int_equal(op.use[0].kind, SS_USE_LOCK);
	assert_ptr_equal(op.use[0].res, &f.s.node[0].list_lock);
	assert_true(op.use[0].len == 36 + 20);
	kfix_teardown(&f);
}

/* 4.5 debug free (free_debug_processing under list_lock + slab_lock, then
 * __slab_free's locked cmpxchg): list_lock and slab_lock held over the
 * checks, then a separate slab_lock for the cmpxchg_double fallback. */
static void test_debug_free_locks_45(void **state)
{
	struct kfix f;
	struct ss_op op;
	struct ss_slab *a, *b;
	(void)state;

	kfix_setup(&f, 405, 2, SS_DBG_P);
	ss_op_init(&op, f.costs.cycles);
	a = ss_kcache_alloc(&f.s, 0, &op);
	ss_op_init(&op, f.costs.cycles);
	b = ss_kcache_alloc(&f.s, 0, &op);
	assert_ptr_equal(a, b);
	ss_op_init(&op, f.costs.cycles);
	ss_kcache_free(&f.s, 1, a, &op);
	assert_int_equal(op.nr_uses, 3);
	assert_ptr_equal(op.use[0].res, &f.s.node[0].list_lock);
	assert_ptr_equal(op.use[1].res, &a->lock);
	assert_ptr_equal(op.use[2].res, &a->lock);
	assert_true(op.use[0].len >= 0 && op.use[1].len >= 0 && op.use[2].len >= 0);
	kfix_teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_cpus_one_lock),
		cmocka_unit_test(test_gaps),
		cmocka_unit_test(test_hold_kept_in_order),
		cmocka_unit_test(test_history_matches_sorted_array),
		cmocka_unit_test(test_nested_wait),
		cmocka_unit_test(test_cmpxchg_retry),
		cmocka_unit_test(test_cmpxchg_ring),
		cmocka_unit_test(test_swap_builds_agree),
		cmocka_unit_test(test_one_cpu),
		cmocka_unit_test(test_slab_line_transfers),
		cmocka_unit_test(test_debug_alloc_hold_61),
		cmocka_unit_test(test_debug_free_locks_45),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
