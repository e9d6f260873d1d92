/* cmd_run.c - `slabsim run`: replay one trace through one model. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "escape.h"
#include "commands.h"
#include "model.h"
#include "opts.h"
#include "parse.h"
#include "host_run.h"
#include "multi.h"
#include "outdir.h"
#include "progress.h"
#include "replay.h"
#include "results.h"
#include "run.h"
#include "slabtop.h"
#include "settle.h"
#include "timeline.h"

struct run_opts {
	struct ss_run_spec spec; /* trace, model, target, costs, topology, ... */
	const char *out, *variant, *label;
	uint64_t sample_every;
	const char *events; /* docs/topology.md */
	bool host_mode;	    /* docs/host-mode.md */
	bool quiet;	    /* no summary on stdout */
	const char *runs;   /* a run list (decode once, replay many) */
	unsigned jobs;	    /* threads of a run list; 0: one per CPU */
};

enum {
	O_TRACE, O_MODEL, O_TARGET, O_ALLOCATOR, O_CONFIG, O_DEBUG, O_COSTS, O_CPUS,
	O_NODES, O_NOMERGE, O_INITIAL, O_SLAB_FILL, O_PLACE, O_FINAL,
	O_DRAW, O_VARIANT, O_LABEL, O_MAXOBJ, O_MAXMEM, O_SAMPLE, O_TOPO, O_MAP, O_MODE, O_EVENTS,
	O_OUT, O_QUIET, O_RUNS, O_JOBS, O_HELP, NR_OPTS,
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
		"per online CPU, at most one per run)"},
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
		"                   [--slab-fill FILE] [--final-state SNAPSHOT] [--draw-seed N]\n"
		"                   [--place FILE]\n"
		"                   [--variant NAME] [--label NAME] [--max-objects N]\n"
		"                   [--max-memory BYTES]\n"
		"                   [--sample-every N] [--topology SPEC] [--map POLICY]\n"
		"                   [--mode model|host] [--events LIST] [--quiet]\n\n"
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
	case O_TRACE: o->spec.trace = v; return 0;
	case O_MODEL:
		/* argv and a run list's words are writable: one spelling from here on */
		ss_model_canon((char *)v);
		o->spec.model = v;
		return 0;
	case O_TARGET: o->spec.target = v; return 0;
	case O_ALLOCATOR:
		o->spec.allocator = v;
		return ss_allocator_parse(v, &(enum ss_allocator){0}) ? SS_OPT_BAD_VALUE : 0;
	case O_CONFIG: o->spec.config = v; return 0;
	case O_LABEL: o->label = v; return 0;
	case O_OUT: o->out = v; return 0;
	case O_QUIET: o->quiet = true; return 0;
	case O_DEBUG: o->spec.slub_debug = v; return 0;
	case O_COSTS:
		o->spec.costs = v; /* summary.json's cost_table: a JSON string */
		return ss_label_ok(v) ? 0 : ss_opt_usage_err(&opt_set,
			"--costs '%s': a path with control bytes or not UTF-8 cannot be reported", v);
	case O_CPUS: return ss_opt_uint(&opt_set, id, v, 1, 65536, &o->spec.cpus);
	case O_NODES: return ss_opt_uint(&opt_set, id, v, 1, 1024, &o->spec.nodes);
	case O_NOMERGE: o->spec.no_merge = true; return 0;
	case O_PLACE: o->spec.place = v; return 0;
	case O_INITIAL: o->spec.initial_state = v; return 0;
	case O_FINAL: o->spec.final_state = v; return 0;
	case O_SLAB_FILL: o->spec.slab_fill = v; return 0;
	case O_VARIANT: /* a summary.csv and .json field, as a meta value */
		o->variant = v;
		return ss_label_ok(v) ? 0 : ss_opt_usage_err(&opt_set,
			"--variant '%s': want UTF-8 without control bytes or a leading space", v);
	case O_MAXOBJ: return ss_opt_u64(&opt_set, id, v, 1, 1ull << 40, &o->spec.max_objects);
	case O_DRAW: return ss_opt_u64(&opt_set, id, v, 0, UINT32_MAX, &o->spec.draw_seed);
	case O_MAXMEM:
		return ss_parse_size(v, 1ull << 50, &o->spec.max_memory) || !o->spec.max_memory ?
			SS_OPT_BAD_VALUE : 0;
	case O_SAMPLE: return ss_opt_u64(&opt_set, id, v, 1, 1ull << 40, &o->sample_every);
	case O_TOPO: o->spec.topology = v; return 0;
	case O_MAP:
		o->spec.map = v;
		if (ss_cpu_map_parse(v, &(enum ss_cpu_map){0}))
			return ss_opt_usage_err(&opt_set, "bad value '%s' for --map (want identity, "
						"compact, scatter or fold)", v);
		return 0;
	case O_RUNS: o->runs = v; return 0;
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
	o->sample_every = 4096;
	if ((rc = ss_opt_scan(&opt_set, argc, argv, take_run_opt, o)))
		return rc;
	if (o->runs) /* each line completes and checks its run (run_list) */
		return o->spec.trace ? 0 : ss_opt_usage_err(&opt_set, "--runs needs --trace");
	return check_run_opts(o);
}

