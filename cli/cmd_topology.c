/* cmd_topology.c - `slabsim topology`: what a --topology spec describes. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "opts.h"
#include "topology.h"

enum { O_TOPO, O_MAP, O_PUS, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_TOPO] = {"topology", NULL, "SPEC",
		"host (this machine), synth:\"DESCRIPTION\" (hwloc synthetic,\n"
		"e.g. synth:\"pack:2 numa:2 core:16 pu:2\") or xml:FILE"},
	[O_MAP] = {"map", NULL, "POLICY",
		"identity (default), compact, scatter or fold: how trace CPUs\n"
		"are placed on PUs"},
	[O_PUS] = {"pus", NULL, NULL,
		"also one line per PU: pu=L os=N package=P node=K, and\n"
		"one per trace CPU: cpu=N pu=L"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void topology_usage(FILE *out);

static const struct ss_opt_set opt_set = {"topology", specs, NR_OPTS, topology_usage};

static void topology_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim topology --topology SPEC [--map POLICY] [--pus]\n\n"
		"Print the sizes of a topology as key=value lines: topology=, packages=,\n"
		"numa_nodes=, cores=, pus=, map=.  See docs/topology.md.\n\n");
	ss_opt_help(out, &opt_set);
}

static void print_pus(const struct ss_topology *t)
{
	for (unsigned p = 0; p < t->nr_cpus; p++)
		printf("pu=%u os=%u package=%u node=%u\n", p, t->cpu_os[p],
		       t->cpu_package[p], t->cpu_node[p]);
	for (unsigned c = 0; c < t->nr_map; c++)
		if (t->cpu_map[c] != SS_NO_PU)
			printf("cpu=%u pu=%u\n", c, t->cpu_map[c]);
	for (unsigned n = 0; n < t->nr_nodes; n++) {
		const uint16_t *z = ss_topology_zonelist(t, n);

		printf("zonelist=%u:", n);
		for (unsigned i = 0; i < t->nr_nodes; i++)
			printf("%s%u", i ? "," : "", z[i]);
		printf("\n");
	}
}

int ss_cmd_topology(int argc, char **argv)
{
	const char *val[NR_OPTS] = {0};
	enum ss_cpu_map map = SS_MAP_IDENTITY;
	struct ss_topology t;
	struct ss_error err = {{0}};
	int rc = ss_opt_scan(&opt_set, argc, argv, ss_opt_keep, val);

	if (rc)
		return ss_opt_exit(rc);
	if (!val[O_TOPO])
		return ss_opt_exit(ss_opt_usage_err(&opt_set, "--topology SPEC is required"));
	if (val[O_MAP] && ss_cpu_map_parse(val[O_MAP], &map))
		return ss_opt_exit(ss_opt_usage_err(&opt_set,
			"bad value '%s' for --map (identity, compact, scatter, fold)", val[O_MAP]));
	if (ss_topology_load(&t, val[O_TOPO], &err) || ss_topology_set_map(&t, map, &err)) {
		fprintf(stderr, "slabsim %s\n", err.msg);
		return 1;
	}
	printf("topology=%s\npackages=%u\nnuma_nodes=%u\ncores=%u\npus=%u\nmap=%s\n",
	       t.spec, t.nr_packages, t.nr_nodes, t.nr_cores, t.nr_cpus,
	       ss_cpu_map_name(t.map));
	if (val[O_PUS])
		print_pus(&t);
	ss_topology_release(&t);
	return 0;
}
