/* cmd_bench.c - `slabsim bench`: replay throughput and memory of each
 * model beside glibc malloc/free replaying the same trace (docs/bench.md). */
#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
#include "bench.h"
#include "commands.h"
#include "escape.h"
#include "report_runs.h"
#include "model.h"
#include "objtable.h"
#include "opts.h"

#define MAX_MODELS 32
#define MAX_TRACES 16

struct bench_opts {
	struct ss_bench_opts b;
	const char *csv;
	unsigned repeat;
	const char *models[MAX_MODELS + 1]; /* [0] is the glibc baseline */
	unsigned nr_models;
	char *workload[MAX_TRACES], *trace[MAX_TRACES];
	unsigned nr_traces;
	char model_buf[1024];
};

enum { O_TARGET, O_MODELS, O_CPUS, O_REPEAT, O_CSV, O_TRACES, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_TARGET] = {"target", NULL, "TARGET", "target of the model replays"},
	[O_MODELS] = {"models", NULL, "LIST",
		"models, MODEL[+LETTERS], or read-only (decode the trace and\n"
		"nothing else); default: read-only and every registered model"},
	[O_CPUS] = {"cpus", NULL, "N", "CPUs (default: the target's)"},
	[O_REPEAT] = {"repeat", NULL, "R",
		"replays per model, the fastest is kept (default 1)"},
	[O_CSV] = {"csv", NULL, "FILE", "also write the table to FILE (atomically)"},
	[O_TRACES] = {NULL, NULL, "WORKLOAD=TRACE", "a trace and the name of its row"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void bench_usage(FILE *out);

static const struct ss_opt_set opt_set = {"bench", specs, NR_OPTS, bench_usage};

static void bench_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim bench --target TARGET [--models \"M1 M2 ...\"] [--cpus N]\n"
		"                     [--repeat R] [--csv FILE] WORKLOAD=TRACE...\n\n"
		"Replay each TRACE through each model and through glibc malloc/free (malloc(size)\n"
		"on alloc, free on free, pointers in a dense id table: the baseline), each replay\n"
		"in its own process, single thread.  Prints and writes one CSV row per workload\n"
		"and model: events, events/s, the baseline's events/s, their ratio, peak RSS and\n"
		"RSS growth per peak live object.  See docs/bench.md.\n\n");
	ss_opt_help(out, &opt_set);
}

static int split_models(struct bench_opts *o, const char *arg)
{
	char *save = NULL;

	if (strlen(arg) >= sizeof(o->model_buf))
		return SS_OPT_BAD_VALUE;
	strcpy(o->model_buf, arg);
	o->nr_models = 1;
	for (char *tok = strtok_r(o->model_buf, " ,", &save); tok;
	     tok = strtok_r(NULL, " ,", &save)) {
		if (o->nr_models > MAX_MODELS)
			return SS_OPT_BAD_VALUE;
		o->models[o->nr_models++] = tok;
	}
	return o->nr_models > 1 ? 0 : SS_OPT_BAD_VALUE;
}

/* WORKLOAD=TRACE: split in place, the '=' becomes the name's end (arg
 * is an argv string, which C lets a program write). */
static int add_trace(struct bench_opts *o, const char *arg)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1] || o->nr_traces == MAX_TRACES)
		return ss_opt_usage_err(&opt_set, "want WORKLOAD=TRACE, got '%s'", arg);
	*eq = '\0';
	/* the name is a bench.csv field that scripts/bench-check.sh splits
	 * at commas: the same names report and compare take */
	if (!ss_report_name_ok(arg))
		return ss_opt_usage_err(&opt_set, "workload name '%s' is not [A-Za-z0-9._+-]+", arg);
	o->workload[o->nr_traces] = (char *)arg;
	o->trace[o->nr_traces++] = eq + 1;
	return 0;
}

static int take_bench_opt(void *ctx, int id, const char *v)
{
	struct bench_opts *o = ctx;

	switch (id) {
	case O_TARGET: o->b.target = v; return 0;
	case O_MODELS: return split_models(o, v);
	case O_CPUS: return ss_opt_uint(&opt_set, id, v, 1, 65536, &o->b.cpus);
	case O_REPEAT: return ss_opt_uint(&opt_set, id, v, 1, 1000, &o->repeat);
	case O_CSV: o->csv = v; return 0;
	default: return add_trace(o, v); /* O_TRACES */
	}
}

