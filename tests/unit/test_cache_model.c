/* test_cache_model.c - the cache model around each allocator: kmalloc
 * families (kmalloc_type() per era), memcg obj_cgroup vectors, random
 * kmalloc caches, kmem_buckets, KFENCE, init_on_free, 6.18 sheaves,
 * SLUB_TINY and SLAB's arrays, off-slab management, alien caches and
 * cache_reap(); and the kernel options (kconfig.c).  Sources: the kernel
 * functions each test names, and docs/strategies.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kmalloc_type.h"
#include "model.h"
#include "target.h"
#include "test_util.h"
#include "topology.h"
#include "trace_tables.h"

#define MAX_OBJS 4096

struct fix {
	struct ss_target t;
	struct ss_topology topo;
	struct ss_trace_tables tb;
	struct ss_costs costs;
	const struct ss_model_desc *desc;
	struct ss_model *m;
	struct ss_obj obj[MAX_OBJS];
};

/* A model `traced` on target `name` with `cpus` CPUs on `nodes` nodes,
 * the allocator and options given (NULL: the target's); kernel_vectors:
 * the trace holds the kernel's own obj_exts vectors (model.h). */
static void fix_init_vectors(struct fix *f, const char *name, const char *allocator,
			     const char *config, unsigned cpus, unsigned nodes,
			     bool kernel_vectors)
{
	struct ss_model_config cfg = {0};
	struct ss_error err;

	memset(f, 0, sizeof(*f));
	f->t = tu_target(name);
	if (allocator && ss_allocator_parse(allocator, &f->t.kc.allocator))
		fail_msg("allocator %s", allocator);
	if (config && ss_kconfig_apply_list(&f->t, config, &err))
		fail_msg("%s", err.msg);
	if (ss_kconfig_finish(&f->t, &err))
		fail_msg("%s", err.msg);
	if (ss_topology_flat(&f->topo, cpus, nodes, &err))
		fail_msg("%s", err.msg);
	f->t.cpus = cpus;
	f->t.nodes = nodes;
	assert_int_equal(ss_trace_tables_init(&f->tb), 0);
	for (int i = 0; i < SS_NR_STEPS; i++)
		f->costs.cycles[i] = 1;
	f->desc = ss_model_find("traced");
	cfg.target = &f->t;
	cfg.topo = &f->topo;
	cfg.merge = true;
	cfg.kernel_vectors = kernel_vectors;
	cfg.tables = &f->tb;
	if (f->desc->ops->create(&f->m, &cfg, f->desc->policy, &err))
		fail_msg("%s", err.msg);
}

static void fix_init(struct fix *f, const char *name, const char *allocator,
		     const char *config, unsigned cpus, unsigned nodes)
{
	fix_init_vectors(f, name, allocator, config, cpus, nodes, false);
}

static void fix_release(struct fix *f)
{
	f->desc->ops->destroy(f->m);
	ss_trace_tables_release(&f->tb);
	ss_topology_release(&f->topo);
}

static uint32_t cache_api(struct fix *f, const char *name, unsigned size, unsigned align)
{
	int api = ss_trace_tables_add_cache(&f->tb, name, size, align, 0);

	assert_true(api > 0);
	return (uint32_t)api;
}

static void alloc_at(struct fix *f, unsigned id, unsigned cpu, const char *site,
		     uint32_t api, uint64_t size, uint32_t gfp)
{
	struct ss_event ev = {.kind = SS_EV_ALLOC, .cpu = cpu, .id = id, .api = api,
			      .value = size, .gfp = gfp};
	struct ss_op op = {.cost = f->costs.cycles};
	struct ss_error err;

	ev.site = ss_strtab_intern(&f->tb.names, site);
	f->obj[id] = (struct ss_obj){.size = size, .cpu = (uint16_t)cpu, .site = ev.site};
	if (f->desc->ops->alloc(f->m, &ev, &f->obj[id], &op, &err))
		fail_msg("alloc %u: %s", id, err.msg);
}

static void free_at(struct fix *f, unsigned id, unsigned cpu)
{
	struct ss_op op = {.cost = f->costs.cycles};

	f->desc->ops->free(f->m, cpu, &f->obj[id], &op);
	f->obj[id].state = SS_OBJ_FREE;
}

