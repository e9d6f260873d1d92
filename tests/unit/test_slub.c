/* test_slub.c - scripted alloc/free sequences whose SLUB_STATS counters
 * were worked out by hand from mm/slub.c (the comments give the working). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "slub.h"

struct fixture {
	struct ss_target t;
	struct ss_topology topo;
	struct ss_costs costs;
	struct ss_kcache s;
	struct ss_slab *objs[64];
};

static void setup(struct fixture *f, int era, unsigned cpus, unsigned size,
		  unsigned debug)
{
	struct ss_error err;
	struct ss_cache_spec spec = {.object_size = size, .align = 8, .debug = debug};

	ss_target_defaults(&f->t);
	f->t.era = era;
	f->t.cpus = cpus;
	assert_int_equal(ss_topology_flat(&f->topo, cpus, 1, &err), 0);
	memset(&f->costs, 0, sizeof(f->costs));
	assert_int_equal(ss_kcache_init(&f->s, "test", &spec, &f->t, &f->topo, &err), 0);
}

static void teardown_fixture(struct fixture *f)
{
	ss_kcache_release(&f->s);
	ss_topology_release(&f->topo);
}

static struct ss_slab *alloc_on(struct fixture *f, unsigned cpu)
{
	struct ss_op op = {.cost = f->costs.cycles};
	struct ss_slab *sl = ss_kcache_alloc(&f->s, cpu, &op);

	assert_non_null(sl);
	return sl;
}

static void free_on(struct fixture *f, unsigned cpu, struct ss_slab *sl)
{
	struct ss_op op = {.cost = f->costs.cycles};

	ss_kcache_free(&f->s, cpu, sl, &op);
}

#define STAT(f, name) ((f)->s.stats[SS_STEP_##name])

/* 6.11, 2 CPUs, 512-byte objects: min_objects = 4 * (fls(2) + 1) = 12,
 * 12 * 512 = 6144 -> order 1, 16 objects; cpu_partial 52 objects ->
 * cpu_partial_slabs = DIV_ROUND_UP(104, 16) = 7; min_partial 5. */
static void test_cpu_partial_script_6x(void **state)
{
	struct fixture f;
	(void)state;

	setup(&f, 611, 2, 512, 0);
	assert_int_equal(f.s.geo.order, 1);
	assert_int_equal(f.s.geo.objs_per_slab, 16);
	assert_int_equal(f.s.geo.cpu_partial_slabs, 7);
	/* CPU0 fills slab A: one slow path (new slab), 15 fast pops. */
	for (int i = 0; i < 16; i++)
		f.objs[i] = alloc_on(&f, 0);
	assert_int_equal(STAT(&f, ALLOC_SLOWPATH), 1);
	assert_int_equal(STAT(&f, ALLOC_FASTPATH), 15);
	assert_int_equal(STAT(&f, ALLOC_SLAB), 1);
	/* A is full: get_freelist() finds nothing, deactivate_bypass (no
	 * deactivate_slab), then a new slab B. */
	f.objs[16] = alloc_on(&f, 0);
	assert_int_equal(STAT(&f, DEACTIVATE_BYPASS), 1);
	assert_int_equal(STAT(&f, DEACTIVATE_FULL), 0);
	assert_int_equal(STAT(&f, ALLOC_SLAB), 2);
	assert_ptr_not_equal(f.objs[16], f.objs[0]);
	/* CPU1 frees A's first object: A was full -> put_cpu_partial on CPU1. */
	free_on(&f, 1, f.objs[0]);
	assert_int_equal(STAT(&f, FREE_SLOWPATH), 1);
	assert_int_equal(STAT(&f, CPU_PARTIAL_FREE), 1);
	assert_int_equal(f.s.cpu[1].partial.nr, 1);
	/* The other 15 land on a CPU-partial slab, which 6.8+ no longer
	 * freezes: no stat at all, and the free that empties it takes
	 * list_lock, finds it off the node list and drops it again (6.10
	 * __slab_free: prior && !on_node_partial).  It stays on CPU1's list. */
	for (int i = 1; i < 16; i++)
		free_on(&f, 1, f.objs[i]);
	assert_int_equal(STAT(&f, FREE_FROZEN), 0);
	assert_int_equal(STAT(&f, LIST_LOCK), 1);
	assert_int_equal(f.objs[0]->inuse, 0);
	assert_int_equal(f.s.cpu[1].partial.nr, 1);
	/* CPU1 allocates: its partial slab A becomes active. */
	f.objs[17] = alloc_on(&f, 1);
	assert_ptr_equal(f.objs[17], f.objs[0]);
	assert_int_equal(STAT(&f, CPU_PARTIAL_ALLOC), 1);
	assert_int_equal(STAT(&f, ALLOC_SLOWPATH), 3);
	assert_int_equal(f.s.cpu[1].partial.nr, 0);
	/* CPU0 frees B's object while B is its active slab: fast path. */
	free_on(&f, 0, f.objs[16]);
	assert_int_equal(STAT(&f, FREE_FASTPATH), 1);
	assert_int_equal(f.s.live, 1);
	assert_int_equal(f.s.nr_slabs, 2);
	assert_int_equal(f.s.slab_bytes, 2 * 8192);
	teardown_fixture(&f);
}

