/* cmd_run.c - `slabsim run`: replay one trace through one model, or
 * several from one pass (sim/runset.h): parse the options, call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "escape.h"
#include "host_run.h"
#include "model.h"
#include "opts.h"
#include "outdir.h"
#include "parse.h"
#include "runset.h"

struct run_opts {
	struct ss_run_item it; /* trace, model, target, ...; out, variant, label */
	const char *events; /* docs/topology.md */
	bool host_mode;	    /* docs/host-mode.md */
	const char *runs;   /* a run list (decode once, replay many) */
	unsigned jobs;	    /* threads of several runs; 0: one per CPU */
	unsigned long line; /* in the run list (0: from the command line) */
};

enum {
	O_TRACE, O_MODEL, O_TARGET, O_ALLOCATOR, O_CONFIG, O_DEBUG, O_COSTS, O_CPUS,
	O_NODES, O_NOMERGE, O_INITIAL, O_INITIAL_KERNEL, O_SLAB_FILL, O_PLACE, O_FINAL,
	O_DRAW, O_VARIANT, O_LABEL, O_MAXOBJ, O_MAXMEM, O_SAMPLE, O_TOPO, O_MAP, O_MODE, O_EVENTS,
	O_OUT, O_QUIET, O_RUNS, O_JOBS, O_NOKERNEL, O_HELP, NR_OPTS,
};

/* the help states the defaults as numbers: keep them in step */
_Static_assert(SS_OBJTABLE_DEFAULT_CAP == 67108864ull, "--max-objects help");
_Static_assert(SS_MEMCAP_DEFAULT == 64ull << 30, "--max-memory help");

static void model_list(FILE *out, int col);

