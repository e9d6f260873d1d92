/* topology.c - flat topologies (issue: hwloc descriptions come on top). */
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ss_topology_flat(struct ss_topology *topo, unsigned nr_cpus,
		     unsigned nr_nodes, struct ss_error *err)
{
	memset(topo, 0, sizeof(*topo));
	if (!nr_cpus || !nr_nodes || nr_nodes > nr_cpus || nr_cpus > 65536)
		return ss_errorf(err, "topology: %u CPUs on %u nodes is not a machine",
				 nr_cpus, nr_nodes);
	topo->cpu_node = calloc(nr_cpus, sizeof(*topo->cpu_node));
	if (!topo->cpu_node)
		return ss_errorf(err, "topology: out of memory");
	topo->nr_cpus = nr_cpus;
	topo->nr_nodes = nr_nodes;
	for (unsigned c = 0; c < nr_cpus; c++)
		topo->cpu_node[c] = (uint16_t)(c * nr_nodes / nr_cpus);
	snprintf(topo->desc, sizeof(topo->desc), "flat: %u cpus, %u node%s",
		 nr_cpus, nr_nodes, nr_nodes > 1 ? "s" : "");
	return 0;
}

void ss_topology_release(struct ss_topology *topo)
{
	free(topo->cpu_node);
	memset(topo, 0, sizeof(*topo));
}
