/* test_slub_eras.c - the slub_debug paths of 3.10, 4.5, 4.6, 5.12 and 6.1
 * where hackbench exercises them: how many freelist updates
 * deactivate_slab() takes and what they are, the list_lock taken again
 * after free_debug_processing(), which slabs sit on n->full, when an empty
 * slab is discarded and what it checks, which caches are poisoned, and
 * what one alloc costs.
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

/* 4.5 deactivate_slab() (mm/slub.c 4.5): stage one hands back every
 * per-CPU object but the last with one __cmpxchg_double_slab() each, stage
 * two unfreezes with one more carrying the last: h objects handed back =
 * max(h, 1) updates.  acquire_slab() is one more.  kmem_cache_open() 4.5
 * sets __CMPXCHG_DOUBLE only without SLAB_DEBUG_FLAGS, so each update is
 * the fallback: slab_lock / slab_unlock with irqs already off
 * (VM_BUG_ON(!irqs_disabled())) -- a slab_lock pair, never
 * cmpxchg_double_slab()'s irq-saving cmpxchg_locked, and it replaces the
 * lock-free cmpxchg_double rather than adding to it. */
static void test_deactivate_irqoff_locked_45(void **state)
{
	struct fixture f;
	uint64_t locked, lock, objs;
	(void)state;

	setup(&f, 405, SS_DBG_P);
	assert_false(f.s.cmpxchg_ok);
	/* New slab: one object out, 14 handed back (stage one 13 + stage two
	 * 1), no acquire_slab (new_slab_objects: no cmpxchg). */
	f.objs[0] = alloc1(&f);
	assert_int_equal(STAT(&f, SLAB_LOCK), 14);
	assert_int_equal(STAT(&f, DEACTIVATE_OBJECT), 14);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 0);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), 0);
	assert_int_equal(STAT(&f, LIST_LOCK), 1); /* add_partial */
	/* From n->partial: acquire_slab's update + 13 handed back; list_lock
	 * in get_partial_node and again in deactivate_slab. */
	f.objs[1] = alloc1(&f);
	assert_int_equal(STAT(&f, SLAB_LOCK), 14 + 1 + 13);
	assert_int_equal(STAT(&f, LIST_LOCK), 3);
	assert_int_equal(STAT(&f, ALLOC_FROM_PARTIAL), 1);
	for (int i = 2; i < 14; i++)
		f.objs[i] = alloc1(&f);
	/* The 15th object: nothing to hand back, acquire_slab's update and
	 * stage two's; the full slab still takes list_lock (kmem_cache_debug
	 * && !lock). */
	locked = STAT(&f, SLAB_LOCK);
	lock = STAT(&f, LIST_LOCK);
	objs = STAT(&f, DEACTIVATE_OBJECT);
	f.objs[14] = alloc1(&f);
	assert_int_equal(STAT(&f, SLAB_LOCK) - locked, 1 + 1);
	assert_int_equal(STAT(&f, LIST_LOCK) - lock, 2);
	assert_int_equal(STAT(&f, DEACTIVATE_OBJECT) - objs, 0);
	assert_int_equal(STAT(&f, DEACTIVATE_FULL), 1);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 0);
	assert_int_equal(f.s.nr_slabs, 1);
	teardown_fixture(&f);
}

/* 4.6 (149daaf3a02c "slub: Relax CMPXCHG consistency restrictions"): P
 * alone keeps __CMPXCHG_DOUBLE, so the same updates are lock-free
 * cmpxchg_double, the same count.  5.12 ("mm, slub: splice cpu and page
 * freelists in deactivate_slab()"): stage one only counts the list, stage
 * two splices it with one update whatever h. */
static void deactivate_updates(int era, uint64_t want_first, uint64_t want_second)
{
	struct fixture f;

	setup(&f, era, SS_DBG_P);
	assert_true(f.s.cmpxchg_ok);
	f.objs[0] = alloc1(&f);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), want_first);
	assert_int_equal(STAT(&f, DEACTIVATE_OBJECT), 14); /* the walk, either way */
	f.objs[1] = alloc1(&f);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), want_first + want_second);
	assert_int_equal(STAT(&f, SLAB_LOCK), 0);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 0);
	teardown_fixture(&f);
}

