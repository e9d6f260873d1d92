/* test_slab_prior.c - a kernel's caches as a replay's starting state: the
 * snapshot in its three forms (base/slabsnap.c), a cache laid out from it
 * with SLUB's own `objects` figure reproduced (reconcile/slab_prior.c),
 * prior frees drawn object by object or kernel slab by kernel slab, and
 * the checked parts of the waste decomposition (sim/totals.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recon.h"
#include "slab_prior.h"
#include "slabsnap.h"
#include "slub.h"
#include "prior_counts.h"
#include "test_util.h"
#include "topology.h"
#include "totals.h"

/* dentry as make capture wrote it on 6.18 (2 CPUs), and an alias */
static const char snapshot[] =
	"slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=2 aliases=2\n"
	"cache=dentry name=dentry aliases=0 align=8 cache_dma=0 cpu_partial=120 "
	"cpu_slabs=6,N0=6 ctor= destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=192 "
	"objects=146829,N0=146829 objects_partial=2685,N0=2685 objs_per_slab=21 order=0 "
	"partial=160,N0=160 reclaim_account=1 sheaf_capacity=0 slab_size=192 slabs=7032,N0=7032 "
	"slabs_cpu_partial=52(5),C0=31(3),C1=21(2) total_objects=147672,N0=147672\n"
	"cache=:0000032 name=lsm_inode_cache aliases=2 align=8 cpu_partial=120 cpu_slabs=5,N0=5 "
	"ctor= destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=32 objects=111069,N0=111069 "
	"objects_partial=11741,N0=11741 objs_per_slab=128 order=0 partial=115,N0=115 "
	"slab_size=32 slabs=891,N0=891 slabs_cpu_partial=192(3),C0=128(2),C1=64(1) "
	"total_objects=114048,N0=114048\n"
	"alias=lsm_inode_cache target=:0000032\n"
	"alias=ext4_io_end_vec target=:0000032\n";

static void test_snapshot_file(void **state)
{
	char path[TU_PATH_MAX];
	struct ss_snap s;
	struct ss_error err;
	const struct ss_snap_cache *c;
	(void)state;

	tu_path(path, sizeof(path), "slab-before.txt");
	tu_write_text(path, snapshot);
	assert_int_equal(ss_snap_load(&s, path, &err), 0);
	assert_int_equal(s.nr, 2);
	assert_string_equal(s.kernel, "6.18.44");
	c = ss_snap_find(&s, "dentry");
	assert_non_null(c);
	assert_true(c->have_geometry && c->have_lists);
	assert_int_equal(c->object_size, 192);
	assert_int_equal(c->objects, 146829);
	assert_int_equal(c->slabs, 7032);
	assert_int_equal(c->partial, 160);
	assert_int_equal(c->cpu_slabs, 6);
	assert_int_equal(c->nr_cpus, 2);
	assert_int_equal(c->cpu_partial_slabs[0], 3);
	assert_int_equal(c->cpu_partial_slabs[1], 2);
	assert_true(c->flags & SS_SNAP_RECLAIM);
	assert_int_equal(ss_snap_node_partial_free(c), 147672 - 146829);
	/* an alias finds its merged cache */
	assert_ptr_equal(ss_snap_find(&s, "ext4_io_end_vec"), ss_snap_find(&s, "lsm_inode_cache"));
	assert_null(ss_snap_find(&s, "nosuch"));
	ss_snap_release(&s);

	/* a capture directory is read through its slab-before.txt */
	tu_path(path, sizeof(path), "");
	assert_int_equal(ss_snap_load(&s, path, &err), 0);
	assert_int_equal(s.nr, 2);
	ss_snap_release(&s);
}

/* kmalloc-96 as make capture wrote it on 6.18 after a git clone: the
 * sysfs walk had opened ~5,000 files by the time it read kmalloc-96, and
 * each left a kernfs_open_node there for kfree_rcu(); /proc/slabinfo,
 * read before the walk, has the cache's own figures.  The second line is
 * a cache with more node partial slabs than slabinfo scans (it samples
 * them): its exact sysfs figures stay. */
static const char disturbed[] =
	"slabsim-slab 1 phase=after time=1.0 kernel=6.18.44 caches=2 aliases=0\n"
	"cache=kmalloc-96 name=kmalloc-96 aliases=0 align=32 cpu_partial=120 cpu_slabs=8,N0=8 "
	"ctor= destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=96 "
	"objects=12390,N0=12390 objects_partial=0 objs_per_slab=42 order=0 partial=0 "
	"slab_size=96 slabs=295,N0=295 slabs_cpu_partial=126(6),C0=126(6) "
	"total_objects=12390,N0=12390 si_active_objs=8232 si_num_objs=8442 "
	"si_active_slabs=201 si_num_slabs=201\n"
	"cache=dentry name=dentry aliases=0 align=8 cpu_partial=120 cpu_slabs=6,N0=6 "
	"ctor= destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=192 "
	"objects=200000,N0=200000 objects_partial=30000,N0=30000 objs_per_slab=21 order=0 "
	"partial=10001,N0=10001 slab_size=192 slabs=20000,N0=20000 "
	"total_objects=420000,N0=420000 si_active_objs=199000 si_num_objs=420000 "
	"si_active_slabs=20000 si_num_slabs=20000\n";

static void test_snapshot_counts_from_slabinfo(void **state)
{
	char path[TU_PATH_MAX];
	struct ss_snap s;
	struct ss_error err;
	const struct ss_snap_cache *c;
	(void)state;

	tu_path(path, sizeof(path), "slab-after.txt");
	tu_write_text(path, disturbed);
	assert_int_equal(ss_snap_load(&s, path, &err), 0);
	c = ss_snap_find(&s, "kmalloc-96");
	assert_non_null(c);
	assert_int_equal(c->objects, 8232);
	assert_int_equal(c->total_objects, 8442);
	assert_int_equal(c->slabs, 201);
	/* the lists were read later, from the disturbed cache: still usable */
	assert_true(c->have_lists);
	c = ss_snap_find(&s, "dentry");
	assert_non_null(c);
	assert_int_equal(c->objects, 200000);
	assert_int_equal(c->slabs, 20000);
	ss_snap_release(&s);
}

static void test_snapshot_slabinfo_and_sysfs(void **state)
{
	char path[TU_PATH_MAX], dir[TU_PATH_MAX], f[TU_PATH_MAX + 64];
	struct ss_snap s;
	struct ss_error err;
	const struct ss_snap_cache *c;
	static const struct {
		const char *attr, *value;
	} attrs[] = {
		{"object_size", "96\n"}, {"slab_size", "96\n"}, {"objs_per_slab", "42\n"},
		{"order", "0\n"}, {"align", "32\n"}, {"objects", "6281 N0=6281\n"},
		{"slabs", "156 N0=156\n"}, {"total_objects", "6552 N0=6552\n"},
		{"partial", "7 N0=7\n"}, {"objects_partial", "23 N0=23\n"},
		{"cpu_slabs", "6 N0=6\n"}, {"slabs_cpu_partial", "84(4) C0=84(4)\n"},
		{"min_partial", "5\n"}, {"cpu_partial", "120\n"}, {"hwcache_align", "0\n"},
	};
	(void)state;

	tu_path(path, sizeof(path), "slabinfo");
	tu_write_text(path, "slabinfo - version: 2.1\n"
			    "# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
			    "kmalloc-96          6281   6552     96   42    1 : tunables    0    0    0 : slabdata    156    156      0\n"
			    "kmalloc-1k           980   1008   1024   16    4 : tunables    0    0    0 : slabdata     63     63      0\n");
	assert_int_equal(ss_snap_load(&s, path, &err), 0);
	c = ss_snap_find(&s, "kmalloc-1k");
	assert_non_null(c);
	assert_false(c->have_geometry || c->have_lists);
	assert_int_equal(c->order, 2);
	assert_int_equal(c->objects, 980);
	ss_snap_release(&s);
	tu_write_text(path, "slabinfo - version: 2.1\nkmalloc-96 6281 6552 96 42 3 : junk\n");
	assert_int_equal(ss_snap_load(&s, path, &err), -1);
	assert_non_null(strstr(err.msg, "slabinfo:2:"));

	/* a copied /sys/kernel/slab: a directory per cache, a symlink per alias */
	tu_path(dir, sizeof(dir), "sys");
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(f, sizeof(f), "%s/:0000096", dir);
	assert_int_equal(mkdir(f, 0755), 0);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(f, sizeof(f), "%s/:0000096/%s", dir, attrs[i].attr);
		tu_write_text(f, attrs[i].value);
	}
	snprintf(f, sizeof(f), "%s/kmalloc-96", dir);
	assert_int_equal(symlink(":0000096", f), 0);
	assert_int_equal(ss_snap_load(&s, dir, &err), 0);
	c = ss_snap_find(&s, "kmalloc-96");
	assert_non_null(c);
	assert_string_equal(c->name, "kmalloc-96"); /* named after its alias */
	assert_true(c->have_geometry && c->have_lists);
	assert_int_equal(c->objects, 6281);
	assert_int_equal(c->objects_partial, 23);
	assert_int_equal(c->cpu_partial_slabs[0], 4);
	ss_snap_release(&s);
}

