/* test_slub7.c - SLUB of 7.0 - 7.2 (allocators/slub/slub7.c) and the sheaves'
 * rules that differ from 6.18 (allocators/slub/sheaf.c), each against a
 * sequence worked out by hand from mm/slub.c of 7.2.13: refill_objects()
 * over the partial list (get_partial_node_bulk(), the remainder to the
 * tail), new slabs for the rest, ___slab_alloc()'s one object,
 * __slab_free()'s list moves, build_detached_freelist()'s grouping, the
 * empty main kept as the spare after a refill (7.0) against 6.18's barn,
 * the -E2BIG flush of a full spare, and SLAB_ALLOC_NO_RECURSE. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "sheaf.h"
#include "slub7.h"
#include "test_util.h"

struct fixture {
	struct ss_target t;
	struct ss_topology topo;
	double cost[SS_NR_STEPS];
	struct ss_kcache s;
};

/* A cache of 256-byte objects (16 per order-0 slab, min_partial 5) of
 * era `era`, on one node of `cpus` CPUs; prices all 0. */
static void setup(struct fixture *f, int era, unsigned cpus)
{
	struct ss_error err;
	struct ss_cache_spec spec = {.object_size = 256, .align = 8};

	memset(f, 0, sizeof(*f));
	ss_target_defaults(&f->t);
	f->t.era = era;
	f->t.cpus = cpus;
	if (ss_topology_flat(&f->topo, cpus, 1, &err) ||
	    ss_kcache_init(&f->s, "test-256", &spec, &f->t, &f->topo, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(f->s.geo.objs_per_slab, 16);
	assert_int_equal(f->s.geo.min_partial, 5);
}

static void teardown_fixture(struct fixture *f)
{
	ss_kcache_release(&f->s);
	ss_topology_release(&f->topo);
}

static struct ss_op new_op(struct fixture *f)
{
	struct ss_op op;

	ss_op_init(&op, f->cost);
	op.stats = f->s.stats;
	return op;
}

/* A slab with `inuse` of its 16 objects in use, on the partial list's tail. */
static struct ss_slab *partial_slab(struct fixture *f, unsigned inuse)
{
	struct ss_op op = new_op(f);
	struct ss_slab *sl = ss_slab_new(&f->s, 0, &op);

	assert_non_null(sl);
	sl->inuse = inuse;
	f->s.live += inuse;
	ss_slab_add_partial(&f->s, sl, true);
	return sl;
}

#define STAT(f, name) ((f)->s.stats[SS_STEP_##name])

/* refill_objects(min = max = 12) over partial slabs A, B, C, D with 5, 4,
 * 9 and 2 free: get_partial_node_bulk() takes A, B and C under one
 * list_lock (5 + 4 < 12, then 18 >= 12); A and B are emptied whole, 3 of
 * C's 9 are taken and its 6 go back to the list's tail
 * (__slab_try_return_freelist(): list_lock and a cmpxchg of its own), so
 * the list is D, C; one cmpxchg per slab taken. */
static void test_refill_partial(void **state)
{
	struct fixture f;
	struct ss_slab *a, *b, *c, *d, *out[12];
	struct ss_op op;

	(void)state;
	setup(&f, SS_ERA_7_0, 1);
	a = partial_slab(&f, 11);
	b = partial_slab(&f, 12);
	c = partial_slab(&f, 7);
	d = partial_slab(&f, 14);
	memset(f.s.stats, 0, sizeof(f.s.stats));
	op = new_op(&f);
	assert_int_equal(ss7_refill(&f.s, 0, 12, out, &op), 12);
	for (unsigned i = 0; i < 12; i++)
		assert_ptr_equal(out[i], i < 5 ? a : i < 9 ? b : c);
	assert_int_equal(a->inuse, 16);
	assert_int_equal(b->inuse, 16);
	assert_int_equal(a->where, SS_SLAB_NONE);
	assert_int_equal(b->where, SS_SLAB_NONE);
	assert_int_equal(c->inuse, 10);
	assert_int_equal(f.s.node[0].partial.nr, 2);
	assert_ptr_equal(ss_slab_of(f.s.node[0].partial.head), d);
	assert_ptr_equal(ss_slab_of(f.s.node[0].partial.head->next), c);
	assert_int_equal(STAT(&f, LIST_LOCK), 2);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), 4);
	assert_int_equal(STAT(&f, ALLOC_SLOWPATH), 0); /* a refill is no slow path */
	assert_int_equal(STAT(&f, ALLOC_SLAB), 0);
	assert_int_equal(f.s.live, 11 + 12 + 7 + 14 + 12);
	teardown_fixture(&f);
}

