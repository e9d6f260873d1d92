/* test_slub_paths.c - the non-debug SLUB paths where the kernel changed
 * between eras or between machines: get_freelist() dropping an exhausted
 * CPU slab (DEACTIVATE_BYPASS), the freelist updates of get_partial_node()
 * and unfreeze_partials() before and after 6.8's delayed freezing, frees
 * into CPU-partial slabs, taking a CPU-partial slab, a target without
 * cmpxchg_double (32-bit ARM), and __slab_free's one update and
 * check_object's free pointer check in the debug paths.  Counts are worked out by hand from the
 * kernel function each test names. */
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
	struct ss_slab *objs[160];
	double last_cycles;
};

/* 512-byte objects, no debug (test_util's cache); a target without
 * cmpxchg_double gets the cache made again, as kmem_cache_open() reads it. */
static void setup(struct fixture *f, int era, unsigned cpus, bool cmpxchg_double)
{
	struct ss_error err;
	struct ss_cache_spec spec;

	memset(f, 0, sizeof(*f));
	tu_kcache_512_cpus(&f->s, &f->t, &f->topo, era, 0, cpus);
	if (cmpxchg_double)
		return;
	spec = f->s.spec;
	ss_kcache_release(&f->s);
	f->t.cmpxchg_double = false;
	assert_int_equal(ss_kcache_init(&f->s, "kmalloc-512", &spec, &f->t, &f->topo, &err), 0);
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
	f->last_cycles = op.cycles;
	return sl;
}

static void free_on(struct fixture *f, unsigned cpu, struct ss_slab *sl)
{
	struct ss_op op = {.cost = f->costs.cycles};

	ss_kcache_free(&f->s, cpu, sl, &op);
	f->last_cycles = op.cycles;
}

#define STAT(f, name) ((f)->s.stats[SS_STEP_##name])

/* ___slab_alloc() (__slab_alloc in 3.10): the CPU slab has run out and
 * nobody freed into it.  get_freelist() makes one update, gets NULL and
 * leaves the slab full and unfrozen; the caller sets c->page (c->slab)
 * to NULL, counts DEACTIVATE_BYPASS and goes to new_slab.  No
 * deactivate_slab(), no list_lock, no DEACTIVATE_FULL (3.10, 4.5, 6.1,
 * 6.10 alike).  One CPU, 512-byte objects: 8 per order-0 slab. */
static void bypass(int era)
{
	struct fixture f;
	double *c;

	setup(&f, era, 1, true);
	c = f.costs.cycles;
	c[SS_STEP_ALLOC_SLOWPATH] = 1;
	c[SS_STEP_CMPXCHG_DOUBLE] = 2;
	c[SS_STEP_ALLOC_SLAB] = 4;
	c[SS_STEP_PAGE_ALLOC] = 8;
	c[SS_STEP_SLAB_INIT_OBJECT] = 16;
	c[SS_STEP_DEACTIVATE] = 1024;
	c[SS_STEP_LIST_LOCK] = 2048;
	assert_int_equal(f.s.geo.objs_per_slab, 8);
	for (int i = 0; i < 9; i++)
		f.objs[i] = alloc_on(&f, 0);
	assert_int_equal(STAT(&f, DEACTIVATE_BYPASS), 1);
	assert_int_equal(STAT(&f, DEACTIVATE_FULL), 0);
	assert_int_equal(f.s.fns[SS_FN_DEACTIVATE].calls, 0);
	assert_int_equal(STAT(&f, ALLOC_SLAB), 2);
	assert_int_equal(STAT(&f, LIST_LOCK), 0);
	assert_int_equal(STAT(&f, ALLOC_REFILL), 0);
	/* the 9th: slow path + get_freelist's update + a new order-0 slab */
	assert_true(f.last_cycles == 1 + 2 + 4 + 8 + 16 * 8);
	assert_int_equal(f.objs[0]->where, SS_SLAB_NONE);
	teardown_fixture(&f);
}

static void test_deactivate_bypass(void **state)
{
	(void)state;
	bypass(310);
	bypass(405);
	bypass(601);
	bypass(611);
}

