/* test_slab_fill.c - the node partial and CPU slabs as the kernel listed
 * them (`slab-fill`, base/slabsnap_fill.c): the file read into a
 * snapshot's caches, a cache started with those fills in list order and
 * made to agree with the snapshot's counts (reconcile/slab_prior.c), and
 * prior frees of a listed kernel slab taken from that very slab when the
 * trace numbers kernel slabs by their place (import --slab-fill), those
 * beyond what it held dropped as objects allocated there unseen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "prior_counts.h"
#include "sheaf.h"
#include "sheaf_start.h"
#include "slab_prior.h"
#include "slabsnap.h"
#include "slub.h"
#include "test_util.h"
#include "topology.h"

/* 10 slabs of 4 objects: 6 full, 3 node partial (4 objects in use on
 * them, 8 free slots), 1 CPU slab */
static const char snapshot[] =
	"slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=1 aliases=0\n"
	"cache=foo name=foo aliases=0 align=8 cache_dma=0 cpu_partial=24 cpu_slabs=1,N0=1 ctor= "
	"destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=1024 objects=32,N0=32 "
	"objects_partial=4,N0=4 objs_per_slab=4 order=0 partial=3,N0=3 reclaim_account=0 "
	"sheaf_capacity=0 slab_size=1024 slabs=10,N0=10 slabs_cpu_partial=0(0) "
	"total_objects=40,N0=40\n";

static void load(struct ss_snap *snap)
{
	char path[TU_PATH_MAX];
	struct ss_error err;

	tu_path(path, sizeof(path), "slab-before.txt");
	tu_write_text(path, snapshot);
	if (ss_snap_load(snap, path, &err))
		fail_msg("%s", err.msg);
}

/* fill text into snap; 0 or -1 with err */
static int take_fill(struct ss_snap *snap, const char *text, uint64_t *hash, unsigned *skipped,
		     struct ss_error *err)
{
	char path[TU_PATH_MAX];

	tu_path(path, sizeof(path), "slab-fill-before.txt");
	tu_write_text(path, text);
	*skipped = 0;
	return ss_snap_take_fill(snap, path, hash, skipped, err);
}

/* the list head first: 1, 3 and 0 objects in use; "bar" is not in the
 * snapshot (skipped) */
static const char fill[] =
	"slabsim-slabfill 1 nodes=1\n"
	"cache=foo\n"
	"n 0 ffffea0000100000 ffff888004001400 1 4\n"
	"n 0 ffffea0000100040 ffff888004002c00 3 4\n"
	"n 0 ffffea0000100080 ffff888004003000 0 4\n"
	"cache=bar\n"
	"n 0 ffffea00001000c0 ffff888004004000 2 8\n";

static void test_fill_file(void **state)
{
	struct ss_snap snap;
	struct ss_error err;
	const struct ss_snap_cache *c;
	uint64_t h1, h2;
	unsigned skipped;
	(void)state;

	load(&snap);
	assert_int_equal(take_fill(&snap, fill, &h1, &skipped, &err), 0);
	assert_int_equal(skipped, 1);
	c = ss_snap_find(&snap, "foo");
	assert_int_equal(c->nr_fill, 3);
	assert_int_equal(c->nr_fill_node, 3);
	assert_false(c->fill_cpus);
	assert_int_equal(c->fill[0].inuse, 1);
	assert_int_equal(c->fill[1].inuse, 3);
	assert_int_equal(c->fill[2].inuse, 0);
	/* the slab's pages: its free object rounded down to the slab size */
	assert_true(c->fill[0].base == 0xffff888004001000ull);
	assert_true(c->fill[1].base == 0xffff888004002000ull);
	assert_true(c->fill[1].page == 0xffffea0000100040ull);
	ss_snap_release(&snap);

	/* the same text, the same hash; another one, another */
	load(&snap);
	assert_int_equal(take_fill(&snap, fill, &h2, &skipped, &err), 0);
	assert_true(h1 == h2);
	ss_snap_release(&snap);
	load(&snap);
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 1 nodes=1\ncache=foo\n"
					  "n 0 1 ffff888004001400 2 4\n", &h2, &skipped, &err), 0);
	assert_true(h1 != h2);
	ss_snap_release(&snap);

	/* errors name the file and line */
	load(&snap);
	assert_int_equal(take_fill(&snap, "slabsim-slab 1\n", &h1, &skipped, &err), -1);
	assert_non_null(strstr(err.msg, "slab-fill-before.txt:1: not a slab-fill file"));
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 1\ncache=foo\nn 0 1 2 3\n", &h1,
				   &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":3: expected 'n NODE SLAB FREE INUSE OBJECTS'"));
	ss_snap_release(&snap);
	load(&snap);
	/* another geometry than the snapshot's: another kernel's file */
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 1\ncache=foo\nn 0 1 2 3 8\n", &h1,
				   &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":3: cache foo: a slab of 8 objects"));
	ss_snap_release(&snap);
	load(&snap);
	/* a full slab is no partial one */
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 1\ncache=foo\nn 0 1 2 4 4\n", &h1,
				   &skipped, &err), -1);
	ss_snap_release(&snap);
	load(&snap);
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 1\nn 0 1 2 1 4\n", &h1, &skipped, &err),
			 -1);
	assert_non_null(strstr(err.msg, ":2: unexpected line"));
	ss_snap_release(&snap);
}