static void test_deactivate_splice_512(void **state)
{
	(void)state;
	deactivate_updates(406, 14, 1 + 13); /* 4.6 - 5.11: per object */
	deactivate_updates(511, 14, 1 + 13);
	deactivate_updates(512, 1, 1 + 1);   /* 5.12 - 6.0: one splice */
	deactivate_updates(600, 1, 1 + 1);
}

/* 3.10-6.0: free_debug_processing() holds list_lock, __slab_free() drops
 * it before its cmpxchg and takes it again only when the slab changes
 * lists.  6.1: free_to_partial_list(), one lock.  Before 4.6 the cmpxchg
 * is the locked fallback. */
static void free_locks(int era, uint64_t want_full, uint64_t want_partial,
		       uint64_t want_locked)
{
	struct fixture f;
	uint64_t lock, locked, slab_lock;

	setup(&f, era, SS_DBG_P);
	for (int i = 0; i < 15; i++)
		f.objs[i] = alloc1(&f);

	lock = STAT(&f, LIST_LOCK);
	locked = STAT(&f, CMPXCHG_LOCKED);
	slab_lock = STAT(&f, SLAB_LOCK);
	free1(&f, f.objs[0]); /* full -> n->partial: a list change */
	assert_int_equal(STAT(&f, LIST_LOCK) - lock, want_full);
	assert_int_equal(STAT(&f, FREE_ADD_PARTIAL), 1);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED) - locked, want_locked);
	lock = STAT(&f, LIST_LOCK);
	free1(&f, f.objs[1]); /* stays partial: no list change */
	assert_int_equal(STAT(&f, LIST_LOCK) - lock, want_partial);
	/* free_debug_processing()'s slab_lock, once per free up to 6.0 */
	assert_int_equal(STAT(&f, SLAB_LOCK) - slab_lock, era < 601 ? 2 : 0);
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

/* What one P alloc from n->partial costs, with h objects handed back
 * (the 512-byte fixture: stride 520, 15 per order-1 slab, 8192 % 520 =
 * 392 bytes of slab padding; nothing after the free pointer):
 *   4.5 (alloc_debug_processing with checks for any flag):
 *        slowpath + list_lock x 2 + slab_lock x (1 + h)
 *        + alloc_debug_processing + check_slab (+ slab_pad_check: a poison
 *        check of 392 bytes) + check_valid_pointer + check_object (+ the
 *        free poison verified: 512 bytes, + check_valid_pointer of the
 *        object's free pointer: set, h > 0) + poison write (512 bytes)
 *        + deactivate_slab + h x deactivate_object
 *   4.6: no checks; the updates are lock-free cmpxchg_double x (1 + h).
 *   6.1: alloc_single_from_partial(), one list_lock, no deactivate.
 * Prices are set here, one distinct power of two per step, so a
 * misattributed step cannot cancel out. */
static void price(struct fixture *f)
{
	double *c = f->costs.cycles;

	c[SS_STEP_ALLOC_SLOWPATH] = 1;
	c[SS_STEP_LIST_LOCK] = 2;
	c[SS_STEP_SLAB_LOCK] = 4;
	c[SS_STEP_DEBUG_ALLOC] = 8;
	c[SS_STEP_CHECK_SLAB] = 16;
	c[SS_STEP_CHECK_OBJECT] = 32;
	c[SS_STEP_POISON_CHECK] = 64;
	c[SS_STEP_POISON_CHECK_BYTES] = 0.25;
	c[SS_STEP_POISON_WRITE] = 128;
	c[SS_STEP_POISON_WRITE_BYTES] = 0.5;
	c[SS_STEP_DEACTIVATE] = 256;
	c[SS_STEP_DEACTIVATE_OBJECT] = 1024;
	c[SS_STEP_CMPXCHG_DOUBLE] = 2048;
	c[SS_STEP_CHECK_VALID_POINTER] = 4096;
	c[SS_STEP_CMPXCHG_LOCKED] = 8192; /* must not appear on alloc */
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
	assert_true(f.last_cycles == 1 + 2 * 2 + 4 * (1 + h) + 8 +
					   16 + (64 + 0.25 * 392) + 4096 +
					   32 + (64 + 0.25 * 512) + 4096 + (128 + 0.5 * 512) +
					   256 + 1024 * h);
	teardown_fixture(&f);

	setup(&f, 406, SS_DBG_P);
	price(&f);
	f.objs[0] = alloc1(&f);
	f.objs[1] = alloc1(&f);
	assert_true(f.last_cycles == 1 + 2 * 2 + 2048 * (1 + h) + 8 +
					   (128 + 0.5 * 512) + 256 + 1024 * h);
	teardown_fixture(&f);

	setup(&f, 601, SS_DBG_P);
	price(&f);
	f.objs[0] = alloc1(&f);
	f.objs[1] = alloc1(&f);
	assert_true(f.last_cycles == 1 + 2 + 8 + (128 + 0.5 * 512));
	teardown_fixture(&f);
}