static void tick(struct fix *f, unsigned cpu, double seconds)
{
	struct ss_op op = {.cost = f->costs.cycles};

	f->desc->ops->tick(f->m, cpu, seconds * f->t.clock_mhz * 1e6, &op);
}

/* The report of cache `name`; fails the test if there is none. */
static struct ss_cache_report report(struct fix *f, const char *name)
{
	unsigned n = f->desc->ops->nr_caches(f->m);
	struct ss_cache_report r;

	for (unsigned i = 0; i < n; i++) {
		f->desc->ops->cache_report(f->m, i, &r);
		if (!strcmp(r.name, name))
			return r;
	}
	fail_msg("no cache %s", name);
	return r;
}

static bool has_cache(struct fix *f, const char *name)
{
	unsigned n = f->desc->ops->nr_caches(f->m);
	struct ss_cache_report r;

	for (unsigned i = 0; i < n; i++) {
		f->desc->ops->cache_report(f->m, i, &r);
		if (!strcmp(r.name, name))
			return true;
	}
	return false;
}

static const char *obj_cache(struct fix *f, unsigned id)
{
	static struct ss_cache_report r;

	f->desc->ops->cache_report(f->m, f->obj[id].cache, &r);
	return r.name;
}

/* ---- kmalloc_type() per era ---- */

static void test_kmalloc_type_eras(void **state)
{
	struct ss_target t = tu_target("x86_64-6.18"); /* MEMCG, ZONE_DMA */

	(void)state;
	assert_int_equal(ss_kmalloc_gfp_type(&t, SS_GFP_ACCOUNT), SS_KT_CGROUP);
	assert_int_equal(ss_kmalloc_gfp_type(&t, SS_GFP_RECLAIMABLE), SS_KT_RECLAIM);
	/* precedence: DMA, then RECLAIMABLE, then ACCOUNT */
	assert_int_equal(ss_kmalloc_gfp_type(&t, SS_GFP_DMA | SS_GFP_ACCOUNT), SS_KT_DMA);
	assert_int_equal(ss_kmalloc_gfp_type(&t, SS_GFP_RECLAIMABLE | SS_GFP_ACCOUNT),
			 SS_KT_RECLAIM);
	t.kc.memcg = false; /* !MEMCG: ACCOUNT is not a NOT_NORMAL bit */
	assert_int_equal(ss_kmalloc_gfp_type(&t, SS_GFP_ACCOUNT), SS_KT_NORMAL);
	t.kc.zone_dma = false;
	assert_int_equal(ss_kmalloc_gfp_type(&t, SS_GFP_DMA), SS_KT_NORMAL);
	t = tu_target("x86_64-6.1");
	t.era = ss_era_parse("5.10"); /* no kmalloc-cg before 5.14 */
	t.kc.memcg = true;
	assert_int_equal(ss_kmalloc_gfp_type(&t, SS_GFP_ACCOUNT), SS_KT_NORMAL);
	assert_int_equal(ss_kmalloc_gfp_type(&t, SS_GFP_RECLAIMABLE), SS_KT_RECLAIM);
	t.era = ss_era_parse("4.19"); /* no kmalloc-rcl before 4.20 */
	assert_int_equal(ss_kmalloc_gfp_type(&t, SS_GFP_RECLAIMABLE), SS_KT_NORMAL);
	assert_int_equal(ss_kmalloc_gfp_type(&t, SS_GFP_DMA), SS_KT_DMA);
}

/* An imported 6.18 capture's accounted=true kmalloc: kmalloc-cg-N, and the
 * slab's obj_cgroup vector (64 objects x 8 bytes) as a kmalloc-512 object. */