/* ss_recon_take_prior() of kernel slab kslab (0: none) with what the
 * trace says of it (held, dead) and of its cache (cache_held over
 * cache_kslabs kernel slabs; no whole-slab counts). */
static struct ss_slab *take(struct ss_kcache *s, uint32_t kslab, uint32_t held, uint32_t dead,
			    uint64_t cache_held, uint32_t cache_kslabs)
{
	struct ss_kslab_info ki = {.kslab = kslab, .held = held, .dead = dead,
				   .cache_held = cache_held, .cache_kslabs = cache_kslabs};

	return ss_recon_take_prior(s->recon, &ki);
}

/* SLUB's `objects` of a simulated cache: slots less free node-partial ones */
static uint64_t slub_objects(const struct ss_kcache *s)
{
	struct ss_cache_report r;

	ss_kcache_report(s, &r);
	return r.total_objects - r.node_partial_free;
}

/* Cache c started from the snapshot, its draws seeded with draw_seed
 * (ss_recon_spec: 0 the cache's own). */
static void start_seeded(struct ss_kcache *s, struct ss_target *t, struct ss_topology *topo,
			 const struct ss_snap_cache *c, uint64_t draw_seed)
{
	struct ss_error err;
	struct ss_cache_spec spec = {.object_size = c->object_size};

	ss_target_defaults(t);
	t->cpus = 2;
	if (ss_topology_flat(topo, 2, 1, &err) ||
	    ss_kcache_init(s, c->name, &spec, t, topo, &err))
		fail_msg("%s", err.msg);
	if (!ss_recon_cache_new(s, draw_seed))
		fail_msg("out of memory");
	if (ss_recon_take_geometry(s->recon, c, &err) || ss_recon_populate(s->recon, c, &err))
		fail_msg("%s", err.msg);
	assert_true(s->recon->from_snapshot);
}

static void start_cache(struct ss_kcache *s, struct ss_target *t, struct ss_topology *topo,
			const struct ss_snap_cache *c)
{
	start_seeded(s, t, topo, c, 0);
}

/* The cache and its initial state. */
static void release(struct ss_kcache *s)
{
	ss_recon_cache_free(s->recon);
	ss_kcache_release(s);
}

/* The initial-state objects slab sl of s holds. */
static uint32_t prior_of(const struct ss_kcache *s, const struct ss_slab *sl)
{
	return ss_recon_prior_on(s->recon, sl);
}

/* The snapshot `text` written to `file` and loaded, and its cache `name`
 * started from it. */
static void snap_cache(const char *file, const char *text, const char *name, struct ss_snap *snap,
		       struct ss_kcache *s, struct ss_target *t, struct ss_topology *topo)
{
	char path[TU_PATH_MAX];
	struct ss_error err;

	tu_path(path, sizeof(path), file);
	tu_write_text(path, text);
	if (ss_snap_load(snap, path, &err))
		fail_msg("%s", err.msg);
	start_cache(s, t, topo, ss_snap_find(snap, name));
}

static void test_populate(void **state)
{
	char path[TU_PATH_MAX];
	struct ss_snap snap;
	struct ss_error err;
	struct ss_kcache s;
	struct ss_target t;
	struct ss_topology topo;
	const struct ss_snap_cache *c;
	uint64_t cpu_partial = 0;
	(void)state;

	tu_path(path, sizeof(path), "slab-before.txt");
	tu_write_text(path, snapshot);
	assert_int_equal(ss_snap_load(&snap, path, &err), 0);
	c = ss_snap_find(&snap, "dentry");
	start_cache(&s, &t, &topo, c);
	/* the kernel's geometry, slabs, lists and `objects` */
	assert_int_equal(s.geo.objs_per_slab, 21);
	assert_int_equal(s.geo.cpu_partial_slabs, (2 * 120 + 20) / 21);
	assert_int_equal(s.nr_slabs, 7032);
	assert_int_equal(s.total_objects, 7032 * 21);
	assert_int_equal(slub_objects(&s), 146829);
	assert_int_equal(s.node[0].partial.nr, 160);
	for (unsigned i = 0; i < 2; i++)
		cpu_partial += s.cpu[i].partial.nr;
	assert_int_equal(cpu_partial, 5);
	assert_non_null(s.cpu[0].slab); /* 6 CPU slabs, 5 partial: one active */
	assert_null(s.cpu[1].slab);
	/* what is allocated: full and node partial slabs (their free slots
	 * are what `objects` leaves out), half of CPU slabs */
	assert_int_equal(s.recon->prior_live, (7032 - 160 - 6) * 21 + (160 * 21 - (147672 - 146829)) + 6 * 10);
	assert_int_equal(s.live, s.recon->prior_live);
	release(&s);
	ss_topology_release(&topo);
	ss_snap_release(&snap);
}

/* A raw-pointer trace's count of the active slab's free slots
 * (reconcile/import/cpuslab.c, meta cpu_slab_free) replaces the half-full guess for
 * that slab: exactly, or as a lower bound that only lowers it.  Malformed
 * items are errors; unknown caches and counts beyond a slab skipped. */
/* dentry started from snap: CPU 0's active slab's free slots, and the
 * objects the initial state holds (*live). */
static uint32_t active_free(const struct ss_snap *snap, uint64_t *live)
{
	struct ss_kcache s;
	struct ss_target t;
	struct ss_topology topo;
	uint32_t f;

	start_cache(&s, &t, &topo, ss_snap_find(snap, "dentry"));
	assert_int_equal(slub_objects(&s), 146829); /* SLUB's figure is the kernel's */
	f = s.cpu[0].slab->cpu_free;
	*live = s.recon->prior_live;
	release(&s);
	ss_topology_release(&topo);
	return f;
}