/* A run's options, complete. */
static int check_run_opts(const struct run_opts *o)
{
	if (!o->spec.trace || !o->spec.model || !o->spec.target || !o->out)
		return ss_opt_usage_err(&opt_set, "--trace, --model, --target and --out are required");
	if (o->spec.topology && (o->spec.cpus || o->spec.nodes))
		return ss_opt_usage_err(&opt_set, "--topology sets the CPUs and nodes; drop --cpus/--nodes");
	if (o->host_mode && (o->spec.cpus || o->spec.nodes))
		return ss_opt_usage_err(&opt_set, "host mode takes --topology, not --cpus/--nodes");
	if (o->spec.final_state && !o->spec.initial_state)
		return ss_opt_usage_err(&opt_set, "--final-state settles against --initial-state: give both");
	if (o->spec.slab_fill && !o->spec.initial_state)
		return ss_opt_usage_err(&opt_set, "--slab-fill fills --initial-state's slabs: give both");
	if (o->host_mode && o->spec.initial_state)
		return ss_opt_usage_err(&opt_set, "host mode replays in real memory: no --initial-state");
	if (o->events && !o->host_mode)
		return ss_opt_usage_err(&opt_set, "--events counts host-mode runs only (add --mode host)");
	return 0;
}

/* caches in each table of the summary printed at the end */
#define RUN_TOP 10

/* ---- per-run outputs written during the replay ---- */

struct run_io {
	const char *dir; /* the staging directory (base/outdir.h) */
	struct ss_atomic_file timeline;
	struct ss_progress progress; /* the bar on a terminal's stderr */
};

static int timeline_row(struct ss_run *run, struct ss_error *err)
{
	struct run_io *io = run->user;

	(void)err;
	ss_progress_tick(&io->progress, run->books.events);
	ss_timeline_row(io->timeline.fp, run);
	return 0;
}

static int on_phase(struct ss_run *run, const char *phase, struct ss_error *err)
{
	struct run_io *io = run->user;
	char name[128];

	if (timeline_row(run, err))
		return -1;
	if (!phase) {
		snprintf(name, sizeof(name), "slabinfo");
	} else {
		char *p;

		snprintf(name, sizeof(name), "slabinfo.%llu-%.80s",
			 (unsigned long long)run->phase_index, phase);
		/* a phase name is any trace name: in a file name, '/' would
		 * leave the directory (found by fuzz_roundtrip) and quotes
		 * trip shells; K keeps the names apart */
		for (p = name + 9; *p; p++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *p))
				*p = '_';
	}
	return ss_write_slabinfo(io->dir, name, run, err);
}

/* --final-state: the settling rule (sim/settle.h), then settled.csv and
 * the final slabinfo again (it was written at the end of the replay);
 * slabinfo.unsettled keeps the replay's own, what a run without
 * --final-state ends with (the report's figure without settling). */
static int settle(struct ss_run *run, const struct run_opts *o, struct run_io *io,
		  struct ss_error *err)
{
	struct ss_snap after;
	struct ss_settle s;
	struct ss_atomic_file f;
	char path[4200];
	int rc;

