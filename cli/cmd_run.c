/* cmd_run.c - `slabsim run`: replay one trace through one model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "commands.h"
#include "opts.h"
#include "parse.h"
#include "host_run.h"
#include "progress.h"
#include "replay.h"
#include "results.h"
#include "run.h"
#include "slabtop.h"

struct run_opts {
	struct ss_run_spec spec; /* trace, model, target, costs, topology, ... */
	const char *out, *variant;
	uint64_t sample_every;
	const char *events; /* docs/topology.md */
	bool host_mode;	    /* docs/host-mode.md */
	bool quiet;	    /* no summary on stdout */
};

enum {
	O_TRACE, O_MODEL, O_TARGET, O_DEBUG, O_COSTS, O_CPUS, O_NODES, O_NOMERGE,
	O_VARIANT, O_MAXOBJ, O_MAXMEM, O_SAMPLE, O_TOPO, O_MAP, O_MODE, O_EVENTS,
	O_OUT, O_QUIET, O_HELP, NR_OPTS,
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
	[O_DEBUG] = {"slub-debug", NULL, "SPEC",
		"slub_debug flags F Z P U T (and O), optionally limited to\n"
		"named caches as the kernel's slub_debug=P,kmalloc-512 does"},
	[O_COSTS] = {"costs", NULL, "FILE",
		"cost table overriding allocators/costs/default.costs"},
	[O_CPUS] = {"cpus", NULL, "N", "CPUs the kernel sees (default: the target's)"},
	[O_NODES] = {"nodes", NULL, "N",
		"NUMA nodes, CPUs split in equal blocks (default: the target's)"},
	[O_NOMERGE] = {"no-merge", NULL, NULL,
		"no SLUB cache merging for caches a model creates"},
	[O_VARIANT] = {"variant", NULL, "NAME",
		"variant label for the summary (default: the trace's meta)"},
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
		"trace CPUs onto PUs: identity (default), compact, scatter"},
	[O_MODE] = {"mode", NULL, "MODE",
		"model (default) or host: replay against real memory on this\n"
		"machine, one pinned thread per PU, measured figures only\n"
		"(measured*.csv, measured.json; default topology: host)"},
	[O_EVENTS] = {"events", NULL, "LIST",
		"host mode counters via libpfm4 (default\n" SS_PMU_DEFAULT_EVENTS ")"},
	[O_OUT] = {"out", NULL, "DIR", "output directory (created if missing)"},
	[O_QUIET] = {"quiet", "-q", NULL,
		"print nothing on success (default: a slabtop-style summary\n"
		"on stdout: totals, the largest and the most wasteful caches)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void run_usage(FILE *out);

static const struct ss_opt_set opt_set = {"run", specs, NR_OPTS, run_usage};

static void run_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim run --trace TRACE --model MODEL[+LETTERS] --target TARGET --out DIR\n"
		"                   [--slub-debug SPEC] [--costs FILE] [--cpus N]\n"
		"                   [--nodes N] [--no-merge] [--variant NAME] [--max-objects N]\n"
		"                   [--max-memory BYTES]\n"
		"                   [--sample-every N] [--topology SPEC] [--map POLICY]\n"
		"                   [--mode model|host] [--events LIST] [--quiet]\n\n"
		"Replay TRACE through an allocator model and write the run's results into DIR:\n"
		"summary.csv and summary.json (one row), caches.csv (slabinfo-style per cache),\n"
		"counters.csv (SLUB_STATS counters per cache), functions.csv (calls and cycles\n"
		"per kernel function and cache), locks.csv (lock waits and cmpxchg retries\n"
		"per cache on the simulated clocks), latency.csv (alloc/free latency histogram),\n"
		"work.csv (time per work label), slabinfo (/proc/slabinfo 2.1 at the end),\n"
		"slabinfo.K-PHASE (at each phase marker) and timeline.csv (footprint over the\n"
		"trace).  See docs/outputs.md.\n\n");
	ss_opt_help(out, &opt_set);
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
	case O_MODEL: o->spec.model = v; return 0;
	case O_TARGET: o->spec.target = v; return 0;
	case O_OUT: o->out = v; return 0;
	case O_QUIET: o->quiet = true; return 0;
	case O_DEBUG: o->spec.slub_debug = v; return 0;
	case O_COSTS: o->spec.costs = v; return 0;
	case O_CPUS: return ss_opt_uint(&opt_set, id, v, 1, 65536, &o->spec.cpus);
	case O_NODES: return ss_opt_uint(&opt_set, id, v, 1, 1024, &o->spec.nodes);
	case O_NOMERGE: o->spec.no_merge = true; return 0;
	case O_VARIANT: o->variant = v; return 0;
	case O_MAXOBJ: return ss_opt_u64(&opt_set, id, v, 1, 1ull << 40, &o->spec.max_objects);
	case O_MAXMEM:
		return ss_parse_size(v, 1ull << 50, &o->spec.max_memory) || !o->spec.max_memory ?
			SS_OPT_BAD_VALUE : 0;
	case O_SAMPLE: return ss_opt_u64(&opt_set, id, v, 1, 1ull << 40, &o->sample_every);
	case O_TOPO: o->spec.topology = v; return 0;
	case O_MAP:
		o->spec.map = v;
		if (ss_cpu_map_parse(v, &(enum ss_cpu_map){0}))
			return ss_opt_usage_err(&opt_set, "bad value '%s' for --map (want identity, "
						"compact or scatter)", v);
		return 0;
	case O_MODE:
		o->host_mode = !strcmp(v, "host");
		return strcmp(v, "model") && !o->host_mode ? SS_OPT_BAD_VALUE : 0;
	default: /* O_EVENTS */
		o->events = v;
		return check_events(v);
	}
}

