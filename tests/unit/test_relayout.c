/* test_relayout.c - a kernel's cache started under a what-if's rules
 * (reconcile/relayout.c, slab_prior.c): where the run's calculate_order()
 * gives the snapshot's stride another order than the kernel's rules, the
 * cache takes the run's order and objects per slab and holds the
 * kernel's objects in the run's slabs; with the kernel's own rules,
 * nothing changes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "geometry.h"
#include "relayout.h"
#include "slab_prior.h"
#include "slabsnap.h"
#include "slub.h"
#include "test_util.h"
#include "topology.h"

/* A 784-byte cache (6.1's shmem_inode_cache on x86_64) as a one-CPU 6.1
 * kernel lays it out: calculate_order() with min_objects 4 * (fls(1) +
 * 1) = 8 gives order 1, 10 objects; 4 CPUs give min_objects 16, order 2,
 * 20 objects.  100 slabs: 2 CPU slabs (an active one and a CPU partial
 * one), 8 node partial slabs with 50 free slots, 90 full. */
static const char snapshot[] =
	"slabsim-slab 1 phase=before time=1.0 kernel=6.1.0 caches=2 aliases=0\n"
	"cache=shmem_inode_cache name=shmem_inode_cache aliases=0 align=8 cpu_partial=52 "
	"cpu_slabs=2,N0=2 ctor=shmem_init_inode destroy_by_rcu=0 hwcache_align=0 min_partial=5 "
	"object_size=784 objects=950,N0=950 objects_partial=30,N0=30 objs_per_slab=10 order=1 "
	"partial=8,N0=8 slab_size=784 slabs=100,N0=100 slabs_cpu_partial=5(1),C0=5(1) "
	"total_objects=1000,N0=1000\n"
	/* the same stride at an order no rule of the test's gives */
	"cache=odd name=odd aliases=0 align=8 cpu_partial=52 cpu_slabs=0 ctor= destroy_by_rcu=0 "
	"hwcache_align=0 min_partial=5 object_size=784 objects=400,N0=400 objects_partial=0 "
	"objs_per_slab=40 order=3 partial=0 slab_size=784 slabs=10,N0=10 "
	"slabs_cpu_partial=0(0) total_objects=400,N0=400\n";

/* x86_64 rules of era 6.1 on `cpus` CPUs. */
static void rules(struct ss_target *t, unsigned cpus)
{
	ss_target_defaults(t);
	t->era = SS_ERA_6_1;
	t->cpus = cpus;
}

static void load(struct ss_snap *snap)
{
	char path[TU_PATH_MAX];
	struct ss_error err;

	tu_path(path, sizeof(path), "slab-before.txt");
	tu_write_text(path, snapshot);
	if (ss_snap_load(snap, path, &err))
		fail_msg("%s", err.msg);
}

/* Cache `name` of snap started on the run's rules `run` with slub_debug
 * flags `debug` (SS_DBG_*), the snapshot's kernel having had `kernel`'s. */
static void start_debug(struct ss_kcache *s, const struct ss_target *run,
			const struct ss_target *kernel, struct ss_topology *topo,
			const struct ss_snap *snap, const char *name, unsigned debug)
{
	const struct ss_snap_cache *c = ss_snap_find(snap, name);
	struct ss_cache_spec spec = {.object_size = c->object_size, .debug = debug};
	struct ss_error err;

	if (ss_topology_flat(topo, run->cpus, 1, &err) ||
	    ss_kcache_init(s, c->name, &spec, run, topo, &err))
		fail_msg("%s", err.msg);
	if (!ss_recon_cache_new(s, 0))
		fail_msg("out of memory");
	s->recon->kernel = kernel;
	if (ss_recon_take_geometry(s->recon, c, &err) || ss_recon_populate(s->recon, c, &err))
		fail_msg("%s", err.msg);
}

static void start(struct ss_kcache *s, const struct ss_target *run, const struct ss_target *kernel,
		  struct ss_topology *topo, const struct ss_snap *snap, const char *name)
{
	start_debug(s, run, kernel, topo, snap, name, 0);
}

static void release(struct ss_kcache *s, struct ss_topology *topo)
{
	ss_recon_cache_free(s->recon);
	ss_kcache_release(s);
	ss_topology_release(topo);
}

/* SLUB's `objects`: slots less the free node partial ones. */
static uint64_t slub_objects(const struct ss_kcache *s)
{
	struct ss_cache_report r;

	ss_kcache_report(s, &r);
	return r.total_objects - r.node_partial_free;
}