static const struct ss_opt specs[NR_OPTS] = {
	[O_TRACE] = {"trace", NULL, "TRACE",
		"a slabsim trace (docs/trace-format.md); - for stdin"},
	[O_MODEL] = {"model", NULL, "MODEL", "one of:", model_list},
	[O_TARGET] = {"target", NULL, "TARGET",
		"allocators/targets/TARGET.target, or a path to a target file"},
	[O_ALLOCATOR] = {"allocator", NULL, "A",
		"slub, slub-tiny (6.2+) or slab (2.6.16 .. 6.7) (default: the\n"
		"target's `allocator`, else slub); docs/strategies.md"},
	[O_CONFIG] = {"config", NULL, "LIST",
		"kernel options by Kconfig name or boot parameter, e.g.\n"
		"CONFIG_MEMCG=y,CONFIG_RANDOM_KMALLOC_CACHES=y,init_on_free=1\n"
		"(over the target's; docs/strategies.md lists them)"},
	[O_DEBUG] = {"slub-debug", NULL, "SPEC",
		"slub_debug flags F Z P U T (and O), optionally limited to\n"
		"named caches as the kernel's slub_debug=P,kmalloc-512 does"},
	[O_COSTS] = {"costs", NULL, "FILE",
		"cost table overriding allocators/costs/default.costs"},
	[O_CPUS] = {"cpus", NULL, "N",
		"CPUs the kernel sees (default: the trace's meta cpus,\n"
		"else the target's)"},
	[O_NODES] = {"nodes", NULL, "N",
		"NUMA nodes, CPUs split in equal blocks (default: the target's)"},
	[O_NOMERGE] = {"no-merge", NULL, NULL,
		"no SLUB cache merging for caches a model creates (an\n"
		"imported trace's own caches are never merged)"},
	[O_INITIAL] = {"initial-state", NULL, "SNAPSHOT",
		"start each cache the kernel had as it was: a capture's\n"
		"slab-before.txt (or its directory), a copied\n"
		"/sys/kernel/slab or a /proc/slabinfo 2.1 file: geometry,\n"
		"slabs, objects, free slots; prior frees (u) take objects\n"
		"out of it, each kernel slab's from one slab holding as\n"
		"many; kmalloc-cg-N caches listed turn CONFIG_MEMCG on;\n"
		"each CPU's active slab half free, or as the trace's meta\n"
		"cpu_slab_free says (docs/own-trace.md)"},
	[O_INITIAL_KERNEL] = {"initial-kernel", NULL, "T[,cpus=N][,K=V...]",
		"with --initial-state: the kernel it was taken from, its\n"
		"target, CPU count and options as --config takes them\n"
		"(slub_min_order=3 ...; default: --target's file without\n"
		"--config, at the trace's meta cpus).  A cache whose\n"
		"stride its calculate_order() lays out as the snapshot\n"
		"shows and this run's rules otherwise starts in this\n"
		"run's order, the kernel's objects in its slabs\n"
		"(kernel.txt: initial_relaid; docs/own-trace.md)"},
	[O_SLAB_FILL] = {"slab-fill", NULL, "FILE",
		"the initial state's node partial and CPU slabs as the\n"
		"kernel listed them (a capture's slab-fill-before.txt):\n"
		"each one's objects in use, in list order, instead of a\n"
		"spread of the snapshot's count and a half-full estimate\n"
		"for the CPU slabs; with a trace imported\n"
		"with the same file (meta slab_fill), a prior free of a\n"
		"listed kernel slab takes from that very slab\n"
		"(docs/own-trace.md)"},
	[O_FINAL] = {"final-state", NULL, "SNAPSHOT",
		"the kernel's caches after the trace (with --initial-state):\n"
		"objects left live at sites the import found freed without\n"
		"events are released where the model holds more than the\n"
		"kernel (settled.csv; the replay before that:\n"
		"slabinfo.unsettled; docs/own-trace.md)"},
	[O_PLACE] = {"place", NULL, "FILE",
		"placement overrides on top of the model's placement: sites\n"
		"moved to dedicated caches or other classes, a kmalloc class\n"
		"set (what `slabsim advise` proposes; docs/advise.md)"},
	[O_DRAW] = {"draw-seed", NULL, "N",
		"with --initial-state: another of the equally likely draws of\n"
		"which initial slab a free of an object from before the trace\n"
		"takes (default 0, each cache's own; kernel.txt says it): how\n"
		"much of a figure is the draw (docs/own-trace.md)"},
	[O_VARIANT] = {"variant", NULL, "NAME",
		"variant label for the summary (default: the trace's meta)"},
	[O_LABEL] = {"label", NULL, "NAME",
		"model label for the summary (default: MODEL)"},
	[O_MAXOBJ] = {"max-objects", NULL, "N",
		"cap on the object id space (default 67108864)"},
	[O_MAXMEM] = {"max-memory", NULL, "BYTES",
		"cap on simulated slab + kmalloc_large memory, e.g. 512M,\n"
		"64G (default 64G): over it the run stops at that event"},
	[O_SAMPLE] = {"sample-every", NULL, "N",
		"timeline sample interval in events (default 4096)"},
	[O_TOPO] = {"topology", NULL, "SPEC",
		"host, synth:\"pack:2 numa:2 core:16 pu:2\" or xml:FILE (hwloc):\n"
		"per-PU and per-NUMA-node state (instead of --cpus/--nodes)"},
	[O_MAP] = {"map", NULL, "POLICY",
		"trace CPUs onto PUs: identity (default), compact, scatter, fold\n"
		"(scatter, trace CPU n on the PU of n modulo the PUs)"},
	[O_MODE] = {"mode", NULL, "MODE",
		"model (default) or host: replay against real memory on this\n"
		"machine, one pinned thread per PU, measured figures only\n"
		"(measured*.csv, measured.json; default topology: host)"},
	[O_EVENTS] = {"events", NULL, "LIST",
		"host mode counters via libpfm4 (default\n" SS_PMU_DEFAULT_EVENTS ")"},
	[O_OUT] = {"out", NULL, "DIR",
		"output directory (created if missing); with several models,\n"
		"%m in DIR is the model (else DIR/MODEL)"},
	[O_QUIET] = {"quiet", "-q", NULL,
		"print nothing on success (default: a slabtop-style summary\n"
		"on stdout: totals, the largest and the most wasteful caches)"},
	[O_RUNS] = {"runs", NULL, "FILE",
		"a run list: one run per line, its own options (--model,\n"
		"--target, --variant, --out, ...; quotes group words; # comments)\n"
		"on top of the command line's; one pass over TRACE feeds them all;\n"
		"two runs may not share an --out"},
	[O_JOBS] = {"jobs", NULL, "N",
		"threads replaying a run list or several models (default: one\n"
		"per CPU this process may use, at most one per run)"},
	[O_NOKERNEL] = {"no-kernel-note", NULL, "FILE",
		"when no kernel has this run's allocator and options (exit 3\n"
		"alone), write why into FILE and leave the run out (no --out)\n"
		"instead of failing: the other runs of a list go on"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};


static void run_usage(FILE *out);

static const struct ss_opt_set opt_set = {"run", specs, NR_OPTS, run_usage};

static void run_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim run --trace TRACE --model MODEL[+LETTERS] --target TARGET --out DIR\n"
		"       slabsim run --trace TRACE --model \"M1 M2 ...\" --target TARGET --out DIR\n"
		"       slabsim run --trace TRACE --runs FILE [--jobs N] [options for every run]\n"
		"                   [--allocator A] [--config LIST]\n"
		"                   [--slub-debug SPEC] [--costs FILE] [--cpus N]\n"
		"                   [--nodes N] [--no-merge] [--initial-state SNAPSHOT]\n"
		"                   [--initial-kernel T[,cpus=N][,K=V...]]\n"
		"                   [--slab-fill FILE] [--final-state SNAPSHOT] [--draw-seed N]\n"
		"                   [--place FILE]\n"
		"                   [--variant NAME] [--label NAME] [--max-objects N]\n"
		"                   [--max-memory BYTES]\n"
		"                   [--sample-every N] [--topology SPEC] [--map POLICY]\n"
		"                   [--mode model|host] [--events LIST] [--quiet]\n"
		"                   [--no-kernel-note FILE]\n\n"
		"Replay TRACE through an allocator model and write the run's results into DIR:\n"
		"summary.csv and summary.json (one row), caches.csv (slabinfo-style per cache),\n"
		"sites.csv (per allocation site and cache, as perf kmem stat --caller),\n"
		"counters.csv (SLUB_STATS counters per cache), functions.csv (calls and cycles\n"
		"per kernel function and cache), locks.csv (lock waits and cmpxchg retries\n"
		"per cache on the simulated clocks), latency.csv (alloc/free latency histogram),\n"
		"work.csv (time per work label), slabinfo (/proc/slabinfo 2.1 at the end),\n"
		"slabinfo.K-PHASE (at each phase marker), timeline.csv (footprint over the\n"
		"trace) and kernel.txt (the allocator and options modelled).  See\n"
		"docs/outputs.md.\n\n"
		"Several models, or a run list, are replayed from one pass over TRACE: it is\n"
		"read and decoded once, and each batch of events feeds every run (threads:\n"
		"--jobs).  Each run's outputs are those it would have alone.\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 error (bad input names file:line), 2 bad usage, 3 no\n"
		     "kernel has that allocator and those options (the target's era lacks\n"
		     "them, or Kconfig rules them out).\n");
}