	if (!o->spec.final_state)
		return 0;
	if (ss_write_slabinfo(io->dir, "slabinfo.unsettled", run, err))
		return -1;
	if (ss_snap_load_in(&after, o->spec.final_state, "slab-after.txt", err))
		return -1;
	ss_timeline_settled(io->timeline.fp, run); /* the phase's marker row */
	rc = ss_settle_run(run, &after, &s, err);
	ss_snap_release(&after);
	if (rc)
		return -1;
	ss_timeline_settled(io->timeline.fp, run);
	snprintf(path, sizeof(path), "%s/settled.csv", io->dir);
	if (ss_atomic_open(&f, path, err)) {
		ss_settle_release(&s);
		return -1;
	}
	ss_settle_csv(f.fp, run, &s);
	ss_settle_release(&s);
	if (ss_atomic_commit(&f, err))
		return -1;
	return ss_write_slabinfo(io->dir, "slabinfo", run, err);
}

/* kernel.txt: what kernel and machine the run modelled and from what,
 * for a report's header and a comparison across allocators and options
 * (docs/outputs.md): the settings as the run took them, so that a report
 * says what its runs used and not what a command line asked for. */
static int write_kernel(const char *dir, const struct ss_run *run, const struct run_opts *o,
			struct ss_error *err)
{
	const struct ss_run_spec *sp = &o->spec;
	struct ss_atomic_file f;
	char path[4200], era[16], opts[1024];

	snprintf(path, sizeof(path), "%s/kernel.txt", dir);
	if (ss_atomic_open(&f, path, err))
		return -1;
	ss_era_str(run->target->era, era, sizeof(era));
	ss_kconfig_str(&run->target->kc, opts, sizeof(opts));
	fprintf(f.fp, "target=%s\nera=%s\nallocator=%s\nconfig=%s\n", run->target->name, era,
		ss_allocator_name(run->target->kc.allocator), opts);
	if (sp->draw_seed) /* (the default draws: no line, as before there was one) */
		fprintf(f.fp, "draw_seed=%llu\n", (unsigned long long)sp->draw_seed);
	/* the slub_* boot parameters (ss_kconfig_set: --config takes them) */
	fprintf(f.fp, "slub_min_order=%u\nslub_max_order=%u\nslub_min_objects=%u\n",
		run->target->slub_min_order, run->target->slub_max_order,
		run->target->slub_min_objects);
	fprintf(f.fp, "cpus=%u\ntopology=%s\ncosts=%s\ntrace=%s\n", run->topo->nr_cpus,
		run->topo->desc, sp->costs ? sp->costs : "default", sp->trace);
	if (sp->initial_state)
		fprintf(f.fp, "initial_state=%s\n", sp->initial_state);
	return ss_atomic_commit(&f, err);
}

static int write_results(struct ss_run *run, const struct run_opts *o,
			 const struct ss_run_setup *rs, struct run_io *io,
			 struct ss_error *err)
{
	const char *meta_wl = ss_trace_meta(run->tables, "workload");
	const char *meta_var = ss_trace_meta(run->tables, "variant");
	struct ss_run_labels lb = {
		.workload = meta_wl ? meta_wl : "trace",
		.variant = o->variant ? o->variant : meta_var ? meta_var : "-",
		.model = o->label ? o->label : o->spec.model,
		.costs = o->spec.costs ? o->spec.costs : "default",
		.slub_debug = rs->debug_spec[0] ? rs->debug_spec : "-",
	};

	if (write_kernel(io->dir, run, o, err) ||
	    (o->spec.initial_state && ss_write_prior(io->dir, run, err)))
		return -1;
	if (ss_write_caches(io->dir, run, err) || ss_write_counters(io->dir, run, err) ||
	    ss_write_sites(io->dir, run, err) ||
	    ss_write_functions(io->dir, run, err) || ss_write_locks(io->dir, run, err) ||
	    ss_write_latency(io->dir, run, err) || ss_write_work(io->dir, run, err) ||
	    ss_write_summary(io->dir, run, &lb, err))
		return -1;
	/* a run list's runs complete one after another: no interleaving */
	if (!o->quiet && ss_print_slabtop(stdout, run, &lb, RUN_TOP))
		return ss_errorf(err, "stdout: write failed");
	return 0;
}