static int parse_run_opts(int argc, char **argv, struct run_opts *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->sample_every = 4096;
	if ((rc = ss_opt_scan(&opt_set, argc, argv, take_run_opt, o)))
		return rc;
	if (!o->spec.trace || !o->spec.model || !o->spec.target || !o->out)
		return ss_opt_usage_err(&opt_set, "--trace, --model, --target and --out are required");
	if (o->spec.topology && (o->spec.cpus || o->spec.nodes))
		return ss_opt_usage_err(&opt_set, "--topology sets the CPUs and nodes; drop --cpus/--nodes");
	if (o->host_mode && (o->spec.cpus || o->spec.nodes))
		return ss_opt_usage_err(&opt_set, "host mode takes --topology, not --cpus/--nodes");
	if (o->events && !o->host_mode)
		return ss_opt_usage_err(&opt_set, "--events counts host-mode runs only (add --mode host)");
	return 0;
}

/* caches in each table of the summary printed at the end */
#define RUN_TOP 10

/* ---- per-run outputs written during the replay ---- */

struct run_io {
	const char *dir;
	struct ss_atomic_file timeline;
	struct ss_progress progress; /* the bar on a terminal's stderr */
	char (*written)[128]; /* committed files, removed if the run fails */
	unsigned nr_written, cap_written;
};

/* Note a file the run wrote (or may have written) in io->dir, to remove if
 * the run fails later: one slabinfo per phase, so the list grows.  Out of
 * memory, the file goes at once (the run fails anyway). */
static int remember(struct run_io *io, const char *name, struct ss_error *err)
{
	if (io->nr_written == io->cap_written) {
		unsigned cap = io->cap_written ? io->cap_written * 2 : 32;
		char (*w)[128] = realloc(io->written, cap * sizeof(*w));

		if (!w) {
			char path[4300];

			snprintf(path, sizeof(path), "%s/%s", io->dir, name);
			unlink(path);
			return ss_errorf(err, "out of memory");
		}
		io->written = w;
		io->cap_written = cap;
	}
	snprintf(io->written[io->nr_written++], sizeof(io->written[0]), "%s", name);
	return 0;
}

static int timeline_row(struct ss_run *run, struct ss_error *err)
{
	struct run_io *io = run->user;
	struct ss_totals tot;

	(void)err;
	ss_progress_tick(&io->progress, run->events);
	ss_totals_compute(run->desc, run->model, run->target, &tot);
	fprintf(io->timeline.fp, "%llu,%s,%.2f,%llu,%.3f\n",
		(unsigned long long)run->events, run->phase,
		(double)tot.footprint_bytes / 1024.0,
		(unsigned long long)tot.live_objects,
		ss_run_ns(run, ss_run_sim_cycles(run)) / 1e6);
	return 0;
}