/* --model's help: the registry's models, then the +LETTERS form. */
static void model_list(FILE *out, int col)
{
	for (unsigned i = 0; i < ss_model_count(); i++)
		fprintf(out, "%*s%-16s %s\n", col + 2, "", ss_model_at(i)->name,
			ss_model_at(i)->summary);
	fprintf(out, "%*sMODEL+LETTERS also applies slub_debug LETTERS (e.g. traced+P)\n",
		col, "");
}

/* --events: the list's syntax only; the counters open at run time. */
static int check_events(const char *v)
{
	struct ss_pmu_set check;
	struct ss_error perr;

	if (ss_pmu_parse(&check, v, &perr))
		return ss_opt_usage_err(&opt_set, "%s", perr.msg);
	return 0;
}

static int take_run_opt(void *ctx, int id, const char *v)
{
	struct run_opts *o = ctx;

	switch (id) {
	case O_TRACE: o->it.spec.trace = v; return 0;
	case O_MODEL:
		/* argv and a run list's words are writable: one spelling from here on */
		ss_model_canon((char *)v);
		o->it.spec.model = v;
		return 0;
	case O_TARGET: o->it.spec.target = v; return 0;
	case O_ALLOCATOR:
		o->it.spec.allocator = v;
		return ss_allocator_parse(v, &(enum ss_allocator){0}) ? SS_OPT_BAD_VALUE : 0;
	case O_CONFIG: o->it.spec.config = v; return 0;
	case O_LABEL: o->it.out.label = v; return 0;
	case O_OUT: o->it.out.out = v; return 0;
	case O_QUIET: o->it.out.quiet = true; return 0;
	case O_DEBUG: o->it.spec.slub_debug = v; return 0;
	case O_COSTS:
		o->it.spec.costs = v; /* summary.json's cost_table: a JSON string */
		return ss_label_ok(v) ? 0 : ss_opt_usage_err(&opt_set,
			"--costs '%s': a path with control bytes or not UTF-8 cannot be reported", v);
	case O_CPUS: return ss_opt_uint(&opt_set, id, v, 1, 65536, &o->it.spec.cpus);
	case O_NODES: return ss_opt_uint(&opt_set, id, v, 1, 1024, &o->it.spec.nodes);
	case O_NOMERGE: o->it.spec.no_merge = true; return 0;
	case O_PLACE: o->it.spec.place = v; return 0;
	case O_INITIAL: o->it.spec.initial_state = v; return 0;
	case O_INITIAL_KERNEL: o->it.spec.initial_kernel = v; return 0;
	case O_FINAL: o->it.spec.final_state = v; return 0;
	case O_SLAB_FILL: o->it.spec.slab_fill = v; return 0;
	case O_VARIANT: /* a summary.csv and .json field, as a meta value */
		o->it.out.variant = v;
		return ss_label_ok(v) ? 0 : ss_opt_usage_err(&opt_set,
			"--variant '%s': want UTF-8 without control bytes or a leading space", v);
	case O_MAXOBJ: return ss_opt_u64(&opt_set, id, v, 1, 1ull << 40, &o->it.spec.max_objects);
	case O_DRAW: return ss_opt_u64(&opt_set, id, v, 0, UINT32_MAX, &o->it.spec.draw_seed);
	case O_MAXMEM:
		return ss_parse_size(v, 1ull << 50, &o->it.spec.max_memory) || !o->it.spec.max_memory ?
			SS_OPT_BAD_VALUE : 0;
	case O_SAMPLE: return ss_opt_u64(&opt_set, id, v, 1, 1ull << 40, &o->it.out.sample_every);
	case O_TOPO: o->it.spec.topology = v; return 0;
	case O_MAP:
		o->it.spec.map = v;
		if (ss_cpu_map_parse(v, &(enum ss_cpu_map){0}))
			return ss_opt_usage_err(&opt_set, "bad value '%s' for --map (want identity, "
						"compact, scatter or fold)", v);
		return 0;
	case O_RUNS: o->runs = v; return 0;
	case O_NOKERNEL: o->it.out.no_kernel_note = v; return 0;
	case O_JOBS: return ss_opt_uint(&opt_set, id, v, 1, 1024, &o->jobs);
	case O_MODE:
		o->host_mode = !strcmp(v, "host");
		return strcmp(v, "model") && !o->host_mode ? SS_OPT_BAD_VALUE : 0;
	default: /* O_EVENTS */
		o->events = v;
		return check_events(v);
	}
}