static void test_memcg_split_and_vectors(void **state)
{
	struct fix f;
	struct ss_cache_report cg, k512;
	uint32_t pid;

	(void)state;
	fix_init(&f, "x86_64-6.18", NULL, NULL, 2, 1);
	alloc_at(&f, 1, 0, "alloc_pipe_info+0x3c/0x1a0", 0, 40, SS_GFP_ACCOUNT);
	assert_string_equal(obj_cache(&f, 1), "kmalloc-cg-64");
	cg = report(&f, "kmalloc-cg-64");
	assert_int_equal(cg.objs_per_slab, 64);
	k512 = report(&f, "kmalloc-512");
	assert_int_equal(k512.live, 1);
	assert_int_equal(k512.requested_live, 64 * 8);
	alloc_at(&f, 2, 0, "single_open+0x1c/0x90", 0, 40, 0); /* unaccounted */
	assert_string_equal(obj_cache(&f, 2), "kmalloc-64");
	assert_int_equal(report(&f, "kmalloc-512").live, 1);
	/* a dedicated cache without SLAB_ACCOUNT gets its vector on the
	 * first accounted object (22 objects of 184 -> 176 bytes) */
	pid = cache_api(&f, "pid", 184, 8);
	alloc_at(&f, 3, 0, "alloc_pid+0x5a/0x3c0", pid, 184, SS_GFP_ACCOUNT);
	assert_int_equal(report(&f, "pid").objs_per_slab, 22);
	assert_int_equal(report(&f, "kmalloc-192").requested_live, 22 * 8);
	alloc_at(&f, 4, 0, "alloc_pid+0x5a/0x3c0", pid, 184, SS_GFP_ACCOUNT);
	assert_int_equal(report(&f, "kmalloc-192").live, 1); /* one per slab */
	fix_release(&f);
	/* without CONFIG_MEMCG: plain kmalloc-64, no vector */
	fix_init(&f, "x86_64-6.18", NULL, "CONFIG_MEMCG=n", 2, 1);
	alloc_at(&f, 1, 0, "alloc_pipe_info+0x3c/0x1a0", 0, 40, SS_GFP_ACCOUNT);
	assert_string_equal(obj_cache(&f, 1), "kmalloc-64");
	assert_false(has_cache(&f, "kmalloc-512"));
	fix_release(&f);
	/* with no memory cgroup below the root (memcg_kmem_online() false):
	 * kmalloc-cg-64 still, but nothing charged, no vector */
	fix_init(&f, "x86_64-6.18", NULL, "memcg_kmem_online=n", 2, 1);
	alloc_at(&f, 1, 0, "alloc_pipe_info+0x3c/0x1a0", 0, 40, SS_GFP_ACCOUNT);
	assert_string_equal(obj_cache(&f, 1), "kmalloc-cg-64");
	assert_int_equal(report(&f, "kmalloc-cg-64").stats[SS_STEP_MEMCG_CHARGE], 0);
	assert_false(has_cache(&f, "kmalloc-512"));
	fix_release(&f);
	/* a trace holding the kernel's own vectors: charged, none made again */
	fix_init_vectors(&f, "x86_64-6.18", NULL, NULL, 2, 1, true);
	alloc_at(&f, 1, 0, "alloc_pipe_info+0x3c/0x1a0", 0, 40, SS_GFP_ACCOUNT);
	assert_int_equal(report(&f, "kmalloc-cg-64").stats[SS_STEP_MEMCG_CHARGE], 1);
	assert_false(has_cache(&f, "kmalloc-512"));
	fix_release(&f);
}

/* A vector above the largest kmalloc class (kmalloc-cg-8 at
 * slub_min_order=3 holds 4,096 objects: 32 KiB) would be kmalloc_large()'s,
 * which the replay does not take for the allocator's own objects: the
 * allocation is refused, with the reason. */
static void test_memcg_vector_large(void **state)
{
	struct fix f;
	struct ss_event ev = {.kind = SS_EV_ALLOC, .cpu = 0, .id = 1, .value = 8,
			      .gfp = SS_GFP_ACCOUNT};
	struct ss_obj obj = {.size = 8};
	struct ss_op op = {0};
	struct ss_error err;

	(void)state;
	fix_init(&f, "x86_64-6.18", NULL, "slub_min_order=3", 1, 1);
	op.cost = f.costs.cycles;
	ev.site = ss_strtab_intern(&f.tb.names, "f+0x1/0x2");
	assert_int_equal(f.desc->ops->alloc(f.m, &ev, &obj, &op, &err), -1);
	assert_non_null(strstr(err.msg, "cache kmalloc-cg-8: its memcg vector of 32768 bytes "
					"(4096 objects a slab) is above the largest kmalloc class"));
	fix_release(&f);
}

/* The vector goes with its slab: SLUB_TINY frees an empty slab at once. */
static void test_memcg_vector_freed_with_slab(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f, "x86_64-6.18", "slub-tiny", NULL, 2, 1);
	alloc_at(&f, 1, 0, "f+0x1/0x2", 0, 64, SS_GFP_ACCOUNT);
	assert_int_equal(report(&f, "kmalloc-512").live, 1);
	free_at(&f, 1, 0);
	assert_int_equal(report(&f, "kmalloc-cg-64").nr_slabs, 0);
	assert_int_equal(report(&f, "kmalloc-512").live, 0);
	assert_int_equal(report(&f, "kmalloc-512").requested_live, 0);
	fix_release(&f);
}