static uint64_t cpu_slabs(const struct ss_kcache *s)
{
	uint64_t n = 0;

	for (unsigned c = 0; c < s->topo->nr_cpus; c++)
		n += (s->cpu[c].slab != NULL) + s->cpu[c].partial.nr;
	return n;
}

static void test_decide(void **state)
{
	struct ss_target one, four;
	struct ss_snap snap;
	unsigned order = 99, objs = 99;
	(void)state;

	load(&snap);
	rules(&one, 1);
	rules(&four, 4);
	/* the kernel's own rules, or none known: the snapshot's */
	assert_int_equal(ss_relayout_decide(&one, &one, ss_snap_find(&snap, "shmem_inode_cache"),
					    &order, &objs), SS_RELAYOUT_KEEP);
	assert_int_equal(ss_relayout_decide(NULL, &four, ss_snap_find(&snap, "shmem_inode_cache"),
					    &order, &objs), SS_RELAYOUT_KEEP);
	assert_int_equal(order, 99);
	/* 4 CPUs: calculate_order()'s min_objects 16 */
	assert_int_equal(ss_relayout_decide(&one, &four, ss_snap_find(&snap, "shmem_inode_cache"),
					    &order, &objs), SS_RELAYOUT_RUN);
	assert_int_equal(order, 2);
	assert_int_equal(objs, 20);
	/* slub_min_order=3: order 3, 41 objects of 784 bytes */
	four.cpus = 1;
	four.slub_min_order = 3;
	assert_int_equal(ss_relayout_decide(&one, &four, ss_snap_find(&snap, "shmem_inode_cache"),
					    &order, &objs), SS_RELAYOUT_RUN);
	assert_int_equal(order, 3);
	assert_int_equal(objs, 41);
	/* a layout the kernel's rules do not give: kept, whatever the run's */
	four.slub_min_order = 0;
	four.cpus = 4;
	assert_int_equal(ss_relayout_decide(&one, &four, ss_snap_find(&snap, "odd"), &order, &objs),
			 SS_RELAYOUT_UNEXPLAINED);
	/* ... unless the run's rules give it the kernel's answer */
	assert_int_equal(ss_relayout_decide(&one, &one, ss_snap_find(&snap, "odd"), &order, &objs),
			 SS_RELAYOUT_KEEP);
	ss_snap_release(&snap);
}

/* With the kernel's own rules the cache starts as the snapshot shows it,
 * exactly as without any rules given. */
static void test_same_rules_unchanged(void **state)
{
	struct ss_target one;
	struct ss_snap snap;
	struct ss_kcache a, b;
	struct ss_topology ta, tb;
	(void)state;

	load(&snap);
	rules(&one, 1);
	start(&a, &one, &one, &ta, &snap, "shmem_inode_cache");
	start(&b, &one, NULL, &tb, &snap, "shmem_inode_cache");
	assert_true(a.recon->from_snapshot);
	assert_false(a.recon->relaid || a.recon->relaid_not);
	assert_int_equal(a.geo.order, 1);
	assert_int_equal(a.geo.objs_per_slab, 10);
	assert_int_equal(a.nr_slabs, 100);
	assert_int_equal(slub_objects(&a), 950);
	/* slab for slab the state without rules */
	assert_int_equal(a.nr_slabs, b.nr_slabs);
	assert_int_equal(a.live, b.live);
	assert_int_equal(a.node[0].partial.nr, b.node[0].partial.nr);
	assert_int_equal(a.recon->nr_prior_slabs, b.recon->nr_prior_slabs);
	for (uint32_t i = 0; i < a.recon->nr_prior_slabs; i++) {
		assert_int_equal(a.recon->prior_slabs[i].prior, b.recon->prior_slabs[i].prior);
		assert_int_equal(a.recon->prior_slabs[i].sl->where, b.recon->prior_slabs[i].sl->where);
	}
	release(&a, &ta);
	release(&b, &tb);
	/* a layout the rules cannot explain keeps the snapshot's, counted */
	start(&a, &one, &one, &ta, &snap, "odd");
	assert_true(a.recon->from_snapshot);
	assert_int_equal(a.geo.order, 3);
	release(&a, &ta);
	ss_snap_release(&snap);
}

/* 4 CPUs: order 2, 20 objects per slab; the kernel's 940 objects in use
 * (950 less the CPU slabs' half-free estimate, 5 + 5) in the run's
 * slabs: 2 CPU slabs half in use (20), the node partial slabs' 30 objects
 * and 50 free slots plus the full slabs' remainder (10) in ceil(90 / 20)
 * = 5 slabs, 890 - 10 = 880 in 44 full slabs. */
