/* main.c - `slabsim COMMAND ...`: dispatch to the subcommands. */
#include <hwloc.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "atomic_file.h"
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
	{"gen", ss_cmd_gen, "generate a workload's inputs and traces (slabsim list workloads)"},
	{"run", ss_cmd_run, "replay a trace through an allocator model"},
	{"advise", ss_cmd_advise, "propose dedicated caches and class sets, each priced by a replay"},
	{"diff", ss_cmd_diff, "two runs side by side, cache by cache"},
	{"list", ss_cmd_list, "list targets, models, workloads or cost steps"},
	{"geometry", ss_cmd_geometry, "print the SLUB layout of one cache"},
	{"validate", ss_cmd_validate, "check the geometry rules against a live /sys/kernel/slab"},
	{"report", ss_cmd_report, "build report.md and plot data from a workload's results"},
	{"compare", ss_cmd_compare, "compare models and variants: compare.md and plot data"},
	{"sweep", ss_cmd_sweep, "gather a parameter sweep: sweep.csv, sweep.md and plot data"},
	{"index", ss_cmd_index, "write reports/index.html: every report, plots embedded"},
	{"kernel-table", ss_cmd_kernel_table, "captures' reports against the live kernel, in one table"},
	{"convert", ss_cmd_convert, "copy a trace into another format (text, binary .sbt, zstd)"},
	{"import", ss_cmd_import, "turn an ftrace/perf capture of the kmem events into a trace"},
	{"pick-target", ss_cmd_pick_target, "the target a capture is replayed on by default, and why"},
	{"reap", ss_cmd_reap, "run a command as the subreaper of its orphans (make capture)"},
	{"slab-pages", ss_cmd_slabpages, "write which page frames are slab pages now (make capture)"},
	{"bench", ss_cmd_bench, "replay speed and memory of each model beside glibc malloc"},
	{"topology", ss_cmd_topology, "print the packages, NUMA nodes, cores and PUs of a topology"},
	{"calibrate", ss_cmd_calibrate, "measure the cost-table steps on this host, write a cost table"},
	{"costs", ss_cmd_costs, "list the cost table's ranges, or write it with steps moved to an end"},
	{"sensitivity", ss_cmd_sensitivity, "gather make sensitivity's settings: sensitivity.csv, tornado.dat"},
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
		fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n`slabsim COMMAND --help` describes each command.\n");
}

/* What went to standard output reached it, or the exit status says so:
 * `slabsim geometry ... > /dev/full` must not exit 0 with its output lost.
 * Small outputs are still in stdio's buffer here, so the flush is where
 * the write fails; fclose() reports what only the close does (NFS). */
static int close_stdout(const char *cmd, int rc)
{
	int bad = ferror(stdout), e = 0;

	errno = 0;
	if (fflush(stdout)) {
		bad = 1;
		e = errno;
	}
	if (fclose(stdout) && !e) {
		bad = 1;
		e = errno;
	}
	if (!bad)
		return rc;
	if (rc) /* the command failed and said why (a trace to "-" names stdout) */
		return rc;
	fprintf(stderr, "slabsim%s%s: standard output: write failed: %s\n",
		cmd ? " " : "", cmd ? cmd : "", strerror(e ? e : EIO));
	return rc ? rc : 1;
}

int main(int argc, char **argv)
{
	/* Ctrl-C, kill or a closed terminal: no *.tmp.PID file or staging
	 * directory outlives the process (base/atomic_file.h) */
	ss_cleanup_signals();
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return close_stdout(NULL, 0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		version();
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return close_stdout(argv[1], commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "slabsim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
