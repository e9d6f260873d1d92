/* cmd_import.c - `slabsim import`: a real kmem trace into a slabsim trace. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "import/import.h"
#include "opts.h"

#define DEFAULT_TARGET "x86_64-6.x"

enum { O_OUTPUT, O_TARGET, O_FORMAT, O_TOTALS, O_INPUT, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_OUTPUT] = {"output", "-o", "TRACE",
		"the slabsim trace (*.sbt, *.sbt.zst: binary; - : stdout)"},
	[O_TARGET] = {"target", NULL, "TARGET",
		"kmalloc classes and layout rules used to name and\n"
		"declare caches (default " DEFAULT_TARGET ")"},
	[O_FORMAT] = {"format-file", NULL, "FILE",
		"a tracefs events/kmem/EVENT/format file: find the fields\n"
		"by name in its print fmt (repeat per event)"},
	[O_TOTALS] = {"totals", NULL, "CSV", "also write the totals as a one-row CSV"},
	[O_INPUT] = {NULL, NULL, "INPUT", "the capture; - for stdin"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void import_usage(FILE *out);

static const struct ss_opt_set opt_set = {"import", specs, NR_OPTS, import_usage};

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
		"import repaired.  See docs/import.md.\n\n");
	ss_opt_help(out, &opt_set);
}

struct import_cmd {
	struct ss_import_opts o;
	const char *totals;
	int nr_inputs;
};

static int take_import_opt(void *ctx, int id, const char *v)
{
	struct import_cmd *c = ctx;
	struct ss_import_opts *o = &c->o;

	switch (id) {
	case O_OUTPUT: o->output = v; return 0;
	case O_TARGET: o->target = v; return 0;
	case O_FORMAT:
		if (o->nr_formats == sizeof(o->formats) / sizeof(o->formats[0]))
			return ss_opt_usage_err(&opt_set, "too many --format-file");
		o->formats[o->nr_formats++] = v;
		return 0;
	case O_TOTALS: c->totals = v; return 0;
	default: /* O_INPUT */
		o->input = v;
		c->nr_inputs++;
		return 0;
	}
}

static int parse_import_opts(int argc, char **argv, struct import_cmd *c)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->o.target = DEFAULT_TARGET;
	if ((rc = ss_opt_scan(&opt_set, argc, argv, take_import_opt, c)))
		return rc;
	if (c->nr_inputs != 1 || !c->o.output)
		return ss_opt_usage_err(&opt_set, "want -o TRACE and one INPUT");
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct import_cmd c;
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	int rc = parse_import_opts(argc, argv, &c);

	if (rc)
		return ss_opt_exit(rc);
	/* the input is a capture, not a trace: say so when it cannot be read */
	if (strcmp(c.o.input, "-") && access(c.o.input, R_OK)) {
		fprintf(stderr, "slabsim import: %s: cannot open capture: %s\n", c.o.input,
			strerror(errno));
		return 1;
	}
	if (ss_import(&c.o, &t, &err) ||
	    (c.totals && ss_import_write_totals(c.totals, &t, &err))) {
		fprintf(stderr, "slabsim import: %s\n", err.msg);
		return 1;
	}
	ss_import_print(strcmp(c.o.output, "-") ? stdout : stderr, &t);
	return 0;
}
