/* cmd_import.c - `slabsim import`: a real kmem trace into a slabsim trace. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "commands.h"
#include "import/import.h"
#include "opts.h"

#define DEFAULT_TARGET "x86_64-6.x"

enum { O_OUTPUT, O_TARGET, O_FORMAT, O_TOTALS, O_SNAPSHOT, O_SLAB_FILL, O_CPUS, O_WALK, O_SLAB_PAGES, O_FREE_OBJECTS, O_DROP_UNTRACED, O_TOOL_PIDS, O_INPUT, O_HELP,
       NR_OPTS };

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
	[O_SNAPSHOT] = {"snapshot", NULL, "SNAPSHOT",
		"the kernel's caches (a capture's slab-before.txt or its\n"
		"directory, a copied /sys/kernel/slab, /proc/slabinfo):\n"
		"declare the caches it lists with their own size, align\n"
		"and flags, and those a free names before any allocation;\n"
		"with raw pointers, write meta cpu_slab_free: the free\n"
		"slots of each CPU's first slab (docs/import.md)"},
	[O_SLAB_FILL] = {"slab-fill", NULL, "FILE",
		"each cache's node partial and CPU slabs as the kernel\n"
		"listed them (a capture's slab-fill-before.txt; needs\n"
		"--snapshot): with raw pointers, the kernel slabs the\n"
		"prior frees name are numbered by their place in the\n"
		"file, for run --slab-fill (meta slab_fill)"},
	[O_CPUS] = {"cpus", NULL, "N",
		"the capture's CPUs (meta cpus up front; default: the\n"
		"trace file's #P: header, else the highest CPU + 1)"},
	[O_WALK] = {"walk", NULL, "FILE",
		"the allocations of the before-snapshot's sysfs walk (a\n"
		"capture's walk.ftrace.zst): frees of those objects are\n"
		"dropped, not prior frees (docs/capture.md step 5)"},
	[O_SLAB_PAGES] = {"slab-pages", NULL, "FILE",
		"the page frames that were slab pages as tracing began\n"
		"(a capture's slab-pages-start.txt; raw pointers and a\n"
		"slab-fill file): a kmem_cache_free of an object on any\n"
		"other page is of an object allocated in the window\n"
		"without an event, not a prior free (from the trace's\n"
		"'start' phase marker on, which make capture writes\n"
		"after the read)"},
	[O_FREE_OBJECTS] = {"free-objects", NULL, "FILE",
		"the listed slabs' free objects as tracing began (a\n"
		"capture's slab-fill-start.txt, version 3; needs\n"
		"--snapshot): a free of one of them is likewise of an\n"
		"object allocated in the window without an event (from\n"
		"the 'start' marker on)"},
	[O_DROP_UNTRACED] = {"drop-untraced", NULL, NULL,
		"drop both ends of an object allocated without an event\n"
		"(its free is all the trace has) instead of replaying it:\n"
		"by default, with raw pointers, a plan pass reads the\n"
		"capture once more and its allocation is written after\n"
		"its kernel slab's last traced allocation, on that CPU, or\n"
		"with no such allocation, before the first of its slab's\n"
		"group of such frees (docs/import.md)"},
	[O_TOOL_PIDS] = {"tool-pids", NULL, "LIST",
		"the capture tool's own processes in the window (a\n"
		"capture's meta tool_pids, PIDs separated by blanks or\n"
		"commas): their kmem events are counted in the summary\n"
		"and totals (tool_events) and replayed like any other"},
	[O_INPUT] = {NULL, NULL, "INPUT", "the capture (text or trace.dat); - for stdin"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void import_usage(FILE *out);

static const struct ss_opt_set opt_set = {"import", specs, NR_OPTS, import_usage};

static void import_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim import [--target TARGET] [--format-file FILE]... [--totals CSV]\n"
		"                      [--snapshot SNAPSHOT [--slab-fill FILE]] [--cpus N] [--walk FILE]\n"
		"                      [--slab-pages FILE] [--free-objects FILE] [--drop-untraced]\n"
		"                      [--tool-pids LIST] -o TRACE INPUT\n\n"
		"Turn a capture of the kmem tracepoints (kmalloc, kmalloc_node, kmem_cache_alloc,\n"
		"kmem_cache_alloc_node, kfree, kmem_cache_free) into a slabsim trace: ftrace\n"
		"text (tracefs trace or trace_pipe), trace-cmd report or perf script output\n"
		"of any kernel since 3.x, plain or zstd-compressed, or a trace-cmd trace.dat\n"
		"(fields found by name in the formats it carries).  Pointers become dense\n"
		"object ids; gfp_flags= and accounted= become the allocation flags.  A free\n"
		"of a pointer never seen allocated becomes a prior free (u) of the cache the\n"
		"event names, else (raw pointers, --snapshot) of the cache its slab held\n"
		"before the free or that its offset in the slab tells, else of the cache its\n"
		"call site's other frees went to; an allocation of a live pointer (lost\n"
		"free) frees the old object first.  With raw pointers, a kmem:mm_page_free\n"
		"(text captures) of the pages of a kernel slab the prior frees named becomes\n"
		"that slab's death (d).  Prints perf kmem stat's\n"
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
	case O_SNAPSHOT: o->snapshot = v; return 0;
	case O_SLAB_FILL: o->slab_fill = v; return 0;
	case O_CPUS: return ss_opt_uint(&opt_set, id, v, 1, 65536, &o->cpus);
	case O_WALK: o->walk = v; return 0;
	case O_SLAB_PAGES: o->slab_pages = v; return 0;
	case O_FREE_OBJECTS: o->free_objects = v; return 0;
	case O_DROP_UNTRACED: o->drop_untraced = true; return 0;
	case O_TOOL_PIDS: o->tool_pids = v; return 0;
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
	if (c->o.slab_fill && !c->o.snapshot)
		return ss_opt_usage_err(&opt_set, "--slab-fill needs --snapshot (the geometry it reads slabs by)");
	if (c->o.free_objects && !c->o.snapshot)
		return ss_opt_usage_err(&opt_set, "--free-objects needs --snapshot (the geometry it reads slabs by)");
	/* the outputs replace files whole: never the capture or each other */
	for (unsigned i = 0; i <= c->o.nr_formats; i++) {
		const char *in = i < c->o.nr_formats ? c->o.formats[i] : c->o.input;

		if (ss_same_file(c->o.output, in))
			return ss_opt_usage_err(&opt_set, "-o %s is the input %s: refusing to overwrite it",
						c->o.output, in);
		if (c->totals && ss_same_file(c->totals, in))
			return ss_opt_usage_err(&opt_set, "--totals %s is the input %s: refusing to overwrite it",
						c->totals, in);
	}
	if (c->totals && ss_same_file(c->totals, c->o.output))
		return ss_opt_usage_err(&opt_set, "-o and --totals name the same file");
	return 0;
}