/* Two CPUs, 512-byte objects: 16 per order-1 slab (min_objects 12),
 * cpu_partial_slabs 7.  CPU0 fills slab A, takes B; CPU1 frees A's
 * objects: A was full, so the first goes to CPU1's partial list
 * (put_cpu_partial), the other 15 into a slab on a CPU partial list.
 * Up to 6.7 CPU-partial slabs are frozen: each is FREE_FROZEN, no lock.
 * From 6.8 ("slub: Delay freezing of CPU partial slabs") they are not:
 * no stat, and the free that empties the slab takes list_lock once
 * (__slab_free: !was_frozen && prior && !new.inuse), finds it off the
 * node list (prior && !on_node_partial) and leaves it where it is. */
static void cpu_partial_frees(int era, uint64_t want_frozen, uint64_t want_lock)
{
	struct fixture f;

	setup(&f, era, 2, true);
	assert_int_equal(f.s.geo.objs_per_slab, 16);
	for (int i = 0; i < 17; i++)
		f.objs[i] = alloc_on(&f, 0);
	free_on(&f, 1, f.objs[0]);
	assert_int_equal(STAT(&f, CPU_PARTIAL_FREE), 1);
	for (int i = 1; i < 15; i++)
		free_on(&f, 1, f.objs[i]);
	assert_int_equal(STAT(&f, LIST_LOCK), 0); /* not emptied yet */
	free_on(&f, 1, f.objs[15]);
	assert_int_equal(STAT(&f, FREE_FROZEN), want_frozen);
	assert_int_equal(STAT(&f, LIST_LOCK), want_lock);
	assert_int_equal(f.objs[0]->inuse, 0);
	assert_int_equal(f.objs[0]->where, SS_SLAB_CPU_PARTIAL);
	assert_int_equal(f.s.cpu[1].partial.nr, 1);
	assert_int_equal(STAT(&f, FREE_SLAB), 0);
	assert_int_equal(f.s.nr_slabs, 2);
	teardown_fixture(&f);
}

static void test_cpu_partial_free_68(void **state)
{
	(void)state;
	cpu_partial_frees(607, 15, 0);
	cpu_partial_frees(608, 0, 1);
	cpu_partial_frees(611, 0, 1);
}

/* Taking a CPU-partial slab in ___slab_alloc(): up to 6.7 it becomes
 * c->page and `goto redo` runs get_freelist(), which counts ALLOC_REFILL;
 * from 6.8 get_freelist() is called there and then, CPU_PARTIAL_ALLOC
 * counted, no ALLOC_REFILL.  One update either way. */
static void cpu_partial_take(int era, uint64_t want_refill)
{
	struct fixture f;
	uint64_t upd;

	setup(&f, era, 2, true);
	for (int i = 0; i < 17; i++)
		f.objs[i] = alloc_on(&f, 0);
	free_on(&f, 1, f.objs[0]); /* A on CPU1's partial list, 1 free */
	upd = STAT(&f, CMPXCHG_DOUBLE);
	f.objs[0] = alloc_on(&f, 1); /* CPU1 has no slab: takes A */
	assert_int_equal(STAT(&f, CPU_PARTIAL_ALLOC), 1);
	assert_int_equal(STAT(&f, ALLOC_REFILL), want_refill);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE) - upd, 1);
	assert_ptr_equal(f.s.cpu[1].slab, f.objs[0]);
	teardown_fixture(&f);
}

static void test_cpu_partial_take_counters(void **state)
{
	(void)state;
	cpu_partial_take(607, 1);
	cpu_partial_take(608, 0);
}

/* Nine full slabs A0..A8 of CPU0 (A8 its active one).  CPU1 frees one
 * object of each of A0..A7: each was full, so put_cpu_partial(); at A7
 * CPU1's list holds 7 = cpu_partial_slabs slabs and is drained first:
 * unfreeze_partials() (__put_partials() in 6.8) moves the 7 to the node
 * partial list under one list_lock -- up to 6.7 with one
 * __cmpxchg_double_slab() each to unfreeze them, from 6.8 with none.
 * Then CPU0 allocates: A8 is exhausted (bypass: one update), CPU0 has no
 * partial slabs, get_partial_node() takes A0 for itself and A1..A4 for
 * its partial list (partial_slabs 4 > 7 / 2 stops it) -- up to 6.7
 * acquire_slab() freezes each of the 5 with an update, from 6.8 only the
 * active one is frozen (freeze_slab()). */
