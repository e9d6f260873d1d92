/* cmd_report.c - `slabsim report`: combine a workload's runs into
 * summary.csv, waste.dat, latency.dat and report.md (docs/outputs.md). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "commands.h"
#include "error.h"
#include "parse.h"
#include "report_extras.h"
#include "workload.h"
#include "report_md.h"
#include "report_plot.h"
#include "report_runs.h"
#include "report_seed.h"

#define MAX_CALIB 64

struct report_opts {
	const char *workload, *dir, *seed_path, *command, *compare_model;
	const char *baseline; /* --baseline: overhead_pct against this variant */
	struct rp_names variants, models; /* empty = not given */
	struct rp_calib calib[MAX_CALIB];
	unsigned ncalib;
	bool plot_data_only;
	char default_command[512];
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim report --workload W --dir DIR [--seed-table FILE]\n"
		"                      [--variants \"V1 V2 ...\"] [--models \"M1 M2 ...\"]\n"
		"                      [--calibration \"NAME=VALUE ...\"]... [--command \"make ...\"]\n"
		"                      [--compare-model M] [--baseline VARIANT] [--plot-data-only]\n\n"
		"Reads DIR/runs/<variant>__<model>/{summary,latency}.csv and writes\n"
		"DIR/summary.csv, DIR/waste.dat, DIR/latency.dat and DIR/report.md\n"
		"(only the two .dat files with --plot-data-only).  All or nothing.\n\n"
		"  --workload W        the workload every summary row must name\n"
		"  --dir DIR           the workload's report directory\n"
		"  --seed-table FILE   seed measurements to check the model against\n"
		"                      (workloads/W.seed.csv); adds report section 2\n"
		"  --variants LIST     variant order; runs of other variants are left out\n"
		"                      (default: seed table order, then sorted)\n"
		"  --models LIST       model order; runs of other models are left out\n"
		"                      (default: sorted)\n"
		"  --calibration STR   fitted constants NAME=VALUE, listed in section 3\n"
		"  --command STR       the make command shown in section 1\n"
		"                      (default: make sim WORKLOAD=W)\n"
		"  --compare-model M   the model checked against the seed (default traced)\n"
		"  --baseline VARIANT  add summary.csv column overhead_pct: sim_time_ms\n"
		"                      against VARIANT's run of the same model, in %%\n"
		"  --plot-data-only    write only waste.dat and latency.dat\n\n"
		"Exit: 0 ok, 1 bad input file (file:line) or write error, 2 bad usage.\n");
}

/* "a b c" -> a list of valid, distinct names. */
static int parse_names(const char *opt, const char *arg, struct rp_names *l)
{
	char buf[4096], *tok[256];
	int n;

	if (l->n) {
		fprintf(stderr, "slabsim report: %s given twice\n", opt);
		return -1;
	}
	if (strlen(arg) >= sizeof(buf) ||
	    (n = ss_split(strcpy(buf, arg), tok, 256)) <= 0) {
		fprintf(stderr, "slabsim report: %s: expected 1 to 256 names\n", opt);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (!rp_name_ok(tok[i]) || rp_names_find(l, tok[i]) >= 0) {
			fprintf(stderr, "slabsim report: %s: '%s' is %s\n", opt,
				tok[i], rp_name_ok(tok[i]) ? "listed twice"
							   : "not [A-Za-z0-9._+-]+");
			return -1;
		}
		if (rp_names_add(l, tok[i])) {
			fprintf(stderr, "slabsim report: out of memory\n");
			return -1;
		}
	}
	return 0;
}

/* "NAME=VALUE NAME=VALUE" -> o->calib. */
static int parse_calib(struct report_opts *o, const char *arg)
{
	char buf[4096], *tok[MAX_CALIB + 1];
	int n;

	if (strlen(arg) >= sizeof(buf))
		goto bad;
	n = ss_split(strcpy(buf, arg), tok, MAX_CALIB);
	if (n < 0 || o->ncalib + (unsigned)n > MAX_CALIB)
		goto bad;
	for (int i = 0; i < n; i++) {
		struct rp_calib *c = &o->calib[o->ncalib];
		char *eq = strchr(tok[i], '=');

		if (!eq || eq == tok[i] || !eq[1] ||
		    (size_t)(eq - tok[i]) >= sizeof(c->name) ||
		    strlen(eq + 1) >= sizeof(c->value)) {
			fprintf(stderr, "slabsim report: --calibration: '%s' is not NAME=VALUE\n",
				tok[i]);
			return -1;
		}
		*eq = '\0';
		strcpy(c->name, tok[i]);
		strcpy(c->value, eq + 1);
		o->ncalib++;
	}
	return 0;
bad:
	fprintf(stderr, "slabsim report: --calibration: too long or more than %d constants\n",
		MAX_CALIB);
	return -1;
}

