/* cmd_topology.c - `slabsim topology`: what a --topology spec describes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "topology.h"

static void topology_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim topology --topology SPEC [--map POLICY] [--pus]\n\n"
		"Print the sizes of a topology as key=value lines: topology=, packages=,\n"
		"numa_nodes=, cores=, pus=, map=.  See docs/topology.md.\n\n"
		"  --topology SPEC   host (this machine), synth:\"DESCRIPTION\" (hwloc synthetic,\n"
		"                    e.g. synth:\"pack:2 numa:2 core:16 pu:2\") or xml:FILE\n"
		"  --map POLICY      identity (default), compact or scatter: how trace CPUs\n"
		"                    are placed on PUs\n"
		"  --pus             also one line per PU: pu=L os=N package=P node=K, and\n"
		"                    one per trace CPU: cpu=N pu=L\n");
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

int cmd_topology(int argc, char **argv)
{
	enum { O_TOPO = 256, O_MAP, O_PUS, O_HELP };
	static const struct option longopts[] = {
		{"topology", required_argument, 0, O_TOPO},
		{"map", required_argument, 0, O_MAP},
		{"pus", no_argument, 0, O_PUS},
		{"help", no_argument, 0, O_HELP},
		{0, 0, 0, 0},
	};
	const char *spec = NULL;
	enum ss_cpu_map map = SS_MAP_IDENTITY;
	struct ss_topology t;
	struct ss_error err = {{0}};
	int c, pus = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case O_TOPO: spec = optarg; break;
		case O_MAP:
			if (ss_cpu_map_parse(optarg, &map)) {
				fprintf(stderr, "slabsim topology: unknown map '%s' (identity, compact, scatter)\n",
					optarg);
				return 2;
			}
			break;
		case O_PUS: pus = 1; break;
		case O_HELP: topology_usage(stdout); return 0;
		default:
			fprintf(stderr, "slabsim topology: unknown option '%s'\n", argv[optind - 1]);
			topology_usage(stderr);
			return 2;
		}
	}
	if (!spec || optind < argc) {
		fprintf(stderr, "slabsim topology: --topology SPEC is required (and nothing else)\n");
		topology_usage(stderr);
		return 2;
	}
	if (ss_topology_load(&t, spec, &err) || ss_topology_set_map(&t, map, &err)) {
		fprintf(stderr, "slabsim %s\n", err.msg);
		return 1;
	}
	printf("topology=%s\npackages=%u\nnuma_nodes=%u\ncores=%u\npus=%u\nmap=%s\n",
	       t.spec, t.nr_packages, t.nr_nodes, t.nr_cores, t.nr_cpus,
	       ss_cpu_map_name(t.map));
	if (pus)
		print_pus(&t);
	ss_topology_release(&t);
	return 0;
}
