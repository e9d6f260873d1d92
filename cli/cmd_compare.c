/* cmd_compare.c - `slabsim compare`: one report across models and variants
 * (compare.md and the plot data of analysis/cmp_*.gp; docs/outputs.md). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "commands.h"
#include "compare_out.h"
#include "names_opt.h"
#include "models_opt.h"
#include "opts.h"
#include "report_md.h"
#include "report_plot.h"
#include "timeline_dat.h"

#define DEFAULT_TOP 5

struct compare_opts {
	const char *workload, *dir, *out, *command, *title;
	struct ss_report_names variants, models;
	unsigned top;
	char out_buf[4200], command_buf[512];
};

enum { O_WORKLOAD, O_DIR, O_OUT, O_VARIANTS, O_MODELS, O_TOP, O_COMMAND, O_TITLE,
       O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_WORKLOAD] = {"workload", NULL, "W", "the workload every summary row must name"},
	[O_DIR] = {"dir", NULL, "DIR", "the workload's report directory (with runs/)"},
	[O_OUT] = {"out", NULL, "OUTDIR", "where to write (created if missing)"},
	[O_VARIANTS] = {"variants", NULL, "LIST",
		"variant order; other variants are left out (default sorted)"},
	[O_MODELS] = {"models", NULL, "LIST",
		"model order, the first is the baseline of the Δ columns;\n"
		"other models are left out (default: traced first, then\n"
		"sorted)"},
	[O_TOP] = {"top", NULL, "N",
		"caches per run in the loss table (default " SS_OPT_STR(DEFAULT_TOP) ")"},
	[O_COMMAND] = {"command", NULL, "STR", "the make command shown in the report"},
	[O_TITLE] = {"title", NULL, "NAME",
		"compare.md's and the plots' title (default: the workload;\n"
		"make compare TRACE= gives the capture's report name)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"compare", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim compare --workload W --dir DIR [--out OUTDIR]\n"
		"                       [--variants \"V1 V2 ...\"] [--models \"M1 M2 ...\"]\n"
		"                       [--top N] [--command \"make ...\"] [--title NAME]\n\n"
		"Reads DIR/runs/<variant>__<model>/{summary,latency,timeline,caches}.csv and\n"
		"writes into OUTDIR (default DIR/compare): compare.md, waste.dat, latency.dat,\n"
		"timeline.dat, phases.dat, top_caches.csv and title.gp (the plots' title),\n"
		"all or nothing.  The plots come from analysis/cmp_{waste,latency,timeline}.gp\n"
		"(make compare).\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 bad input file (file:line) or write error, 2 bad usage.\n");
}

static int take_compare_opt(void *ctx, int id, const char *v)
{
	struct compare_opts *o = ctx;

	switch (id) {
	case O_WORKLOAD: o->workload = v; return 0;
	case O_DIR: o->dir = v; return 0;
	case O_OUT: o->out = v; return 0;
	case O_COMMAND: o->command = v; return 0;
	case O_TITLE: o->title = v; return 0;
	case O_VARIANTS: return ss_names_opt_parse(&opt_set, id, v, &o->variants);
	case O_MODELS: return ss_models_opt_parse(&opt_set, id, v, &o->models);
	default: return ss_opt_uint(&opt_set, id, v, 1, 1000, &o->top); /* O_TOP */
	}
}