static int check_run_opts(const struct run_opts *o);

static int parse_run_opts(int argc, char **argv, struct run_opts *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->it.out.sample_every = 4096;
	if ((rc = ss_opt_scan(&opt_set, argc, argv, take_run_opt, o)))
		return rc;
	if (o->runs) /* each line completes and checks its run (run_list) */
		return o->it.spec.trace ? 0 : ss_opt_usage_err(&opt_set, "--runs needs --trace");
	return check_run_opts(o);
}

/* A run's options, complete. */
static int check_run_opts(const struct run_opts *o)
{
	if (!o->it.spec.trace || !o->it.spec.model || !o->it.spec.target || !o->it.out.out)
		return ss_opt_usage_err(&opt_set, "--trace, --model, --target and --out are required");
	if (o->it.spec.topology && (o->it.spec.cpus || o->it.spec.nodes))
		return ss_opt_usage_err(&opt_set, "--topology sets the CPUs and nodes; drop --cpus/--nodes");
	if (o->host_mode && (o->it.spec.cpus || o->it.spec.nodes))
		return ss_opt_usage_err(&opt_set, "host mode takes --topology, not --cpus/--nodes");
	if (o->it.spec.final_state && !o->it.spec.initial_state)
		return ss_opt_usage_err(&opt_set, "--final-state settles against --initial-state: give both");
	if (o->it.spec.slab_fill && !o->it.spec.initial_state)
		return ss_opt_usage_err(&opt_set, "--slab-fill fills --initial-state's slabs: give both");
	if (o->it.spec.initial_kernel && !o->it.spec.initial_state)
		return ss_opt_usage_err(&opt_set, "--initial-kernel names --initial-state's kernel: give both");
	if (o->host_mode && o->it.spec.initial_state)
		return ss_opt_usage_err(&opt_set, "host mode replays in real memory: no --initial-state");
	if (o->events && !o->host_mode)
		return ss_opt_usage_err(&opt_set, "--events counts host-mode runs only (add --mode host)");
	return 0;
}

