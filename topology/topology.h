/* topology.h - the CPUs and NUMA nodes a run simulates (docs/topology.md).
 *
 * Per-CPU allocator state (kmem_cache_cpu) exists per processing unit
 * (PU), per-node state (kmem_cache_node) per NUMA node.  A topology is
 * either flat (the target's cpus and nodes, the default) or read through
 * hwloc: `host`, `synth:DESCRIPTION` or `xml:FILE`.
 *
 * PUs are numbered by hwloc's logical index (siblings adjacent: the PUs
 * of a core, then the cores of a package).  A trace's CPU numbers are
 * mapped onto PUs by a named policy, precomputed into cpu_map[] so the
 * replay loop pays one array load per event:
 *   identity  trace CPU n runs on the PU whose OS index is n (Linux CPU n)
 *   compact   trace CPU n runs on PU n (fill a core, then a package)
 *   scatter   consecutive trace CPUs spread over packages first, then
 *             NUMA nodes, cores and hardware threads
 * A trace CPU without a PU is an input error.
 */
#ifndef SS_TOPOLOGY_H
#define SS_TOPOLOGY_H

#include <stdint.h>

#include "error.h"

#define SS_TOPO_MAX_PUS 65535u /* PU numbers are stored in uint16_t */
#define SS_TOPO_MAX_NODES 1024u /* Linux's MAX_NUMNODES (NODES_SHIFT 10) */
#define SS_NO_PU 0xffffu       /* cpu_map[] entry of a trace CPU without a PU */

/* fold: scatter, with trace CPU n on the PU of n modulo the PUs, so one
 * trace of many CPUs replays on a machine of any size */
enum ss_cpu_map { SS_MAP_IDENTITY, SS_MAP_COMPACT, SS_MAP_SCATTER, SS_MAP_FOLD };

struct ss_topology {
	unsigned nr_cpus;     /* PUs */
	unsigned nr_nodes;    /* NUMA nodes */
	unsigned nr_packages; /* packages (sockets) */
	unsigned nr_cores;    /* cores */
	uint16_t *cpu_node;   /* NUMA node of each PU */
	uint16_t *cpu_package;/* package of each PU */
	uint32_t *cpu_os;     /* OS index of each PU (Linux CPU number) */
	uint16_t *node_order; /* nr_nodes rows of nr_nodes: each node's zonelist,
			       * itself first, then by distance */
	uint16_t *cpu_map;    /* trace CPU -> PU, nr_map entries (SS_NO_PU holes) */
	unsigned nr_map;
	enum ss_cpu_map map;
	uint16_t *scatter;    /* PUs in scatter order (nr_cpus entries) */
	char spec[160];	      /* how it was asked for: "flat", "host", "synth:..." */
	char desc[256];	      /* spec, sizes and map, for reports (JSON-safe) */
};

/* nr_cpus PUs spread over nr_nodes nodes in contiguous blocks, one core
 * per PU and one package per node; identity map. */
int ss_topology_flat(struct ss_topology *topo, unsigned nr_cpus,
		     unsigned nr_nodes, struct ss_error *err);

/* "host", "synth:DESCRIPTION" (hwloc synthetic syntax, optionally in
 * double quotes) or "xml:FILE" (an hwloc XML export); identity map. */
int ss_topology_load(struct ss_topology *topo, const char *spec,
		     struct ss_error *err);

/* Recompute cpu_map[] for a policy (and the desc that names it). */
int ss_topology_set_map(struct ss_topology *topo, enum ss_cpu_map map,
			struct ss_error *err);

/* "identity" / "compact" / "scatter" -> policy; -1 if unknown. */
int ss_cpu_map_parse(const char *name, enum ss_cpu_map *out);
const char *ss_cpu_map_name(enum ss_cpu_map map);

/* The zonelist of node: nr_nodes node numbers, nearest first. */
static inline const uint16_t *ss_topology_zonelist(const struct ss_topology *t,
						   unsigned node)
{
	return t->node_order + (uint64_t)node * t->nr_nodes;
}

void ss_topology_release(struct ss_topology *topo);

#endif