/* version 2: each CPU's active slab (its count, and the objects on the
 * CPU freelist) and CPU partial slabs after the node partial ones */
static const char fill_cpus[] =
	"slabsim-slabfill 2 nodes=1 cpus=2\n"
	"cache=foo\n"
	"n 0 ffffea0000100000 ffff888004001400 1 4\n"
	"n 0 ffffea0000100040 ffff888004002c00 3 4\n"
	"n 0 ffffea0000100080 ffff888004003000 0 4\n"
	"c 0 ffffea00001000c0 ffff888004004400 4 4 3\n"
	"p 0 ffffea0000100100 ffff888004005800 2 4\n"
	"c 1 ffffea0000100140 0 4 4 -\n";

static void test_fill_file_cpus(void **state)
{
	struct ss_snap snap;
	struct ss_error err;
	const struct ss_snap_cache *c;
	uint64_t h;
	unsigned skipped;
	(void)state;

	load(&snap);
	assert_int_equal(take_fill(&snap, fill_cpus, &h, &skipped, &err), 0);
	c = ss_snap_find(&snap, "foo");
	assert_true(c->fill_cpus);
	assert_int_equal(c->nr_fill, 6);
	assert_int_equal(c->nr_fill_node, 3);
	assert_int_equal(c->fill[3].kind, SS_FILL_CPU);
	assert_int_equal(c->fill[3].where, 0);
	assert_int_equal(c->fill[3].inuse, 4);
	assert_int_equal(c->fill[3].cpu_free, 3);
	assert_true(c->fill[3].base == 0xffff888004004000ull);
	assert_int_equal(c->fill[4].kind, SS_FILL_CPU_PARTIAL);
	assert_int_equal(c->fill[4].inuse, 2);
	/* a walk that failed: unknown; no free object: no pages known */
	assert_int_equal(c->fill[5].where, 1);
	assert_int_equal(c->fill[5].cpu_free, SS_SNAP_FREE_UNKNOWN);
	assert_true(c->fill[5].base == 0);
	ss_snap_release(&snap);

	load(&snap);
	/* no CPU slab in a version 1 file */
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 1\ncache=foo\nc 0 1 2 4 4 3\n", &h,
				   &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":3: a CPU slab in a version 1 file"));
	/* node partial slabs first: the ids number them before the CPUs' */
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 2\ncache=foo\np 0 1 2 1 4\n"
					  "n 0 3 4 1 4\n", &h, &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":4: cache foo: a node partial slab after a CPU slab"));
	ss_snap_release(&snap);
	load(&snap);
	/* more on the CPU freelist than the slab counts in use */
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 2\ncache=foo\nc 0 1 2 2 4 3\n", &h,
				   &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":3: cache foo: a slab of 4 objects with 2 in use"));
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 2\ncache=foo\nc 0 1 2 2 4\n", &h,
				   &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":3: expected 'c CPU SLAB FREE INUSE OBJECTS CPUFREE'"));
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 2\ncache=foo\nc 0 1 2 2 4 1 x\n", &h,
				   &skipped, &err), -1);
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 5\n", &h, &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":1: not a slab-fill file"));
	ss_snap_release(&snap);
}

/* version 4: a cache's sheaves per CPU (main, spare, rcu_free; '-' none)
 * and its barn per node (full and empty sheaves, the objects in the full
 * ones; '-' not read), and what they hold; a count above the capacity, a
 * CPU listed twice, a sheaves line before version 4, are errors */