static void partial_updates(int era, uint64_t want_unfreeze, uint64_t want_take)
{
	struct fixture f;
	uint64_t upd;

	setup(&f, era, 2, true);
	assert_int_equal(f.s.geo.cpu_partial_slabs, 7);
	for (int i = 0; i < 9 * 16; i++)
		f.objs[i] = alloc_on(&f, 0);
	upd = STAT(&f, CMPXCHG_DOUBLE);
	for (int k = 0; k < 8; k++)
		free_on(&f, 1, f.objs[16 * k]);
	assert_int_equal(STAT(&f, CPU_PARTIAL_DRAIN), 1);
	assert_int_equal(f.s.node[0].partial.nr, 7);
	/* + __slab_free's own update of each of the 8 frees */
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE) - upd, 8 + want_unfreeze);
	upd = STAT(&f, CMPXCHG_DOUBLE);
	(void)alloc_on(&f, 0);
	assert_int_equal(STAT(&f, ALLOC_FROM_PARTIAL), 1);
	assert_int_equal(STAT(&f, CPU_PARTIAL_NODE), 4);
	assert_int_equal(f.s.node[0].partial.nr, 2);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE) - upd, 1 + want_take);
	teardown_fixture(&f);
}

static void test_partial_updates_68(void **state)
{
	(void)state;
	partial_updates(607, 7, 5);
	partial_updates(608, 0, 1);
}

/* 32-bit ARM has no cmpxchg_double (neither HAVE_CMPXCHG_DOUBLE nor
 * HAVE_ALIGNED_STRUCT_PAGE): kmem_cache_open() never sets
 * __CMPXCHG_DOUBLE, for any cache (3.10).  __slab_free()'s
 * cmpxchg_double_slab() saves irqs and takes slab_lock (cmpxchg_locked);
 * the irqs-off __cmpxchg_double_slab() of get_freelist() takes slab_lock
 * only. */
static void test_arm32_no_cmpxchg_double(void **state)
{
	struct fixture f;
	(void)state;

	setup(&f, 310, 2, false);
	assert_false(f.s.cmpxchg_ok);
	for (int i = 0; i < 16; i++) /* 3.10, 2 CPUs: 16 per order-1 slab */
		f.objs[i] = alloc_on(&f, 0);
	assert_int_equal(f.s.geo.objs_per_slab, 16);
	free_on(&f, 1, f.objs[3]); /* a slow free into CPU0's active slab */
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 1);
	assert_int_equal(STAT(&f, FREE_FROZEN), 1);
	f.objs[3] = alloc_on(&f, 0); /* refill from that remote free */
	assert_int_equal(STAT(&f, ALLOC_REFILL), 1);
	assert_int_equal(STAT(&f, SLAB_LOCK), 1);
	f.objs[16] = alloc_on(&f, 0); /* exhausted again: bypass */
	assert_int_equal(STAT(&f, DEACTIVATE_BYPASS), 1);
	assert_int_equal(STAT(&f, SLAB_LOCK), 2);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), 0);
	teardown_fixture(&f);

	/* the same with cmpxchg_double: lock-free updates, no fallback */
	setup(&f, 310, 2, true);
	assert_true(f.s.cmpxchg_ok);
	for (int i = 0; i < 16; i++)
		f.objs[i] = alloc_on(&f, 0);
	free_on(&f, 1, f.objs[3]);
	f.objs[3] = alloc_on(&f, 0);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 0);
	assert_int_equal(STAT(&f, SLAB_LOCK), 0);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), 2); /* __slab_free, get_freelist */
	teardown_fixture(&f);
}

/* A slub_debug=P cache of era `era`, one CPU: 15 objects of 520 bytes
 * per order-1 slab (the free pointer moved after the object). */
static void setup_p(struct fixture *f, int era)
{
	memset(f, 0, sizeof(*f));
	tu_kcache_512_cpus(&f->s, &f->t, &f->topo, era, SS_DBG_P, 1);
	assert_int_equal(f->s.geo.objs_per_slab, 15);
}

/* Cost of one debug free of a full slab's object, priced so that each
 * step shows: free_slowpath 1, cmpxchg_double 2, cmpxchg_locked 4, the
 * rest 0. */
static double debug_free_price(int era, struct fixture *f)
{
	setup_p(f, era);
	f->costs.cycles[SS_STEP_FREE_SLOWPATH] = 1;
	f->costs.cycles[SS_STEP_CMPXCHG_DOUBLE] = 2;
	f->costs.cycles[SS_STEP_CMPXCHG_LOCKED] = 4;
	for (int i = 0; i < 15; i++)
		f->objs[i] = alloc_on(f, 0);
	free_on(f, 0, f->objs[3]);
	return f->last_cycles;
}

