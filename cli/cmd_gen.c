/* cmd_gen.c - `slabsim gen WORKLOAD [OPTIONS]`: dispatch to a workload's
 * generator (workloads/registry.c). */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "workload.h"

static void usage(FILE *out)
{
	size_t nr;
	const struct ss_workload *w = ss_workloads(&nr);

	fprintf(out, "usage: slabsim gen WORKLOAD [OPTIONS]\n\n"
		     "Generate a workload's inputs and event traces.\n\n"
		     "workloads:\n");
	for (size_t i = 0; i < nr; i++)
		fprintf(out, "  %-10s %s\n", w[i].name, w[i].summary);
	fprintf(out, "\n`slabsim gen WORKLOAD --help` describes its options.\n");
}

int ss_cmd_gen(int argc, char **argv)
{
	const struct ss_workload *w;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	w = ss_workload_find(argv[1]);
	if (!w) {
		fprintf(stderr, "slabsim gen: unknown workload '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	return w->gen(argc - 1, argv + 1);
}