/* Nothing partial: 20 objects from new slabs, the first taken whole (on
 * no list), 4 of the second, which goes to the partial list's head
 * (alloc_from_new_slab() under list_lock). */
static void test_refill_new_slabs(void **state)
{
	struct fixture f;
	struct ss_slab *out[20], *p;
	struct ss_op op;

	(void)state;
	setup(&f, SS_ERA_7_0, 1);
	p = partial_slab(&f, 15); /* one free object, then new slabs */
	memset(f.s.stats, 0, sizeof(f.s.stats));
	op = new_op(&f);
	assert_int_equal(ss7_refill(&f.s, 0, 20, out, &op), 20);
	assert_ptr_equal(out[0], p);
	assert_int_equal(STAT(&f, ALLOC_SLAB), 2);
	assert_int_equal(out[1]->inuse, 16);
	assert_int_equal(out[1]->where, SS_SLAB_NONE);
	assert_ptr_equal(out[17], out[19]);
	assert_int_equal(out[19]->inuse, 3);
	assert_int_equal(f.s.node[0].partial.nr, 1);
	assert_ptr_equal(ss_slab_of(f.s.node[0].partial.head), out[19]);
	assert_int_equal(f.s.live, 15 + 20);
	teardown_fixture(&f);
}

/* ___slab_alloc(): one object from the first partial slab (a cmpxchg
 * under list_lock; the slab leaves the list when it fills), else a new
 * slab whose other 15 objects stay on its freelist, at the list's head. */
static void test_slow_alloc(void **state)
{
	struct fixture f;
	struct ss_slab *a, *sl;
	struct ss_op op;

	(void)state;
	setup(&f, SS_ERA_7_0, 1);
	a = partial_slab(&f, 15);
	memset(f.s.stats, 0, sizeof(f.s.stats));
	op = new_op(&f);
	assert_ptr_equal(ss7_slab_alloc(&f.s, 0, &op), a);
	assert_int_equal(a->inuse, 16);
	assert_int_equal(a->where, SS_SLAB_NONE);
	assert_int_equal(STAT(&f, ALLOC_SLOWPATH), 1);
	assert_int_equal(STAT(&f, LIST_LOCK), 1);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), 1);
	op = new_op(&f);
	sl = ss7_slab_alloc(&f.s, 0, &op);
	assert_ptr_not_equal(sl, a);
	assert_int_equal(sl->inuse, 1);
	assert_int_equal(sl->where, SS_SLAB_NODE_PARTIAL);
	assert_int_equal(STAT(&f, ALLOC_SLAB), 1);
	assert_int_equal(f.s.live, 17);
	teardown_fixture(&f);
}

/* __slab_free(): a full slab goes to the partial list's tail under
 * list_lock (FREE_ADD_PARTIAL); a free inside a partial slab takes no
 * lock; the last object of a slab is discarded when the node has
 * min_partial (5) partial slabs (FREE_REMOVE_PARTIAL, FREE_SLAB), kept
 * when it has fewer. */
static void test_slab_free(void **state)
{
	struct fixture f;
	struct ss_slab *full, *sl[5], *last;
	struct ss_op op;

	(void)state;
	setup(&f, SS_ERA_7_0, 1);
	full = partial_slab(&f, 15);
	op = new_op(&f);
	assert_ptr_equal(ss7_slab_alloc(&f.s, 0, &op), full); /* now full, off the list */
	memset(f.s.stats, 0, sizeof(f.s.stats));
	op = new_op(&f);
	ss7_slab_free(&f.s, 0, full, &op);
	assert_int_equal(full->where, SS_SLAB_NODE_PARTIAL);
	assert_int_equal(STAT(&f, FREE_ADD_PARTIAL), 1);
	assert_int_equal(STAT(&f, LIST_LOCK), 1);
	assert_int_equal(STAT(&f, FREE_SLOWPATH), 1);
	op = new_op(&f);
	ss7_slab_free(&f.s, 0, full, &op);
	assert_int_equal(STAT(&f, LIST_LOCK), 1); /* stays put: no lock */
	/* fewer than min_partial listed: an emptied slab stays */
	last = partial_slab(&f, 1);
	op = new_op(&f);
	ss7_slab_free(&f.s, 0, last, &op);
	assert_int_equal(last->inuse, 0);
	assert_int_equal(last->where, SS_SLAB_NODE_PARTIAL);
	assert_int_equal(STAT(&f, FREE_SLAB), 0);
	/* five or more: discarded */
	for (unsigned i = 0; i < 5; i++)
		sl[i] = partial_slab(&f, 8);
	last = partial_slab(&f, 1);
	op = new_op(&f);
	ss7_slab_free(&f.s, 0, last, &op);
	assert_int_equal(STAT(&f, FREE_REMOVE_PARTIAL), 1);
	assert_int_equal(STAT(&f, FREE_SLAB), 1);
	assert_int_equal(f.s.node[0].partial.nr, 7);
	(void)sl;
	teardown_fixture(&f);
}