static void test_populate_cpu_free(void **state)
{
	char path[TU_PATH_MAX];
	struct ss_snap snap;
	struct ss_error err;
	unsigned skipped;
	uint64_t half_live, live;
	(void)state;

	tu_path(path, sizeof(path), "slab-cpufree.txt");
	tu_write_text(path, snapshot);
	assert_int_equal(ss_snap_load(&snap, path, &err), 0);
	assert_int_equal(active_free(&snap, &half_live), 21 - 10);

	/* CPU 0's active slab had 18 of 21 free: 7 objects fewer in use;
	 * CPU 1 (no active slab here) and the other cache are not touched */
	assert_int_equal(ss_snap_take_cpu_free(&snap, "dentry:0:18 dentry:1:3+ nosuch:0:1 "
					       "lsm_inode_cache:1:100", &skipped, &err), 0);
	assert_int_equal(skipped, 1);
	assert_int_equal(active_free(&snap, &live), 18);
	assert_int_equal(live, half_live - 7);
	/* a lower bound below the guess keeps the guess; above it, it wins */
	assert_int_equal(ss_snap_take_cpu_free(&snap, "dentry:0:4+", &skipped, &err), 0);
	assert_int_equal(active_free(&snap, &live), 11);
	assert_int_equal(ss_snap_take_cpu_free(&snap, "dentry:0:15+", &skipped, &err), 0);
	assert_int_equal(active_free(&snap, &live), 15);

	/* more than a slab holds: another kernel's evidence, skipped */
	assert_int_equal(ss_snap_take_cpu_free(&snap, "dentry:0:22", &skipped, &err), 0);
	assert_int_equal(skipped, 1);
	assert_int_equal(active_free(&snap, &live), 15);
	assert_int_equal(ss_snap_take_cpu_free(&snap, "dentry:x:2", &skipped, &err), -1);
	assert_non_null(strstr(err.msg, "bad item 'dentry:x:2'"));
	assert_int_equal(ss_snap_take_cpu_free(&snap, "dentry", &skipped, &err), -1);
	ss_snap_release(&snap);
}

/* Prior frees: each kernel slab's frees take from one slab of ours, so a
 * kernel slab freed whole empties one here; without slab ids the draws
 * are reproducible. */
static void test_take_prior(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s, s2;
	struct ss_target t;
	struct ss_topology topo, topo2;
	struct ss_slab *first, *sl;
	uint64_t slabs;
	(void)state;

	snap_cache("slab-before.txt", snapshot, "dentry", &snap, &s, &t, &topo);
	slabs = s.nr_slabs;
	first = take(&s, 8, 0, 0, 0, 0);
	assert_non_null(first);
	for (unsigned i = 1; prior_of(&s, first) && i < 21; i++) {
		sl = take(&s, 8, 0, 0, 0, 0);
		assert_ptr_equal(sl, first); /* the same kernel slab, the same slab */
	}
	assert_int_equal(prior_of(&s, first), 0);
	/* a cache draws the same objects in every run */
	release(&s);
	ss_topology_release(&topo);
	start_cache(&s, &t, &topo, ss_snap_find(&snap, "dentry"));
	start_cache(&s2, &t, &topo2, ss_snap_find(&snap, "dentry"));
	for (unsigned i = 0; i < 100; i++) {
		struct ss_slab *a = take(&s, 0, 0, 0, 0, 0), *b = take(&s2, 0, 0, 0, 0, 0);

		assert_non_null(a);
		assert_int_equal(a->inuse, b->inuse);
		assert_int_equal(prior_of(&s, a), prior_of(&s2, b));
	}
	assert_int_equal(s.nr_slabs, slabs); /* taking is no free: nothing moved */
	release(&s);
	release(&s2);
	ss_topology_release(&topo);
	ss_topology_release(&topo2);
	ss_snap_release(&snap);
}

/* The draw seed (run --draw-seed): 0 draws as a cache always has; another
 * seed is another sequence of draws from the same initial state, with the
 * same slabs and objects. */
static void test_draw_seed(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s0, s1, sd;
	struct ss_target t;
	struct ss_topology topo0, topo1, topod;
	struct ss_error err;
	struct ss_cache_spec spec;
	const struct ss_snap_cache *c;
	unsigned differ = 0;
	(void)state;

	snap_cache("slab-before-seed.txt", snapshot, "dentry", &snap, &s0, &t, &topo0);
	c = ss_snap_find(&snap, "dentry");
	spec = (struct ss_cache_spec){.object_size = c->object_size};
	/* seed 1, set before the initial state as the backend does */
	if (ss_topology_flat(&topo1, 2, 1, &err) || ss_kcache_init(&s1, c->name, &spec, &t, &topo1, &err))
		fail_msg("%s", err.msg);
	if (!ss_recon_cache_new(&s1, 1))
		fail_msg("out of memory");
	if (ss_recon_take_geometry(s1.recon, c, &err) || ss_recon_populate(s1.recon, c, &err))
		fail_msg("%s", err.msg);
	start_cache(&sd, &t, &topod, c); /* seed 0 again */
	assert_int_equal(s0.nr_slabs, s1.nr_slabs);
	assert_int_equal(s0.recon->prior_live, s1.recon->prior_live);
	for (unsigned i = 0; i < 100; i++) {
		struct ss_slab *a = take(&s0, 0, 0, 0, 0, 0), *b = take(&s1, 0, 0, 0, 0, 0);
		struct ss_slab *d = take(&sd, 0, 0, 0, 0, 0);

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(prior_of(&s0, a), prior_of(&sd, d)); /* seed 0: the same draws */
		assert_int_equal(a->inuse, d->inuse);
		differ += prior_of(&s0, a) != prior_of(&s1, b) || a->inuse != b->inuse;
	}
	assert_true(differ > 0);
	assert_int_equal(s0.recon->prior_live, s1.recon->prior_live); /* as many taken either way */
	release(&s0);
	release(&s1);
	release(&sd);
	ss_topology_release(&topo0);
	ss_topology_release(&topo1);
	ss_topology_release(&topod);
	ss_snap_release(&snap);
}

/* A cache whose node partial slabs are nearly empty (5 of 39 objects
 * each), with 3 full slabs: an object drawn at random is on a partial
 * slab three times in four. */
static const char sparse[] =
	"slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=1 aliases=0\n"
	"cache=buffer_head name=buffer_head aliases=0 align=8 cache_dma=0 cpu_partial=120 "
	"cpu_slabs=2,N0=2 ctor= destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=104 "
	"objects=700,N0=700 objects_partial=475,N0=475 objs_per_slab=39 order=0 "
	"partial=95,N0=95 reclaim_account=1 sheaf_capacity=0 slab_size=104 slabs=100,N0=100 "
	"slabs_cpu_partial=0(0),C0=0(0),C1=0(0) total_objects=3900,N0=3900\n";

/* A kernel slab the trace frees n objects from held at least n: it maps
 * to a slab that still holds n (drawn like an object among those), the
 * fullest when none does, and the rest of its frees go on to another
 * that holds what is left. */
static void test_take_prior_counted(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s, s2;
	struct ss_target t;
	struct ss_topology topo, topo2;
	struct ss_slab *sl, *first;
	(void)state;

	snap_cache("sparse.txt", sparse, "buffer_head", &snap, &s, &t, &topo);
	start_cache(&s2, &t, &topo2, ss_snap_find(&snap, "buffer_head"));
	/* a count every slab can hold changes nothing: the same draw */
	sl = take(&s, 1, 1, 0, 0, 0);
	first = take(&s2, 1, 0, 0, 0, 0);
	assert_int_equal(prior_of(&s, sl), prior_of(&s2, first));
	assert_int_equal(sl->inuse, first->inuse);
	/* 21 frees each, three times: only the three full slabs held them */
	for (uint32_t k = 2; k < 5; k++) {
		sl = take(&s, k, 21, 0, 0, 0);
		assert_true(prior_of(&s, sl) + 1 >= 21);
		for (unsigned i = 1; i < 21; i++)
			assert_ptr_equal(take(&s, k, 21, 0, 0, 0), sl);
	}
	/* 60 frees: none held them, the fullest takes what it has, then a
	 * slab that still holds the rest */
	first = take(&s, 9, 60, 0, 0, 0);
	while (prior_of(&s, first))
		assert_ptr_equal(take(&s, 9, 60, 0, 0, 0), first);
	sl = take(&s, 9, 60, 0, 0, 0);
	assert_ptr_not_equal(sl, first);
	release(&s);
	release(&s2);
	ss_topology_release(&topo);
	ss_topology_release(&topo2);
	ss_snap_release(&snap);
}

/* A cache of full slabs only (files one command made, the next removes):
 * 100 slabs of 21 objects, and 100 kernel slabs that free 7 objects
 * each.  Two kernel slabs are two slabs: each maps onto one no other
 * maps onto, so no slab is emptied (drawn from all slabs that still hold
 * 7, three kernel slabs sharing one of ours would empty it). */