static void test_fill_file_sheaves(void **state)
{
	static const char snap4[] =
		"slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=1 aliases=0\n"
		"cache=maple_node name=maple_node aliases=0 align=256 object_size=256 "
		"objects=1000 objs_per_slab=16 order=0 sheaf_capacity=32 slab_size=256 "
		"slabs=70 total_objects=1120\n";
	struct ss_snap snap;
	struct ss_error err;
	const struct ss_snap_cache *c;
	char path[TU_PATH_MAX];
	uint64_t h;
	unsigned skipped;
	bool unknown;
	(void)state;

	tu_path(path, sizeof(path), "slab-before-4.txt");
	tu_write_text(path, snap4);
	assert_int_equal(ss_snap_load(&snap, path, &err), 0);
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 4 nodes=1 cpus=2\ncache=maple_node\n"
					  "b 0 5 0 160\ns 0 17 28 6\ns 1 8 - -\n",
				   &h, &skipped, &err), 0);
	c = ss_snap_find(&snap, "maple_node");
	assert_true(c->have_sheaves);
	assert_true(c->pcs[0].listed && c->pcs[1].listed);
	assert_int_equal(c->pcs[0].spare, 28);
	assert_int_equal(c->pcs[1].spare, SS_SNAP_NO_SHEAF);
	assert_int_equal(c->barns[0].full, 5);
	assert_int_equal(ss_snap_sheaf_objects(c, &unknown), 160 + 17 + 28 + 6 + 8);
	assert_false(unknown);
	ss_snap_release(&snap);
	assert_int_equal(ss_snap_load(&snap, path, &err), 0);
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 4\ncache=maple_node\nb 0 5 2 -\n",
				   &h, &skipped, &err), 0);
	c = ss_snap_find(&snap, "maple_node");
	assert_int_equal(ss_snap_sheaf_objects(c, &unknown), 0);
	assert_true(unknown);
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 4\ncache=maple_node\ns 0 33 0 0\n",
				   &h, &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":3: cache maple_node: a sheaf of 33 objects, above its capacity 32"));
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 4\ncache=maple_node\nb 0 1 0 33\n",
				   &h, &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":3: cache maple_node: 33 objects in 1 full sheaves of 32"));
	ss_snap_release(&snap);
	assert_int_equal(ss_snap_load(&snap, path, &err), 0);
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 4\ncache=maple_node\ns 0 1 2 3\n"
					  "s 0 1 2 3\n", &h, &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":4: cache maple_node: CPU 0 listed twice"));
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 3\ncache=maple_node\ns 0 1 2 3\n",
				   &h, &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":3: a sheaves line in a version 3 file"));
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 4\ncache=maple_node\ns 0 1 2\n",
				   &h, &skipped, &err), -1);
	assert_non_null(strstr(err.msg, ":3: expected 's CPU MAIN SPARE RCU"));
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 4\ncache=maple_node\nb 0 - 0 0\n",
				   &h, &skipped, &err), -1);
	ss_snap_release(&snap);
}

/* A real 7.2 kernel's read (a Debian 7.2.13 guest of the kernel lab, 2
 * CPUs, tests/data/slab/lab-7.2/README.md) against the same boot's
 * snapshot: no CPU slab (7.0 has none), a sheaves line per CPU and a barn
 * line for every cache with a capacity, none for kmem_cache
 * (SLAB_NO_SHEAVES). */
static void test_fill_file_72(void **state)
{
	struct ss_snap snap;
	struct ss_error err;
	char snapf[TU_PATH_MAX], fillf[TU_PATH_MAX];
	uint64_t h;
	unsigned skipped = 0, with = 0;
	bool unknown;
	(void)state;

	tu_data_path("slab", "lab-7.2/slabfill-2cpu/slab-before.txt", snapf, sizeof(snapf));
	tu_data_path("slab", "lab-7.2/slabfill-2cpu/slab-fill.txt", fillf, sizeof(fillf));
	assert_int_equal(ss_snap_load(&snap, snapf, &err), 0);
	assert_int_equal(ss_snap_take_fill(&snap, fillf, &h, &skipped, &err), 0);
	for (unsigned i = 0; i < snap.nr; i++) {
		const struct ss_snap_cache *c = &snap.caches[i];

		for (unsigned k = 0; k < c->nr_fill; k++)
			assert_int_equal(c->fill[k].kind, SS_FILL_NODE);
		assert_int_equal(c->have_sheaves, c->sheaf_capacity > 0);
		if (!c->sheaf_capacity)
			continue;
		with++;
		assert_true(c->nr_pcs >= 2 && c->pcs[0].listed && c->pcs[1].listed);
		assert_true(c->nr_barns >= 1 && c->barns[0].listed);
		(void)ss_snap_sheaf_objects(c, &unknown);
		assert_false(unknown);
	}
	assert_int_equal(with, 191);
	assert_int_equal(ss_snap_find(&snap, "kmem_cache")->sheaf_capacity, 0);
	/* maple_node: a full barn of 10 after boot, and the rcu_free sheaves */
	assert_int_equal(ss_snap_find(&snap, "maple_node")->barns[0].full, 10);
	assert_int_equal(ss_snap_sheaf_objects(ss_snap_find(&snap, "maple_node"), &unknown),
			 320 + 4 + 31 + 16 + 24);
	ss_snap_release(&snap);
}

