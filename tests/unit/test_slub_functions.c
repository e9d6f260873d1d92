/* test_slub_functions.c - the cycles the SLUB model records per kernel
 * function (functions.csv; the hackbench report's deactivate_slab share
 * reads them), for allocs and frees run through the real model, with the
 * cycles worked out by hand from the steps each path takes. */
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
};

/* One CPU, 512-byte objects: 15 per order-1 slab with P (see
 * test_slub_eras.c), 8 per order-0 slab without. */
static void setup(struct fixture *f, int era, unsigned debug)
{
	double *c = f->costs.cycles;

	memset(f, 0, sizeof(*f));
	tu_kcache_512(&f->s, &f->t, &f->topo, era, debug);
	/* the default table's prices for the steps that matter, but
	 * cmpxchg_double's: 16, apart from slab_lock's 20 */
	c[SS_STEP_DEACTIVATE] = 50;
	c[SS_STEP_DEACTIVATE_OBJECT] = 5;
	c[SS_STEP_LIST_LOCK] = 36;
	c[SS_STEP_SLAB_LOCK] = 20;
	c[SS_STEP_CMPXCHG_DOUBLE] = 16;
	c[SS_STEP_CMPXCHG_LOCKED] = 57;
	c[SS_STEP_POISON_WRITE] = 25; /* priced, never attributed */
}

static struct ss_slab *alloc1(struct fixture *f)
{
	struct ss_op op = {.cost = f->costs.cycles};

	return ss_kcache_alloc(&f->s, 0, &op);
}

static void free1(struct fixture *f, struct ss_slab *sl)
{
	struct ss_op op = {.cost = f->costs.cycles};

	ss_kcache_free(&f->s, 0, sl, &op);
}

/* deactivate_slab's recorded cycles */
static double attributed(const struct fixture *f)
{
	return f->s.fns[SS_FN_DEACTIVATE].cycles;
}

/* 4.5, P: three allocs hand back 14, 13 and 12 objects (mm/slub.c 4.5
 * deactivate_slab: max(h, 1) __cmpxchg_double_slab() updates, each the
 * slab_lock fallback with irqs already off).  deactivate_slab: 3 x 50 +
 * (14 + 13 + 12) x 5 (the walk) + 39 slab_locks x 20 + 3 list_locks x 36
 * = 150 + 195 + 780 + 108 = 1233.  The two acquire_slab updates and the
 * free's cmpxchg_double_slab() (cmpxchg_locked: it saves irqs itself) are
 * not deactivate_slab's. */
static void test_share_45(void **state)
{
	struct fixture f;
	struct ss_slab *a;
	(void)state;

	setup(&f, 405, SS_DBG_P);
	a = alloc1(&f);
	(void)alloc1(&f);
	(void)alloc1(&f);
	assert_true(attributed(&f) == 1233);
	assert_int_equal(f.s.fns[SS_FN_DEACTIVATE].calls, 3);
	assert_int_equal(f.s.fns[SS_FN_SLAB_ALLOC].calls, 3);
	free1(&f, a);
	assert_int_equal(f.s.stats[SS_STEP_CMPXCHG_LOCKED], 1);
	/* 39 in deactivate_slab, 2 acquire_slab, free_debug_processing's 1 */
	assert_int_equal(f.s.stats[SS_STEP_SLAB_LOCK], 39 + 2 + 1);
	assert_true(attributed(&f) == 1233);
	ss_kcache_release(&f.s);
	ss_topology_release(&f.topo);
}

/* 4.6, P: the same updates lock-free: 150 + 195 + 39 x 16 + 108 = 1077.
 * 6.1: no deactivate_slab at all. */
static void test_share_46_61(void **state)
{
	struct fixture f;
	(void)state;

	setup(&f, 406, SS_DBG_P);
	for (int i = 0; i < 3; i++)
		(void)alloc1(&f);
	assert_true(attributed(&f) == 1077);
	ss_kcache_release(&f.s);
	ss_topology_release(&f.topo);

	setup(&f, 601, SS_DBG_P);
	for (int i = 0; i < 3; i++)
		(void)alloc1(&f);
	assert_true(attributed(&f) == 0);
	ss_kcache_release(&f.s);
	ss_topology_release(&f.topo);
}

/* No debug, 4.5: the 9th alloc finds the first slab (8 objects) run out
 * with no remote frees.  ___slab_alloc's get_freelist() gets NULL:
 * "c->page = NULL; stat(s, DEACTIVATE_BYPASS); goto new_slab" (3.10, 4.5,
 * 6.x), no deactivate_slab.  Its one update (16) is all ___slab_alloc
 * spends besides the new slab (unpriced here). */
static void test_bypass_nodebug(void **state)
{
	struct fixture f;
	(void)state;

	setup(&f, 405, 0);
	assert_int_equal(f.s.geo.objs_per_slab, 8);
	for (int i = 0; i < 9; i++)
		(void)alloc1(&f);
	assert_int_equal(f.s.stats[SS_STEP_DEACTIVATE_BYPASS], 1);
	assert_int_equal(f.s.stats[SS_STEP_DEACTIVATE_FULL], 0);
	assert_int_equal(f.s.fns[SS_FN_DEACTIVATE].calls, 0);
	assert_true(attributed(&f) == 0);
	assert_int_equal(f.s.fns[SS_FN_SLAB_ALLOC].calls, 2);
	assert_int_equal(f.s.fns[SS_FN_ALLOCATE_SLAB].calls, 2);
	assert_true(f.s.fns[SS_FN_SLAB_ALLOC].cycles == 16);
	ss_kcache_release(&f.s);
	ss_topology_release(&f.topo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share_45),
		cmocka_unit_test(test_share_46_61),
		cmocka_unit_test(test_bypass_nodebug),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