/* ---- several runs ---- */

struct run_list {
	struct run_opts *runs;
	unsigned n, cap;
	struct ss_opt_lines lines; /* the options point into these */
	const struct run_opts *base;
};

static struct run_opts *list_add(struct run_list *l, const struct run_opts *o)
{
	if (l->n == l->cap) {
		unsigned cap = l->cap ? l->cap * 2 : 8;
		struct run_opts *r = realloc(l->runs, cap * sizeof(*r));

		if (!r)
			return NULL;
		l->runs = r;
		l->cap = cap;
	}
	l->runs[l->n] = *o;
	return &l->runs[l->n++];
}

static void list_release(struct run_list *l)
{
	ss_opt_lines_release(&l->lines);
	free(l->runs);
}

/* A line of the run list: the command line's options, then the line's. */
static int take_line(void *ctx, int argc, char **argv, unsigned long lineno)
{
	struct run_list *l = ctx;
	const struct run_opts *base = l->base;
	struct run_opts o = *base;

	o.runs = NULL;
	if (ss_opt_scan(&opt_set, argc, argv, take_run_opt, &o) || o.runs ||
	    o.jobs != base->jobs || o.it.spec.trace != base->it.spec.trace || o.host_mode ||
	    check_run_opts(&o))
		return ss_opt_usage_err(&opt_set, "%s:%lu: bad run (a line takes run options but not --trace, --runs, --jobs or --mode host)",
					base->runs, lineno);
	o.line = lineno;
	return list_add(l, &o) ? 0 : ss_opt_usage_err(&opt_set, "out of memory");
}

static int read_run_list(const struct run_opts *base, struct run_list *l)
{
	l->base = base;
	if (ss_opt_read_lines(&opt_set, base->runs, &l->lines, take_line, l))
		return -1;
	return l->n ? 0 : ss_opt_usage_err(&opt_set, "%s: no run in the list", base->runs);
}

/* A string of ours kept with the list's lines. */
static char *keep(struct run_list *l, char *s)
{
	char **lines = s ? realloc(l->lines.lines, (l->lines.n + 1) * sizeof(*lines)) : NULL;

	if (!lines) {
		free(s);
		return NULL;
	}
	l->lines.lines = lines;
	return l->lines.lines[l->lines.n++] = s;
}