/* build_detached_freelist() from the array's end: [A, A, B, A] makes A x 3
 * (B skipped once, within the lookahead of 3), then B: two __slab_free()
 * calls, one cmpxchg each; [A, B, C, D, A] makes A alone first (B, C, D
 * are 3 misses), then D, C, B, A: five. */
static void test_free_bulk(void **state)
{
	struct fixture f;
	struct ss_slab *a, *b, *c, *d, *out[16];
	struct ss_op op;

	(void)state;
	setup(&f, SS_ERA_7_0, 1);
	a = partial_slab(&f, 8);
	b = partial_slab(&f, 8);
	c = partial_slab(&f, 8);
	d = partial_slab(&f, 8);
	memset(f.s.stats, 0, sizeof(f.s.stats));
	out[0] = a, out[1] = a, out[2] = b, out[3] = a;
	op = new_op(&f);
	ss7_free_bulk(&f.s, 0, out, 4, &op);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), 2);
	assert_int_equal(a->inuse, 5);
	assert_int_equal(b->inuse, 7);
	assert_int_equal(STAT(&f, FREE_SLOWPATH), 0); /* a flush counts SHEAF_FLUSH */
	out[0] = a, out[1] = b, out[2] = c, out[3] = d, out[4] = a;
	op = new_op(&f);
	ss7_free_bulk(&f.s, 0, out, 5, &op);
	assert_int_equal(STAT(&f, CMPXCHG_DOUBLE), 2 + 5);
	assert_int_equal(a->inuse, 3);
	assert_int_equal(f.s.live, 32 - 9);
	teardown_fixture(&f);
}

/* ---- sheaves: the environment's kmalloc gives no object (a cache of
 * the model's own is not needed to count the sheaves) ---- */

static unsigned kmallocs;

static int fake_kmalloc(void *ctx, uint64_t bytes, const char *site, unsigned cpu,
			struct ss_iobj *out, struct ss_op *op)
{
	(void)ctx, (void)site, (void)cpu, (void)op;
	kmallocs++;
	*out = (struct ss_iobj){.cache = -1, .bytes = (uint32_t)bytes};
	return 0;
}

static void fake_kfree(void *ctx, struct ss_iobj *obj, unsigned cpu, struct ss_op *op)
{
	(void)ctx, (void)obj, (void)cpu, (void)op;
}

static struct ss_backend_env fake_env(bool *no_recurse)
{
	return (struct ss_backend_env){.kmalloc = fake_kmalloc, .kfree = fake_kfree,
				       .no_recurse = no_recurse};
}

static struct ss_slab *sheaf_alloc(struct fixture *f, struct ss_sheaves *sh)
{
	struct ss_op op = new_op(f);
	struct ss_slab *sl = ss_sheaves_alloc(sh, 0, &op);

	assert_non_null(sl);
	return sl;
}

/* __pcs_replace_empty_main() with no spare and an empty barn: an empty
 * sheaf is allocated and refilled; the empty main becomes the spare in
 * 7.0+ ("keep empty main sheaf as spare") and goes to the barn in 6.18.
 * Main then pops: 7.x counts alloc_fastpath, 6.18 alloc_cpu_sheaf. */
static void empty_main(int era)
{
	struct fixture f;
	struct ss_sheaves *sh;
	struct ss_sheaves_state st;
	struct ss_backend_env env = fake_env(NULL);
	bool seven = era >= SS_ERA_7_0;

	setup(&f, era, 1);
	kmallocs = 0;
	sh = ss_sheaves_create(&f.s, 8, &env);
	assert_non_null(sh);
	sheaf_alloc(&f, sh);
	ss_sheaves_state(sh, 0, &st);
	assert_int_equal(st.main, 7);
	assert_int_equal(st.spare, seven ? 0 : -1);
	assert_int_equal(st.barn_empty, seven ? 0 : 1);
	assert_int_equal(kmallocs, 2); /* the CPU's main, then the refilled one */
	assert_int_equal(STAT(&f, SHEAF_ALLOC), 2);
	assert_int_equal(STAT(&f, SHEAF_REFILL), 8);
	assert_int_equal(STAT(&f, BARN_GET_FAIL), 1);
	assert_int_equal(f.s.stats[seven ? SS_STEP_ALLOC_FASTPATH : SS_STEP_ALLOC_CPU_SHEAF], 1);
	if (seven) /* (6.18's refill takes the CPU-slab paths: its fast path too) */
		assert_int_equal(STAT(&f, ALLOC_CPU_SHEAF), 0);
	assert_int_equal(ss_sheaves_parked(sh), 7);
	assert_int_equal(f.s.live, 8);
	ss_sheaves_destroy(sh);
	teardown_fixture(&f);
}