/* The options that take a value (--name VALUE or --name=VALUE). */
static const char *const value_opts[] = {
	"--workload", "--dir", "--seed-table", "--command", "--compare-model",
	"--variants", "--models", "--calibration", "--baseline",
};
#define NR_VALUE_OPTS (sizeof(value_opts) / sizeof(value_opts[0]))

/* Store one option's value; -1 = bad usage (reported). */
static int set_opt(struct report_opts *o, const char *name, const char *v)
{
	if (!*v && strcmp(name, "--calibration")) {
		fprintf(stderr, "slabsim report: %s needs a value\n", name);
		return -1;
	}
	if (!strcmp(name, "--workload"))
		o->workload = v;
	else if (!strcmp(name, "--dir"))
		o->dir = v;
	else if (!strcmp(name, "--seed-table"))
		o->seed_path = v;
	else if (!strcmp(name, "--command"))
		o->command = v;
	else if (!strcmp(name, "--compare-model"))
		o->compare_model = v;
	else if (!strcmp(name, "--baseline"))
		o->baseline = v;
	else if (!strcmp(name, "--variants"))
		return parse_names(name, v, &o->variants);
	else if (!strcmp(name, "--models"))
		return parse_names(name, v, &o->models);
	else
		return parse_calib(o, v);
	return 0;
}

/* One argument at argv[*i]; -1 = bad usage. */
static int parse_one(int argc, char **argv, int *i, struct report_opts *o)
{
	const char *a = argv[*i];

	if (!strcmp(a, "--plot-data-only")) {
		o->plot_data_only = true;
		return 0;
	}
	for (size_t k = 0; k < NR_VALUE_OPTS; k++) {
		size_t n = strlen(value_opts[k]);

		if (strncmp(a, value_opts[k], n))
			continue;
		if (a[n] == '=')
			return set_opt(o, value_opts[k], a + n + 1);
		if (a[n] != '\0')
			continue;
		if (*i + 1 >= argc) {
			fprintf(stderr, "slabsim report: %s needs a value\n", a);
			return -1;
		}
		return set_opt(o, value_opts[k], argv[++*i]);
	}
	fprintf(stderr, "slabsim report: unknown option '%s'\n", a);
	return -1;
}

/* 0 ok, 1 = --help, -1 = bad usage. */
static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
		if (parse_one(argc, argv, &i, o))
			return -1;
	}
	if (!o->workload || !o->dir) {
		fprintf(stderr, "slabsim report: --workload and --dir are required\n");
		return -1;
	}
	if (!rp_name_ok(o->workload)) {
		fprintf(stderr, "slabsim report: --workload: '%s' is not [A-Za-z0-9._+-]+\n",
			o->workload);
		return -1;
	}
	if (!o->compare_model)
		o->compare_model = "traced";
	if (!o->command) {
		snprintf(o->default_command, sizeof(o->default_command),
			 "make sim WORKLOAD=%s", o->workload);
		o->command = o->default_command;
	}
	return 0;
}

/* The outputs, written to temporary files and renamed together: the four
 * generic ones, then the workload's extra plot-data files. */
enum { OUT_SUMMARY, OUT_WASTE, OUT_LATENCY, OUT_REPORT, NR_OUT };
#define MAX_OUT (NR_OUT + RP_MAX_EXTRA_DAT)
static const char *const out_names[NR_OUT] = {
	"summary.csv", "waste.dat", "latency.dat", "report.md",
};

static const char *out_name(const struct rp_extra *ex, int k)
{
	if (k < NR_OUT)
		return out_names[k];
	return ex ? ex->dat_names[k - NR_OUT] : NULL;
}

static int write_one(const struct rp_extra *ex, int k, FILE *fp,
		     const struct rp_report_in *in)
{
	switch (k) {
	case OUT_SUMMARY: return rp_write_summary_csv(fp, in->res, in->baseline);
	case OUT_WASTE: return rp_write_waste_dat(fp, in->res);
	case OUT_LATENCY: return rp_write_latency_dat(fp, in->res);
	case OUT_REPORT:
		if (rp_write_report(fp, in))
			return -1;
		return ex && ex->write_md ? ex->write_md(fp, in) : 0;
	default: return ex->write_dat((unsigned)(k - NR_OUT), fp, in);
	}
}

