/* cmd_compare.c - `slabsim compare`: one report across models and variants
 * (compare.md and the plot data of analysis/cmp_*.gp; docs/outputs.md). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "commands.h"
#include "compare_out.h"
#include "names_opt.h"
#include "parse.h"
#include "report_plot.h"

#define DEFAULT_TOP 5

struct compare_opts {
	const char *workload, *dir, *out, *command;
	struct rp_names variants, models;
	unsigned top;
	char out_buf[4200], command_buf[512];
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim compare --workload W --dir DIR [--out OUTDIR]\n"
		"                       [--variants \"V1 V2 ...\"] [--models \"M1 M2 ...\"]\n"
		"                       [--top N] [--command \"make ...\"]\n\n"
		"Reads DIR/runs/<variant>__<model>/{summary,latency,timeline,caches}.csv and\n"
		"writes into OUTDIR (default DIR/compare): compare.md, waste.dat, latency.dat,\n"
		"timeline.dat, phases.dat and top_caches.csv, all or nothing.  The plots come\n"
		"from analysis/cmp_{waste,latency,timeline}.gp (make compare).\n\n"
		"  --workload W      the workload every summary row must name\n"
		"  --dir DIR         the workload's report directory (with runs/)\n"
		"  --out OUTDIR      where to write (created if missing)\n"
		"  --variants LIST   variant order; other variants are left out (default sorted)\n"
		"  --models LIST     model order, the first is the baseline of the Δ columns;\n"
		"                    other models are left out (default sorted)\n"
		"  --top N           caches per run in the loss table (default %d)\n"
		"  --command STR     the make command shown in the report\n\n"
		"Exit: 0 ok, 1 bad input file (file:line) or write error, 2 bad usage.\n",
		DEFAULT_TOP);
}

/* 0 ok, 1 = --help, -1 = bad usage. */
static int parse_opts(int argc, char **argv, struct compare_opts *o)
{
	enum { O_WORKLOAD = 256, O_DIR, O_OUT, O_VARIANTS, O_MODELS, O_TOP,
	       O_COMMAND, O_HELP };
	static const struct option longopts[] = {
		{"workload", required_argument, 0, O_WORKLOAD},
		{"dir", required_argument, 0, O_DIR},
		{"out", required_argument, 0, O_OUT},
		{"variants", required_argument, 0, O_VARIANTS},
		{"models", required_argument, 0, O_MODELS},
		{"top", required_argument, 0, O_TOP},
		{"command", required_argument, 0, O_COMMAND},
		{"help", no_argument, 0, O_HELP},
		{0, 0, 0, 0},
	};
	int c;

	o->top = DEFAULT_TOP;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case O_WORKLOAD: o->workload = optarg; break;
		case O_DIR: o->dir = optarg; break;
		case O_OUT: o->out = optarg; break;
		case O_COMMAND: o->command = optarg; break;
		case O_VARIANTS:
			if (names_opt_parse("compare", "--variants", optarg, &o->variants))
				return -1;
			break;
		case O_MODELS:
			if (names_opt_parse("compare", "--models", optarg, &o->models))
				return -1;
			break;
		case O_TOP:
			if (ss_parse_uint(optarg, 1000, &o->top) || !o->top) {
				fprintf(stderr, "slabsim compare: --top: '%s' is not 1 to 1000\n",
					optarg);
				return -1;
			}
			break;
		case O_HELP: return 1;
		default:
			fprintf(stderr, "slabsim compare: unknown option or missing value '%s'\n",
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "slabsim compare: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if (!o->workload || !o->dir || !*o->workload || !*o->dir) {
		fprintf(stderr, "slabsim compare: --workload and --dir are required\n");
		return -1;
	}
	if (!rp_name_ok(o->workload)) {
		fprintf(stderr, "slabsim compare: --workload: '%s' is not [A-Za-z0-9._+-]+\n",
			o->workload);
		return -1;
	}
	if (!o->out) {
		snprintf(o->out_buf, sizeof(o->out_buf), "%s/compare", o->dir);
		o->out = o->out_buf;
	}
	if (!o->command) {
		snprintf(o->command_buf, sizeof(o->command_buf),
			 "make compare WORKLOAD=%s", o->workload);
		o->command = o->command_buf;
	}
	return 0;
}