/* --model "M1 M2 ...": one run per model, --out with %m or DIR/MODEL. */
static int split_models(const struct run_opts *base, struct run_list *l)
{
	char *models = keep(l, strdup(base->it.spec.model)), *words[128];
	int n = models ? ss_split_words(models, words, 128) : -1;

	if (n <= 0)
		return ss_opt_usage_err(&opt_set, "bad --model list");
	if (base->it.out.label && n > 1) /* one label would name every run */
		return ss_opt_usage_err(&opt_set, "--label names one model's run, not a --model list");
	for (int i = 0; i < n; i++) {
		struct run_opts o = *base;
		const char *pct = strstr(base->it.out.out, "%m");
		char out[4096];

		o.it.spec.model = words[i];
		if (pct)
			snprintf(out, sizeof(out), "%.*s%s%s", (int)(pct - base->it.out.out),
				 base->it.out.out, words[i], pct + 2);
		else
			snprintf(out, sizeof(out), "%s/%s", base->it.out.out, words[i]);
		if (!(o.it.out.out = keep(l, strdup(out))) || !list_add(l, &o))
			return ss_opt_usage_err(&opt_set, "out of memory");
	}
	return 0;
}

/* Two runs writing one --out would replace each other's files after both
 * replays: refuse it before any, naming both lines (or both models). */
static int check_distinct_outs(const struct run_opts *base, const struct run_list *l)
{
	for (unsigned i = 1; i < l->n; i++) {
		for (unsigned j = 0; j < i; j++) {
			const struct run_opts *r = &l->runs[j], *s = &l->runs[i];

			if (!ss_outdir_same(r->it.out.out, s->it.out.out))
				continue;
			if (base->runs)
				return ss_opt_usage_err(&opt_set, "%s:%lu: --out %s: line %lu writes there too",
							base->runs, s->line, s->it.out.out, r->line);
			return ss_opt_usage_err(&opt_set, "--model '%s' and '%s' both write --out %s",
						r->it.spec.model, s->it.spec.model, s->it.out.out);
		}
	}
	return 0;
}

/* Exit status of a run whose allocator and options no kernel has (the
 * era lacks them, or Kconfig rules them out): make compare skips it. */
#define EXIT_NO_SUCH_KERNEL 3

/* The runs of the list from one pass: the exit status. */
static int replay_list(const struct run_list *l, unsigned jobs)
{
	struct ss_run_item *items = calloc(l->n, sizeof(*items));
	struct ss_error err = {{0}};
	enum ss_runs_result r;

	if (!items) {
		fprintf(stderr, "slabsim run: out of memory\n");
		return 1;
	}
	for (unsigned i = 0; i < l->n; i++) {
		items[i] = l->runs[i].it;
		/* one run alone draws its bar; a set draws one for all */
		items[i].out.progress = true;
	}
	r = ss_runs_replay(items, l->n, jobs, "slabsim run", &err);
	free(items);
	if (r != SS_RUNS_OK)
		fprintf(stderr, "slabsim run: %s\n", err.msg);
	return r == SS_RUNS_NO_SUCH_KERNEL ? EXIT_NO_SUCH_KERNEL : r == SS_RUNS_OK ? 0 : 1;
}

/* --mode host: the same trace, model and topology options, measured. */
static int run_host(const struct run_opts *o, struct ss_error *err)
{
	struct ss_outdir od;
	struct ss_host_opts h = {
		.spec = o->it.spec, .variant = o->it.out.variant, .events = o->events,
	};

	if (ss_outdir_begin(&od, o->it.out.out, err))
		return -1;
	h.out = od.stage;
	if (!ss_host_run_cmd(&h, err))
		return ss_outdir_commit(&od, err);
	ss_outdir_abort(&od);
	ss_outdir_name_error(&od, err);
	return -1;
}

int ss_cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct ss_error err = {{0}};
	struct run_list l = {0};
	int rc = parse_run_opts(argc, argv, &o);

	if (rc)
		return ss_opt_exit(rc);
	if (o.host_mode) {
		if (!run_host(&o, &err))
			return 0;
		fprintf(stderr, "slabsim run: %s\n", err.msg);
		return 1;
	}
	if (o.runs)
		rc = read_run_list(&o, &l);
	else if (strpbrk(o.it.spec.model, " \t") || strstr(o.it.out.out, "%m"))
		rc = split_models(&o, &l);
	else
		rc = list_add(&l, &o) ? 0 : ss_opt_usage_err(&opt_set, "out of memory");
	if (!rc)
		rc = check_distinct_outs(&o, &l);
	rc = rc ? 2 : replay_list(&l, o.jobs);
	list_release(&l);
	return rc;
}