static void test_relaid(void **state)
{
	struct ss_target one, four;
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_topology topo;
	struct ss_cache_report r;
	(void)state;

	load(&snap);
	rules(&one, 1);
	rules(&four, 4);
	start(&s, &four, &one, &topo, &snap, "shmem_inode_cache");
	assert_true(s.recon->relaid);
	assert_false(s.recon->from_snapshot);
	assert_int_equal(s.geo.order, 2);
	assert_int_equal(s.geo.objs_per_slab, 20);
	assert_int_equal(s.geo.size, 784); /* the kernel's stride */
	/* cpu_partial_slabs (5.16+) of the run's slabs: 2 * 52 / 20 */
	assert_int_equal(s.geo.cpu_partial_slabs, (2 * 52 + 19) / 20);
	assert_int_equal(s.live, 940);
	assert_int_equal(s.recon->prior_live, 940);
	assert_int_equal(cpu_slabs(&s), 2);
	assert_int_equal(s.node[0].partial.nr, 5);
	assert_int_equal(s.nr_slabs, 44 + 5 + 2);
	ss_kcache_report(&s, &r);
	assert_int_equal(r.node_partial_free, 5 * 20 - 40);
	assert_int_equal(slub_objects(&s), 44 * 20 + 40 + 2 * 20);
	/* a prior free takes an object of the relaid slabs */
	{
		struct ss_kslab_info ki = {.kslab = 1, .held = 3, .cache_held = 3, .cache_kslabs = 1};
		struct ss_slab *sl = ss_recon_take_prior(s.recon, &ki);

		assert_non_null(sl);
		assert_true(ss_recon_prior_on(s.recon, sl) >= 2);
		assert_int_equal(s.recon->prior_live, 939);
	}
	release(&s, &topo);
	ss_snap_release(&snap);
}

/* A slub_debug what-if keeps the model's own layout (with its metadata)
 * and starts the kernel's objects in it by the same rule. */
static void test_debug_layout(void **state)
{
	struct ss_target one;
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_topology topo;
	struct ss_cache_report r;
	(void)state;

	load(&snap);
	rules(&one, 1);
	start_debug(&s, &one, &one, &topo, &snap, "shmem_inode_cache", SS_DBG_ALL);
	assert_false(s.recon->from_snapshot || s.recon->relaid);
	assert_true(s.geo.size > 784);
	assert_int_equal(s.live, 940); /* the kernel's objects in use */
	ss_kcache_report(&s, &r);
	assert_true(r.node_partial_free >= 50); /* and its free slots */
	release(&s, &topo);
	ss_snap_release(&snap);
}

/* The plan keeps the objects in use whatever the slab size: slabs of one
 * object are never partial; a /proc/slabinfo snapshot has no CPU slabs. */
static void test_plan(void **state)
{
	struct ss_snap snap;
	struct ss_relayout_plan p;
	struct ss_snap_cache c;
	uint64_t sum = 0;
	(void)state;

	load(&snap);
	c = *ss_snap_find(&snap, "shmem_inode_cache");
	/* smaller slabs (4 objects): the same objects, more slabs */
	assert_int_equal(ss_relayout_plan(&c, 4, 2, 10, &p), 0);
	assert_int_equal(p.objects, 940);
	assert_int_equal(p.cpu_objects, 4);
	for (uint32_t i = 0; i < p.nr_partial; i++) {
		assert_true(p.partial[i] <= 3);
		sum += p.partial[i];
	}
	assert_int_equal(p.full * 4 + sum + p.cpu_objects, 940);
	assert_true(p.nr_partial * 4 - sum >= 50); /* the free slots stay */
	ss_relayout_plan_release(&p);
	assert_int_equal(ss_relayout_plan(&c, 1, 2, 10, &p), 0);
	assert_int_equal(p.nr_partial, 0);
	assert_int_equal(p.full + p.cpu_objects, 940);
	ss_relayout_plan_release(&p);
	c.have_lists = false; /* 50 free slots: populate_slabinfo()'s 10 half-empty slabs */
	assert_int_equal(ss_relayout_plan(&c, 20, 0, 0, &p), 0);
	assert_int_equal(p.objects, 950);
	sum = 0;
	for (uint32_t i = 0; i < p.nr_partial; i++)
		sum += p.partial[i];
	assert_int_equal(p.full * 20 + sum, 950);
	ss_relayout_plan_release(&p);
	ss_snap_release(&snap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_same_rules_unchanged),
		cmocka_unit_test(test_relaid),
		cmocka_unit_test(test_debug_layout),
		cmocka_unit_test(test_plan),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