/* One run of a command: its options, set-up, replay state and outputs. */
struct one_run {
	struct run_opts o;
	struct ss_run_setup rs;
	struct ss_run run;
	struct run_io io;
	struct ss_outdir od; /* --out, staged (base/outdir.h) */
	char tl[4300];
	unsigned long line; /* in the run list (0: from --model) */
};

/* Everything up to the replay.  shared: the reader of a run list (no
 * progress bar: several runs would redraw one line). */
static int run_prepare(struct one_run *r, struct ss_trace_reader *shared,
		       struct ss_error *err)
{
	const struct run_opts *o = &r->o;

	r->run = (struct ss_run){.on_phase = on_phase, .on_sample = timeline_row,
				 .sample_every = o->sample_every, .user = &r->io};
	/* first, so that run_release may always abort it */
	if (ss_outdir_begin(&r->od, o->out, err))
		return -1;
	r->io.dir = r->od.stage;
	if (ss_run_setup_load(&r->rs, &o->spec, err) ||
	    (shared ? ss_run_setup_open_with(&r->rs, &o->spec, shared, err)
		    : ss_run_setup_open(&r->rs, &o->spec, err)) ||
	    ss_run_setup_start(&r->rs, &r->run, err))
		return -1;
	snprintf(r->tl, sizeof(r->tl), "%s/timeline.csv", r->io.dir);
	if (ss_atomic_open(&r->io.timeline, r->tl, err))
		return -1;
	ss_timeline_start(r->io.timeline.fp, &r->run);
	if (!shared)
		ss_progress_start(&r->io.progress, STDERR_FILENO, o->spec.model, o->spec.trace);
	return 0;
}

/* After the replay: the result files. */
static int run_complete(struct one_run *r, struct ss_error *err)
{
	if (settle(&r->run, &r->o, &r->io, err) || ss_atomic_commit(&r->io.timeline, err) ||
	    write_results(&r->run, &r->o, &r->rs, &r->io, err))
		return -1;
	return ss_outdir_commit(&r->od, err);
}

/* "D.tmp.PID/timeline.csv: write failed": name the file the user asked
 * for, D/timeline.csv. */
static void name_user_path(const struct ss_outdir *od, struct ss_error *err)
{
	size_t n = strlen(od->stage);

	if (n && !strncmp(err->msg, od->stage, n)) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg + n);
		ss_errorf(err, "%s%s", od->dir, msg);
	}
}

/* Release the run; a failed one (rc) leaves none of its files. */
static void run_release(struct one_run *r, int rc)
{
	ss_progress_done(&r->io.progress);
	if (rc) {
		ss_atomic_abort(&r->io.timeline);
		ss_outdir_abort(&r->od); /* a failed run leaves --out empty */
	}
	ss_run_setup_close(&r->rs, &r->run);
}

/* Exit status of a run whose allocator and options no kernel has (the
 * era lacks them, or Kconfig rules them out): make compare skips it. */
#define EXIT_NO_SUCH_KERNEL 3

static int run_replay(const struct run_opts *o, struct ss_error *err)
{
	struct one_run r = {.o = *o};
	int rc = -1;

	if (!run_prepare(&r, NULL, err) && !ss_replay(&r.run, r.rs.reader, err))
		rc = run_complete(&r, err);
	if (rc)
		name_user_path(&r.od, err);
	if (rc && r.rs.kernel_error)
		rc = EXIT_NO_SUCH_KERNEL;
	run_release(&r, rc);
	return rc;
}

/* How much a run costs, roughly, to balance the threads: slub_debug
 * paths take about twice the work of plain ones. */
static unsigned run_weight(const struct run_opts *o)
{
	return strchr(o->spec.model, '+') || o->spec.slub_debug ? 3 : 1;
}

