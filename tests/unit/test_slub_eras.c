/* test_slub_eras.c - the slub_debug paths of 3.10, 4.5, 4.6 and 6.1 where
 * hackbench exercises them: how many cmpxchgs deactivate_slab() takes, the
 * list_lock taken again after free_debug_processing(), which slabs sit on
 * n->full, when an empty slab is discarded, and what one alloc costs.
 * Counts are worked out by hand from mm/slub.c of each era (the comments
 * give the working). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "slub.h"
#include "test_util.h"

struct fixture {
	struct ss_target t;
	struct ss_topology topo;
	struct ss_costs costs;
	struct ss_kcache s;
	struct ss_slab *objs[128];
	double last_cycles; /* of the last operation */
};

/* One CPU, 512-byte objects: with P the free pointer moves after the
 * object (520 bytes); min_objects = 4 * (fls(1) + 1) = 8, 8 * 520 = 4160
 * -> order 1, 8192 / 520 = 15 objects (392 left over <= 8192 / 16). */
static void setup(struct fixture *f, int era, unsigned debug)
{
	memset(f, 0, sizeof(*f));
	tu_kcache_512(&f->s, &f->t, &f->topo, era, debug);
	assert_int_equal(f->s.geo.objs_per_slab, 15);
	assert_int_equal(f->s.geo.order, 1);
	assert_int_equal(f->s.geo.min_partial, 5);
}

static void teardown_fixture(struct fixture *f)
{
	ss_kcache_release(&f->s);
	ss_topology_release(&f->topo);
}

static struct ss_slab *alloc1(struct fixture *f)
{
	struct ss_op op = {.cost = f->costs.cycles};
	struct ss_slab *sl = ss_kcache_alloc(&f->s, 0, &op);

	assert_non_null(sl);
	f->last_cycles = op.cycles;
	return sl;
}

static void free1(struct fixture *f, struct ss_slab *sl)
{
	struct ss_op op = {.cost = f->costs.cycles};

	ss_kcache_free(&f->s, 0, sl, &op);
	f->last_cycles = op.cycles;
}

#define STAT(f, name) ((f)->s.stats[SS_STEP_##name])

/* 4.5 deactivate_slab(): stage one hands back every per-CPU object but the
 * last with one cmpxchg each, stage two unfreezes with one more carrying
 * the last: h objects handed back = h cmpxchgs, and 1 when h = 0.  Without
 * cmpxchg_double (any debug flag up to 4.5) each is the locked fallback. */
static void test_deactivate_cmpxchgs_45(void **state)
{
	struct fixture f;
	uint64_t locked, lock, objs;
	(void)state;

	setup(&f, 405, SS_DBG_P);
	assert_false(f.s.cmpxchg_ok);
	/* New slab: one object out, 14 handed back, no acquire_slab. */
	f.objs[0] = alloc1(&f);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 14);
	assert_int_equal(STAT(&f, DEACTIVATE_OBJECT), 14);
	assert_int_equal(STAT(&f, LIST_LOCK), 1); /* add_partial */
	/* From n->partial: acquire_slab's cmpxchg + 13 handed back; list_lock
	 * in get_partial_node and again in deactivate_slab. */
	f.objs[1] = alloc1(&f);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 14 + 1 + 13);
	assert_int_equal(STAT(&f, LIST_LOCK), 3);
	assert_int_equal(STAT(&f, ALLOC_FROM_PARTIAL), 1);
	for (int i = 2; i < 14; i++)
		f.objs[i] = alloc1(&f);
	/* The 15th object: nothing to hand back, stage two's cmpxchg only;
	 * the full slab still takes list_lock (kmem_cache_debug). */
	locked = STAT(&f, CMPXCHG_LOCKED);
	lock = STAT(&f, LIST_LOCK);
	objs = STAT(&f, DEACTIVATE_OBJECT);
	f.objs[14] = alloc1(&f);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED) - locked, 1 + 1);
	assert_int_equal(STAT(&f, LIST_LOCK) - lock, 2);
	assert_int_equal(STAT(&f, DEACTIVATE_OBJECT) - objs, 0);
	assert_int_equal(STAT(&f, DEACTIVATE_FULL), 1);
	assert_int_equal(f.s.nr_slabs, 1);
	teardown_fixture(&f);
}

/* 3.10-6.0: free_debug_processing() holds list_lock, __slab_free() drops
 * it before its cmpxchg and takes it again only when the slab changes
 * lists.  6.1: free_to_partial_list(), one lock.  Before 4.6 the cmpxchg
 * is the locked fallback. */
static void free_locks(int era, uint64_t want_full, uint64_t want_partial,
		       uint64_t want_locked)
{
	struct fixture f;
	uint64_t lock, locked;

	setup(&f, era, SS_DBG_P);
	for (int i = 0; i < 15; i++)
		f.objs[i] = alloc1(&f);
	lock = STAT(&f, LIST_LOCK);
	locked = STAT(&f, CMPXCHG_LOCKED);
	free1(&f, f.objs[0]); /* full -> n->partial: a list change */
	assert_int_equal(STAT(&f, LIST_LOCK) - lock, want_full);
	assert_int_equal(STAT(&f, FREE_ADD_PARTIAL), 1);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED) - locked, want_locked);
	lock = STAT(&f, LIST_LOCK);
	free1(&f, f.objs[1]); /* stays partial: no list change */
	assert_int_equal(STAT(&f, LIST_LOCK) - lock, want_partial);
	assert_int_equal(STAT(&f, SLAB_LOCK), era < 601 ? 2 : 0);
	teardown_fixture(&f);
}