static const char full[] =
	"slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=1 aliases=0\n"
	"cache=dentry name=dentry aliases=0 align=8 cache_dma=0 cpu_partial=120 "
	"cpu_slabs=0 ctor= destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=192 "
	"objects=2100,N0=2100 objects_partial=0 objs_per_slab=21 order=0 partial=0 "
	"reclaim_account=1 sheaf_capacity=0 slab_size=192 slabs=100,N0=100 "
	"slabs_cpu_partial=0(0) total_objects=2100,N0=2100\n";

static void test_take_prior_one_to_one(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_target t;
	struct ss_topology topo;
	struct ss_slab *first[100];
	(void)state;

	snap_cache("full.txt", full, "dentry", &snap, &s, &t, &topo);
	assert_int_equal(s.recon->nr_prior_slabs, 100);
	for (uint32_t k = 0; k < 100; k++) {
		first[k] = take(&s, k + 1, 7, 0, 0, 0);
		for (uint32_t j = 0; j < k; j++)
			assert_ptr_not_equal(first[k], first[j]);
		for (unsigned i = 1; i < 7; i++)
			assert_ptr_equal(take(&s, k + 1, 7, 0, 0, 0), first[k]);
	}
	for (uint32_t i = 0; i < s.recon->nr_prior_slabs; i++)
		assert_int_equal(s.recon->prior_slabs[i].prior, 14);
	assert_int_equal(s.recon->unmapped_live, 0);
	/* with every slab mapped, a new kernel slab draws from all of them */
	assert_non_null(take(&s, 101, 5, 0, 0, 0));
	assert_int_equal(s.recon->prior_live, 100 * 14 - 1);
	release(&s);
	ss_topology_release(&topo);
	ss_snap_release(&snap);
}

/* Kernel slab numbers are each kernel cache's own: a what-if cache
 * holding two kernel caches' objects (kmalloc-buckets puts dentry's in
 * kmalloc-192) maps kernel slab 1 of each onto two slabs. */
static void test_take_prior_two_kernel_caches(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_target t;
	struct ss_topology topo;
	struct ss_kslab_info a = {.kslab = 1, .held = 7, .src_api = 3};
	struct ss_kslab_info b = {.kslab = 1, .held = 7, .src_api = SS_API_KMALLOC,
				  .src_value = 192};
	struct ss_kslab_info c = b;
	struct ss_slab *sa, *sb, *sc;
	(void)state;

	c.src_gfp = SS_GFP_ACCOUNT; /* kmalloc-cg-192's slab 1: a third */
	snap_cache("full2.txt", full, "dentry", &snap, &s, &t, &topo);
	sa = ss_recon_take_prior(s.recon, &a);
	sb = ss_recon_take_prior(s.recon, &b);
	sc = ss_recon_take_prior(s.recon, &c);
	assert_non_null(sa);
	assert_true(sa != sb && sb != sc && sa != sc);
	for (int i = 1; i < 7; i++) {
		assert_ptr_equal(ss_recon_take_prior(s.recon, &a), sa);
		assert_ptr_equal(ss_recon_take_prior(s.recon, &b), sb);
	}
	assert_int_equal(s.recon->nr_kmaps, 3);
	release(&s);
	ss_topology_release(&topo);
	ss_snap_release(&snap);
}

/* A SLAB_TYPESAFE_BY_RCU cache's slab is freed a grace period after
 * its last free (free_slab() -> call_rcu()): a vector kfree right after
 * one of its frees is another slab's, so nothing is seen freed, and its
 * kernel slabs keep "at least what they gave" (no +1).  The same events
 * with the cache not RCU: seen. */
static void test_prior_counts_rcu_not_dead(void **state)
{
	struct ss_event k = {.kind = SS_EV_FREE_PRIOR, .api = 3, .cpu = 0, .id = 2};
	struct ss_event k2 = {.kind = SS_EV_FREE_PRIOR, .api = 3, .cpu = 0, .id = 3};
	struct ss_event vec = {.kind = SS_EV_FREE_PRIOR, .api = SS_API_KMALLOC, .value = 64,
			       .cpu = 0, .id = 1};
	(void)state;

	for (unsigned flags = 0; flags <= SS_CF_RCU; flags += SS_CF_RCU) {
		struct ss_prior_counts pc = {0};

		for (int i = 0; i < 5; i++)
			assert_int_equal(ss_prior_counts_note(&pc, &k, "inet_twsk_kill+0x1/0x2", flags), 0);
		assert_int_equal(ss_prior_counts_note(&pc, &vec, "__free_slab+0x87/0xf0", 0), 0);
		assert_int_equal(ss_prior_counts_note(&pc, &k2, "inet_twsk_kill+0x1/0x2", flags), 0);
		assert_int_equal(pc.deaths, flags ? 0 : 1);
		assert_int_equal(ss_prior_counts_dead(&pc, &k), flags ? 0 : 5);
		assert_int_equal(ss_prior_counts_held(&pc, &k), 5);
		/* K2 not seen freed: one more than it gave only where its
		 * cache's deaths are seen */
		assert_int_equal(ss_prior_counts_held(&pc, &k2), flags ? 1 : 2);
		ss_prior_counts_release(&pc);
	}
}

/* A kernel slab's pages seen freed (a `d` event, SS_EV_SLAB_FREED, from
 * mm_page_free): K held the prior frees it gave until then, whatever came
 * between them on the CPU and whether its cache is RCU; a cache's other
 * kernel slabs then outlived their frees.  A `d` of a slab no prior free
 * named, or of another cache's slab of the same number, says nothing. */
static void test_prior_counts_slab_freed(void **state)
{
	struct ss_prior_counts pc = {0};
	struct ss_event k = {.kind = SS_EV_FREE_PRIOR, .api = 3, .cpu = 0, .id = 2};
	struct ss_event other = {.kind = SS_EV_FREE_PRIOR, .api = 4, .cpu = 1, .id = 2};
	struct ss_event d = {.kind = SS_EV_SLAB_FREED, .api = 3, .cpu = 1, .id = 2};
	struct ss_event alloc = {.kind = SS_EV_ALLOC, .cpu = 0, .api = 3, .value = 64};
	(void)state;

	/* nothing noted yet: a `d` before any prior free is no slab of ours */
	assert_int_equal(ss_prior_counts_note(&pc, &d, NULL, SS_CF_RCU), 0);
	assert_int_equal(pc.deaths, 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(ss_prior_counts_note(&pc, &k, "rcu_do_batch+0x1/0x2", SS_CF_RCU), 0);
		assert_int_equal(ss_prior_counts_note(&pc, &alloc, NULL, 0), 0);
	}
	assert_int_equal(ss_prior_counts_note(&pc, &other, "kfree+0x1/0x2", 0), 0);
	/* K's pages freed on the other CPU, a grace period later */
	assert_int_equal(ss_prior_counts_note(&pc, &d, NULL, SS_CF_RCU), 0);
	/* seen once: a second `d` changes nothing */
	assert_int_equal(ss_prior_counts_note(&pc, &d, NULL, SS_CF_RCU), 0);
	/* slab 3 of the cache: never named by a prior free */
	d.id = 4;
	assert_int_equal(ss_prior_counts_note(&pc, &d, NULL, SS_CF_RCU), 0);
	k.id = 3;
	assert_int_equal(ss_prior_counts_note(&pc, &k, "rcu_do_batch+0x1/0x2", SS_CF_RCU), 0);
	assert_int_equal(ss_prior_counts_finish(&pc), 0);
	assert_int_equal(pc.deaths, 1);
	k.id = 2;
	assert_int_equal(ss_prior_counts_dead(&pc, &k), 4);
	assert_int_equal(ss_prior_counts_held(&pc, &k), 4);
	/* K = 2 of the cache: not seen freed in a cache whose deaths are seen */
	k.id = 3;
	assert_int_equal(ss_prior_counts_dead(&pc, &k), 0);
	assert_int_equal(ss_prior_counts_held(&pc, &k), 2);
	/* the other cache's slab of the same number: no death of its own */
	assert_int_equal(ss_prior_counts_dead(&pc, &other), 0);
	assert_int_equal(ss_prior_counts_held(&pc, &other), 1);
	/* what the replay is told (ss_prior_counts_about): K died; slab 3
	 * and the other cache's outlived the capture -- the page frees show
	 * every death (a `d` was seen), in the other cache too */
	{
		struct ss_kslab_info ki;

		k.id = 2;
		ss_prior_counts_about(&pc, &k, &ki);
		assert_int_equal(ki.frees, 4);
		assert_false(ki.outlived);
		k.id = 3;
		ss_prior_counts_about(&pc, &k, &ki);
		assert_int_equal(ki.frees, 1);
		assert_true(ki.outlived);
		ss_prior_counts_about(&pc, &other, &ki);
		assert_int_equal(ki.held, 1); /* (no death seen in its cache) */
		assert_true(ki.outlived);
		/* without page frees: only where its cache's deaths are seen */
		pc.page_deaths = false;
		ss_prior_counts_about(&pc, &other, &ki);
		assert_false(ki.outlived);
		ss_prior_counts_about(&pc, &k, &ki);
		assert_true(ki.outlived);
	}
	ss_prior_counts_release(&pc);
}