/* Several runs from one pass over the trace per thread (multi.h): the
 * runs go to `jobs` groups, heaviest first to the lightest group, each
 * group with its own reader.  Each failed run is reported with its output
 * directory; returns -1 if any failed. */
static int run_many(struct one_run *runs, unsigned n, unsigned jobs,
		    const char *trace, struct ss_error *err)
{
	struct ss_multi_slot *slots = calloc(n, sizeof(*slots));
	struct ss_multi_group *groups;
	unsigned *group_of = calloc(n, sizeof(*group_of)), *load, nr_failed = 0, g, i;
	int rc = -1;

	if (!jobs) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cpus > 0 ? (unsigned)cpus : 1;
	}
	if (jobs > n)
		jobs = n;
	groups = calloc(jobs, sizeof(*groups));
	load = calloc(jobs, sizeof(*load));
	if (!slots || !group_of || !groups || !load) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	if (!strcmp(trace, "-")) {
		ss_errorf(err, "several runs read the trace from a file, not standard input");
		goto out;
	}
	for (unsigned w = 3; w > 0; w--) { /* heaviest first, to the lightest group */
		for (i = 0; i < n; i++) {
			unsigned best = 0;

			if (run_weight(&runs[i].o) != w)
				continue;
			for (g = 1; g < jobs; g++)
				if (load[g] < load[best])
					best = g;
			group_of[i] = best;
			load[best] += w;
			groups[best].n++;
		}
	}
	for (g = 0; g < jobs; g++) {
		if (ss_trace_open(&groups[g].reader, trace, err))
			goto out;
		if (!g)
			ss_trace_note_unchecked(groups[g].reader);
	}
	/* the slots of a group are contiguous, in run order */
	for (g = 0, i = 0; g < jobs; g++) {
		groups[g].slots = slots + i;
		groups[g].n = 0;
		for (unsigned j = 0; j < n; j++)
			if (group_of[j] == g)
				slots[i + groups[g].n++].run = &runs[j].run;
		i += groups[g].n;
	}
	for (i = 0; i < n; i++) {
		if (run_prepare(&runs[i], groups[group_of[i]].reader, err)) {
			/* a set-up error (a bad target, say) stops the command
			 * before any replay, as it does for one run */
			for (unsigned j = 0; j <= i; j++)
				run_release(&runs[j], -1);
			goto out;
		}
	}
	rc = ss_replay_multi(groups, jobs, err);
	for (i = 0; i < n; i++) {
		struct ss_multi_slot *s = NULL;
		int run_rc;

		for (unsigned k = 0; k < n; k++)
			if (slots[k].run == &runs[i].run)
				s = &slots[k];
		run_rc = rc || s->failed || run_complete(&runs[i], &s->err) ? -1 : 0;
		if (run_rc && !rc) {
			name_user_path(&runs[i].od, &s->err);
			fprintf(stderr, "slabsim run: %s: %s\n", runs[i].o.out, s->err.msg);
			nr_failed++;
		}
		run_release(&runs[i], run_rc);
	}
	if (!rc && nr_failed)
		rc = ss_errorf(err, "%u of %u runs failed", nr_failed, n);
out:
	for (g = 0; groups && g < jobs; g++)
		ss_trace_close(groups[g].reader);
	free(slots);
	free(group_of);
	free(groups);
	free(load);
	return rc;
}

/* ---- run lists ---- */

/* Split a line into words in place: blanks separate, '...' and "..."
 * group (no escapes), '#' outside quotes starts a comment.  Returns the
 * number of words, or -1 for an unterminated quote. */
static int split_words(char *line, char **words, int max)
{
	int n = 0;
	char *p = line, *w;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			return n;
		if (n == max)
			return -1;
		words[n++] = w = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
			if (*p == '\'' || *p == '"') {
				char q = *p++;

				while (*p && *p != q)
					*w++ = *p++;
				if (!*p)
					return -1;
				p++;
			} else {
				*w++ = *p++;
			}
		}
		if (*p)
			p++;
		*w = '\0';
	}
}

struct run_list {
	struct one_run *runs;
	unsigned n, cap;
	char **lines; /* the options point into these */
	unsigned nr_lines;
};

