/* test_topology.c - topologies from hwloc (synthetic, XML), the trace-CPU
 * maps, the zonelists, and SLUB's per-node state on a 2-node machine
 * (counts worked out by hand from mm/slub.c in the comments). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "slub.h"
#include "target.h"
#include "topology.h"

static void load(struct ss_topology *t, const char *spec)
{
	struct ss_error err = {{0}};

	if (ss_topology_load(t, spec, &err))
		fail_msg("%s: %s", spec, err.msg);
}

static void set_map(struct ss_topology *t, enum ss_cpu_map m)
{
	struct ss_error err = {{0}};

	assert_int_equal(ss_topology_set_map(t, m, &err), 0);
}

/* 8 CPUs on 2 nodes: blocks of 4; scatter alternates nodes. */
static void test_flat(void **state)
{
	static const uint16_t scatter[8] = {0, 4, 1, 5, 2, 6, 3, 7};
	struct ss_topology t;
	struct ss_error err;
	(void)state;

	assert_int_equal(ss_topology_flat(&t, 8, 2, &err), 0);
	assert_int_equal(t.nr_cpus, 8);
	assert_int_equal(t.nr_nodes, 2);
	assert_int_equal(t.cpu_node[3], 0);
	assert_int_equal(t.cpu_node[4], 1);
	assert_int_equal(t.nr_map, 8);
	for (unsigned c = 0; c < 8; c++)
		assert_int_equal(t.cpu_map[c], c);
	set_map(&t, SS_MAP_SCATTER);
	for (unsigned c = 0; c < 8; c++)
		assert_int_equal(t.cpu_map[c], scatter[c]);
	assert_string_equal(t.desc, "flat: 2 packages, 2 NUMA nodes, 8 cores, 8 PUs; map scatter");
	ss_topology_release(&t);
	assert_int_equal(ss_topology_flat(&t, 2, 3, &err), -1);
	assert_non_null(strstr(err.msg, "2 PUs on 3 NUMA nodes"));
}

/* The example: 2 packages x 2 nodes x 16 cores x 2 threads. */
static void test_synthetic_sizes_and_zonelists(void **state)
{
	struct ss_topology t;
	const uint16_t *z;
	(void)state;

	load(&t, "synth:\"pack:2 numa:2 core:16 pu:2\"");
	assert_int_equal(t.nr_packages, 2);
	assert_int_equal(t.nr_nodes, 4);
	assert_int_equal(t.nr_cores, 64);
	assert_int_equal(t.nr_cpus, 128);
	/* 32 PUs per node, in order */
	assert_int_equal(t.cpu_node[31], 0);
	assert_int_equal(t.cpu_node[32], 1);
	assert_int_equal(t.cpu_node[127], 3);
	assert_int_equal(t.cpu_package[63], 0);
	assert_int_equal(t.cpu_package[64], 1);
	/* the other node of the same package comes first */
	z = ss_topology_zonelist(&t, 0);
	assert_int_equal(z[0], 0);
	assert_int_equal(z[1], 1);
	assert_int_equal(z[2], 2);
	assert_int_equal(z[3], 3);
	z = ss_topology_zonelist(&t, 3);
	assert_int_equal(z[0], 3);
	assert_int_equal(z[1], 2);
	assert_int_equal(z[2], 0);
	assert_int_equal(z[3], 1);
	assert_string_equal(t.spec, "synth:pack:2 numa:2 core:16 pu:2");
	/* scatter: packages first, then nodes, then cores, then threads */
	set_map(&t, SS_MAP_SCATTER);
	assert_int_equal(t.cpu_map[0], 0);	/* pkg 0 node 0 core 0 */
	assert_int_equal(t.cpu_map[1], 64);	/* pkg 1 node 2 core 0 */
	assert_int_equal(t.cpu_map[2], 32);	/* pkg 0 node 1 core 0 */
	assert_int_equal(t.cpu_map[3], 96);	/* pkg 1 node 3 */
	assert_int_equal(t.cpu_map[4], 2);	/* pkg 0 node 0 core 1 */
	assert_int_equal(t.cpu_map[64], 1);	/* second threads last */
	ss_topology_release(&t);
}

/* Linux numbers hardware threads after all cores (indexes=core:pack):
 * identity follows the OS index, compact the tree. */