/* A failed import leaves no output: the trace may be in place already
 * (the totals or the summary failed after it), and an older trace or
 * totals file must not pass for this capture's. */
static int import_failed(const struct import_cmd *c)
{
	ss_remove_stale(c->o.output);
	if (c->totals)
		ss_remove_stale(c->totals);
	return 1;
}

int ss_cmd_import(int argc, char **argv)
{
	struct import_cmd c;
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	int rc = parse_import_opts(argc, argv, &c);
	FILE *out;

	if (rc)
		return ss_opt_exit(rc);
	/* the input is a capture, not a trace: say so when it cannot be read */
	if (strcmp(c.o.input, "-") && access(c.o.input, R_OK)) {
		fprintf(stderr, "slabsim import: %s: cannot open capture: %s\n", c.o.input,
			strerror(errno));
		return import_failed(&c);
	}
	if (ss_import(&c.o, &t, &err) ||
	    (c.totals && ss_import_write_totals(c.totals, &t, &err))) {
		fprintf(stderr, "slabsim import: %s\n", err.msg);
		return import_failed(&c);
	}
	out = strcmp(c.o.output, "-") ? stdout : stderr;
	ss_import_print(out, &t);
	errno = 0;
	if (out == stdout && (fflush(stdout) || ferror(stdout))) {
		/* main() would say so too, but after the outputs stayed */
		fprintf(stderr, "slabsim import: standard output: write failed: %s\n",
			strerror(errno ? errno : EIO));
		return import_failed(&c);
	}
	return 0;
}