static struct one_run *list_add(struct run_list *l, const struct run_opts *o)
{
	if (l->n == l->cap) {
		unsigned cap = l->cap ? l->cap * 2 : 8;
		struct one_run *r = realloc(l->runs, cap * sizeof(*r));

		if (!r)
			return NULL;
		l->runs = r;
		l->cap = cap;
	}
	memset(&l->runs[l->n], 0, sizeof(l->runs[0]));
	l->runs[l->n].o = *o;
	return &l->runs[l->n++];
}

static void list_release(struct run_list *l)
{
	for (unsigned i = 0; i < l->nr_lines; i++)
		free(l->lines[i]);
	free(l->lines);
	free(l->runs);
}

/* Each line of FILE: the command line's options, then the line's. */
static int read_run_list(const struct run_opts *base, struct run_list *l)
{
	FILE *fp = fopen(base->runs, "r");
	char buf[8192], *words[128], *argv[130];
	unsigned long lineno = 0;
	int rc = 0;

	if (!fp)
		return ss_opt_usage_err(&opt_set, "%s: %s", base->runs, strerror(errno));
	while (!rc && fgets(buf, sizeof(buf), fp)) {
		struct run_opts o = *base;
		char *line, **lines;
		int n;

		lineno++;
		if (!strchr(buf, '\n') && !feof(fp)) {
			rc = ss_opt_usage_err(&opt_set, "%s:%lu: line too long", base->runs, lineno);
			break;
		}
		if (!(line = strdup(buf)) ||
		    !(lines = realloc(l->lines, (l->nr_lines + 1) * sizeof(*lines)))) {
			free(line);
			rc = ss_opt_usage_err(&opt_set, "out of memory");
			break;
		}
		l->lines = lines;
		l->lines[l->nr_lines++] = line;
		n = split_words(line, words, 128);
		if (n < 0) {
			rc = ss_opt_usage_err(&opt_set, "%s:%lu: unterminated quote or too many words",
					      base->runs, lineno);
			break;
		}
		if (!n)
			continue;
		argv[0] = "run";
		memcpy(argv + 1, words, (size_t)n * sizeof(*words));
		o.runs = NULL;
		if (ss_opt_scan(&opt_set, n + 1, argv, take_run_opt, &o) || o.runs ||
		    o.jobs != base->jobs || o.spec.trace != base->spec.trace || o.host_mode ||
		    check_run_opts(&o)) {
			rc = ss_opt_usage_err(&opt_set, "%s:%lu: bad run (a line takes run options but not --trace, --runs, --jobs or --mode host)",
					      base->runs, lineno);
			break;
		}
		if (!list_add(l, &o))
			rc = ss_opt_usage_err(&opt_set, "out of memory");
		else
			l->runs[l->n - 1].line = lineno;
	}
	if (!rc && ferror(fp))
		rc = ss_opt_usage_err(&opt_set, "%s: read error", base->runs);
	fclose(fp);
	if (!rc && !l->n)
		rc = ss_opt_usage_err(&opt_set, "%s: no run in the list", base->runs);
	return rc;
}

/* --model "M1 M2 ...": one run per model, --out with %m or DIR/MODEL. */
static int split_models(const struct run_opts *base, struct run_list *l)
{
	char *models = strdup(base->spec.model), *words[128];
	int n = models ? split_words(models, words, 128) : -1;

	if (n <= 0 || !(l->lines = malloc(sizeof(*l->lines)))) {
		free(models);
		return ss_opt_usage_err(&opt_set, "bad --model list");
	}
	l->lines[l->nr_lines++] = models;
	if (base->label && n > 1) /* one label would name every run */
		return ss_opt_usage_err(&opt_set, "--label names one model's run, not a --model list");
	for (int i = 0; i < n; i++) {
		struct run_opts o = *base;
		struct one_run *r;
		const char *pct = strstr(base->out, "%m");
		char out[4096], *dup;

		o.spec.model = words[i];
		if (pct)
			snprintf(out, sizeof(out), "%.*s%s%s", (int)(pct - base->out), base->out,
				 words[i], pct + 2);
		else
			snprintf(out, sizeof(out), "%s/%s", base->out, words[i]);
		if (!(dup = strdup(out)) ||
		    !(l->lines = realloc(l->lines, (l->nr_lines + 1) * sizeof(*l->lines)))) {
			free(dup);
			return ss_opt_usage_err(&opt_set, "out of memory");
		}
		l->lines[l->nr_lines++] = dup;
		o.out = dup;
		if (!(r = list_add(l, &o)))
			return ss_opt_usage_err(&opt_set, "out of memory");
	}
	return 0;
}