/* The checks of a 4.5 debug free (free_debug_processing 4.5): check_slab
 * (+ slab_pad_check), check_valid_pointer of the object and of every hop
 * of on_freelist(), check_object(SLUB_RED_ACTIVE): padding only, no
 * poison verify, and check_valid_pointer of the object's free pointer
 * (after the object with P).  The free is into the slab of objs[0..1]:
 * after two allocs it has 13 free objects to walk. */
static void test_free_checks_45(void **state)
{
	struct fixture f;
	uint64_t cvp, walk, pchk, pbytes;
	(void)state;

	setup(&f, 405, SS_DBG_P);
	f.objs[0] = alloc1(&f);
	f.objs[1] = alloc1(&f);
	cvp = STAT(&f, CHECK_VALID_POINTER);
	walk = STAT(&f, FREELIST_WALK);
	pchk = STAT(&f, POISON_CHECK);
	pbytes = STAT(&f, POISON_CHECK_BYTES);
	free1(&f, f.objs[1]);
	assert_int_equal(STAT(&f, FREELIST_WALK) - walk, 13);
	assert_int_equal(STAT(&f, CHECK_VALID_POINTER) - cvp, 1 + 13 + 1);
	assert_int_equal(STAT(&f, POISON_CHECK) - pchk, 1);
	assert_int_equal(STAT(&f, POISON_CHECK_BYTES) - pbytes, 392);
	teardown_fixture(&f);

	/* 4.6: no checks without F */
	setup(&f, 406, SS_DBG_P);
	f.objs[0] = alloc1(&f);
	free1(&f, f.objs[0]);
	assert_int_equal(STAT(&f, CHECK_VALID_POINTER), 0);
	assert_int_equal(STAT(&f, FREELIST_WALK), 0);
	assert_int_equal(STAT(&f, POISON_CHECK), 0);
	teardown_fixture(&f);
}

/* __free_slab() up to 4.5 (kmem_cache_debug(s); SLAB_CONSISTENCY_CHECKS
 * from 4.6): slab_pad_check() and check_object(SLUB_RED_INACTIVE) on
 * every object, which verifies each one's free poison.  Six slabs are
 * filled and freed (test_discard_threshold: two discarded in 4.5). */
static void test_discard_checks_45(void **state)
{
	struct fixture f;
	uint64_t pchk, pbytes, cobj;
	(void)state;

	setup(&f, 405, SS_DBG_P);
	for (int i = 0; i < 6 * 15; i++)
		f.objs[i] = alloc1(&f);
	for (int i = 0; i < 6 * 15 - 1; i++)
		free1(&f, f.objs[i]);
	pchk = STAT(&f, POISON_CHECK);
	pbytes = STAT(&f, POISON_CHECK_BYTES);
	cobj = STAT(&f, CHECK_OBJECT);
	free1(&f, f.objs[6 * 15 - 1]); /* slab 5 empties, nr_partial 5: discard */
	assert_int_equal(STAT(&f, FREE_SLAB), 2);
	/* the free's own checks (check_slab's pad + check_object's none), then
	 * the discard's pad check and 15 poison verifies */
	assert_int_equal(STAT(&f, CHECK_OBJECT) - cobj, 1 + 15);
	assert_int_equal(STAT(&f, POISON_CHECK) - pchk, 1 + 1 + 15);
	assert_int_equal(STAT(&f, POISON_CHECK_BYTES) - pbytes, 392 + 392 + 15 * 512);
	teardown_fixture(&f);
}