/* A kernel slab's slab seen freed: the vector's kfree (a prior free at
 * __free_slab) as the next event on the CPU after K's prior free.  Any
 * other event between, or another CPU's, says nothing; the table keeps
 * what it noted when it grows. */
static void test_prior_counts_dead(void **state)
{
	struct ss_prior_counts pc = {0};
	struct ss_event k = {.kind = SS_EV_FREE_PRIOR, .api = 3, .cpu = 0};
	struct ss_event vec = {.kind = SS_EV_FREE_PRIOR, .api = SS_API_KMALLOC, .value = 512,
			       .cpu = 0, .id = 1};
	struct ss_event alloc = {.kind = SS_EV_ALLOC, .cpu = 0, .api = 3, .value = 104};
	static const struct {
		uint64_t id;
		uint32_t dead, held;
	} want[] = {{2, 3, 3}, {3, 0, 2}, {4, 0, 2}, {2999, 1, 1}, {5, 0, 0}};
	(void)state;

	/* K = 1: three frees, the last followed by the vector's */
	k.id = 2;
	for (int i = 0; i < 3; i++)
		assert_int_equal(ss_prior_counts_note(&pc, &k, "free_buffer_head+0x21/0x80", 0), 0);
	assert_int_equal(ss_prior_counts_note(&pc, &vec, "__free_slab+0x87/0xf0", 0), 0);
	/* K = 2: an allocation between its free and the vector's */
	k.id = 3;
	assert_int_equal(ss_prior_counts_note(&pc, &k, "free_buffer_head+0x21/0x80", 0), 0);
	assert_int_equal(ss_prior_counts_note(&pc, &alloc, NULL, 0), 0);
	assert_int_equal(ss_prior_counts_note(&pc, &vec, "__free_slab+0x87/0xf0", 0), 0);
	/* K = 3: the vector freed on the other CPU */
	k.id = 4;
	assert_int_equal(ss_prior_counts_note(&pc, &k, "free_buffer_head+0x21/0x80", 0), 0);
	vec.cpu = 1;
	assert_int_equal(ss_prior_counts_note(&pc, &vec, "__free_slab+0x87/0xf0", 0), 0);
	/* many more slabs: the table grows past its first size */
	for (uint64_t j = 10; j < 3000; j++) {
		k.id = j;
		assert_int_equal(ss_prior_counts_note(&pc, &k, "free_buffer_head+0x21/0x80", 0), 0);
	}
	vec.cpu = 0;
	assert_int_equal(ss_prior_counts_note(&pc, &vec, "free_slab_obj_exts+0x10/0x40", 0), 0);
	k.id = 2;
	assert_int_equal(ss_prior_counts_get(&pc, &k), 3);
	assert_int_equal(pc.deaths, 2);
	/* what each held when seen freed (0: not seen), and at least: a slab
	 * seen freed its frees, one not seen freed one more (it outlived
	 * them), one never freed from 0 */
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		k.id = want[i].id;
		assert_int_equal(ss_prior_counts_dead(&pc, &k), want[i].dead);
		assert_int_equal(ss_prior_counts_held(&pc, &k), want[i].held);
	}
	/* the vectors' own slabs are counted like any prior free */
	vec.id = 1;
	assert_int_equal(ss_prior_counts_get(&pc, &vec), 4);
	ss_prior_counts_release(&pc);
}

/* A kernel slab seen freed with 1 object from before: its first free
 * gets a node partial slab holding exactly 1, the other node partial
 * slabs share the rest (partial_spread.h), and the cache's objects stay
 * the snapshot's (sparse: 95 node partial slabs, 505 objects). */
static void test_take_prior_dead(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_target t;
	struct ss_topology topo;
	struct ss_slab *sl;
	uint64_t live, partial_objects = 0, partial = 0;
	uint32_t lo = UINT32_MAX, hi = 0;
	(void)state;

	snap_cache("sparse.txt", sparse, "buffer_head", &snap, &s, &t, &topo);
	live = s.recon->prior_live;
	sl = take(&s, 1, 1, 1, 0, 0);
	assert_int_equal(prior_of(&s, sl), 0);
	assert_int_equal(sl->inuse, 1); /* K's one object, for the free to take */
	assert_int_equal(s.recon->prior_live, live - 1);
	for (uint32_t i = 0; i < s.recon->nr_prior_slabs; i++) {
		const struct ss_slab *o = s.recon->prior_slabs[i].sl;

		if (o->where != SS_SLAB_NODE_PARTIAL || o == sl)
			continue;
		partial++;
		partial_objects += prior_of(&s, o);
		assert_true(prior_of(&s, o) < o->objects); /* never filled */
		lo = prior_of(&s, o) < lo ? prior_of(&s, o) : lo;
		hi = prior_of(&s, o) > hi ? prior_of(&s, o) : hi;
	}
	/* spread as partial_spread.h says (mean 5.4 of 0..38: leaning
	 * empty), not all 5 or 6 */
	assert_true(lo <= 1 && hi >= 12);
	/* 95 * 39 slots less the 3,200 free ones (total_objects - objects):
	 * 505 objects, 1 in K's slab, 504 over the other 94 */
	assert_int_equal(partial, 94);
	assert_int_equal(partial_objects, 504);
	sl = take(&s, 2, 1, 1, 0, 0);
	assert_int_equal(prior_of(&s, sl), 0);
	release(&s);
	ss_topology_release(&topo);
	ss_snap_release(&snap);
}

/* The prior counts of every prior slab add up to prior_live, and a draw
 * among them stays inside the cache. */
static void assert_prior_consistent(struct ss_kcache *s)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < s->recon->nr_prior_slabs; i++)
		sum += s->recon->prior_slabs[i].prior;
	assert_int_equal(sum, s->recon->prior_live);
	for (int i = 0; i < 200 && s->recon->prior_live; i++)
		assert_non_null(take(s, 0, 0, 0, 0, 0));
}

/* A kernel slab seen freed (ss_recon_kslab_left, _prior_respread): its
 * slab here gives up what it still holds; node partial slabs no event
 * touched take them back while they have room (the cache's objects stay
 * the snapshot's), and what none can take was freed without an event.
 * A kernel slab not mapped, or of another kernel cache, gives nothing. */