static int write_outputs(const struct report_opts *o,
			 const struct rp_report_in *in, struct ss_error *err)
{
	const struct ss_workload *wl = ss_workload_find(o->workload);
	const struct rp_extra *ex = wl ? wl->report : NULL;
	struct ss_atomic_file f[MAX_OUT];
	bool want[MAX_OUT], open_[MAX_OUT] = {false};
	char path[4200];
	int k, r = -1;

	for (k = 0; k < MAX_OUT; k++)
		want[k] = out_name(ex, k) &&
			  (!o->plot_data_only || k == OUT_WASTE || k == OUT_LATENCY || k >= NR_OUT);
	for (k = 0; k < MAX_OUT; k++) {
		if (!want[k])
			continue;
		snprintf(path, sizeof(path), "%s/%s", o->dir, out_name(ex, k));
		if (ss_atomic_open(&f[k], path, err))
			goto out;
		open_[k] = true;
		if (write_one(ex, k, f[k].fp, in)) {
			ss_errorf(err, "%s: write failed (out of memory or I/O error)",
				  path);
			goto out;
		}
	}
	for (k = 0; k < MAX_OUT; k++) {
		if (!want[k])
			continue;
		open_[k] = false;
		if (ss_atomic_commit(&f[k], err))
			goto out;
	}
	r = 0;
out:
	for (k = 0; k < MAX_OUT; k++)
		if (open_[k])
			ss_atomic_abort(&f[k]);
	return r;
}

/* Variant order: --variants (only those), else the seed table's rows. */
static int arrange(const struct report_opts *o, const struct rp_seed *seed,
		   struct rp_results *res, struct ss_error *err)
{
	struct rp_names seed_order = {0};
	int r;

	for (unsigned i = 0; seed && i < seed->nrows; i++)
		if (rp_names_add(&seed_order, seed->rows[i].variant)) {
			rp_names_free(&seed_order);
			return ss_errorf(err, "out of memory");
		}
	r = rp_arrange(res, o->variants.n ? &o->variants : &seed_order,
		       o->variants.n > 0, o->models.n ? &o->models : NULL,
		       o->models.n > 0, err);
	rp_names_free(&seed_order);
	if (r)
		return -1;
	if (res->dropped)
		fprintf(stderr, "slabsim report: note: left out %zu runs not in --variants/--models\n",
			res->dropped);
	if (seed && rp_names_find(&res->models, o->compare_model) < 0)
		fprintf(stderr, "slabsim report: note: no runs of model '%s' to compare with the seed\n",
			o->compare_model);
	return 0;
}

/* Read everything, then write everything: exit code 0 or 1. */
static int run_report(const struct report_opts *o)
{
	struct rp_results res;
	struct rp_seed seed;
	struct ss_error err = {{0}};
	struct rp_report_in in;
	bool have_seed = false;
	int rc = 1;

	memset(&res, 0, sizeof(res));
	if (o->seed_path) {
		if (rp_seed_load(o->seed_path, &seed, &err))
			goto fail;
		have_seed = true;
	}
	if (rp_load_results(o->dir, o->workload, &res, &err) ||
	    arrange(o, have_seed ? &seed : NULL, &res, &err))
		goto fail;
	in = (struct rp_report_in){
		.workload = o->workload, .command = o->command, .dir = o->dir,
		.res = &res, .seed = have_seed ? &seed : NULL,
		.seed_path = o->seed_path, .compare_model = o->compare_model,
		.baseline = o->baseline,
		.calib = o->calib, .ncalib = o->ncalib,
	};
	if (write_outputs(o, &in, &err))
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "slabsim report: %s\n", err.msg);
out:
	rp_results_free(&res);
	if (have_seed)
		rp_seed_free(&seed);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts *o = calloc(1, sizeof(*o));
	int r;

	if (!o) {
		fprintf(stderr, "slabsim report: out of memory\n");
		return 1;
	}
	r = parse_opts(argc, argv, o);
	if (r == 1)
		usage(stdout);
	else if (r < 0)
		fprintf(stderr, "usage: slabsim report --workload W --dir DIR ... (see --help)\n");
	r = r == 1 ? 0 : r < 0 ? 2 : run_report(o);
	rp_names_free(&o->variants);
	rp_names_free(&o->models);
	free(o);
	return r;
}