/* calculate_sizes() 3.10 - 6.18: __OBJECT_POISON only for SLAB_POISON
 * without SLAB_TYPESAFE_BY_RCU and without a constructor.  init_object()
 * writes the poison only with it (alloc and free), check_object() verifies
 * it only with it; allocate_slab() / setup_slab_debug() fill the whole new
 * slab with POISON_INUSE for any SLAB_POISON cache, and
 * setup_object_debug() poisons each object only with __OBJECT_POISON. */
static void poison_gating(int era, unsigned flags)
{
	struct fixture f;
	struct ss_error err;
	struct ss_cache_spec spec = {.object_size = 512, .align = 8,
				     .flags = flags, .debug = SS_DBG_P};
	uint64_t w, wb, c, cb;

	memset(&f, 0, sizeof(f));
	ss_target_defaults(&f.t);
	f.t.era = era;
	f.t.cpus = 1;
	assert_int_equal(ss_topology_flat(&f.topo, 1, 1, &err), 0);
	assert_int_equal(ss_kcache_init(&f.s, "c", &spec, &f.t, &f.topo, &err), 0);
	assert_int_equal(f.s.poisons_object, flags == 0);
	assert_int_equal(f.s.geo.objs_per_slab, 15); /* pointer outside: 520 */
	f.objs[0] = alloc1(&f); /* the new slab, then the alloc */
	if (flags) {
		assert_int_equal(STAT(&f, POISON_WRITE), 1);
		assert_int_equal(STAT(&f, POISON_WRITE_BYTES), 8192);
	} else {
		assert_int_equal(STAT(&f, POISON_WRITE), 1 + 15 + 1);
		assert_int_equal(STAT(&f, POISON_WRITE_BYTES), 8192 + 15 * 512 + 512);
	}
	/* the alloc's poison verify (checks up to 4.5): 512 bytes, or none */
	cb = era < 406 ? 392 + (flags ? 0 : 512) : 0;
	assert_int_equal(STAT(&f, POISON_CHECK_BYTES), cb);
	w = STAT(&f, POISON_WRITE);
	wb = STAT(&f, POISON_WRITE_BYTES);
	c = STAT(&f, POISON_CHECK);
	f.objs[1] = alloc1(&f);
	free1(&f, f.objs[1]);
	assert_int_equal(STAT(&f, POISON_WRITE) - w, flags ? 0 : 2);
	assert_int_equal(STAT(&f, POISON_WRITE_BYTES) - wb, flags ? 0 : 2 * 512);
	/* up to 4.5 the slab pad check runs either way, on alloc and free */
	if (era < 406)
		assert_int_equal(STAT(&f, POISON_CHECK) - c, flags ? 2 : 3);
	else
		assert_int_equal(STAT(&f, POISON_CHECK) - c, 0);
	teardown_fixture(&f);
}

static void test_poison_skips_rcu_ctor(void **state)
{
	static const int eras[] = {310, 405, 406, 601, 611};
	(void)state;

	for (unsigned i = 0; i < sizeof(eras) / sizeof(eras[0]); i++) {
		poison_gating(eras[i], 0);
		poison_gating(eras[i], SS_CF_CTOR);
		poison_gating(eras[i], SS_CF_RCU);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deactivate_irqoff_locked_45),
		cmocka_unit_test(test_deactivate_splice_512),
		cmocka_unit_test(test_free_relock),
		cmocka_unit_test(test_full_list_needs_store_user),
		cmocka_unit_test(test_discard_threshold),
		cmocka_unit_test(test_alloc_cost_45_46),
		cmocka_unit_test(test_free_checks_45),
		cmocka_unit_test(test_discard_checks_45),
		cmocka_unit_test(test_poison_skips_rcu_ctor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