static void test_empty_main_7(void **state)
{
	(void)state;
	empty_main(SS_ERA_7_0);
}

static void test_empty_main_618(void **state)
{
	(void)state;
	empty_main(SS_ERA_6_18);
}

/* free_to_pcs() with main and spare full and the barn at
 * MAX_FULL_SHEAVES (10): barn_replace_full_sheaf() fails with -E2BIG, the
 * full spare is flushed to its slabs (SHEAF_FLUSH, one __slab_free per
 * slab) and becomes main, the full main the spare. */
static void test_e2big(void **state)
{
	struct fixture f;
	struct ss_sheaves *sh;
	struct ss_sheaves_state st;
	struct ss_backend_env env = fake_env(NULL);
	struct ss_slab *objs[49];
	struct ss_op op;

	(void)state;
	setup(&f, SS_ERA_7_0, 1);
	sh = ss_sheaves_create(&f.s, 4, &env);
	for (unsigned i = 0; i < 49; i++) /* 4 slabs */
		objs[i] = ss7_slab_alloc(&f.s, 0, &(struct ss_op){.cost = f.cost});
	/* 48 frees: main fills (4), then spare (4), then 10 full to the barn */
	for (unsigned i = 0; i < 48; i++) {
		op = new_op(&f);
		assert_true(ss_sheaves_free(sh, 0, objs[i], &op));
	}
	ss_sheaves_state(sh, 0, &st);
	assert_int_equal(st.barn_full, 10);
	assert_int_equal(st.barn_objects, 40);
	assert_int_equal(st.main, 4);
	assert_int_equal(st.spare, 4);
	assert_int_equal(STAT(&f, BARN_PUT), 10);
	assert_int_equal(STAT(&f, BARN_PUT_FAIL), 0);
	memset(f.s.stats, 0, sizeof(f.s.stats));
	op = new_op(&f);
	assert_true(ss_sheaves_free(sh, 0, objs[48], &op));
	ss_sheaves_state(sh, 0, &st);
	assert_int_equal(STAT(&f, BARN_PUT_FAIL), 1);
	assert_int_equal(STAT(&f, SHEAF_FLUSH), 4);
	assert_int_equal(st.main, 1);
	assert_int_equal(st.spare, 4);
	assert_int_equal(st.barn_full, 10);
	assert_int_equal(ss_sheaves_parked(sh), 4 + 40 + 1);
	ss_sheaves_destroy(sh);
	teardown_fixture(&f);
}

/* A kmalloc cache's sheaf is kmalloc'ed with SLAB_ALLOC_NO_RECURSE:
 * inside that kmalloc no cache may allocate an empty sheaf, so a
 * sheaves' allocation that would need one fails (the caller takes
 * ___slab_alloc()); outside it, it is set only around the kmalloc. */
static void test_no_recurse(void **state)
{
	struct fixture f;
	struct ss_sheaves *sh;
	bool no_recurse = true;
	struct ss_backend_env env = fake_env(&no_recurse);
	struct ss_op op;

	(void)state;
	setup(&f, SS_ERA_7_0, 1);
	f.s.spec.flags |= SS_CF_KMALLOC;
	sh = ss_sheaves_create(&f.s, 8, &env);
	kmallocs = 0;
	op = new_op(&f);
	/* the CPU's main sheaf is the cache's own from its creation (as
	 * bootstrap_cache_sheaves() makes it); the refill's is refused */
	assert_null(ss_sheaves_alloc(sh, 0, &op));
	assert_int_equal(kmallocs, 1);
	assert_int_equal(STAT(&f, SHEAF_ALLOC), 1);
	assert_int_equal(STAT(&f, BARN_GET_FAIL), 1);
	no_recurse = false;
	sheaf_alloc(&f, sh);
	assert_int_equal(kmallocs, 2);
	assert_int_equal(STAT(&f, SHEAF_ALLOC), 2);
	assert_false(no_recurse);
	ss_sheaves_destroy(sh);
	teardown_fixture(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refill_partial),
		cmocka_unit_test(test_refill_new_slabs),
		cmocka_unit_test(test_slow_alloc),
		cmocka_unit_test(test_slab_free),
		cmocka_unit_test(test_free_bulk),
		cmocka_unit_test(test_empty_main_7),
		cmocka_unit_test(test_empty_main_618),
		cmocka_unit_test(test_e2big),
		cmocka_unit_test(test_no_recurse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