static int on_phase(struct ss_run *run, const char *phase, struct ss_error *err)
{
	struct run_io *io = run->user;
	char name[128];

	if (timeline_row(run, err))
		return -1;
	if (!phase)
		snprintf(name, sizeof(name), "slabinfo");
	else
		snprintf(name, sizeof(name), "slabinfo.%llu-%.80s",
			 (unsigned long long)run->phase_index, phase);
	if (ss_write_slabinfo(io->dir, name, run, err))
		return -1;
	return remember(io, name, err);
}

static void remove_written(struct run_io *io)
{
	char path[4300];

	for (unsigned i = 0; i < io->nr_written; i++) {
		snprintf(path, sizeof(path), "%s/%s", io->dir, io->written[i]);
		unlink(path);
	}
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
		.model = o->spec.model,
		.costs = o->spec.costs ? o->spec.costs : "default",
		.slub_debug = rs->debug_spec[0] ? rs->debug_spec : "-",
	};

	if (ss_write_caches(io->dir, run, err) || remember(io, "caches.csv", err) ||
	    ss_write_counters(io->dir, run, err) || remember(io, "counters.csv", err) ||
	    ss_write_sites(io->dir, run, err) || remember(io, "sites.csv", err) ||
	    ss_write_functions(io->dir, run, err) || remember(io, "functions.csv", err) ||
	    ss_write_locks(io->dir, run, err) || remember(io, "locks.csv", err) ||
	    ss_write_latency(io->dir, run, err) || remember(io, "latency.csv", err) ||
	    ss_write_work(io->dir, run, err) || remember(io, "work.csv", err))
		return -1;
	/* summary last: make treats it as the run's completion mark, so a
	 * summary.csv committed before summary.json failed must go too */
	if (remember(io, "summary.csv", err) || remember(io, "summary.json", err) ||
	    ss_write_summary(io->dir, run, &lb, err))
		return -1;
	if (!o->quiet && ss_print_slabtop(stdout, run, &lb, RUN_TOP))
		return ss_errorf(err, "stdout: write failed");
	return 0;
}

static int run_replay(const struct run_opts *o, struct ss_error *err)
{
	struct ss_run_setup rs = {0};
	struct ss_run run = {.on_phase = on_phase, .on_sample = timeline_row,
			     .sample_every = o->sample_every};
	struct run_io io = {.dir = o->out};
	char tl[4200];
	int rc = -1;

	run.user = &io;
	if (ss_run_setup_load(&rs, &o->spec, err) || ss_run_setup_open(&rs, &o->spec, err) ||
	    ss_mkdirs(o->out, err) || ss_run_setup_start(&rs, &run, err))
		goto out;
	snprintf(tl, sizeof(tl), "%s/timeline.csv", o->out);
	if (ss_atomic_open(&io.timeline, tl, err))
		goto out;
	fprintf(io.timeline.fp, "events,phase,footprint_kib,live_objects,sim_time_ms\n");
	ss_progress_start(&io.progress, STDERR_FILENO, o->spec.model, o->spec.trace);
	if (ss_replay(&run, rs.reader, err))
		goto out;
	if (ss_atomic_commit(&io.timeline, err) || remember(&io, "timeline.csv", err))
		goto out;
	rc = write_results(&run, o, &rs, &io, err);
out:
	ss_progress_done(&io.progress);
	if (rc) {
		ss_atomic_abort(&io.timeline);
		remove_written(&io);
	}
	free(io.written);
	ss_run_setup_close(&rs, &run);
	return rc;
}

/* --mode host: the same trace, model and topology options, measured. */
static int run_host(const struct run_opts *o, struct ss_error *err)
{
	struct ss_host_opts h = {
		.spec = o->spec, .variant = o->variant, .events = o->events,
		.out = o->out,
	};

	return ss_host_run_cmd(&h, err);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct ss_error err = {{0}};
	int rc = parse_run_opts(argc, argv, &o);

	if (rc)
		return ss_opt_exit(rc);
	if (o.host_mode ? run_host(&o, &err) : run_replay(&o, &err)) {
		fprintf(stderr, "slabsim run: %s\n", err.msg);
		return 1;
	}
	return 0;
}