/* The next component of a directory name after *p, skipping repeated
 * slashes and "." ones; its length, 0 at the end. */
static size_t next_part(const char **p)
{
	size_t len;

	for (;;) {
		while (**p == '/')
			(*p)++;
		len = strcspn(*p, "/");
		if (!(len == 1 && **p == '.'))
			return len;
		*p += len;
	}
}

/* Whether two --out name one directory as words: "a/b" and "./a//b/"
 * do; symbolic links are not followed (the directories may not exist). */
static bool same_dir(const char *a, const char *b)
{
	size_t la, lb;

	if ((*a == '/') != (*b == '/'))
		return false;
	do {
		la = next_part(&a);
		lb = next_part(&b);
		if (la != lb || memcmp(a, b, la))
			return false;
		a += la;
		b += lb;
	} while (la);
	return true;
}

/* Two runs writing one --out would replace each other's files after both
 * replays: refuse it before any, naming both lines (or both models). */
static int check_distinct_outs(const struct run_opts *base, const struct run_list *l)
{
	for (unsigned i = 1; i < l->n; i++) {
		for (unsigned j = 0; j < i; j++) {
			const struct one_run *r = &l->runs[j], *s = &l->runs[i];

			if (!same_dir(r->o.out, s->o.out))
				continue;
			if (base->runs)
				return ss_opt_usage_err(&opt_set, "%s:%lu: --out %s: line %lu writes there too",
							base->runs, s->line, s->o.out, r->line);
			return ss_opt_usage_err(&opt_set, "--model '%s' and '%s' both write --out %s",
						r->o.spec.model, s->o.spec.model, s->o.out);
		}
	}
	return 0;
}

/* --mode host: the same trace, model and topology options, measured. */
static int run_host(const struct run_opts *o, struct ss_error *err)
{
	struct ss_outdir od;
	struct ss_host_opts h = {
		.spec = o->spec, .variant = o->variant, .events = o->events,
	};

	if (ss_outdir_begin(&od, o->out, err))
		return -1;
	h.out = od.stage;
	if (!ss_host_run_cmd(&h, err))
		return ss_outdir_commit(&od, err);
	ss_outdir_abort(&od);
	name_user_path(&od, err);
	return -1;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct ss_error err = {{0}};
	struct run_list l = {0};
	int rc = parse_run_opts(argc, argv, &o);

	if (rc)
		return ss_opt_exit(rc);
	if (o.runs || (!o.host_mode && (strpbrk(o.spec.model, " \t") || strstr(o.out, "%m")))) {
		rc = o.runs ? read_run_list(&o, &l) : split_models(&o, &l);
		if (!rc)
			rc = check_distinct_outs(&o, &l);
		if (!rc) {
			int run_rc = l.n == 1 ? run_replay(&l.runs[0].o, &err)
					      : run_many(l.runs, l.n, o.jobs, o.spec.trace, &err);

			if (run_rc)
				fprintf(stderr, "slabsim run: %s\n", err.msg);
			if (run_rc == EXIT_NO_SUCH_KERNEL)
				rc = EXIT_NO_SUCH_KERNEL;
		}
		list_release(&l);
		return rc == EXIT_NO_SUCH_KERNEL ? rc : rc ? 2 : err.msg[0] ? 1 : 0;
	}
	rc = o.host_mode ? run_host(&o, &err) : run_replay(&o, &err);
	if (rc) {
		fprintf(stderr, "slabsim run: %s\n", err.msg);
		return rc == EXIT_NO_SUCH_KERNEL ? rc : 1;
	}
	return 0;
}
