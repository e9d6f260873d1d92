/* cmd_sweep.c - `slabsim sweep`: gather the runs of one workload at several
 * values of a parameter (sweep_data.h; mk/sweep.mk runs them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "commands.h"
#include "names_opt.h"
#include "models_opt.h"
#include "opts.h"
#include "sweep_data.h"

#define MAX_VALUES 256
#define MAX_FIGURES 16

struct sweep_opts {
	const char *workload, *param, *dir, *command;
	struct ss_report_names variants, models, values, figures;
	char command_buf[512];
};

enum { O_WORKLOAD, O_PARAM, O_DIR, O_VALUES, O_FIGURES, O_VARIANTS, O_MODELS,
       O_COMMAND, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_WORKLOAD] = {"workload", NULL, "W", "the workload every summary row must name"},
	[O_PARAM] = {"param", NULL, "P", "the parameter's name (rules, labels, cpus, ...)"},
	[O_DIR] = {"dir", NULL, "DIR", "the sweep directory, one subdirectory per value"},
	[O_VALUES] = {"values", NULL, "LIST",
		"the values, in plotting order; a log x axis when they are\n"
		"positive numbers spanning 20x or more, categories when\n"
		"not all are numbers"},
	[O_FIGURES] = {"figures", NULL, "LIST",
		"numeric summary.csv columns to plot against the parameter\n"
		"(default \"footprint_kib sim_time_ms\")"},
	[O_VARIANTS] = {"variants", NULL, "LIST", "variant order; other variants are left out"},
	[O_MODELS] = {"models", NULL, "LIST",
		"model order; other models are left out\n"
		"(default for both: as first seen)"},
	[O_COMMAND] = {"command", NULL, "STR", "the make command shown in sweep.md"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"sweep", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim sweep --workload W --param P --dir DIR --values \"V1 V2 ...\"\n"
		"                     [--figures \"COLUMN ...\"] [--variants \"V ...\"]\n"
		"                     [--models \"M ...\"] [--command \"make ...\"]\n\n"
		"Reads DIR/VALUE/summary.csv for each value (the combined summary `slabsim\n"
		"report` writes) and writes DIR/sweep.csv, DIR/sweep.md and DIR/COLUMN.dat for\n"
		"each figure (plotted by analysis/sweep.gp), all or nothing.\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 bad input file (file:line) or write error, 2 bad usage.\n");
}

static int take_sweep_opt(void *ctx, int id, const char *v)
{
	struct sweep_opts *o = ctx;

	switch (id) {
	case O_WORKLOAD: o->workload = v; return 0;
	case O_PARAM: o->param = v; return 0;
	case O_DIR: o->dir = v; return 0;
	case O_COMMAND: o->command = v; return 0;
	case O_VALUES: return ss_names_opt_parse(&opt_set, id, v, &o->values);
	case O_FIGURES: return ss_names_opt_parse(&opt_set, id, v, &o->figures);
	case O_VARIANTS: return ss_names_opt_parse(&opt_set, id, v, &o->variants);
	default: return ss_models_opt_parse(&opt_set, id, v, &o->models); /* O_MODELS */
	}
}

/* 0 ok, else ss_opt_scan()'s SS_OPT_HELP or -1. */
static int parse_opts(int argc, char **argv, struct sweep_opts *o)
{
	int rc;

	if ((rc = ss_opt_scan(&opt_set, argc, argv, take_sweep_opt, o)))
		return rc;
	if (!o->workload || !o->param || !o->dir || !o->values.n || !*o->dir)
		return ss_opt_usage_err(&opt_set,
					"--workload, --param, --dir and --values are required");
	if (!ss_report_name_ok(o->workload) || !ss_report_name_ok(o->param))
		return ss_opt_usage_err(&opt_set,
					"--workload and --param must be [A-Za-z0-9._+-]+");
	if (o->values.n > MAX_VALUES || o->figures.n > MAX_FIGURES)
		return ss_opt_usage_err(&opt_set, "at most %d values and %d figures",
					MAX_VALUES, MAX_FIGURES);
	if (!o->figures.n && (ss_report_names_add(&o->figures, "footprint_kib") ||
			      ss_report_names_add(&o->figures, "sim_time_ms"))) {
		fprintf(stderr, "slabsim sweep: out of memory\n");
		return -1;
	}
	if (!o->command) {
		snprintf(o->command_buf, sizeof(o->command_buf),
			 "make sweep WORKLOAD=%s PARAM=%s", o->workload, o->param);
		o->command = o->command_buf;
	}
	return 0;
}