static void test_kslab_freed(void **state)
{
	struct ss_kslab_info ki = {.kslab = 1, .held = 39};
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_target t;
	struct ss_topology topo;
	struct ss_slab *sl;
	uint64_t live;
	uint32_t left;
	(void)state;

	snap_cache("sparse-k.txt", sparse, "buffer_head", &snap, &s, &t, &topo);
	assert_int_equal(ss_recon_kslab_left(s.recon, &ki), 0); /* not mapped yet */
	/* K held a whole slab: it maps onto a full one, and gives 30 */
	for (int i = 0; i < 30; i++)
		sl = ss_recon_take_prior(s.recon, &ki);
	assert_int_equal(prior_of(&s, sl), 9);
	live = s.recon->prior_live;
	ki.src_api = 7; /* another kernel cache's slab 1: never mapped here */
	assert_int_equal(ss_recon_kslab_left(s.recon, &ki), 0);
	ki.src_api = 0;
	left = ss_recon_kslab_left(s.recon, &ki);
	assert_int_equal(left, 9);
	for (uint32_t i = 0; i < left; i++)
		assert_ptr_equal(ss_recon_take_prior(s.recon, &ki), sl);
	assert_int_equal(prior_of(&s, sl), 0);
	/* 94 node partial slabs with room: all 9 back, none unseen */
	assert_int_equal(ss_recon_prior_respread(s.recon, left), 9);
	assert_int_equal(s.recon->prior_live, live);
	assert_int_equal(s.recon->prior_freed_unseen, 0);
	assert_prior_consistent(&s);
	release(&s);
	ss_topology_release(&topo);
	ss_snap_release(&snap);

	/* every slab full: no room, the rest was freed unseen */
	snap_cache("full-k.txt", full, "dentry", &snap, &s, &t, &topo);
	ki.held = 21;
	for (int i = 0; i < 5; i++)
		sl = ss_recon_take_prior(s.recon, &ki);
	live = s.recon->prior_live;
	left = ss_recon_kslab_left(s.recon, &ki);
	assert_int_equal(left, 16);
	for (uint32_t i = 0; i < left; i++)
		assert_ptr_equal(ss_recon_take_prior(s.recon, &ki), sl);
	assert_int_equal(ss_recon_prior_respread(s.recon, left), 0);
	assert_int_equal(s.recon->prior_live, live - 16);
	assert_int_equal(s.recon->prior_freed_unseen, 16);
	assert_prior_consistent(&s);
	release(&s);
	ss_topology_release(&topo);
	ss_snap_release(&snap);
}

/* Counts per kernel slab: one per (cache, class, flags, slab); frees
 * without a slab and other events are not counted; the table grows. */
static void test_prior_counts(void **state)
{
	struct ss_prior_counts pc = {0};
	struct ss_event ev = {.kind = SS_EV_FREE_PRIOR, .api = SS_API_KMALLOC, .value = 96};
	(void)state;

	assert_int_equal(ss_prior_counts_get(NULL, &ev), 0);
	for (uint64_t k = 1; k <= 3000; k++) {
		ev.id = k;
		for (uint64_t i = 0; i < k % 7; i++)
			assert_int_equal(ss_prior_counts_add(&pc, &ev), 0);
	}
	ev.gfp = SS_GFP_RECLAIMABLE; /* kmalloc-rcl-96's slab 5: another slab */
	ev.id = 5;
	assert_int_equal(ss_prior_counts_add(&pc, &ev), 0);
	assert_int_equal(ss_prior_counts_get(&pc, &ev), 1);
	ev.gfp = 0;
	assert_int_equal(ss_prior_counts_get(&pc, &ev), 5);
	ev.id = 2998;
	assert_int_equal(ss_prior_counts_get(&pc, &ev), 2998 % 7);
	ev.id = 0; /* no slab: nothing counted */
	assert_int_equal(ss_prior_counts_add(&pc, &ev), 0);
	assert_int_equal(ss_prior_counts_get(&pc, &ev), 0);
	ev.id = 9;
	ev.kind = SS_EV_FREE;
	assert_int_equal(ss_prior_counts_get(&pc, &ev), 0);
	ev.kind = SS_EV_FREE_PRIOR;
	ev.value = 192;
	assert_int_equal(ss_prior_counts_get(&pc, &ev), 0);
	ss_prior_counts_release(&pc);
}

/* ss_prior_counts_about() of ev, as a value. */
static struct ss_kslab_info about(const struct ss_prior_counts *pc, const struct ss_event *ev)
{
	struct ss_kslab_info ki;

	ss_prior_counts_about(pc, ev, &ki);
	return ki;
}

/* Per cache: how many kernel slabs, what they held at least summed
 * (after finish), and the +1 only where some slab of the cache is seen
 * freed.  A vector's free right after another vector's free is another
 * slab's death, not the first vector's slab's: a vector's own slab has
 * no vector. */
static void test_prior_counts_caches(void **state)
{
	struct ss_prior_counts pc = {0};
	struct ss_event bh = {.kind = SS_EV_FREE_PRIOR, .api = 3, .cpu = 0};
	struct ss_event k192 = {.kind = SS_EV_FREE_PRIOR, .api = SS_API_KMALLOC, .value = 192};
	struct ss_event vec = {.kind = SS_EV_FREE_PRIOR, .api = SS_API_KMALLOC, .value = 512,
			       .cpu = 0, .id = 1};
	struct ss_kslab_info ki;
	(void)state;

	/* buffer_head slab 1 (id 2): two frees, then its vector's */
	bh.id = 2;
	for (int i = 0; i < 2; i++)
		assert_int_equal(ss_prior_counts_note(&pc, &bh, "free_buffer_head+0x21/0x80", 0), 0);
	assert_int_equal(ss_prior_counts_note(&pc, &vec, "__free_slab+0x87/0xf0", 0), 0);
	/* three vectors freed back to back, from kmalloc-512 slabs 1, 2, 3:
	 * none of those slabs is seen freed */
	for (uint64_t j = 2; j <= 4; j++) {
		vec.id = j;
		assert_int_equal(ss_prior_counts_note(&pc, &vec, "__free_slab+0x87/0xf0", 0), 0);
	}
	/* buffer_head slab 2 (id 3): one free, not seen freed */
	bh.id = 3;
	assert_int_equal(ss_prior_counts_note(&pc, &bh, "free_buffer_head+0x21/0x80", 0), 0);
	/* kmalloc-192: 4 kernel slabs, 1 + 2 + 3 + 4 frees, none seen freed */
	for (uint64_t j = 1; j <= 4; j++) {
		k192.id = j;
		for (uint64_t i = 0; i < j; i++)
			assert_int_equal(ss_prior_counts_note(&pc, &k192, "kfree+0x1/0x2", 0), 0);
	}
	assert_int_equal(ss_prior_counts_finish(&pc), 0);
	assert_int_equal(pc.deaths, 1);
	for (uint64_t j = 1; j <= 4; j++) {
		vec.id = j;
		assert_int_equal(ss_prior_counts_dead(&pc, &vec), 0);
		assert_int_equal(ss_prior_counts_held(&pc, &vec), 1); /* no death seen: no +1 */
	}
	assert_int_equal(about(&pc, &vec).cache_kslabs, 4);
	assert_int_equal(about(&pc, &vec).cache_held, 4);
	bh.id = 2;
	assert_int_equal(ss_prior_counts_held(&pc, &bh), 2); /* seen freed: exactly */
	bh.id = 3;
	assert_int_equal(ss_prior_counts_held(&pc, &bh), 2); /* its cache sees deaths: +1 */
	assert_int_equal(about(&pc, &bh).cache_kslabs, 2);
	assert_int_equal(about(&pc, &bh).cache_held, 4);
	k192.id = 3;
	assert_int_equal(ss_prior_counts_held(&pc, &k192), 3);
	assert_int_equal(about(&pc, &k192).cache_held, 10);
	assert_int_equal(about(&pc, &k192).cache_kslabs, 4);
	/* all of it at once, and how many held at least h: 4 4 3 2 1 */
	ss_prior_counts_about(&pc, &k192, &ki);
	assert_int_equal(ki.kslab, 3);
	assert_int_equal(ki.held, 3);
	assert_int_equal(ki.dead, 0);
	assert_int_equal(ki.cache_held, 10);
	assert_int_equal(ki.cache_kslabs, 4);
	assert_int_equal(ki.nr_by_held, 5);
	for (uint32_t h = 0; h < 5; h++)
		assert_int_equal(ki.by_held[h], h ? 5 - h : 4);
	bh.id = 2;
	ss_prior_counts_about(&pc, &bh, &ki); /* held 2 (dead) and 2 (+1): 2 2 2 */
	assert_int_equal(ki.dead, 2);
	assert_int_equal(ki.nr_by_held, 3);
	assert_int_equal(ki.by_held[2], 2);
	bh.id = 99; /* a kernel slab with no count: only its id */
	ss_prior_counts_about(&pc, &bh, &ki);
	assert_int_equal(ki.kslab, 99);
	assert_int_equal(ki.held, 0);
	assert_null(ki.by_held);
	ss_prior_counts_about(NULL, &bh, &ki);
	assert_int_equal(ki.kslab, 99);
	/* a kernel slab giving more than any slab holds counts at 65536 */
	k192.value = 96;
	k192.id = 1;
	for (uint32_t i = 0; i < 70000; i++)
		assert_int_equal(ss_prior_counts_add(&pc, &k192), 0);
	assert_int_equal(ss_prior_counts_finish(&pc), 0);
	ss_prior_counts_about(&pc, &k192, &ki);
	assert_int_equal(ki.held, 70000);
	assert_int_equal(ki.nr_by_held, 65537);
	assert_int_equal(ki.by_held[65536], 1);
	k192.value = 256; /* a cache with no prior frees */
	assert_int_equal(about(&pc, &k192).cache_held, 0);
	assert_int_equal(about(NULL, &k192).cache_kslabs, 0);
	ss_prior_counts_release(&pc);
}