/* __slab_free()'s one freelist update is cmpxchg_double_slab(); the
 * free_slowpath price holds no part of it, so each era pays for the update
 * it makes, once:
 *   4.5 (kmem_cache_open(): no __CMPXCHG_DOUBLE with any debug flag) the
 *       fallback, local_irq_save + slab_lock: cmpxchg_locked only;
 *   4.6 (149daaf3a02c, SLAB_NO_CMPXCHG = F|U|T) lock-free for P:
 *       cmpxchg_double only;
 *   6.1 (free_to_partial_list(), c7323a5ad078 / 41bec7c33f37) the freelist
 *       written under list_lock: no cmpxchg of either kind;
 * and a non-debug __slab_free() (4.5) makes one lock-free cmpxchg_double. */
static void test_free_update_once(void **state)
{
	struct fixture f;
	(void)state;

	assert_true(debug_free_price(405, &f) == 1 + 4);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 1);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), 0);
	teardown_fixture(&f);

	assert_true(debug_free_price(406, &f) == 1 + 2);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 0);
	teardown_fixture(&f);

	assert_true(debug_free_price(601, &f) == 1);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 0);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), 0);
	teardown_fixture(&f);

	setup(&f, 405, 2, true); /* CPU 1 frees into CPU 0's active slab */
	f.objs[0] = alloc_on(&f, 0);
	free_on(&f, 1, f.objs[0]);
	assert_int_equal(STAT(&f, FREE_SLOWPATH), 1);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), 1);
	assert_int_equal(STAT(&f, CMPXCHG_LOCKED), 0);
	teardown_fixture(&f);
}

/* check_object() (mm/slub.c 4.5) ends with check_valid_pointer() on the
 * object's free pointer, whose `(object - base) % s->size` is a 64-bit
 * division, unless the pointer is NULL (`if (!object) return 1`) or the
 * object is allocated with its pointer inside it (`!s->offset && val ==
 * SLUB_RED_ACTIVE`; with P the pointer is after the object).  4.5, P, one
 * CPU, 15 objects a slab: every debug alloc takes the slab whole and
 * hands out its first free object, whose pointer is NULL only when it was
 * the last (the 15th alloc).  alloc_debug_processing() also checks the
 * object itself: 15 + 14 divisions.  A debug free: free_debug_processing()'s
 * own check, none from on_freelist() (the slab was full), one from
 * check_object(SLUB_RED_ACTIVE).  4.6 (P without F) runs no checks. */
static void test_check_object_freepointer_45(void **state)
{
	struct fixture f;
	(void)state;

	setup_p(&f, 405);
	for (int i = 0; i < 15; i++)
		f.objs[i] = alloc_on(&f, 0);
	assert_int_equal(STAT(&f, CHECK_VALID_POINTER), 15 + 14);
	free_on(&f, 0, f.objs[3]);
	assert_int_equal(STAT(&f, CHECK_VALID_POINTER), 15 + 14 + 2);
	teardown_fixture(&f);

	setup_p(&f, 406);
	for (int i = 0; i < 15; i++)
		f.objs[i] = alloc_on(&f, 0);
	free_on(&f, 0, f.objs[3]);
	assert_int_equal(STAT(&f, CHECK_VALID_POINTER), 0);
	teardown_fixture(&f);
}

/* The shipped 32-bit ARM targets say so; x86_64 ones have it. */
static void test_arm32_targets(void **state)
{
	struct ss_target t;
	struct ss_error err;
	(void)state;

	assert_int_equal(ss_target_load("arm32-3.10", &t, &err), 0);
	assert_false(t.cmpxchg_double);
	assert_int_equal(t.cache_line, 32);
	assert_int_equal(ss_target_load("arm32-3.10-v7", &t, &err), 0);
	assert_false(t.cmpxchg_double);
	assert_int_equal(t.cache_line, 64);
	assert_int_equal(t.dma_minalign, 64);
	assert_int_equal(ss_target_load("x86_64-4.5", &t, &err), 0);
	assert_true(t.cmpxchg_double);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deactivate_bypass),
		cmocka_unit_test(test_cpu_partial_free_68),
		cmocka_unit_test(test_cpu_partial_take_counters),
		cmocka_unit_test(test_partial_updates_68),
		cmocka_unit_test(test_arm32_no_cmpxchg_double),
		cmocka_unit_test(test_arm32_targets),
		cmocka_unit_test(test_free_update_once),
		cmocka_unit_test(test_check_object_freepointer_45),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