/* version 3: each listed slab's free objects, a hex digit per four
 * (bit 0 the lowest): known when they agree with the line's counts (a
 * partial slab: objects - inuse of them; an active slab: its CPU
 * freelist's and maybe more), "-" not known; a field of the wrong length
 * or a digit that is not hex is an error. */
static void test_fill_file_free_bits(void **state)
{
	static const char v3[] =
		"slabsim-slabfill 3 nodes=1 cpus=2\n"
		"cache=foo\n"
		"n 0 ffffea0000100000 ffff888004001400 1 4 e\n"	/* objects 1-3 free */
		"n 0 ffffea0000100040 ffff888004002c00 3 4 3\n"	/* 2 free: not 4 - 3 */
		"n 0 ffffea0000100080 ffff888004003000 0 4 -\n"
		"c 0 ffffea00001000c0 ffff888004004400 4 4 3 b\n"	/* 3 on the CPU's, 3 free */
		"p 0 ffffea0000100100 ffff888004005800 2 4 5\n"
		"c 1 ffffea0000100140 0 4 4 - 0\n";
	static const struct {
		const char *line, *msg;
	} bad[] = {
		{"n 0 1 2 1 4 ee\n", ":3: expected 'n NODE SLAB FREE INUSE OBJECTS FREEBITS'"},
		{"n 0 1 2 1 4 g\n", ":3: expected 'n NODE"},
		{"n 0 1 2 1 4\n", ":3: expected 'n NODE"},
		{"c 0 1 2 4 4 3\n", ":3: expected 'c CPU SLAB FREE INUSE OBJECTS CPUFREE FREEBITS'"},
		{"n 0 1 2 1 4 e x\n", ":3: expected 'n NODE"},
	};
	struct ss_snap snap;
	struct ss_error err;
	const struct ss_snap_cache *c;
	char text[256];
	uint64_t h;
	unsigned skipped;
	(void)state;

	load(&snap);
	if (take_fill(&snap, v3, &h, &skipped, &err))
		fail_msg("%s", err.msg);
	c = ss_snap_find(&snap, "foo");
	assert_int_equal(c->nr_fill, 6);
	assert_true(c->fill[0].free_known);
	assert_true(c->fill[0].free_bits[0] == 0xe);
	assert_false(c->fill[1].free_known);
	assert_false(c->fill[2].free_known);
	assert_true(c->fill[3].free_known);
	assert_true(c->fill[3].free_bits[0] == 0xb);
	assert_int_equal(c->fill[3].cpu_free, 3);
	assert_true(c->fill[4].free_known);
	assert_true(c->fill[4].free_bits[0] == 0x5);
	/* an active slab with nothing free */
	assert_true(c->fill[5].free_known);
	assert_true(c->fill[5].free_bits[0] == 0);
	ss_snap_release(&snap);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		load(&snap);
		snprintf(text, sizeof(text), "slabsim-slabfill 3\ncache=foo\n%s", bad[i].line);
		assert_int_equal(take_fill(&snap, text, &h, &skipped, &err), -1);
		if (!strstr(err.msg, bad[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, bad[i].msg);
		ss_snap_release(&snap);
	}
	/* bits that disagree with the counts (a list read unlocked): not
	 * known, and no error */
	load(&snap);
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 3\ncache=foo\nn 0 1 2 1 4 8\n", &h,
				   &skipped, &err), 0);
	assert_false(ss_snap_find(&snap, "foo")->fill[0].free_known);
	ss_snap_release(&snap);
}