static void test_free_relock(void **state)
{
	(void)state;
	free_locks(310, 2, 1, 1);
	free_locks(405, 2, 1, 1);
	free_locks(406, 2, 1, 0);
	free_locks(601, 1, 1, 0);
}

/* add_full() returns at once without SLAB_STORE_USER in every era. */
static void test_full_list_needs_store_user(void **state)
{
	struct fixture f;
	(void)state;

	setup(&f, 405, SS_DBG_P);
	for (int i = 0; i < 15; i++)
		f.objs[i] = alloc1(&f);
	assert_int_equal(f.s.node[0].full.nr, 0);
	assert_int_equal(f.s.node[0].partial.nr, 0);
	teardown_fixture(&f);

	/* U adds two tracks (2 x 152 bytes): another geometry, so only
	 * count what fills one slab. */
	struct ss_error err;
	struct ss_cache_spec spec = {.object_size = 512, .align = 8,
				     .debug = SS_DBG_P | SS_DBG_U};
	memset(&f, 0, sizeof(f));
	ss_target_defaults(&f.t);
	f.t.era = 405;
	f.t.cpus = 1;
	f.t.track_size = 152;
	assert_int_equal(ss_topology_flat(&f.topo, 1, 1, &err), 0);
	assert_int_equal(ss_kcache_init(&f.s, "kmalloc-512", &spec, &f.t, &f.topo, &err), 0);
	for (unsigned i = 0; i < f.s.geo.objs_per_slab; i++)
		(void)alloc1(&f);
	assert_int_equal(f.s.node[0].full.nr, 1);
	teardown_fixture(&f);
}

/* An empty slab is discarded when nr_partial (itself included) is
 * > min_partial in 3.10, >= min_partial from 4.4 on.  Six full slabs are
 * freed one after the other: slab k joins n->partial as the (k+1)-th. */
static void discard(int era, uint64_t want_discarded)
{
	struct fixture f;

	setup(&f, era, SS_DBG_P);
	for (int i = 0; i < 6 * 15; i++)
		f.objs[i] = alloc1(&f);
	assert_int_equal(f.s.nr_slabs, 6);
	for (int i = 0; i < 6 * 15; i++)
		free1(&f, f.objs[i]);
	assert_int_equal(STAT(&f, FREE_SLAB), want_discarded);
	assert_int_equal(f.s.nr_slabs, 6 - want_discarded);
	teardown_fixture(&f);
}

static void test_discard_threshold(void **state)
{
	(void)state;
	discard(310, 1); /* slab 5 only: 6 > 5 */
	discard(405, 2); /* slabs 4 and 5: 5 >= 5 */
}

/* What one P alloc from n->partial costs, with h objects handed back:
 *   4.5: slowpath + list_lock x 2 + cmpxchg_locked x (1 + h)
 *        + alloc_debug_processing + check_slab + check_object
 *        + poison check (op + 512 bytes) + poison write (op + 512 bytes)
 *        + deactivate_slab + h x deactivate_object
 *   4.6: the same without the checks and the locked cmpxchgs.
 * Prices are set here, one distinct power of two per step, so a
 * misattributed step cannot cancel out. */
static void price(struct fixture *f)
{
	double *c = f->costs.cycles;

	c[SS_STEP_ALLOC_SLOWPATH] = 1;
	c[SS_STEP_LIST_LOCK] = 2;
	c[SS_STEP_CMPXCHG_LOCKED] = 4;
	c[SS_STEP_DEBUG_ALLOC] = 8;
	c[SS_STEP_CHECK_SLAB] = 16;
	c[SS_STEP_CHECK_OBJECT] = 32;
	c[SS_STEP_POISON_CHECK] = 64;
	c[SS_STEP_POISON_CHECK_BYTES] = 0.25;
	c[SS_STEP_POISON_WRITE] = 128;
	c[SS_STEP_POISON_WRITE_BYTES] = 0.5;
	c[SS_STEP_DEACTIVATE] = 256;
	c[SS_STEP_DEACTIVATE_OBJECT] = 1024;
}

static void test_alloc_cost_45_46(void **state)
{
	struct fixture f;
	const double h = 13; /* second alloc of a 15-object slab */
	(void)state;

	setup(&f, 405, SS_DBG_P);
	price(&f);
	f.objs[0] = alloc1(&f);
	f.objs[1] = alloc1(&f);
	assert_true(f.last_cycles == 1 + 2 * 2 + 4 * (1 + h) + 8 + 16 + 32 +
					   (64 + 0.25 * 512) + (128 + 0.5 * 512) +
					   256 + 1024 * h);
	teardown_fixture(&f);

	setup(&f, 406, SS_DBG_P);
	price(&f);
	f.objs[0] = alloc1(&f);
	f.objs[1] = alloc1(&f);
	assert_true(f.last_cycles == 1 + 2 * 2 + 8 + (128 + 0.5 * 512) + 256 + 1024 * h);
	teardown_fixture(&f);

	/* 6.1: alloc_single_from_partial(), one list_lock, no deactivate. */
	setup(&f, 601, SS_DBG_P);
	price(&f);
	f.objs[0] = alloc1(&f);
	f.objs[1] = alloc1(&f);
	assert_true(f.last_cycles == 1 + 2 + 8 + (128 + 0.5 * 512));
	teardown_fixture(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deactivate_cmpxchgs_45),
		cmocka_unit_test(test_free_relock),
		cmocka_unit_test(test_full_list_needs_store_user),
		cmocka_unit_test(test_discard_threshold),
		cmocka_unit_test(test_alloc_cost_45_46),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