/* 0 ok, else ss_opt_scan()'s SS_OPT_HELP or -1. */
static int parse_opts(int argc, char **argv, struct compare_opts *o)
{
	int rc;

	o->top = DEFAULT_TOP;
	if ((rc = ss_opt_scan(&opt_set, argc, argv, take_compare_opt, o)))
		return rc;
	if (!o->workload || !o->dir || !*o->workload || !*o->dir)
		return ss_opt_usage_err(&opt_set, "--workload and --dir are required");
	if (!ss_report_name_ok(o->workload))
		return ss_opt_usage_err(&opt_set, "--workload: '%s' is not [A-Za-z0-9._+-]+",
					o->workload);
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

enum { OUT_MD, OUT_WASTE, OUT_LATENCY, OUT_TIMELINE, OUT_PHASES, OUT_CACHES,
       OUT_TITLE, NR_OUT };
static const char *const out_names[NR_OUT] = {
	"compare.md", "waste.dat", "latency.dat", "timeline.dat", "phases.dat",
	"top_caches.csv", "title.gp",
};

/* Everything but timeline.dat, which ss_compare_load_slots() streams. */
static int write_rest(struct ss_atomic_file *f, const struct ss_compare_in *in,
		      struct ss_error *err)
{
	char title[512];

	ss_report_plot_title(in->res, in->title, title, sizeof(title));
	if (ss_report_write_waste_dat(f[OUT_WASTE].fp, in->res) ||
	    ss_report_write_title_gp(f[OUT_TITLE].fp, title) ||
	    ss_timeline_dat_title(f[OUT_TITLE].fp, ss_compare_timeline_change(in)) ||
	    ss_report_write_latency_dat(f[OUT_LATENCY].fp, in->res) ||
	    ss_compare_write_phases_dat(f[OUT_PHASES].fp, in) ||
	    ss_compare_write_md(f[OUT_MD].fp, in))
		return ss_errorf(err, "%s: write failed (out of memory or I/O error)",
				 in->dir);
	return ss_compare_write_top_caches(f[OUT_CACHES].fp, in, err);
}

static int write_outputs(const struct compare_opts *o, struct ss_compare_in *in,
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
	if (ss_compare_load_slots(in, f[OUT_TIMELINE].fp, err) || write_rest(f, in, err))
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

/* A failed compare removes the outputs it would have written, so an
 * older compare.md cannot pass for this one (as report does). */
static void remove_outputs(const struct compare_opts *o)
{
	char path[4400];

	for (int k = 0; k < NR_OUT; k++) {
		snprintf(path, sizeof(path), "%s/%s", o->out, out_names[k]);
		ss_remove_stale(path);
	}
}

static int run_compare(const struct compare_opts *o)
{
	struct ss_report_results res;
	struct ss_error err = {{0}};
	struct ss_compare_in in = {.workload = o->workload, .command = o->command,
			    .title = o->title && *o->title ? o->title : o->workload,
			    .dir = o->dir, .res = &res, .top = o->top};
	struct ss_report_settings *settings = NULL;
	size_t nsettings = 0;
	int rc = 1;

	memset(&res, 0, sizeof(res));
	if (ss_report_load_results(o->dir, o->workload, &res, &err) ||
	    ss_report_arrange(&res, o->variants.n ? &o->variants : NULL, o->variants.n > 0,
		       o->models.n ? &o->models : NULL, o->models.n > 0, &err))
		goto fail;
	if (res.dropped)
		fprintf(stderr, "slabsim compare: note: left out %zu runs not in --variants/--models\n",
			res.dropped);
	if (!res.nruns) {
		ss_errorf(&err, "%s/runs: no run of the listed variants and models", o->dir);
		goto fail;
	}
	if (ss_report_settings_load_all(o->dir, &res, &settings, &err))
		goto fail;
	nsettings = res.nruns;
	in.settings = settings;
	if (write_outputs(o, &in, &err))
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "slabsim compare: %s\n", err.msg);
	remove_outputs(o);
out:
	ss_compare_free_slots(&in);
	ss_report_settings_free_all(settings, nsettings);
	ss_report_results_free(&res);
	return rc;
}

int ss_cmd_compare(int argc, char **argv)
{
	struct compare_opts *o = calloc(1, sizeof(*o));
	int r;

	if (!o) {
		fprintf(stderr, "slabsim compare: out of memory\n");
		return 1;
	}
	r = parse_opts(argc, argv, o);
	r = r ? ss_opt_exit(r) : run_compare(o);
	ss_report_names_free(&o->variants);
	ss_report_names_free(&o->models);
	free(o);
	return r;
}