/* 4 full slabs and 16 node partial ones 8 of 16 in use on average:
 * SLUB's figures (spread from 1 to 15: partial_spread.h).  The trace
 * frees every object, kernel slab by kernel slab: 16 kernel slabs giving
 * 3 and 13 in turn, then 4 giving 16.  Told what all of them held, each
 * maps onto a slab holding exactly what it gives (a partial slab reshaped
 * where none does) and its frees empty it, as the kernel's emptied K;
 * drawn without it, a kernel slab maps onto any slab holding at least what
 * it gives. */
static const char tight[] =
	"slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=1 aliases=0\n"
	"cache=kmalloc-512 name=kmalloc-512 aliases=0 align=8 cache_dma=0 cpu_partial=52 "
	"cpu_slabs=0 ctor= destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=512 "
	"objects=192,N0=192 objects_partial=128,N0=128 objs_per_slab=16 order=1 "
	"partial=16,N0=16 reclaim_account=0 sheaf_capacity=0 slab_size=512 slabs=20,N0=20 "
	"slabs_cpu_partial=0(0) total_objects=320,N0=320\n";

/* Kernel slab k's frees (in the order above); how many of them emptied the
 * one slab they all took from. */
static unsigned free_tight(struct ss_kcache *s, uint64_t held, uint32_t kslabs)
{
	unsigned emptied = 0;

	for (uint32_t k = 1; k <= 20; k++) {
		uint32_t n = k > 16 ? 16 : k % 2 ? 3 : 13;
		struct ss_slab *first = take(s, k, n, 0, held, kslabs);
		bool one = first != NULL;

		for (uint32_t i = 1; i < n; i++)
			one &= take(s, k, n, 0, held, kslabs) == first;
		emptied += one && !prior_of(s, first);
	}
	return emptied;
}

/* The tight cache's kernel slabs freed through SLUB's free path, as a
 * replay frees them: the slabs they empty are discarded, and no
 * descriptor of the initial state is handed out again -- not to a new
 * slab, and not to the slabs a later add_prior() packs another kernel
 * cache's objects into (a recycled one would sit at two indices of
 * prior_slabs[], and a draw from the stale one take an object from a
 * slab that is no longer the initial state's). */
static void test_prior_slabs_not_recycled(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_target t;
	struct ss_topology topo;
	struct ss_costs costs;
	struct ss_op op;
	struct ss_error err;
	struct ss_recon_report r;
	uint64_t slabs0;
	uint32_t had;
	(void)state;

	memset(&costs, 0, sizeof(costs));
	op = (struct ss_op){.cost = costs.cycles};
	snap_cache("tight2.txt", tight, "kmalloc-512", &snap, &s, &t, &topo);
	slabs0 = s.nr_slabs;
	for (uint32_t k = 1; k <= 20; k++) {
		uint32_t n = k > 16 ? 16 : k % 2 ? 3 : 13;
		struct ss_kslab_info ki = {.kslab = k, .held = n, .cache_held = 192,
					   .cache_kslabs = 20};

		for (uint32_t i = 0; i < n; i++) {
			struct ss_slab *sl = ss_recon_take_prior(s.recon, &ki);

			assert_non_null(sl);
			ss_kcache_free(&s, 0, sl, &op);
		}
	}
	assert_true(s.nr_slabs < slabs0); /* some were discarded */
	/* what the report says of them: 20 kernel slabs freed from, none
	 * said to hold a whole slab (no by_held), the snapshot's 16 partial
	 * ones not full, and the initial slabs discarded (no new one made) */
	ss_recon_cache_report(s.recon, &r);
	assert_int_equal(r.kslabs_freed_from, 20);
	assert_int_equal(r.kslabs_whole, 0);
	assert_int_equal(r.prior_slabs_not_full, 16);
	assert_int_equal(r.prior_slabs_freed, slabs0 - s.nr_slabs);
	had = s.recon->nr_prior_slabs;
	assert_int_equal(ss_recon_add_prior(s.recon, ss_snap_find(&snap, "kmalloc-512"), &err), 0);
	/* a second kernel cache's slabs: the kernel slabs' counts are not
	 * one cache's any more, and are not reported */
	ss_recon_cache_report(s.recon, &r);
	assert_int_equal(r.kslabs_freed_from, 0);
	assert_int_equal(r.kslabs_whole, 0);
	assert_int_equal(r.prior_slabs_not_full, 16); /* (the 192 added packed: 12 whole slabs) */
	assert_true(s.recon->nr_prior_slabs > had);
	for (uint32_t i = 0; i < s.recon->nr_prior_slabs; i++)
		for (uint32_t j = i + 1; j < s.recon->nr_prior_slabs; j++)
			assert_ptr_not_equal(s.recon->prior_slabs[i].sl, s.recon->prior_slabs[j].sl);
	for (int i = 0; i < 40; i++) {
		struct ss_slab *sl = ss_slab_new(&s, 0, &op);

		assert_non_null(sl);
		for (uint32_t j = 0; j < s.recon->nr_prior_slabs; j++)
			assert_ptr_not_equal(sl, s.recon->prior_slabs[j].sl);
	}
	release(&s);
	ss_topology_release(&topo);
	ss_snap_release(&snap);
}

/* 4 whole slabs and 4 node partial ones holding 10 of 16 on average (4,
 * 15, 12 and 9: partial_spread.h): kernel slabs giving 12, 12, 12, then
 * four giving 16.  Told that four of the cache's kernel slabs held a whole
 * slab, the ones giving 12 leave the whole slabs to them (a node partial
 * slab is reshaped to hold 12 where none does), and each of the four
 * empties a whole slab; not told, a kernel slab giving 12 may take a
 * whole one, and one giving 16 then splits over two. */
static const char wholes[] =
	"slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=1 aliases=0\n"
	"cache=kmalloc-256 name=kmalloc-256 aliases=0 align=8 cache_dma=0 cpu_partial=52 "
	"cpu_slabs=0 ctor= destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=256 "
	"objects=104,N0=104 objects_partial=40,N0=40 objs_per_slab=16 order=0 "
	"partial=4,N0=4 reclaim_account=0 sheaf_capacity=0 slab_size=256 slabs=8,N0=8 "
	"slabs_cpu_partial=0(0) total_objects=128,N0=128\n";

/* The seven kernel slabs' frees; how many of those giving 16 emptied the
 * one slab they all took from, and (*whole_taken) how many of those giving 12
 * took a slab that held a whole slab's worth. */