static void start(struct ss_kcache *s, struct ss_topology *topo, const struct ss_snap_cache *c)
{
	struct ss_error err;
	struct ss_cache_spec spec = {.object_size = c->object_size};
	static struct ss_target t;

	ss_target_defaults(&t);
	t.cpus = 2;
	if (ss_topology_flat(topo, 2, 1, &err) || ss_kcache_init(s, c->name, &spec, &t, topo, &err))
		fail_msg("%s", err.msg);
	if (!ss_recon_cache_new(s, 0))
		fail_msg("out of memory");
	if (ss_recon_take_geometry(s->recon, c, &err) || ss_recon_populate(s->recon, c, &err))
		fail_msg("%s", err.msg);
	assert_true(s->recon->from_snapshot);
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

/* the node partial list's fills, head first, into got (at most n); how many */
static unsigned node_fills(const struct ss_kcache *s, uint32_t *got, unsigned n)
{
	unsigned k = 0;

	for (struct ss_link *l = s->node[0].partial.head; l && k < n; l = l->next)
		got[k++] = ss_slab_of(l)->inuse;
	return k;
}

static uint64_t slub_objects(const struct ss_kcache *s)
{
	struct ss_cache_report r;

	ss_kcache_report(s, &r);
	return r.total_objects - r.node_partial_free;
}

/* The snapshot with fill `text` taken, and its cache started from both. */
static void start_filled(const char *text, struct ss_snap *snap, struct ss_kcache *s,
			 struct ss_topology *topo)
{
	struct ss_error err;
	uint64_t h;
	unsigned skipped;

	load(snap);
	assert_int_equal(take_fill(snap, text, &h, &skipped, &err), 0);
	start(s, topo, ss_snap_find(snap, "foo"));
}

static void stop(struct ss_kcache *s, struct ss_topology *topo, struct ss_snap *snap)
{
	release(s);
	ss_topology_release(topo);
	ss_snap_release(snap);
}

/* the node partial list's first three fills are a, b, c; n on it */
static void assert_fills(const struct ss_kcache *s, unsigned n, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t got[8];

	assert_int_equal(node_fills(s, got, 8), n);
	assert_int_equal(got[0], a);
	assert_int_equal(got[1], b);
	assert_int_equal(got[2], c);
}

/* The sheaves' environment: no sheaf may be kmalloc'ed for a cache that
 * starts as the kernel's (its sheaves are among the snapshot's objects). */
static int no_kmalloc(void *ctx, uint64_t bytes, const char *site, unsigned cpu,
		      struct ss_iobj *out, struct ss_op *op)
{
	(void)ctx, (void)bytes, (void)site, (void)cpu, (void)out, (void)op;
	fail_msg("a sheaf kmalloc'ed for a kernel cache");
	return -1;
}

/* Version 4's sheaves and barn at the start (reconcile/sheaf_start.c):
 * their objects leave the initial objects (the prior frees' pool) for the
 * model's sheaves -- CPU 0's main 3 and spare 2, CPU 1's main 1 (no
 * spare) and its rcu_free sheaf's 2 as a barn sheaf, the barn's 2 full
 * sheaves of 4 and 1 empty -- and SLUB's `objects` stays the kernel's. */
static void test_start_sheaves(void **state)
{
	static const char snap4[] =
		"slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=1 aliases=0\n"
		"cache=foo name=foo aliases=0 align=8 cpu_partial=24 cpu_slabs=1,N0=1 "
		"min_partial=5 object_size=1024 objects=32,N0=32 objects_partial=4,N0=4 "
		"objs_per_slab=4 order=0 partial=3,N0=3 sheaf_capacity=4 slab_size=1024 "
		"slabs=10,N0=10 slabs_cpu_partial=0(0) total_objects=40,N0=40\n";
	struct ss_backend_env env = {.kmalloc = no_kmalloc};
	struct ss_sheaves_state st;
	struct ss_error err;
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_topology topo;
	char path[TU_PATH_MAX];
	uint64_t h, prior, requested;
	unsigned skipped;
	(void)state;

	tu_path(path, sizeof(path), "slab-before-4.txt");
	tu_write_text(path, snap4);
	assert_int_equal(ss_snap_load(&snap, path, &err), 0);
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 4 nodes=1 cpus=2\ncache=foo\n"
					  "b 0 2 1 8\ns 0 3 2 -\ns 1 1 - 2\n", &h, &skipped, &err), 0);
	start(&s, &topo, ss_snap_find(&snap, "foo"));
	assert_non_null(s.sheaves = ss_sheaves_create(&s, 4, &env));
	prior = s.recon->prior_live;
	requested = s.requested_live;
	assert_int_equal(ss_recon_start_sheaves(s.recon, ss_snap_find(&snap, "foo")), 3 + 2 + 1 + 2 + 8);
	assert_int_equal(s.recon->prior_sheaves, 16);
	assert_int_equal(s.recon->prior_live, prior - 16);
	assert_int_equal(s.requested_live, requested - 16 * 1024);
	assert_int_equal(ss_sheaves_parked(s.sheaves), 16);
	assert_int_equal(slub_objects(&s), 32); /* allocated from the slabs all the same */
	ss_sheaves_state(s.sheaves, 0, &st);
	assert_int_equal(st.main, 3);
	assert_int_equal(st.spare, 2);
	assert_int_equal(st.barn_full, 3); /* the two full ones and CPU 1's rcu_free */
	assert_int_equal(st.barn_objects, 10);
	assert_int_equal(st.barn_empty, 1);
	ss_sheaves_state(s.sheaves, 1, &st);
	assert_int_equal(st.main, 1);
	assert_int_equal(st.spare, -1);
	ss_sheaves_destroy(s.sheaves);
	stop(&s, &topo, &snap);
	/* a read a moment apart from the counts may hold more than the
	 * initial objects: what they run out for starts empty (the barn's
	 * empty list), never a "full" sheaf of nothing */
	assert_int_equal(ss_snap_load(&snap, path, &err), 0);
	assert_int_equal(take_fill(&snap, "slabsim-slabfill 4 nodes=1 cpus=2\ncache=foo\n"
					  "b 0 10 0 40\n", &h, &skipped, &err), 0);
	start(&s, &topo, ss_snap_find(&snap, "foo"));
	assert_non_null(s.sheaves = ss_sheaves_create(&s, 4, &env));
	assert_int_equal(ss_recon_start_sheaves(s.recon, ss_snap_find(&snap, "foo")), 32);
	assert_int_equal(s.recon->prior_live, 0);
	ss_sheaves_state(s.sheaves, 0, &st);
	assert_int_equal(st.barn_full, 8);
	assert_int_equal(st.barn_objects, 32);
	assert_int_equal(st.barn_empty, 2);
	ss_sheaves_destroy(s.sheaves);
	stop(&s, &topo, &snap);
	/* without the read (version 3), nothing moves */
	load(&snap);
	start(&s, &topo, ss_snap_find(&snap, "foo"));
	assert_non_null(s.sheaves = ss_sheaves_create(&s, 4, &env));
	assert_int_equal(ss_recon_start_sheaves(s.recon, ss_snap_find(&snap, "foo")), 0);
	ss_sheaves_destroy(s.sheaves);
	stop(&s, &topo, &snap);
}