enum { OUT_MD, OUT_WASTE, OUT_LATENCY, OUT_TIMELINE, OUT_PHASES, OUT_CACHES, NR_OUT };
static const char *const out_names[NR_OUT] = {
	"compare.md", "waste.dat", "latency.dat", "timeline.dat", "phases.dat",
	"top_caches.csv",
};

/* Everything but timeline.dat, which cmp_load_slots() streams. */
static int write_rest(struct ss_atomic_file *f, const struct cmp_in *in,
		      struct ss_error *err)
{
	if (rp_write_waste_dat(f[OUT_WASTE].fp, in->res) ||
	    rp_write_latency_dat(f[OUT_LATENCY].fp, in->res) ||
	    cmp_write_phases_dat(f[OUT_PHASES].fp, in) ||
	    cmp_write_md(f[OUT_MD].fp, in))
		return ss_errorf(err, "%s: write failed (out of memory or I/O error)",
				 in->dir);
	return cmp_write_top_caches(f[OUT_CACHES].fp, in, err);
}

static int write_outputs(const struct compare_opts *o, struct cmp_in *in,
			 struct ss_error *err)
{
	struct ss_atomic_file f[NR_OUT];
	bool open_[NR_OUT] = {false};
	char path[4400];
	int k, r = -1;

	if (ss_mkdirs(o->out, err))
		return -1;
	for (k = 0; k < NR_OUT; k++) {
		snprintf(path, sizeof(path), "%s/%s", o->out, out_names[k]);
		if (ss_atomic_open(&f[k], path, err))
			goto out;
		open_[k] = true;
	}
	if (cmp_load_slots(in, f[OUT_TIMELINE].fp, err) || write_rest(f, in, err))
		goto out;
	for (k = 0; k < NR_OUT; k++) {
		open_[k] = false;
		if (ss_atomic_commit(&f[k], err))
			goto out;
	}
	r = 0;
out:
	for (k = 0; k < NR_OUT; k++)
		if (open_[k])
			ss_atomic_abort(&f[k]);
	return r;
}

static int run_compare(const struct compare_opts *o)
{
	struct rp_results res;
	struct ss_error err = {{0}};
	struct cmp_in in = {.workload = o->workload, .command = o->command,
			    .dir = o->dir, .res = &res, .top = o->top};
	int rc = 1;

	memset(&res, 0, sizeof(res));
	if (rp_load_results(o->dir, o->workload, &res, &err) ||
	    rp_arrange(&res, o->variants.n ? &o->variants : NULL, o->variants.n > 0,
		       o->models.n ? &o->models : NULL, o->models.n > 0, &err))
		goto fail;
	if (res.dropped)
		fprintf(stderr, "slabsim compare: note: left out %zu runs not in --variants/--models\n",
			res.dropped);
	if (!res.nruns) {
		ss_errorf(&err, "%s/runs: no run of the listed variants and models", o->dir);
		goto fail;
	}
	if (write_outputs(o, &in, &err))
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "slabsim compare: %s\n", err.msg);
out:
	cmp_free_slots(&in);
	rp_results_free(&res);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts *o = calloc(1, sizeof(*o));
	int r;

	if (!o) {
		fprintf(stderr, "slabsim compare: out of memory\n");
		return 1;
	}
	r = parse_opts(argc, argv, o);
	if (r == 1)
		usage(stdout);
	else if (r < 0)
		fprintf(stderr, "usage: slabsim compare --workload W --dir DIR ... (see --help)\n");
	r = r == 1 ? 0 : r < 0 ? 2 : run_compare(o);
	rp_names_free(&o->variants);
	rp_names_free(&o->models);
	free(o);
	return r;
}
