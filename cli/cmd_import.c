/* cmd_import.c - `slabsim import`: a real kmem trace into a slabsim trace. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "import/import.h"

#define DEFAULT_TARGET "x86_64-6.x"

static void import_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim import [--target TARGET] [--format-file FILE]... [--totals CSV]\n"
		"                      -o TRACE INPUT\n\n"
		"Turn a capture of the kmem tracepoints (kmalloc, kmalloc_node, kmem_cache_alloc,\n"
		"kmem_cache_alloc_node, kfree, kmem_cache_free) into a slabsim trace: ftrace\n"
		"text (tracefs trace or trace_pipe), trace-cmd report or perf script output,\n"
		"pre-6.1 or 6.1+ formats, plain or zstd-compressed.  Pointers become dense\n"
		"object ids; frees of pointers never seen allocated and allocations of live\n"
		"pointers (lost events) are counted, not fatal.  Prints perf kmem stat's\n"
		"summary (bytes requested, allocated, internal fragmentation) and what the\n"
		"import repaired.  See docs/import.md.\n\n"
		"  -o, --output TRACE   the slabsim trace (*.sbt, *.sbt.zst: binary; - : stdout)\n"
		"  --target TARGET      kmalloc classes and layout rules used to name and\n"
		"                       declare caches (default %s)\n"
		"  --format-file FILE   a tracefs events/kmem/EVENT/format file: find the fields\n"
		"                       by name in its print fmt (repeat per event)\n"
		"  --totals CSV         also write the totals as a one-row CSV\n"
		"  INPUT                the capture; - for stdin\n",
		DEFAULT_TARGET);
}

static int parse_import_opts(int argc, char **argv, struct ss_import_opts *o,
			     const char **totals)
{
	enum { O_TARGET = 256, O_FORMAT, O_TOTALS, O_HELP };
	static const struct option longopts[] = {
		{"output", required_argument, 0, 'o'},
		{"target", required_argument, 0, O_TARGET},
		{"format-file", required_argument, 0, O_FORMAT},
		{"totals", required_argument, 0, O_TOTALS},
		{"help", no_argument, 0, O_HELP},
		{0, 0, 0, 0},
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->target = DEFAULT_TARGET;
	*totals = NULL;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': o->output = optarg; break;
		case O_TARGET: o->target = optarg; break;
		case O_FORMAT:
			if (o->nr_formats == sizeof(o->formats) / sizeof(o->formats[0])) {
				fprintf(stderr, "slabsim import: too many --format-file\n");
				return -1;
			}
			o->formats[o->nr_formats++] = optarg;
			break;
		case O_TOTALS: *totals = optarg; break;
		case O_HELP: import_usage(stdout); exit(0);
		default:
			fprintf(stderr, "slabsim import: unknown option or missing value '%s'\n",
				argv[optind - 1]);
			return -1;
		}
	}
	if (argc - optind != 1 || !o->output) {
		fprintf(stderr, "slabsim import: want -o TRACE and one INPUT\n");
		return -1;
	}
	o->input = argv[optind];
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct ss_import_opts o;
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	const char *totals;

	if (parse_import_opts(argc, argv, &o, &totals)) {
		fprintf(stderr, "Try 'slabsim import --help'.\n");
		return 2;
	}
	if (ss_import(&o, &t, &err) ||
	    (totals && ss_import_write_totals(totals, &t, &err))) {
		fprintf(stderr, "slabsim import: %s\n", err.msg);
		return 1;
	}
	ss_import_print(strcmp(o.output, "-") ? stdout : stderr, &t);
	return 0;
}