static void test_populate_measured(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_topology topo;
	uint32_t got[8];
	(void)state;

	/* without the fill: a spread of 4 objects over 3 slabs */
	load(&snap);
	start(&s, &topo, ss_snap_find(&snap, "foo"));
	assert_int_equal(node_fills(&s, got, 8), 3);
	assert_false(got[0] == 1 && got[1] == 3 && got[2] == 0);
	stop(&s, &topo, &snap);

	/* with it: the kernel's fills in the kernel's order, the same counts */
	start_filled(fill, &snap, &s, &topo);
	assert_fills(&s, 3, 1, 3, 0);
	assert_int_equal(s.nr_slabs, 10);
	assert_int_equal(slub_objects(&s), 32);
	assert_int_equal(s.recon->fill_moved, 0);
	stop(&s, &topo, &snap);

	/* read a moment apart, four listed where the counts have 8 free slots
	 * and the file 12: 4 objects allocated in between, from the head --
	 * its first slab filled up and left the list (a full slab now, still
	 * the first listed), its second filled by 2 */
	start_filled("slabsim-slabfill 1\ncache=foo\n"
		     "n 0 1 ffff888004001400 2 4\n"
		     "n 0 2 ffff888004002c00 1 4\n"
		     "n 0 3 ffff888004003000 0 4\n"
		     "n 0 4 ffff888004005000 1 4\n", &snap, &s, &topo);
	assert_fills(&s, 3, 3, 0, 1);
	assert_int_equal(s.recon->prior_slabs[s.recon->fill_slab[0]].sl->inuse, 4);
	assert_int_equal(s.recon->prior_slabs[s.recon->fill_slab[0]].sl->where, SS_SLAB_NONE);
	assert_int_equal(s.recon->fill_moved, 4);
	assert_int_equal(s.nr_slabs, 10);
	assert_int_equal(slub_objects(&s), 32);
	stop(&s, &topo, &snap);

	/* fewer in use at the count than listed: frees, one object a slab
	 * from the tail on */
	start_filled("slabsim-slabfill 1\ncache=foo\n"
		     "n 0 1 ffff888004001400 2 4\n"
		     "n 0 2 ffff888004002c00 3 4\n"
		     "n 0 3 ffff888004003000 1 4\n", &snap, &s, &topo);
	assert_fills(&s, 3, 2, 2, 0);
	assert_int_equal(s.recon->fill_moved, 2);
	assert_int_equal(slub_objects(&s), 32);
	stop(&s, &topo, &snap);

	/* more slabs listed than the snapshot has outside the CPUs: read too
	 * far apart to agree, the spread as without the file */
	{
		char text[1024] = "slabsim-slabfill 1\ncache=foo\n";

		for (unsigned i = 0; i < 10; i++)
			snprintf(text + strlen(text), sizeof(text) - strlen(text),
				 "n 0 %x ffff8880040%02x400 1 4\n", i + 1, i + 1);
		start_filled(text, &snap, &s, &topo);
	}
	assert_int_equal(s.recon->nr_fill_slab, 0);
	assert_int_equal(node_fills(&s, got, 8), 3);
	assert_int_equal(slub_objects(&s), 32);
	stop(&s, &topo, &snap);
}

