/* cmd_run.c - `slabsim run`: replay one trace through one model. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "commands.h"
#include "parse.h"
#include "replay.h"
#include "results.h"
#include "site_scan.h"

struct run_opts {
	const char *trace, *out, *target, *costs, *variant;
	char model[128];	/* registry name */
	char model_label[160];	/* as given, e.g. traced+FZPU */
	char debug_arg[600];	/* FLAGS[,cache,...] */
	unsigned cpus, nodes;
	uint64_t max_objects, sample_every;
	bool no_merge;
};

static void run_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim run --trace TRACE --model MODEL[+LETTERS] --target TARGET --out DIR\n"
		"                   [--slub-debug LETTERS[,cache,...]] [--costs FILE] [--cpus N]\n"
		"                   [--nodes N] [--no-merge] [--variant NAME] [--max-objects N]\n"
		"                   [--sample-every N]\n\n"
		"Replay TRACE through an allocator model and write the run's results into DIR:\n"
		"summary.csv and summary.json (one row), caches.csv (slabinfo-style per cache),\n"
		"counters.csv (SLUB_STATS counters per cache), latency.csv (alloc/free latency\n"
		"histogram), work.csv (time per work label), slabinfo (/proc/slabinfo 2.1 at the end), slabinfo.K-PHASE (at each\n"
		"phase marker) and timeline.csv (footprint over the trace).  See docs/outputs.md.\n\n"
		"  --trace TRACE        a slabsim trace (docs/trace-format.md); - for stdin\n"
		"  --model MODEL        one of:\n");
	for (unsigned i = 0; i < ss_model_count(); i++)
		fprintf(out, "                         %-16s %s\n", ss_model_at(i)->name,
			ss_model_at(i)->summary);
	fprintf(out,
		"                       MODEL+LETTERS also applies slub_debug LETTERS (e.g. traced+P)\n"
		"  --target TARGET      allocators/targets/TARGET.target, or a path to a target file\n"
		"  --slub-debug SPEC    slub_debug flags F Z P U T (and O), optionally limited to\n"
		"                       named caches as the kernel's slub_debug=P,kmalloc-512 does\n"
		"  --costs FILE         cost table overriding allocators/costs/default.costs\n"
		"  --cpus N             CPUs the kernel sees (default: the target's)\n"
		"  --nodes N            NUMA nodes, CPUs split in equal blocks (default: the target's)\n"
		"  --no-merge           no SLUB cache merging for caches a model creates\n"
		"  --variant NAME       variant label for the summary (default: the trace's meta)\n"
		"  --max-objects N      cap on the object id space (default %llu)\n"
		"  --sample-every N     timeline sample interval in events (default 4096)\n"
		"  --out DIR            output directory (created if missing)\n",
		(unsigned long long)SS_OBJTABLE_DEFAULT_CAP);
}

/* "traced+FZPU" -> model "traced", debug "FZPU". */
static int split_model(struct run_opts *o, const char *arg)
{
	const char *plus = strchr(arg, '+');
	size_t n = plus ? (size_t)(plus - arg) : strlen(arg);

	if (n >= sizeof(o->model) || strlen(arg) >= sizeof(o->model_label))
		return -1;
	memcpy(o->model, arg, n);
	o->model[n] = '\0';
	strcpy(o->model_label, arg);
	if (plus) {
		if (o->debug_arg[0] || strlen(plus + 1) >= sizeof(o->debug_arg))
			return -1;
		strcpy(o->debug_arg, plus + 1);
	}
	return 0;
}