/* CONFIG_RANDOM_KMALLOC_CACHES: the copy follows the site, the same site
 * always the same copy, many sites many copies; DMA/ACCOUNT requests are
 * not randomised. */
static void test_random_kmalloc(void **state)
{
	struct fix f;
	char site[64];
	unsigned copies = 0;

	(void)state;
	fix_init(&f, "x86_64-6.18", NULL, "CONFIG_RANDOM_KMALLOC_CACHES=y", 2, 1);
	for (unsigned i = 0; i < 64; i++) {
		snprintf(site, sizeof(site), "site_%u+0x10/0x40", i);
		alloc_at(&f, i, 0, site, 0, 64, 0);
		alloc_at(&f, 100 + i, 1, site, 0, 64, 0);
		assert_string_equal(obj_cache(&f, i), obj_cache(&f, 100 + i));
	}
	for (unsigned k = 1; k <= SS_RANDOM_KMALLOC_NR; k++) {
		snprintf(site, sizeof(site), "kmalloc-rnd-%02u-64", k);
		copies += has_cache(&f, site);
	}
	assert_true(copies >= 10); /* 64 sites over 16 copies */
	alloc_at(&f, 300, 0, "site_1+0x10/0x40", 0, 64, SS_GFP_ACCOUNT);
	assert_string_equal(obj_cache(&f, 300), "kmalloc-cg-64");
	fix_release(&f);
	/* without the option, one cache */
	fix_init(&f, "x86_64-6.18", NULL, NULL, 2, 1);
	for (unsigned i = 0; i < 64; i++) {
		snprintf(site, sizeof(site), "site_%u+0x10/0x40", i);
		alloc_at(&f, i, 0, site, 0, 64, 0);
		assert_string_equal(obj_cache(&f, i), "kmalloc-64");
	}
	fix_release(&f);
}

/* kmem_buckets (6.11+): alloc_msg's sizes in msg_msg-N (SLAB_ACCOUNT:
 * vectors), memdup_user's in memdup_user-N; no family bits apply. */
static void test_buckets(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f, "x86_64-6.18", NULL, NULL, 2, 1);
	alloc_at(&f, 1, 0, "alloc_msg+0x5a/0x120", 0, 100, SS_GFP_ACCOUNT);
	assert_string_equal(obj_cache(&f, 1), "msg_msg-128");
	assert_int_equal(report(&f, "msg_msg-128").align, 8);
	assert_true(has_cache(&f, "kmalloc-256")); /* 32 objects x 8 */
	alloc_at(&f, 2, 0, "memdup_user", 0, 3000, 0);
	assert_string_equal(obj_cache(&f, 2), "memdup_user-4k");
	alloc_at(&f, 3, 0, "alloc_msgs", 0, 100, 0); /* not alloc_msg */
	assert_string_equal(obj_cache(&f, 3), "kmalloc-128");
	fix_release(&f);
}

/* KFENCE: after sample_interval one allocation comes from the pool, which
 * counts whole in the footprint (256 slots x 2 pages). */
static void test_kfence(void **state)
{
	struct fix f;
	struct ss_cache_report r;

	(void)state;
	fix_init(&f, "x86_64-6.18", NULL, "CONFIG_KFENCE=y", 2, 1);
	r = report(&f, "kfence");
	assert_int_equal(r.slab_bytes, 256ull * 2 * 4096);
	tick(&f, 0, 0.05);
	alloc_at(&f, 1, 0, "a", 0, 64, 0);
	assert_string_equal(obj_cache(&f, 1), "kmalloc-64");
	tick(&f, 0, 0.101);
	alloc_at(&f, 2, 0, "a", 0, 64, 0);
	assert_string_equal(obj_cache(&f, 2), "kfence");
	alloc_at(&f, 3, 0, "a", 0, 64, 0); /* the gate closed again */
	assert_string_equal(obj_cache(&f, 3), "kmalloc-64");
	assert_int_equal(report(&f, "kfence").live, 1);
	free_at(&f, 2, 0);
	assert_int_equal(report(&f, "kfence").live, 0);
	assert_int_equal(report(&f, "kfence").stats[SS_STEP_KFENCE_FREE], 1);
	fix_release(&f);
}