/* Remote frees to another CPU's active slab go to slab->freelist and come
 * back through get_freelist (alloc_refill) when the owner runs dry. */
static void test_refill_from_remote_frees(void **state)
{
	struct fixture f;
	(void)state;

	setup(&f, 611, 2, 512, 0);
	for (int i = 0; i < 16; i++)
		f.objs[i] = alloc_on(&f, 0);
	free_on(&f, 1, f.objs[3]); /* A is CPU0's active slab: frozen */
	free_on(&f, 1, f.objs[4]);
	assert_int_equal(STAT(&f, FREE_FROZEN), 2);
	f.objs[3] = alloc_on(&f, 0); /* c->freelist empty, slab->freelist 2 */
	assert_int_equal(STAT(&f, ALLOC_REFILL), 1);
	assert_int_equal(STAT(&f, ALLOC_SLAB), 1);
	f.objs[4] = alloc_on(&f, 0); /* the second refilled object: fast */
	assert_int_equal(STAT(&f, ALLOC_FASTPATH), 16);
	teardown_fixture(&f);
}

/* Empty slabs are discarded only once min_partial slabs are kept: a 6.11
 * debug cache (single-object paths, no per-CPU lists) fills 7 slabs and
 * frees everything. */
static void test_min_partial_discard_61_debug(void **state)
{
	struct fixture f;
	struct ss_slab *first[7];
	(void)state;

	setup(&f, 611, 2, 512, SS_DBG_P);
	assert_true(f.s.debug_paths);
	/* P moves the free pointer after the object; fill 7 slabs exactly,
	 * whatever the geometry's count per slab. */
	unsigned per = f.s.geo.objs_per_slab;
	struct ss_slab **all = calloc(7 * per, sizeof(*all));
	for (unsigned i = 0; i < 7 * per; i++)
		all[i] = alloc_on(&f, 0);
	for (int k = 0; k < 7; k++)
		first[k] = all[k * per];
	assert_int_equal(f.s.nr_slabs, 7);
	assert_int_equal(STAT(&f, ALLOC_FASTPATH), 0); /* debug: all slow */
	/* Free every object.  Each slab goes full -> partial on its first
	 * free, and is discarded when it empties if nr_partial >= 5. */
	for (unsigned i = 0; i < 7 * per; i++)
		free_on(&f, 1, all[i]);
	/* Slab k joins n->partial on its first free (it was full, on no
	 * list) and empties there; free_to_partial_list() discards it when
	 * nr_partial, itself included, is >= min_partial (5).  Slabs 0-3 stay
	 * (nr_partial 1..4 when they empty); 4, 5 and 6 each find 5. */
	assert_int_equal(f.s.geo.min_partial, 5);
	assert_int_equal(STAT(&f, FREE_SLAB), 3);
	assert_int_equal(f.s.nr_slabs, 4);
	assert_int_equal(f.s.node[0].partial.nr, 4);
	(void)first;
	free(all);
	teardown_fixture(&f);
}