static int parse_run_opts(int argc, char **argv, struct run_opts *o)
{
	enum { O_TRACE = 256, O_MODEL, O_TARGET, O_OUT, O_DEBUG, O_COSTS, O_CPUS,
	       O_NODES, O_NOMERGE, O_VARIANT, O_MAXOBJ, O_SAMPLE, O_HELP };
	static const struct option longopts[] = {
		{"trace", required_argument, 0, O_TRACE},
		{"model", required_argument, 0, O_MODEL},
		{"target", required_argument, 0, O_TARGET},
		{"out", required_argument, 0, O_OUT},
		{"slub-debug", required_argument, 0, O_DEBUG},
		{"costs", required_argument, 0, O_COSTS},
		{"cpus", required_argument, 0, O_CPUS},
		{"nodes", required_argument, 0, O_NODES},
		{"no-merge", no_argument, 0, O_NOMERGE},
		{"variant", required_argument, 0, O_VARIANT},
		{"max-objects", required_argument, 0, O_MAXOBJ},
		{"sample-every", required_argument, 0, O_SAMPLE},
		{"help", no_argument, 0, O_HELP},
		{0, 0, 0, 0},
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->max_objects = SS_OBJTABLE_DEFAULT_CAP;
	o->sample_every = 4096;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case O_TRACE: o->trace = optarg; break;
		case O_MODEL:
			if (split_model(o, optarg))
				goto bad_value;
			break;
		case O_TARGET: o->target = optarg; break;
		case O_OUT: o->out = optarg; break;
		case O_DEBUG:
			if (o->debug_arg[0] || strlen(optarg) >= sizeof(o->debug_arg))
				goto bad_value;
			strcpy(o->debug_arg, optarg);
			break;
		case O_COSTS: o->costs = optarg; break;
		case O_CPUS:
			if (ss_parse_uint(optarg, 65536, &o->cpus) || !o->cpus)
				goto bad_value;
			break;
		case O_NODES:
			if (ss_parse_uint(optarg, 1024, &o->nodes) || !o->nodes)
				goto bad_value;
			break;
		case O_NOMERGE: o->no_merge = true; break;
		case O_VARIANT: o->variant = optarg; break;
		case O_MAXOBJ:
			if (ss_parse_u64(optarg, 1ull << 40, &o->max_objects) || !o->max_objects)
				goto bad_value;
			break;
		case O_SAMPLE:
			if (ss_parse_u64(optarg, 1ull << 40, &o->sample_every) || !o->sample_every)
				goto bad_value;
			break;
		case O_HELP: run_usage(stdout); exit(0);
		default:
			fprintf(stderr, "slabsim run: unknown option '%s'\n", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "slabsim run: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (!o->trace || !o->model[0] || !o->target || !o->out) {
		fprintf(stderr, "slabsim run: --trace, --model, --target and --out are required\n");
		return -1;
	}
	return 0;
bad_value:
	fprintf(stderr, "slabsim run: bad value '%s' for %s\n", optarg, argv[optind - 1]);
	return -1;
}

/* slub_debug syntax: LETTERS[,cache,cache...] -> flags + ",cache,cache," */
static int parse_debug_spec(const char *arg, struct ss_model_config *cfg)
{
	char letters[32];
	const char *comma = strchr(arg, ',');
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);

	if (n >= sizeof(letters))
		return -1;
	memcpy(letters, arg, n);
	letters[n] = '\0';
	if (ss_debug_parse(letters, &cfg->debug))
		return -1;
	cfg->debug_caches[0] = '\0';
	if (comma) {
		int w = snprintf(cfg->debug_caches, sizeof(cfg->debug_caches), "%s,", comma);
		if (w < 0 || (size_t)w >= sizeof(cfg->debug_caches))
			return -1;
	}
	return 0;
}

/* ---- per-run outputs written during the replay ---- */

struct run_io {
	const char *dir;
	struct ss_atomic_file timeline;
	char written[16][128]; /* committed files, removed if the run fails */
	unsigned nr_written;
};

static void remember(struct run_io *io, const char *name)
{
	if (io->nr_written < 16)
		snprintf(io->written[io->nr_written++], sizeof(io->written[0]), "%s", name);
}

static int timeline_row(struct ss_run *run, struct ss_error *err)
{
	struct run_io *io = run->user;
	struct ss_totals tot;

	(void)err;
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
	remember(io, name);
	return 0;
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
			 struct run_io *io, struct ss_error *err)
{
	const char *meta_wl = ss_trace_meta(run->tables, "workload");
	const char *meta_var = ss_trace_meta(run->tables, "variant");
	struct ss_run_labels lb = {
		.workload = meta_wl ? meta_wl : "trace",
		.variant = o->variant ? o->variant : meta_var ? meta_var : "-",
		.model = o->model_label,
		.costs = o->costs ? o->costs : "default",
	};