static unsigned free_wholes(struct ss_kcache *s, const uint32_t *by_held, uint32_t nr_by_held,
			    unsigned *whole_taken)
{
	unsigned emptied = 0;

	*whole_taken = 0;
	for (uint32_t k = 1; k <= 7; k++) {
		uint32_t n = k <= 3 ? 12 : 16;
		struct ss_kslab_info ki = {.kslab = k, .held = n, .cache_kslabs = 7,
					   .by_held = by_held, .nr_by_held = nr_by_held};
		struct ss_slab *first = ss_recon_take_prior(s->recon, &ki);
		bool one = first != NULL;

		assert_non_null(first);
		*whole_taken += n == 12 && prior_of(s, first) + 1 == first->objects;
		for (uint32_t i = 1; i < n; i++)
			one &= ss_recon_take_prior(s->recon, &ki) == first;
		emptied += n == 16 && one && !prior_of(s, first);
	}
	return emptied;
}

static void test_take_prior_whole(void **state)
{
	uint32_t by_held[17];
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_target t;
	struct ss_topology topo;
	(void)state;

	for (uint32_t h = 0; h <= 16; h++) /* at least h: seven up to 12, four past it */
		by_held[h] = h <= 12 ? 7 : 4;
	snap_cache("wholes.txt", wholes, "kmalloc-256", &snap, &s, &t, &topo);
	assert_int_equal(slub_objects(&s), 104);
	release(&s);
	ss_topology_release(&topo);
	/* Whatever the draws (each draw seed): told, no kernel slab giving 12
	 * takes a whole slab, and each giving 16 empties one; not told,
	 * nothing keeps them, and each whole slab one giving 12 took is one
	 * fewer for those giving 16 (the only slabs that hold 16), the rest
	 * of which split over two. */
	for (uint64_t seed = 0; seed < 8; seed++) {
		unsigned wholes_taken, emptied;

		start_seeded(&s, &t, &topo, ss_snap_find(&snap, "kmalloc-256"), seed);
		assert_int_equal(free_wholes(&s, by_held, 17, &wholes_taken), 4);
		assert_int_equal(wholes_taken, 0);
		release(&s);
		ss_topology_release(&topo);
		start_seeded(&s, &t, &topo, ss_snap_find(&snap, "kmalloc-256"), seed);
		emptied = free_wholes(&s, NULL, 0, &wholes_taken);
		assert_int_equal(emptied, 4 - wholes_taken);
		release(&s);
		ss_topology_release(&topo);
	}
	ss_snap_release(&snap);
}

static void test_take_prior_tight(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_target t;
	struct ss_topology topo;
	(void)state;

	snap_cache("tight.txt", tight, "kmalloc-512", &snap, &s, &t, &topo);
	assert_int_equal(slub_objects(&s), 192);
	assert_int_equal(free_tight(&s, 192, 20), 20);
	assert_int_equal(s.recon->prior_live, 0);
	release(&s);
	ss_topology_release(&topo);
	/* Not told what the cache's kernel slabs held, whatever the draws
	 * (each draw seed): a kernel slab giving 3 maps onto a slab that
	 * holds at least 3 (none is reshaped to hold exactly that), and its
	 * frees take from that one slab. */
	for (uint64_t seed = 0; seed < 8; seed++) {
		struct ss_slab *first;
		uint32_t had;

		start_seeded(&s, &t, &topo, ss_snap_find(&snap, "kmalloc-512"), seed);
		first = take(&s, 1, 3, 0, 0, 0);
		assert_non_null(first);
		had = prior_of(&s, first) + 1;
		assert_true(had >= 3);
		assert_ptr_equal(take(&s, 1, 3, 0, 0, 0), first);
		assert_ptr_equal(take(&s, 1, 3, 0, 0, 0), first);
		assert_int_equal(prior_of(&s, first), had - 3);
		release(&s);
		ss_topology_release(&topo);
	}
	ss_snap_release(&snap);
}

/* A fake model for the waste decomposition's checks. */
static struct ss_cache_report fake_cache;

static unsigned fake_nr(const struct ss_model *m)
{
	(void)m;
	return 1;
}

static void fake_report(const struct ss_model *m, unsigned i, struct ss_cache_report *r)
{
	(void)m;
	(void)i;
	*r = fake_cache;
}

static void fake_large(const struct ss_model *m, struct ss_large_report *r)
{
	(void)m;
	memset(r, 0, sizeof(*r));
}

static void test_totals_never_wrap(void **state)
{
	static const struct ss_model_ops ops = {.nr_caches = fake_nr,
						.cache_report = fake_report,
						.large_report = fake_large};
	const struct ss_model_desc desc = {.name = "fake", .ops = &ops};
	struct ss_target t = tu_target("x86_64-6.x");
	uint64_t stats[SS_NR_STEPS] = {0};
	struct ss_totals tot;
	(void)state;

	/* 10 objects of 184 bytes holding 192-byte requests: the merged
	 * dentry-into-filp case that once wrapped rounding_bytes */
	fake_cache = (struct ss_cache_report){
		.name = "filp", .object_size = 184, .slab_size = 192, .size_nodebug = 192,
		.live = 10, .requested_live = 1920, .nr_slabs = 1, .total_objects = 21,
		.slab_bytes = 4096, .stats = stats,
	};
	ss_totals_compute(&desc, NULL, &t, &tot);
	assert_string_equal(tot.negative, "rounding_bytes");
	assert_string_equal(tot.negative_cache, "filp");
	assert_int_equal(tot.rounding, 0);
	/* each other part on its own */
	fake_cache.requested_live = 1840;
	fake_cache.live = 22; /* more objects than slots */
	ss_totals_compute(&desc, NULL, &t, &tot);
	assert_string_equal(tot.negative, "free_slot_bytes");
	fake_cache.live = 10;
	fake_cache.total_objects = 30; /* more slots than the slab holds */
	ss_totals_compute(&desc, NULL, &t, &tot);
	assert_string_equal(tot.negative, "slab_tail_bytes");
	fake_cache.total_objects = 21;
	fake_cache.size_nodebug = 180; /* stride below the object */
	ss_totals_compute(&desc, NULL, &t, &tot);
	assert_string_equal(tot.negative, "align_bytes");
	fake_cache.size_nodebug = 192;
	fake_cache.slab_size = 190; /* debug stride below the plain one */
	ss_totals_compute(&desc, NULL, &t, &tot);
	assert_string_equal(tot.negative, "debug_bytes");
	fake_cache.slab_size = 192;
	ss_totals_compute(&desc, NULL, &t, &tot);
	assert_null(tot.negative);
	assert_int_equal(tot.rounding, 0);
	assert_int_equal(tot.free_slot, 11 * 192);
	assert_int_equal(tot.slab_tail, 4096 - 21 * 192);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_file),
		cmocka_unit_test(test_snapshot_slabinfo_and_sysfs),
		cmocka_unit_test(test_snapshot_counts_from_slabinfo),
		cmocka_unit_test(test_populate),
		cmocka_unit_test(test_populate_cpu_free),
		cmocka_unit_test(test_take_prior),
		cmocka_unit_test(test_draw_seed),
		cmocka_unit_test(test_take_prior_counted),
		cmocka_unit_test(test_take_prior_one_to_one),
		cmocka_unit_test(test_take_prior_two_kernel_caches),
		cmocka_unit_test(test_prior_counts),
		cmocka_unit_test(test_prior_counts_dead),
		cmocka_unit_test(test_prior_counts_slab_freed),
		cmocka_unit_test(test_kslab_freed),
		cmocka_unit_test(test_prior_counts_rcu_not_dead),
		cmocka_unit_test(test_prior_counts_caches),
		cmocka_unit_test(test_take_prior_tight),
		cmocka_unit_test(test_take_prior_whole),
		cmocka_unit_test(test_prior_slabs_not_recycled),
		cmocka_unit_test(test_take_prior_dead),
		cmocka_unit_test(test_totals_never_wrap),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