/* init_on_free: a memset of the stride per free (SLUB). */
static void test_init_on_free(void **state)
{
	struct fix f;
	struct ss_cache_report r;

	(void)state;
	fix_init(&f, "x86_64-6.18", NULL, "init_on_free=1,init_on_alloc=1", 2, 1);
	alloc_at(&f, 1, 0, "a", 0, 90, 0);
	free_at(&f, 1, 0);
	r = report(&f, "kmalloc-96");
	assert_int_equal(r.stats[SS_STEP_INIT_ON_ALLOC], 1);
	assert_int_equal(r.stats[SS_STEP_INIT_ON_ALLOC_BYTES], 96);
	assert_int_equal(r.stats[SS_STEP_INIT_ON_FREE], 1);
	assert_int_equal(r.stats[SS_STEP_INIT_ON_FREE_BYTES], 96);
	fix_release(&f);
}

/* 6.18 sheaves: maple_node (capacity 32) allocates and frees through the
 * CPU's sheaves; objects in sheaves are not live; the sheaves themselves
 * are kmalloc-512 objects (32 + 32 x 8 = 288 bytes). */
static void test_sheaves(void **state)
{
	struct fix f;
	struct ss_cache_report r;
	uint32_t mn;

	(void)state;
	fix_init(&f, "x86_64-6.18", NULL, NULL, 2, 1);
	mn = cache_api(&f, "maple_node", 256, 256);
	for (unsigned i = 0; i < 100; i++)
		alloc_at(&f, i, 0, "mas_alloc_nodes", mn, 256, 0);
	r = report(&f, "maple_node");
	assert_int_equal(r.sheaf_capacity, 32);
	assert_int_equal(r.live, 100);
	assert_int_equal(r.stats[SS_STEP_ALLOC_CPU_SHEAF], 100);
	assert_true(r.stats[SS_STEP_SHEAF_REFILL] >= 100);
	for (unsigned i = 0; i < 100; i++)
		free_at(&f, i, 0);
	r = report(&f, "maple_node");
	assert_int_equal(r.live, 0);
	assert_int_equal(r.stats[SS_STEP_FREE_CPU_SHEAF], 100);
	assert_true(r.stats[SS_STEP_BARN_PUT] > 0); /* full sheaves went to the barn */
	assert_true(report(&f, "kmalloc-512").live >= 2);
	assert_int_equal(report(&f, "kmalloc-512").requested_live % 288, 0);
	fix_release(&f);
	/* no sheaves under SLUB_TINY or for another name */
	fix_init(&f, "x86_64-6.18", "slub-tiny", NULL, 2, 1);
	mn = cache_api(&f, "maple_node", 256, 256);
	alloc_at(&f, 1, 0, "mas_alloc_nodes", mn, 256, 0);
	assert_int_equal(report(&f, "maple_node").sheaf_capacity, 0);
	fix_release(&f);
}

/* slab_nomerge (a boot parameter, --config): find_mergeable() finds none,
 * so two caches of one size stay two. */
static void test_nomerge(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f, "x86_64-6.1", NULL, NULL, 1, 1);
	alloc_at(&f, 1, 0, "a", cache_api(&f, "first_cache", 64, 8), 64, 0);
	alloc_at(&f, 2, 0, "b", cache_api(&f, "second_cache", 64, 8), 64, 0);
	assert_false(has_cache(&f, "second_cache")); /* merged into the first */
	fix_release(&f);
	fix_init(&f, "x86_64-6.1", NULL, "slab_nomerge", 1, 1);
	alloc_at(&f, 1, 0, "a", cache_api(&f, "first_cache", 64, 8), 64, 0);
	alloc_at(&f, 2, 0, "b", cache_api(&f, "second_cache", 64, 8), 64, 0);
	assert_int_equal(report(&f, "second_cache").live, 1);
	assert_int_equal(report(&f, "first_cache").live, 1);
	fix_release(&f);
}

