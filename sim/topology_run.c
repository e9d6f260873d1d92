/* topology_run.c - the topology a `slabsim run` simulates. */
#include "run.h"

#include "target.h"

int ss_topology_for_run(struct ss_topology *topo, const char *spec,
			const char *map, struct ss_target *t,
			struct ss_error *err)
{
	enum ss_cpu_map policy = SS_MAP_IDENTITY;

	if (map && ss_cpu_map_parse(map, &policy))
		return ss_errorf(err, "unknown CPU map '%s' (identity, compact, scatter)", map);
	if (spec ? ss_topology_load(topo, spec, err)
		 : ss_topology_flat(topo, t->cpus, t->nodes, err))
		return -1;
	if (policy != SS_MAP_IDENTITY && ss_topology_set_map(topo, policy, err)) {
		ss_topology_release(topo);
		return -1;
	}
	t->cpus = topo->nr_cpus;
	t->nodes = topo->nr_nodes;
	return 0;
}
