/* fuzz_topology.c - topology strings (sim/topology.c: ss_topology_load
 * with "synth:" + the input, hwloc's synthetic syntax, then every CPU map
 * policy).  A topology that loads must be consistent: every PU on a valid
 * node and package, each PU at most once in a map (exactly once for compact
 * and scatter), every zonelist a permutation of the nodes that starts with
 * its own node; an error must say it is about the topology. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "topology.h"

#define MAX_SPEC 512
/* Open bug (docs/bad-input.md, tests/fuzz/regressions/topology/open/): NUMA
 * nodes are bounded only by the PU limit, and zonelists cost nodes^2
 * memory and nodes^3 time, so synth:"numa:16384 pu:1" runs for minutes;
 * hwloc itself builds every object of "pack:1000 core:1000 pu:100" before
 * slabsim can refuse it.  Until sim/topology.c bounds both, specs whose
 * numbers multiply past this are skipped, so fuzzing explores the rest. */
#define MAX_OBJECTS 4096u

/* The product of the decimal numbers in s: a bound on what hwloc builds. */
static int too_big(const char *s)
{
	uint64_t product = 1;

	while (*s) {
		uint64_t v = 0;

		if (*s < '0' || *s > '9') {
			s++;
			continue;
		}
		while (*s >= '0' && *s <= '9' && v <= MAX_OBJECTS)
			v = v * 10 + (uint64_t)(*s++ - '0');
		while (*s >= '0' && *s <= '9')
			s++;
		if (v > MAX_OBJECTS || (v && (product *= v) > MAX_OBJECTS))
			return 1;
	}
	return 0;
}

static void check_map(const struct ss_topology *t, enum ss_cpu_map map)
{
	unsigned char *seen = calloc(t->nr_cpus, 1);
	unsigned mapped = 0;

	if (!seen)
		return;
	for (unsigned c = 0; c < t->nr_map; c++) {
		uint16_t p = t->cpu_map[c];

		if (p == SS_NO_PU)
			continue;
		ss_fuzz_check(p < t->nr_cpus, "cpu %u -> PU %u of %u", c, p, t->nr_cpus);
		ss_fuzz_check(!seen[p], "PU %u mapped twice (%s)", p, ss_cpu_map_name(map));
		seen[p] = 1;
		mapped++;
	}
	if (map != SS_MAP_IDENTITY)
		ss_fuzz_check(mapped == t->nr_cpus, "%s maps %u of %u PUs",
			      ss_cpu_map_name(map), mapped, t->nr_cpus);
	free(seen);
}

static void check_topology(const struct ss_topology *t)
{
	ss_fuzz_check(t->nr_cpus >= 1 && t->nr_nodes >= 1 && t->nr_nodes <= t->nr_cpus,
		      "%u PUs, %u nodes", t->nr_cpus, t->nr_nodes);
	for (unsigned p = 0; p < t->nr_cpus; p++) {
		ss_fuzz_check(t->cpu_node[p] < t->nr_nodes, "PU %u on node %u", p, t->cpu_node[p]);
		ss_fuzz_check(t->cpu_package[p] < t->nr_packages, "PU %u in package %u of %u",
			      p, t->cpu_package[p], t->nr_packages);
	}
	for (unsigned n = 0; n < t->nr_nodes; n++) {
		const uint16_t *z = ss_topology_zonelist(t, n);
		unsigned char *seen = calloc(t->nr_nodes, 1);

		if (!seen)
			return;
		ss_fuzz_check(z[0] == n, "zonelist of node %u starts with %u", n, z[0]);
		for (unsigned i = 0; i < t->nr_nodes; i++) {
			ss_fuzz_check(z[i] < t->nr_nodes && !seen[z[i]],
				      "zonelist of node %u: entry %u", n, i);
			seen[z[i]] = 1;
		}
		free(seen);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ss_cpu_map maps[] = {SS_MAP_IDENTITY, SS_MAP_COMPACT, SS_MAP_SCATTER};
	struct ss_topology t;
	struct ss_error err = {{0}};
	char spec[6 + MAX_SPEC + 1] = "synth:";
	size_t n = size < MAX_SPEC ? size : MAX_SPEC;

	memcpy(spec + 6, data, n);
	spec[6 + n] = '\0';
	if (too_big(spec))
		return 0;
	if (ss_topology_load(&t, spec, &err)) {
		ss_fuzz_check(!strncmp(err.msg, "topology: ", 10), "error: %s", err.msg);
		return 0;
	}
	check_topology(&t);
	for (unsigned m = 0; m < 3; m++)
		if (ss_topology_set_map(&t, maps[m], &err) == 0)
			check_map(&t, maps[m]);
	ss_topology_release(&t);
	return 0;
}
