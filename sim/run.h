/* run.h - setting up one run: target, topology, costs, model, trace. */
#ifndef SS_RUN_H
#define SS_RUN_H

#include "target.h"
#include "topology.h"

/* A run's topology (sim/topology_run.c): spec NULL is the flat topology
 * of the target's cpus and nodes, map NULL is identity.  The target then
 * sees the topology's PU and node counts (calculate_order() counts
 * num_present_cpus()). */

int ss_topology_for_run(struct ss_topology *topo, const char *spec,
			const char *map, struct ss_target *t,
			struct ss_error *err);

#endif
