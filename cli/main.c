/* main.c - `slabsim COMMAND ...`: dispatch to the subcommands. */
#include <hwloc.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "commands.h"
#include "trace.h"
#include "trace_bin.h"

/* The release: raised when the outputs or the trace formats change. */
#define SS_VERSION "0.15"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"gen", cmd_gen, "generate a workload's inputs and traces (slabsim list workloads)"},
	{"run", cmd_run, "replay a trace through an allocator model"},
	{"diff", cmd_diff, "two runs side by side, cache by cache"},
	{"list", cmd_list, "list targets, models, workloads or cost steps"},
	{"geometry", cmd_geometry, "print the SLUB layout of one cache"},
	{"validate", cmd_validate, "check the geometry rules against a live /sys/kernel/slab"},
	{"report", cmd_report, "build report.md and plot data from a workload's results"},
	{"compare", cmd_compare, "compare models and variants: compare.md and plot data"},
	{"sweep", cmd_sweep, "gather a parameter sweep: sweep.csv, sweep.md and plot data"},
	{"index", cmd_index, "write reports/index.html: every report, plots embedded"},
	{"convert", cmd_convert, "copy a trace into another format (text, binary .sbt, zstd)"},
	{"import", cmd_import, "turn an ftrace/perf capture of the kmem events into a trace"},
	{"bench", cmd_bench, "replay speed and memory of each model beside glibc malloc"},
	{"topology", cmd_topology, "print the packages, NUMA nodes, cores and PUs of a topology"},
	{"calibrate", cmd_calibrate, "measure the cost-table steps on this host, write a cost table"},
};

/* What --version says: the program, the trace formats it reads and
 * writes, and the libraries it was built with. */
static void version(void)
{
	printf("slabsim %s\ntrace formats: text %d, binary %d\n"
	       "built with: hwloc %u.%u.%u, zstd %s\n", SS_VERSION, SS_TRACE_VERSION,
	       SS_BIN_VERSION, HWLOC_API_VERSION >> 16, (HWLOC_API_VERSION >> 8) & 0xff,
	       HWLOC_API_VERSION & 0xff, ZSTD_versionString());
}

static void usage(FILE *out)
{
	fprintf(out, "usage: slabsim COMMAND [OPTIONS]\n       slabsim --version\n\n"
		     "Trace-driven simulator of Linux kernel slab allocator models.\n\n"
		     "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n`slabsim COMMAND --help` describes each command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		version();
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "slabsim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