/* SLUB_TINY: no per-CPU slabs, an empty slab goes at once, order <= 1. */
static void test_slub_tiny(void **state)
{
	struct fix f;
	struct ss_cache_report r;

	(void)state;
	fix_init(&f, "x86_64-6.x", "slub-tiny", NULL, 8, 1);
	assert_int_equal(f.t.slub_max_order, 1);
	alloc_at(&f, 1, 0, "a", 0, 64, 0);
	alloc_at(&f, 2, 3, "a", 0, 64, 0);
	r = report(&f, "kmalloc-64");
	assert_int_equal(r.nr_slabs, 1); /* both CPUs use the node's slab */
	assert_int_equal(r.cpu_slabs, 0);
	assert_int_equal(r.min_partial, 0);
	free_at(&f, 1, 0);
	free_at(&f, 2, 3);
	assert_int_equal(report(&f, "kmalloc-64").nr_slabs, 0);
	alloc_at(&f, 3, 0, "a", 0, 2048, 0);
	assert_true(report(&f, "kmalloc-2k").order <= 1);
	fix_release(&f);
}

/* SLAB 2.6.16: size-N caches; a hit after the refill; an off-slab cache's
 * descriptor is a kmalloc object (size-512: 80 bytes in size-128). */
static void test_slab_2616(void **state)
{
	struct fix f;
	struct ss_cache_report r;

	(void)state;
	fix_init(&f, "x86_64-2.6.16", NULL, NULL, 2, 1);
	alloc_at(&f, 1, 0, "a", 0, 20, 0);
	alloc_at(&f, 2, 0, "a", 0, 20, 0);
	r = report(&f, "size-32");
	assert_int_equal(r.objs_per_slab, 112);
	assert_int_equal(r.limit, 120);
	assert_int_equal(r.stats[SS_STEP_ALLOCMISS], 1);
	assert_int_equal(r.stats[SS_STEP_ALLOCHIT], 1);
	assert_int_equal(r.stats[SS_STEP_GROWN], 1);
	alloc_at(&f, 3, 0, "a", 0, 500, 0);
	assert_string_equal(obj_cache(&f, 3), "size-512");
	r = report(&f, "size-128");
	assert_int_equal(r.live, 1);
	assert_int_equal(r.requested_live, 80);
	alloc_at(&f, 4, 0, "a", 0, 96, 0); /* no size-96 with 64-byte lines */
	assert_string_equal(obj_cache(&f, 4), "size-128");
	fix_release(&f);
}

/* SLAB's frees: an array overflow flushes batchcount objects to the shared
 * array; cache_reap drains untouched arrays and frees the free slabs. */
static void test_slab_flush_and_reap(void **state)
{
	struct fix f;
	struct ss_cache_report r;
	unsigned n = 600;

	(void)state;
	fix_init(&f, "x86_64-2.6.16", NULL, NULL, 2, 1);
	tick(&f, 0, 0);
	tick(&f, 1, 0);
	for (unsigned i = 0; i < n; i++)
		alloc_at(&f, i, 0, "a", 0, 256, 0);
	for (unsigned i = 0; i < n; i++)
		free_at(&f, i, 0);
	r = report(&f, "size-256");
	assert_int_equal(r.live, 0);
	assert_true(r.stats[SS_STEP_FREEMISS] > 0);
	assert_true(r.stats[SS_STEP_ARRAY_MOVE] > 0); /* into the shared array */
	assert_int_equal(r.nr_slabs, 40);		/* 600 / 15: kept so far */
	for (unsigned s = 1; s < 200; s++)
		tick(&f, 0, s * 1.0);
	r = report(&f, "size-256");
	assert_true(r.stats[SS_STEP_REAPED] > 0);
	assert_true(r.nr_slabs < 40);
	assert_int_equal(r.nr_slabs, 0);
	fix_release(&f);
}

/* SLAB on two nodes: a free on the other node goes to an alien array. */
static void test_slab_alien(void **state)
{
	struct fix f;
	struct ss_cache_report r;

	(void)state;
	fix_init(&f, "x86_64-6.1", "slab", NULL, 4, 2);
	alloc_at(&f, 1, 0, "a", 0, 64, 0);
	free_at(&f, 1, 3); /* CPU 3 is on node 1 */
	r = report(&f, "kmalloc-64");
	assert_int_equal(r.stats[SS_STEP_NODEFREES], 1);
	assert_int_equal(r.live, 0);
	fix_release(&f);
}