static struct ss_slab *take(struct ss_kcache *s, uint32_t kslab)
{
	struct ss_kslab_info ki = {.kslab = kslab, .held = 1};

	return ss_recon_take_prior(s->recon, &ki);
}

/* Cache foo started from fill file text, the trace numbering its kernel
 * slabs by their place (import --slab-fill): its snapshot entry. */
static struct ss_snap_cache *start_numbered(const char *text, struct ss_snap *snap,
					    struct ss_kcache *s, struct ss_topology *topo)
{
	struct ss_error err;
	struct ss_snap_cache *c;
	uint64_t h;
	unsigned skipped;

	load(snap);
	assert_int_equal(take_fill(snap, text, &h, &skipped, &err), 0);
	c = (struct ss_snap_cache *)ss_snap_find(snap, "foo");
	c->fill_ids = true;
	start(s, topo, c);
	return c;
}

/* Kernel slab K (1..3) is the K-th listed slab when the trace numbers
 * them so: its frees take from that slab, and none else is drawn onto
 * it; a kernel slab after the list's length (full, or a CPU's) is drawn
 * from the others. */
static void test_take_listed(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_topology topo;
	struct ss_snap_cache *c;
	struct ss_slab *listed[3];
	(void)state;

	c = start_numbered(fill, &snap, &s, &topo);
	for (unsigned i = 0; i < 3; i++)
		listed[i] = s.recon->prior_slabs[s.recon->fill_slab[i]].sl;
	assert_ptr_equal(take(&s, 2), listed[1]);
	assert_int_equal(prior_of(&s, listed[1]), 2);
	assert_ptr_equal(take(&s, 1), listed[0]);
	assert_int_equal(prior_of(&s, listed[0]), 0); /* the kernel's emptied it too */
	assert_ptr_equal(take(&s, 2), listed[1]);
	/* K 1 held 1 object when listed: a second free of it is of an
	 * object allocated there with no event -- dropped, and counted as
	 * that, not as a missing one, nor taken from another slab */
	assert_null(take(&s, 1));
	assert_int_equal(s.recon->prior_listed_unseen, 1);
	assert_int_equal(s.recon->prior_missing, 0);
	assert_int_equal(s.recon->kslabs_listed, 2);
	/* not listed: never one of the listed slabs */
	for (unsigned k = 4; k < 12; k++) {
		struct ss_slab *sl = take(&s, k);

		assert_non_null(sl);
		assert_true(sl != listed[0] && sl != listed[1] && sl != listed[2]);
	}
	release(&s);
	ss_topology_release(&topo);

	/* a trace not numbered so (fill_ids false): K 1 is drawn, and may be
	 * any slab holding an object */
	c->fill_ids = false;
	start(&s, &topo, c);
	assert_int_equal(s.recon->fill_ids, false);
	assert_non_null(take(&s, 1));
	release(&s);
	ss_topology_release(&topo);
	ss_snap_release(&snap);
}

/* A listed slab that gave more than it held (objects allocated there
 * with no event) and that the trace does not see die outlived its
 * frees: one of its objects is kept for the unseen ones, so the replay
 * does not empty it.  Seen dead, or giving no more than it held, the
 * frees take what it held, as before. */
static void test_take_listed_outlived(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_topology topo;
	struct ss_snap_cache *c;
	struct ss_slab *k1, *k2;
	/* K 1 held 1 when listed, K 2 held 3 (test_take_listed) */
	struct ss_kslab_info out1 = {.kslab = 1, .frees = 2, .held = 3, .outlived = true};
	struct ss_kslab_info dead1 = {.kslab = 1, .frees = 2, .held = 2, .dead = 2};
	struct ss_kslab_info out2 = {.kslab = 2, .frees = 3, .held = 4, .outlived = true};
	(void)state;

	c = start_numbered(fill, &snap, &s, &topo);
	k1 = s.recon->prior_slabs[s.recon->fill_slab[0]].sl;
	k2 = s.recon->prior_slabs[s.recon->fill_slab[1]].sl;
	/* outlived, 2 frees of 1 held: both dropped, the object kept */
	assert_null(ss_recon_take_prior(s.recon, &out1));
	assert_null(ss_recon_take_prior(s.recon, &out1));
	assert_int_equal(prior_of(&s, k1), 1);
	assert_int_equal(s.recon->prior_listed_unseen, 2);
	/* outlived, but no more frees than it held: all three taken */
	for (unsigned i = 0; i < 3; i++)
		assert_ptr_equal(ss_recon_take_prior(s.recon, &out2), k2);
	assert_int_equal(prior_of(&s, k2), 0);
	release(&s);
	ss_topology_release(&topo);
	/* seen dead: its one object taken, the second free dropped */
	start(&s, &topo, c);
	k1 = s.recon->prior_slabs[s.recon->fill_slab[0]].sl;
	assert_ptr_equal(ss_recon_take_prior(s.recon, &dead1), k1);
	assert_null(ss_recon_take_prior(s.recon, &dead1));
	assert_int_equal(prior_of(&s, k1), 0);
	assert_int_equal(s.recon->prior_listed_unseen, 1);
	release(&s);
	ss_topology_release(&topo);
	ss_snap_release(&snap);
}