static void test_os_numbering_maps(void **state)
{
	struct ss_topology t;
	(void)state;

	load(&t, "synth:pack:2 [numa] core:3 pu:2(indexes=core:pack)");
	assert_int_equal(t.nr_cpus, 12);
	assert_int_equal(t.nr_nodes, 2);
	/* PU 1 is core 0's second thread: OS CPU 6 */
	assert_int_equal(t.cpu_os[1], 6);
	assert_int_equal(t.cpu_os[2], 1);
	assert_int_equal(t.cpu_map[1], 2); /* identity: CPU 1 = core 1 */
	assert_int_equal(t.cpu_map[6], 1);
	assert_int_equal(t.cpu_map[3], 6); /* CPU 3: package 1's first core */
	set_map(&t, SS_MAP_COMPACT);
	assert_int_equal(t.cpu_map[1], 1);
	assert_int_equal(t.cpu_map[6], 6);
	ss_topology_release(&t);
}

static void test_bad_specs(void **state)
{
	struct ss_topology t;
	struct ss_error err;
	enum ss_cpu_map m;
	(void)state;

	assert_int_equal(ss_topology_load(&t, "synth:pack:two", &err), -1);
	assert_non_null(strstr(err.msg, "bad synthetic description 'pack:two'"));
	assert_int_equal(ss_topology_load(&t, "xml:/nonexistent/x.xml", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/x.xml: cannot read"));
	assert_int_equal(ss_topology_load(&t, "numa:2", &err), -1);
	assert_non_null(strstr(err.msg, "unknown spec 'numa:2'"));
	/* bounded before hwloc builds anything (it would take minutes) */
	assert_int_equal(ss_topology_load(&t, "synth:pack:1000 core:1000 pu:100", &err), -1);
	assert_non_null(strstr(err.msg, "has more than 65535 PUs"));
	assert_int_equal(ss_topology_load(&t, "synth:numa:16384 pu:1", &err), -1);
	assert_non_null(strstr(err.msg, "has more than 1024 NUMA nodes"));
	assert_int_equal(ss_topology_load(&t, "synth:pack:1100 [numa] pu:1", &err), -1);
	assert_non_null(strstr(err.msg, "has more than 1024 NUMA nodes"));
	assert_int_equal(ss_cpu_map_parse("round-robin", &m), -1);
	assert_int_equal(ss_cpu_map_parse("scatter", &m), 0);
	assert_int_equal(m, SS_MAP_SCATTER);
}

/* The shipped 2-socket export (datasets/topologies/, docs/topology.md). */
static void test_xml_two_socket(void **state)
{
	struct ss_topology t;
	(void)state;

	load(&t, "xml:datasets/topologies/xeon-gold-6248-2s.xml");
	assert_int_equal(t.nr_packages, 2);
	assert_int_equal(t.nr_nodes, 2);
	assert_int_equal(t.nr_cores, 40);
	assert_int_equal(t.nr_cpus, 80);
	/* Linux numbering: CPU 20 is package 1's first core, CPU 40 the
	 * second thread of CPU 0 */
	assert_int_equal(t.cpu_package[t.cpu_map[20]], 1);
	assert_int_equal(t.cpu_map[40], 1);
	ss_topology_release(&t);
}

/* ---- SLUB per-node state on pack:1 numa:2 core:2 pu:1 ----
 * PUs 0, 1 on node 0; PUs 2, 3 on node 1.  6.11, 512-byte objects:
 * order 1, 16 objects, min_partial 5, cpu_partial_slabs 7 (test_slub.c
 * works out the same cache on 2 CPUs; with 4 CPUs min_objects =
 * 4 * (fls(4) + 1) = 16, 16 * 512 = 8 KiB -> order 1 still). */
struct two_nodes {
	struct ss_target tg;
	struct ss_topology topo;
	struct ss_costs costs;
	struct ss_kcache s;
};

static void two_nodes_setup(struct two_nodes *f)
{
	struct ss_error err = {{0}};
	struct ss_cache_spec spec = {.object_size = 512, .align = 8};

	load(&f->topo, "synth:pack:1 numa:2 core:2 pu:1");
	ss_target_defaults(&f->tg);
	f->tg.era = 611;
	f->tg.cpus = f->topo.nr_cpus;
	f->tg.nodes = f->topo.nr_nodes;
	memset(&f->costs, 0, sizeof(f->costs));
	if (ss_kcache_init(&f->s, "test", &spec, &f->tg, &f->topo, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(f->s.geo.objs_per_slab, 16);
	assert_int_equal(f->s.geo.min_partial, 5);
	assert_int_equal(f->s.geo.cpu_partial_slabs, 7);
}

static struct ss_slab *alloc_on(struct two_nodes *f, unsigned cpu)
{
	struct ss_op op = {.cost = f->costs.cycles};
	struct ss_slab *sl = ss_kcache_alloc(&f->s, cpu, &op);

	assert_non_null(sl);
	return sl;
}

static void free_on(struct two_nodes *f, unsigned cpu, struct ss_slab *sl)
{
	struct ss_op op = {.cost = f->costs.cycles};

	ss_kcache_free(&f->s, cpu, sl, &op);
}

#define STAT(f, name) ((f)->s.stats[SS_STEP_##name])

static void test_per_node_accounting(void **state)
{
	struct two_nodes *f = calloc(1, sizeof(*f));
	struct ss_slab *slabs[9], *sl;
	(void)state;

	two_nodes_setup(f);
	/* CPU 0 fills 9 slabs: all on node 0 (new_slab on the CPU's node);
	 * slabs 0-7 ran out and were dropped by get_freelist() full
	 * (deactivate_bypass), slab 8 is active. */
	for (unsigned i = 0; i < 9 * 16; i++) {
		sl = alloc_on(f, 0);
		slabs[i / 16] = sl;
	}
	assert_int_equal(f->s.node[0].nr_slabs, 9);
	assert_int_equal(f->s.node[0].total_objects, 9 * 16);
	assert_int_equal(f->s.node[1].nr_slabs, 0);
	assert_int_equal(STAT(f, DEACTIVATE_BYPASS), 8);
	assert_int_equal(STAT(f, DEACTIVATE_FULL), 0);
	/* CPU 2 allocates once: a slab on node 1 */
	sl = alloc_on(f, 2);
	assert_int_equal(sl->node, 1);
	assert_int_equal(f->s.node[1].nr_slabs, 1);
	/* CPU 2 (node 1) frees into CPU 0's active slab (node 0): remote */
	free_on(f, 2, slabs[8]);
	assert_int_equal(STAT(f, FREE_FROZEN), 1);
	assert_int_equal(STAT(f, NODE_REMOTE), 1);
	/* CPU 1 (node 0) frees one object of each full slab 0-7: each goes
	 * to CPU 1's partial list; the 8th push finds 7 >= cpu_partial_slabs
	 * and drains the 7 to node 0's partial list first. */
	for (unsigned i = 0; i < 8; i++)
		free_on(f, 1, slabs[i]);
	assert_int_equal(STAT(f, CPU_PARTIAL_FREE), 8);
	assert_int_equal(STAT(f, CPU_PARTIAL_DRAIN), 1);
	assert_int_equal(f->s.node[0].partial.nr, 7);
	assert_int_equal(f->s.cpu[1].partial.nr, 1);
	assert_int_equal(STAT(f, NODE_REMOTE), 1); /* same node: not remote */
	/* CPU 3 (node 1) allocates: no slab, node 1's list is empty, node 0
	 * holds 7 > min_partial 5, and the defrag coin (first draw 192) is
	 * under 1000: get_any_partial() refills from node 0.  The first
	 * slab becomes active, then 4 more go to CPU 3's partial list
	 * (stop once 4 > cpu_partial_slabs / 2 = 3): 2 stay on node 0. */
	sl = alloc_on(f, 3);
	assert_int_equal(sl->node, 0);
	assert_int_equal(STAT(f, NODE_REMOTE), 2);
	assert_int_equal(STAT(f, ALLOC_FROM_PARTIAL), 1);
	assert_int_equal(STAT(f, CPU_PARTIAL_NODE), 4);
	assert_int_equal(f->s.node[0].partial.nr, 2);
	assert_int_equal(f->s.cpu[3].partial.nr, 4);
	assert_int_equal(f->s.node[1].nr_slabs, 1); /* no new slab was needed */
	assert_int_equal(STAT(f, ALLOC_SLAB), 10);
	ss_kcache_release(&f->s);
	ss_topology_release(&f->topo);
	free(f);
}

/* One node: never a remote refill, whatever the lists hold. */
static void test_single_node_stays_local(void **state)
{
	struct two_nodes *f = calloc(1, sizeof(*f));
	struct ss_error err = {{0}};
	struct ss_cache_spec spec = {.object_size = 512, .align = 8};
	(void)state;

	assert_int_equal(ss_topology_flat(&f->topo, 4, 1, &err), 0);
	ss_target_defaults(&f->tg);
	f->tg.era = 611;
	f->tg.cpus = 4;
	assert_int_equal(ss_kcache_init(&f->s, "t", &spec, &f->tg, &f->topo, &err), 0);
	for (unsigned i = 0; i < 64; i++)
		alloc_on(f, i % 4);
	assert_int_equal(STAT(f, NODE_REMOTE), 0);
	assert_int_equal(f->s.defrag_tick, 0);
	ss_kcache_release(&f->s);
	ss_topology_release(&f->topo);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_synthetic_sizes_and_zonelists),
		cmocka_unit_test(test_os_numbering_maps),
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_xml_two_socket),
		cmocka_unit_test(test_per_node_accounting),
		cmocka_unit_test(test_single_node_stays_local),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