/* Output k: sweep.csv, sweep.md, one FIGURE.dat per figure, title.gp. */
static void out_path(const struct sweep_opts *o, unsigned k, char *path, size_t size)
{
	if (k < 2)
		snprintf(path, size, "%s/%s", o->dir, k ? "sweep.md" : "sweep.csv");
	else if (k < 2 + o->figures.n)
		snprintf(path, size, "%s/%s.dat", o->dir, o->figures.v[k - 2]);
	else
		snprintf(path, size, "%s/title.gp", o->dir);
}

/* A failed sweep removes the outputs it would have written, so an older
 * sweep.csv cannot pass for this one (as report does). */
static void remove_outputs(const struct sweep_opts *o)
{
	char path[4400];

	for (unsigned k = 0; k < 3 + o->figures.n; k++) {
		out_path(o, k, path, sizeof(path));
		ss_remove_stale(path);
	}
}

/* Output k's contents (out_path names it). */
static int write_one(FILE *fp, unsigned k, const struct sweep_opts *o,
		     const struct ss_sweep *sw, const int *cols)
{
	if (k == 0)
		return ss_sweep_write_csv(fp, sw);
	if (k == 1)
		return ss_sweep_write_md(fp, sw, o->figures.v, cols, o->figures.n);
	if (k < 2 + o->figures.n)
		return ss_sweep_write_dat(fp, sw, o->figures.v[k - 2], cols[k - 2]);
	return ss_sweep_write_title(fp, sw);
}

/* sweep.csv, sweep.md, one FIGURE.dat each, then title.gp: renamed
 * together. */
static int write_outputs(const struct sweep_opts *o, const struct ss_sweep *sw,
			 const int *cols, struct ss_error *err)
{
	unsigned nout = 3 + o->figures.n, k;
	struct ss_atomic_file f[3 + MAX_FIGURES];
	bool open_[3 + MAX_FIGURES] = {false};
	char path[4400];
	int r = -1;

	for (k = 0; k < nout; k++) {
		out_path(o, k, path, sizeof(path));
		if (ss_atomic_open(&f[k], path, err))
			goto out;
		open_[k] = true;
		if (write_one(f[k].fp, k, o, sw, cols)) {
			ss_errorf(err, "%s: write failed (out of memory or I/O error)", path);
			goto out;
		}
	}
	for (k = 0; k < nout; k++) {
		open_[k] = false;
		if (ss_atomic_commit(&f[k], err))
			goto out;
	}
	r = 0;
out:
	for (k = 0; k < nout; k++)
		if (open_[k])
			ss_atomic_abort(&f[k]);
	return r;
}

static int run_sweep(struct sweep_opts *o)
{
	struct ss_sweep sw = {
		.workload = o->workload, .param = o->param, .dir = o->dir,
		.command = o->command, .variants = o->variants, .models = o->models,
		.only_variants = o->variants.n > 0, .only_models = o->models.n > 0,
	};
	struct ss_error err = {{0}};
	int cols[MAX_FIGURES], rc = 1;

	/* sw owns the two lists from here on */
	memset(&o->variants, 0, sizeof(o->variants));
	memset(&o->models, 0, sizeof(o->models));
	if (ss_sweep_load(&sw, o->values.v, o->values.n, &err))
		goto fail;
	for (unsigned f = 0; f < o->figures.n; f++)
		if ((cols[f] = ss_sweep_figure_col(&sw, o->figures.v[f], &err)) < 0)
			goto fail;
	if (write_outputs(o, &sw, cols, &err))
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "slabsim sweep: %s\n", err.msg);
	remove_outputs(o);
out:
	ss_sweep_free(&sw);
	return rc;
}

int ss_cmd_sweep(int argc, char **argv)
{
	struct sweep_opts *o = calloc(1, sizeof(*o));
	int r;

	if (!o) {
		fprintf(stderr, "slabsim sweep: out of memory\n");
		return 1;
	}
	r = parse_opts(argc, argv, o);
	r = r ? ss_opt_exit(r) : run_sweep(o);
	ss_report_names_free(&o->variants);
	ss_report_names_free(&o->models);
	ss_report_names_free(&o->values);
	ss_report_names_free(&o->figures);
	free(o);
	return r;
}