/* K 2 (3 objects when listed, on the node partial list) freed empty: a
 * kernel slab that outlived the capture keeps its replica, emptied on
 * the partial list; one that did not is discarded as SLUB discards it. */
static void free_k2(bool outlived, uint64_t *slabs_before, uint64_t *slabs_after)
{
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_topology topo;
	struct ss_costs costs;
	struct ss_op op;
	struct ss_kslab_info k2 = {.kslab = 2, .frees = 3, .held = 3 + outlived,
				   .outlived = outlived};

	memset(&costs, 0, sizeof(costs));
	op = (struct ss_op){.cost = costs.cycles};
	start_numbered(fill, &snap, &s, &topo);
	s.geo.min_partial = 0; /* (foo's 3 node partial slabs are below its own) */
	*slabs_before = s.nr_slabs;
	for (unsigned i = 0; i < 3; i++) {
		struct ss_slab *sl = ss_recon_take_prior(s.recon, &k2);

		assert_non_null(sl);
		ss_kcache_free(&s, 0, sl, &op);
	}
	*slabs_after = s.nr_slabs;
	stop(&s, &topo, &snap);
}

static void test_outlived_not_discarded(void **state)
{
	uint64_t before, after;
	(void)state;

	free_k2(false, &before, &after);
	assert_int_equal(after, before - 1);
	free_k2(true, &before, &after);
	assert_int_equal(after, before);
}

/* The CPU slabs as listed: CPU 0's active slab counts 4 in use of which 3
 * are on its freelist (one object held), its partial slab 2; CPU 1's
 * walk failed (SLUB's half estimate for its freelist).  The full slabs
 * are what the listed ones leave (10 - 3 - 3), the counts the
 * snapshot's; kernel slab 4 (the first CPU one) is CPU 0's active slab,
 * holding one object: a second free of it is dropped as unseen. */
static void test_populate_cpus(void **state)
{
	struct ss_snap snap;
	struct ss_kcache s;
	struct ss_topology topo;
	struct ss_slab *a0, *a1;
	(void)state;

	start_filled(fill_cpus, &snap, &s, &topo);
	a0 = s.cpu[0].slab;
	a1 = s.cpu[1].slab;
	assert_non_null(a0);
	assert_non_null(a1);
	assert_int_equal(a0->inuse, 4);
	assert_int_equal(a0->cpu_free, 3);
	assert_int_equal(prior_of(&s, a0), 1);
	assert_int_equal(a1->cpu_free, 2);
	assert_int_equal(s.cpu[0].partial.nr, 1);
	assert_int_equal(ss_slab_of(s.cpu[0].partial.head)->inuse, 2);
	assert_int_equal(s.cpu[1].partial.nr, 0);
	assert_int_equal(s.recon->cpu_slabs_listed, 3);
	assert_int_equal(s.nr_slabs, 10);
	assert_int_equal(slub_objects(&s), 32);
	assert_int_equal(s.recon->prior_cpu_free_meas, 3 + 2);
	assert_int_equal(s.recon->prior_cpu_free_est, 2);
	stop(&s, &topo, &snap);

	start_numbered(fill_cpus, &snap, &s, &topo);
	assert_ptr_equal(take(&s, 4), s.cpu[0].slab);
	assert_null(take(&s, 4));
	assert_int_equal(s.recon->prior_listed_unseen, 1);
	assert_ptr_equal(take(&s, 5), ss_slab_of(s.cpu[0].partial.head));
	stop(&s, &topo, &snap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_file),
		cmocka_unit_test(test_fill_file_cpus),
		cmocka_unit_test(test_fill_file_free_bits),
		cmocka_unit_test(test_fill_file_sheaves),
		cmocka_unit_test(test_fill_file_72),
		cmocka_unit_test(test_populate_cpus),
		cmocka_unit_test(test_populate_measured),
		cmocka_unit_test(test_start_sheaves),
		cmocka_unit_test(test_take_listed),
		cmocka_unit_test(test_take_listed_outlived),
		cmocka_unit_test(test_outlived_not_discarded),
	};

	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