/* Options by name: errors for the unknown and for what the era lacks. */
static void test_kconfig(void **state)
{
	struct ss_target t = tu_target("x86_64-6.x");
	struct ss_error err;
	char buf[256];

	(void)state;
	assert_int_equal(ss_kconfig_apply_list(&t, "CONFIG_NO_SUCH=y", &err), -1);
	assert_non_null(strstr(err.msg, "unknown option"));
	assert_int_equal(ss_kconfig_apply_list(&t, "CONFIG_MEMCG=maybe", &err), -1);
	assert_int_equal(ss_kconfig_apply_list(&t, "CONFIG_KFENCE,kfence.sample_interval=10", &err), 0);
	assert_true(t.kc.kfence);
	assert_int_equal(t.kc.kfence_interval_ms, 10);
	ss_kconfig_str(&t.kc, buf, sizeof(buf));
	assert_string_equal(buf, "CONFIG_KFENCE=y,kfence.sample_interval=10");
	assert_int_equal(ss_kconfig_apply_list(&t, "slub_nomerge", &err), 0);
	ss_kconfig_str(&t.kc, buf, sizeof(buf));
	assert_string_equal(buf, "CONFIG_KFENCE=y,slab_nomerge=y,kfence.sample_interval=10");
	t.kc.nomerge = false;
	assert_int_equal(ss_kconfig_finish(&t, &err), 0);
	t = tu_target("x86_64-6.1"); /* 6.1: no random caches, no sheaves */
	assert_int_equal(ss_kconfig_apply_list(&t, "CONFIG_RANDOM_KMALLOC_CACHES=y", &err), 0);
	assert_int_equal(ss_kconfig_finish(&t, &err), -1);
	assert_non_null(strstr(err.msg, "6.6"));
	t = tu_target("x86_64-6.x");
	t.kc.allocator = SS_ALLOCATOR_SLAB; /* removed in 6.8 */
	assert_int_equal(ss_kconfig_finish(&t, &err), -1);
	t = tu_target("x86_64-6.x"); /* 6.6-6.7 had SLAB, never with random caches */
	t.era = SS_ERA_6_6;
	t.kc.allocator = SS_ALLOCATOR_SLAB;
	assert_int_equal(ss_kconfig_finish(&t, &err), 0);
	assert_int_equal(ss_kconfig_apply_list(&t, "CONFIG_RANDOM_KMALLOC_CACHES=y", &err), 0);
	assert_int_equal(ss_kconfig_finish(&t, &err), -1);
	assert_non_null(strstr(err.msg, "depends on SLUB"));
	t = tu_target("x86_64-6.18"); /* the target's SLAB_BUCKETS go with TINY */
	assert_int_equal(ss_kconfig_apply_list(&t, "CONFIG_SLUB_TINY=y", &err), 0);
	assert_int_equal(ss_kconfig_finish(&t, &err), 0);
	assert_false(t.kc.slab_buckets);
	t = tu_target("x86_64-6.18"); /* ... but asked for with it, an error */
	assert_int_equal(ss_kconfig_apply_list(&t, "CONFIG_SLUB_TINY=y,CONFIG_SLAB_BUCKETS=y", &err), 0);
	assert_int_equal(ss_kconfig_finish(&t, &err), -1);
	assert_int_equal(ss_kconfig_sheaf_capacity(&t, "maple_node"), 0);
	t = tu_target("x86_64-6.18");
	assert_int_equal(ss_kconfig_sheaf_capacity(&t, "maple_node"), 32);
	assert_int_equal(ss_kconfig_sheaf_capacity(&t, "vm_area_struct"), 32);
	assert_int_equal(ss_kconfig_sheaf_capacity(&t, "dentry"), 0);
	assert_int_equal(ss_era_parse("2.6.16"), 216);
	ss_era_str(216, buf, sizeof(buf));
	assert_string_equal(buf, "2.6.16");
	assert_int_equal(ss_era_parse("2.6"), -1);
	assert_int_equal(ss_era_parse("2.4.1"), -1);
}

/* 7.x: every cache has sheaves (calculate_sheaf_capacity(): 60 for
 * kmalloc-64, whose sheaf of 32 + 60 x 8 = 512 bytes is a kmalloc-512
 * object), pops and pushes count alloc_fastpath / free_fastpath, no CPU
 * slab is ever made, and kmalloc-256's sheaves come from kmalloc-256
 * itself (28: (256 - 32) / 8) without recursing (SLAB_ALLOC_NO_RECURSE). */
