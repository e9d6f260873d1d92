/* topology.h - the CPUs and NUMA nodes a run simulates.
 *
 * Per-CPU allocator state exists per processing unit, per-node state per
 * NUMA node.  A trace's CPU n runs on PU n (identity mapping); a trace CPU
 * outside the topology is an input error.
 */
#ifndef SS_TOPOLOGY_H
#define SS_TOPOLOGY_H

#include <stdint.h>

#include "error.h"

struct ss_topology {
	unsigned nr_cpus;
	unsigned nr_nodes;
	uint16_t *cpu_node; /* node of each PU */
	char desc[128];	    /* how it was built, for reports */
};

/* nr_cpus PUs spread over nr_nodes nodes in contiguous blocks. */
int ss_topology_flat(struct ss_topology *topo, unsigned nr_cpus,
		     unsigned nr_nodes, struct ss_error *err);
void ss_topology_release(struct ss_topology *topo);

#endif