static int parse_bench_opts(int argc, char **argv, struct bench_opts *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	o->repeat = 1;
	o->b.max_objects = SS_OBJTABLE_DEFAULT_CAP;
	o->models[0] = SS_BENCH_GLIBC;
	o->nr_models = 1;
	if ((rc = ss_opt_scan(&opt_set, argc, argv, take_bench_opt, o)))
		return rc;
	if (!o->b.target || !o->nr_traces)
		return ss_opt_usage_err(&opt_set,
					"--target and at least one WORKLOAD=TRACE are required");
	if (o->nr_models == 1) { /* the reading floor and every registered model */
		o->models[o->nr_models++] = SS_BENCH_READ;
		for (unsigned i = 0; i < ss_model_count() && o->nr_models <= MAX_MODELS; i++)
			o->models[o->nr_models++] = ss_model_at(i)->name;
	}
	return 0;
}

/* Events per second of the replaying process's CPU time: on an idle
 * machine the same as wall time, and not diluted by other processes
 * taking turns on the CPU (docs/bench.md). */
static double rate(const struct ss_bench_result *r)
{
	return r->cpu_seconds > 0 ? (double)r->events / r->cpu_seconds : 0;
}

/* The fastest of `repeat` replays of each model; glibc first. */
static int measure_trace(const struct bench_opts *o, unsigned t,
			 struct ss_bench_result *best, struct ss_error *err)
{
	memset(best, 0, o->nr_models * sizeof(*best));
	for (unsigned r = 0; r < o->repeat; r++) {
		for (unsigned m = 0; m < o->nr_models; m++) {
			struct ss_bench_result res;

			fprintf(stderr, "slabsim bench: %s on %s (%u/%u)\n", o->models[m],
				o->workload[t], r + 1, o->repeat);
			if (ss_bench_measure(o->trace[t], o->models[m], &o->b, &res, err))
				return -1;
			if (rate(&res) > rate(&best[m]))
				best[m] = res;
		}
	}
	return 0;
}

static void print_header(FILE *fp)
{
	fprintf(fp, "model,workload,events,events_per_s,baseline_events_per_s,ratio,"
		    "peak_rss_kib,bytes_per_live_object,cpu_seconds,wall_seconds,peak_live_objects\n");
}

static void print_row(FILE *fp, const char *model, const char *workload,
		      const struct ss_bench_result *r, const struct ss_bench_result *base)
{
	double grown = r->peak_rss_kib > r->start_rss_kib
			       ? (double)(r->peak_rss_kib - r->start_rss_kib) * 1024.0 : 0;

	ss_csv_put(fp, model);
	fputc(',', fp);
	ss_csv_put(fp, workload); /* WORKLOAD=TRACE: any name */
	fprintf(fp, ",%llu,%.0f,%.0f,%.2f,%llu,%.1f,%.3f,%.3f,%llu\n",
		(unsigned long long)r->events, rate(r), rate(base),
		rate(base) > 0 ? rate(r) / rate(base) : 0,
		(unsigned long long)r->peak_rss_kib,
		r->peak_live ? grown / (double)r->peak_live : 0, r->cpu_seconds,
		r->seconds, (unsigned long long)r->peak_live);
}

static int run_bench(const struct bench_opts *o, struct ss_error *err)
{
	struct ss_bench_result res[MAX_TRACES][MAX_MODELS + 1];
	struct ss_atomic_file f = {0};

	for (unsigned t = 0; t < o->nr_traces; t++)
		if (measure_trace(o, t, res[t], err))
			return -1;
	if (o->csv && ss_atomic_open(&f, o->csv, err))
		return -1;
	print_header(stdout);
	if (o->csv)
		print_header(f.fp);
	for (unsigned t = 0; t < o->nr_traces; t++) {
		for (unsigned m = 0; m < o->nr_models; m++) {
			print_row(stdout, o->models[m], o->workload[t], &res[t][m], &res[t][0]);
			if (o->csv)
				print_row(f.fp, o->models[m], o->workload[t], &res[t][m], &res[t][0]);
		}
	}
	return o->csv ? ss_atomic_commit(&f, err) : 0;
}

int ss_cmd_bench(int argc, char **argv)
{
	struct bench_opts o;
	struct ss_error err = {{0}};
	int rc = parse_bench_opts(argc, argv, &o);

	if (rc)
		return ss_opt_exit(rc);
	if (run_bench(&o, &err)) {
		fprintf(stderr, "slabsim bench: %s\n", err.msg);
		return 1;
	}
	return 0;
}