static void test_sheaves_7(void **state)
{
	struct fix f;
	struct ss_cache_report r;

	(void)state;
	fix_init(&f, "x86_64-7.2", NULL, "CONFIG_SLAB_BUCKETS=n", 2, 1);
	for (unsigned i = 0; i < 100; i++)
		alloc_at(&f, i, 0, "a", 0, 64, 0);
	r = report(&f, "kmalloc-64");
	assert_int_equal(r.sheaf_capacity, 60);
	assert_int_equal(r.live, 100);
	assert_int_equal(r.cpu_slabs, 0);
	assert_int_equal(r.stats[SS_STEP_ALLOC_FASTPATH], 100);
	assert_int_equal(r.stats[SS_STEP_ALLOC_CPU_SHEAF], 0);
	assert_int_equal(r.stats[SS_STEP_ALLOC_SLOWPATH], 0);
	assert_int_equal(r.stats[SS_STEP_SHEAF_REFILL], 120);
	assert_int_equal(r.total_objects - r.node_partial_free, 120); /* sysfs `objects` */
	for (unsigned i = 0; i < 100; i++)
		free_at(&f, i, 1);
	r = report(&f, "kmalloc-64");
	assert_int_equal(r.live, 0);
	assert_int_equal(r.stats[SS_STEP_FREE_FASTPATH], 100);
	assert_int_equal(r.stats[SS_STEP_FREE_CPU_SHEAF], 0);
	r = report(&f, "kmalloc-512");
	assert_true(r.internal_live >= 3); /* two CPUs' mains and a refilled one */
	assert_int_equal(r.internal_requested, 512 * r.internal_live);
	for (unsigned i = 0; i < 40; i++)
		alloc_at(&f, 200 + i, 0, "b", 0, 256, 0);
	r = report(&f, "kmalloc-256");
	assert_int_equal(r.sheaf_capacity, 28);
	assert_int_equal(r.live, 40 + r.internal_live);
	assert_true(r.internal_live >= 2);
	fix_release(&f);
}

/* kmalloc-buckets puts a declared cache's objects into the kmalloc class
 * of their size: one above the largest class (7.2 Debian's task_struct,
 * 8,904 bytes) is a kmalloc_large() of whole pages, not an error. */
static void test_buckets_large(void **state)
{
	struct fix f;
	struct ss_model_config cfg = {0};
	struct ss_large_report lr;
	struct ss_error err;
	uint32_t ts;

	(void)state;
	fix_init(&f, "x86_64-7.2", NULL, NULL, 1, 1);
	f.desc->ops->destroy(f.m);
	f.desc = ss_model_find("kmalloc-buckets");
	cfg.target = &f.t;
	cfg.topo = &f.topo;
	cfg.merge = true;
	cfg.tables = &f.tb;
	if (f.desc->ops->create(&f.m, &cfg, f.desc->policy, &err))
		fail_msg("%s", err.msg);
	ts = cache_api(&f, "task_struct", 8904, 64);
	alloc_at(&f, 1, 0, "dup_task_struct", ts, 8904, 0);
	assert_int_equal(f.obj[1].state, SS_OBJ_LARGE);
	f.desc->ops->large_report(f.m, &lr);
	assert_int_equal(lr.live, 1);
	assert_int_equal(lr.page_bytes, 16384);
	free_at(&f, 1, 0);
	f.desc->ops->large_report(f.m, &lr);
	assert_int_equal(lr.live, 0);
	fix_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kmalloc_type_eras),
		cmocka_unit_test(test_memcg_split_and_vectors),
		cmocka_unit_test(test_memcg_vector_freed_with_slab),
		cmocka_unit_test(test_memcg_vector_large),
		cmocka_unit_test(test_random_kmalloc),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_kfence),
		cmocka_unit_test(test_init_on_free),
		cmocka_unit_test(test_sheaves),
		cmocka_unit_test(test_sheaves_7),
		cmocka_unit_test(test_buckets_large),
		cmocka_unit_test(test_nomerge),
		cmocka_unit_test(test_slub_tiny),
		cmocka_unit_test(test_slab_2616),
		cmocka_unit_test(test_slab_flush_and_reap),
		cmocka_unit_test(test_slab_alien),
		cmocka_unit_test(test_kconfig),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