	lb.slub_debug = o->debug_arg[0] ? o->debug_arg : "-";
	if (ss_write_caches(io->dir, run, err))
		return -1;
	remember(io, "caches.csv");
	if (ss_write_counters(io->dir, run, err))
		return -1;
	remember(io, "counters.csv");
	if (ss_write_latency(io->dir, run, err))
		return -1;
	remember(io, "latency.csv");
	if (ss_write_work(io->dir, run, err))
		return -1;
	remember(io, "work.csv");
	/* summary last: make treats it as the run's completion mark */
	return ss_write_summary(io->dir, run, &lb, err);
}

static int run_replay(const struct run_opts *o, struct ss_error *err)
{
	struct ss_target target;
	struct ss_topology topo = {0};
	struct ss_costs costs;
	struct ss_site_sizes sites = {0};
	struct ss_model_config cfg = {0};
	struct ss_trace_reader *reader = NULL;
	struct ss_run run = {0};
	struct run_io io = {.dir = o->out};
	const struct ss_model_desc *desc = ss_model_find(o->model);
	int rc = -1;

	if (!desc)
		return ss_errorf(err, "unknown model '%s' (slabsim run --help lists them)", o->model);
	if (ss_target_load(o->target, &target, err) || ss_costs_load(&costs, o->costs, err))
		return -1;
	if (o->cpus)
		target.cpus = o->cpus;
	if (o->nodes)
		target.nodes = o->nodes;
	if (o->debug_arg[0] && parse_debug_spec(o->debug_arg, &cfg))
		return ss_errorf(err, "bad slub_debug '%s' (want letters of FZPUTO, or '-', then ,cache names)",
				 o->debug_arg);
	if (ss_topology_flat(&topo, target.cpus, target.nodes, err))
		return -1;
	if (desc->needs_site_sizes && ss_site_scan(o->trace, &sites, err))
		goto out;
	if (ss_trace_open(&reader, o->trace, err) || ss_mkdirs(o->out, err))
		goto out;
	cfg.target = &target;
	cfg.topo = &topo;
	cfg.merge = !o->no_merge;
	cfg.tables = ss_trace_tables(reader);
	cfg.sites = desc->needs_site_sizes ? &sites : NULL;
	run = (struct ss_run){.target = &target, .topo = &topo, .costs = &costs,
			      .desc = desc, .tables = cfg.tables, .on_phase = on_phase,
			      .on_sample = timeline_row, .sample_every = o->sample_every,
			      .user = &io};
	if (desc->ops->create(&run.model, &cfg, desc->policy, err))
		goto out;
	if (ss_run_init(&run, o->max_objects, err))
		goto out;
	{
		char tl[4200];
		snprintf(tl, sizeof(tl), "%s/timeline.csv", o->out);
		if (ss_atomic_open(&io.timeline, tl, err))
			goto out;
	}
	fprintf(io.timeline.fp, "events,phase,footprint_kib,live_objects,sim_time_ms\n");
	if (ss_replay(&run, reader, err))
		goto out;
	if (ss_atomic_commit(&io.timeline, err))
		goto out;
	remember(&io, "timeline.csv");
	rc = write_results(&run, o, &io, err);
out:
	if (rc) {
		ss_atomic_abort(&io.timeline);
		remove_written(&io);
	}
	if (run.model)
		desc->ops->destroy(run.model);
	ss_run_release(&run);
	ss_trace_close(reader);
	ss_site_sizes_release(&sites);
	ss_topology_release(&topo);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct ss_error err = {{0}};

	if (parse_run_opts(argc, argv, &o)) {
		fprintf(stderr, "Try 'slabsim run --help'.\n");
		return 2;
	}
	if (run_replay(&o, &err)) {
		fprintf(stderr, "slabsim run: %s\n", err.msg);
		return 1;
	}
	return 0;
}