/* 3.10 debug cache: every alloc takes the slab under list_lock, runs the
 * checks and deactivates it again (two list_locks, objects handed back one
 * by one with the locked cmpxchg fallback). */
static void test_legacy_debug_alloc_310(void **state)
{
	struct fixture f;
	(void)state;

	setup(&f, 310, 2, 64, SS_DBG_P);
	unsigned per = f.s.geo.objs_per_slab;

	assert_false(f.s.cmpxchg_ok);
	assert_true(f.s.debug_checks);
	f.objs[0] = alloc_on(&f, 0);
	/* new slab, one object out, per-1 handed back, slab to n->partial */
	assert_int_equal(STAT(&f, ALLOC_SLAB), 1);
	assert_int_equal(STAT(&f, DEACTIVATE_OBJECT), per - 1);
	assert_int_equal(STAT(&f, LIST_LOCK), 1);
	assert_int_equal(f.s.node[0].partial.nr, 1);
	f.objs[1] = alloc_on(&f, 0);
	/* from the partial list: lock to take, lock to put back */
	assert_int_equal(STAT(&f, ALLOC_FROM_PARTIAL), 1);
	assert_int_equal(STAT(&f, LIST_LOCK), 3);
	assert_int_equal(STAT(&f, DEACTIVATE_OBJECT), (per - 1) + (per - 2));
	/* poison: the new slab (whole slab + every object) and one init per
	 * alloc; each alloc checks the free poison (64 bytes) and, in
	 * check_slab(), the slab's padding (4096 % stride bytes) */
	unsigned pad = 4096 % f.s.geo.size;

	assert_true(pad > 0);
	assert_int_equal(STAT(&f, POISON_CHECK), 2 + 2);
	assert_int_equal(STAT(&f, POISON_CHECK_BYTES), 2 * 64 + 2 * pad);
	/* the freelist updates, slab_lock'd without cmpxchg_double: per - 1
	 * handed back by the first alloc, acquire_slab + per - 2 by the
	 * second */
	assert_int_equal(STAT(&f, SLAB_LOCK), 2 * (per - 1));
	/* free: list_lock + slab_lock, freelist walk over the free objects */
	free_on(&f, 0, f.objs[1]);
	assert_int_equal(STAT(&f, FREELIST_WALK), per - 2);
	assert_int_equal(STAT(&f, SLAB_LOCK), 2 * (per - 1) + 1);
	assert_int_equal(STAT(&f, LIST_LOCK), 4);
	teardown_fixture(&f);
}

/* 4.6: P alone keeps the lock-free cmpxchg and skips the checks. */
static void test_abbott_series_46(void **state)
{
	struct fixture f;
	(void)state;

	setup(&f, 406, 2, 64, SS_DBG_P);
	assert_true(f.s.cmpxchg_ok);
	assert_false(f.s.debug_checks);
	f.objs[0] = alloc_on(&f, 0);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 0);
	assert_int_equal(STAT(&f, POISON_CHECK), 0);
	teardown_fixture(&f);
	setup(&f, 406, 2, 64, SS_DBG_P | SS_DBG_F);
	assert_false(f.s.cmpxchg_ok);
	assert_true(f.s.debug_checks);
	teardown_fixture(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_partial_script_6x),
		cmocka_unit_test(test_refill_from_remote_frees),
		cmocka_unit_test(test_min_partial_discard_61_debug),
		cmocka_unit_test(test_legacy_debug_alloc_310),
		cmocka_unit_test(test_abbott_series_46),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
