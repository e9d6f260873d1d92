/* cmd_report.c - `slabsim report`: combine a workload's runs into
 * summary.csv, waste.dat, latency.dat and report.md (docs/outputs.md). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "commands.h"
#include "error.h"
#include "names_opt.h"
#include "models_opt.h"
#include "opts.h"
#include "parse.h"
#include "report_capture.h"
#include "report_extras.h"
#include "report_kernel.h"
#include "report_load.h"
#include "workload.h"
#include "report_md.h"
#include "report_plot.h"
#include "report_runs.h"
#include "report_seed.h"
#include "report_seed_md.h"
#include "report_reprice.h"
#include "report_targets.h"
#include "timeline_dat.h"

#define MAX_CALIB 64
#define MAX_ALT 4

struct report_opts {
	const char *workload, *dir, *seed_path, *command, *compare_model;
	const char *baseline; /* --baseline: overhead_pct against this variant */
	const char *sens_path; /* --sensitivity */
	const char *alt[MAX_ALT]; /* --alt-runs */
	unsigned nalt;
	const char *kernel_before, *kernel_after; /* slab snapshots of a capture */
	const char *capture_meta;		  /* its meta file */
	const char *kernel_fill_after;		  /* its slab-fill-after.txt */
	const char *capture_target;		  /* slabsim pick-target's output */
	const char *era_base;			  /* --era-base: runs under 6.18's rules */
	struct rp_names variants, models; /* empty = not given */
	struct rp_calib calib[MAX_CALIB];
	unsigned ncalib;
	bool plot_data_only;
	struct report_reprice reprice; /* --reprice, --reprice-dir, --reprice-check */
	bool window; /* --window: a capture's plots of the change */
	char default_command[512];
};

enum { O_WORKLOAD, O_DIR, O_SEED, O_VARIANTS, O_MODELS, O_CALIB, O_COMMAND,
       O_COMPARE_MODEL, O_BASELINE, O_ALT, O_SENS, O_KBEFORE, O_KAFTER, O_CMETA,
       O_KFILL, O_CTARGET, O_REPRICE, O_REPRICE_DIR, O_REPRICE_CHECK, O_WINDOW, O_ERA_BASE,
       O_PLOT_DATA_ONLY, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_WORKLOAD] = {"workload", NULL, "W", "the workload every summary row must name"},
	[O_DIR] = {"dir", NULL, "DIR", "the workload's report directory"},
	[O_SEED] = {"seed-table", NULL, "FILE",
		"seed measurements to check the model against\n"
		"(workloads/W.seed.csv); adds report section 2"},
	[O_VARIANTS] = {"variants", NULL, "LIST",
		"variant order; runs of other variants are left out\n"
		"(default: seed table order, then sorted)"},
	[O_MODELS] = {"models", NULL, "LIST",
		"model order; runs of other models are left out\n"
		"(default: sorted)"},
	[O_CALIB] = {"calibration", NULL, "STR",
		"fitted constants NAME=VALUE, listed in section 3"},
	[O_COMMAND] = {"command", NULL, "STR",
		"the make command shown in section 1\n"
		"(default: make sim WORKLOAD=W)"},
	[O_COMPARE_MODEL] = {"compare-model", NULL, "M",
		"the model checked against the seed and the live kernel\n"
		"(default: the first model, traced unless --models\n"
		"lists another first)"},
	[O_BASELINE] = {"baseline", NULL, "VARIANT",
		"add summary.csv column overhead_pct: sim_time_ms\n"
		"against VARIANT's run of the same model, in %"},
	[O_ALT] = {"alt-runs", NULL, "DIR",
		"the seed table again for the runs in DIR/runs/ (the\n"
		"same variants on another target); repeatable, at most "
		SS_OPT_STR(MAX_ALT)},
	[O_SENS] = {"sensitivity", NULL, "FILE",
		"sensitivity.csv of `make sensitivity`: every headline\n"
		"figure with its interval and top three steps"},
	[O_KBEFORE] = {"kernel-before", NULL, "SNAPSHOT",
		"the kernel's caches before the capture (with\n"
		"--kernel-after)"},
	[O_KAFTER] = {"kernel-after", NULL, "SNAPSHOT",
		"the kernel's caches after it: adds the section \"The live\n"
		"kernel and the simulator\" for the compare model's run of\n"
		"the first variant, and kernel.csv"},
	[O_CMETA] = {"capture-meta", NULL, "FILE",
		"the capture's meta (make capture): the section says which\n"
		"tasks ran with no tracepoint and what events were lost"},
	[O_KFILL] = {"kernel-fill-after", NULL, "FILE",
		"the capture's slab-fill file read after --kernel-after\n"
		"(slab-fill-after.txt): kernel.csv and the notes give the\n"
		"CPU slabs' free slots at the end, which `objects` counts\n"
		"as in use, on both sides"},
	[O_CTARGET] = {"capture-target", NULL, "FILE",
		"what `slabsim pick-target` said of the capture the runs\n"
		"replay (target=, why=): section 1 says whether the runs'\n"
		"target (their summary.csv) is the capture's own"},
	[O_REPRICE] = {"reprice", NULL, "SETTINGS",
		"make sensitivity's cost settings (DIR/SETTING/costs under\n"
		"--reprice-dir) whose figures are priced from the runs in\n"
		"--dir (which ran under --dir's costs) instead of replayed:\n"
		"each writes only its figures.csv (exit 4: the runs' times\n"
		"are not their counts priced; docs/cost-model.md)"},
	[O_REPRICE_DIR] = {"reprice-dir", NULL, "DIR", "the settings' directory of --reprice"},
	[O_REPRICE_CHECK] = {"reprice-check", NULL, "SETTINGS",
		"settings replayed in full whose figures.csv the prices must\n"
		"give before any is written (exit 4 if not)"},
	[O_WINDOW] = {"window", NULL, NULL,
		"the runs replay a capture: plot what its window changed,\n"
		"timeline.dat and phases.dat (each run's slab memory since\n"
		"its start), not waste.dat (the whole machine's bytes;\n"
		"an older waste.dat/.png/.svg in DIR is removed)"},
	[O_ERA_BASE] = {"era-base", NULL, "DIR",
		"the same runs under 6.18's rules (DIR/runs/, the runs'\n"
		"7.x target with era 6.18): adds the section \"What SLUB\n"
		"7.x changes\" (docs/sheaves.md)"},
	[O_PLOT_DATA_ONLY] = {"plot-data-only", NULL, NULL,
		"write only the plot data (waste.dat, latency.dat,\n"
		"title.gp and the workload's own)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"report", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim report --workload W --dir DIR [--seed-table FILE]\n"
		"                      [--variants \"V1 V2 ...\"] [--models \"M1 M2 ...\"]\n"
		"                      [--calibration \"NAME=VALUE ...\"]... [--command \"make ...\"]\n"
		"                      [--compare-model M] [--baseline VARIANT] [--alt-runs DIR]...\n"
		"                      [--sensitivity FILE] [--plot-data-only]\n"
		"                      [--kernel-before SNAPSHOT --kernel-after SNAPSHOT\n"
		"                       [--capture-meta FILE] [--kernel-fill-after FILE]]\n"
		"                      [--capture-target FILE] [--window] [--era-base DIR]\n"
		"                      [--reprice-dir DIR --reprice \"SETTING ...\"\n"
		"                       [--reprice-check \"SETTING ...\"]]\n\n"
		"Reads DIR/runs/<variant>__<model>/{summary,latency}.csv and writes\n"
		"DIR/summary.csv, DIR/waste.dat, DIR/latency.dat, DIR/title.gp (the plots'\n"
		"title), DIR/figures.csv (the headline figures) and DIR/report.md (only\n"
		"the plot data with --plot-data-only); with --kernel-after, DIR/kernel.csv\n"
		"and DIR/change.dat too; with --window, DIR/timeline.dat and DIR/phases.dat\n"
		"instead of DIR/waste.dat.  All or nothing.  Section 1 states\n"
		"the settings each run used, read from its kernel.txt and summary.csv\n"
		"(runs that disagree are named with each value).  Target\n"
		"parameters declared inferred in the runs' target files are listed in\n"
		"the section \"Fitted and inferred parameters\".\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 bad input file (file:line) or write error, 2 bad usage,\n"
		     "4 --reprice: the runs' times are not their counts priced.\n");
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
			return ss_opt_usage_err(&opt_set, "--calibration: '%s' is not NAME=VALUE",
						tok[i]);
		}
		*eq = '\0';
		strcpy(c->name, tok[i]);
		strcpy(c->value, eq + 1);
		o->ncalib++;
	}
	return 0;
bad:
	return ss_opt_usage_err(&opt_set, "--calibration: too long or more than %d constants",
				MAX_CALIB);
}

/* --calibration repeats, each adding its constants; every other value
 * must not be empty. */
static int take_report_opt(void *ctx, int id, const char *v)
{
	struct report_opts *o = ctx;

	if (v && !*v && id != O_CALIB)
		return ss_opt_usage_err(&opt_set, "--%s needs a value (%s)",
					specs[id].name, specs[id].arg);
	switch (id) {
	case O_WORKLOAD: o->workload = v; return 0;
	case O_DIR: o->dir = v; return 0;
	case O_SEED: o->seed_path = v; return 0;
	case O_COMMAND: o->command = v; return 0;
	case O_COMPARE_MODEL: o->compare_model = v; return 0;
	case O_BASELINE: o->baseline = v; return 0;
	case O_SENS: o->sens_path = v; return 0;
	case O_ALT:
		if (o->nalt == MAX_ALT)
			return ss_opt_usage_err(&opt_set, "--alt-runs: at most %d", MAX_ALT);
		o->alt[o->nalt++] = v;
		return 0;
	case O_KBEFORE: o->kernel_before = v; return 0;
	case O_KAFTER: o->kernel_after = v; return 0;
	case O_CMETA: o->capture_meta = v; return 0;
	case O_KFILL: o->kernel_fill_after = v; return 0;
	case O_CTARGET: o->capture_target = v; return 0;
	case O_REPRICE: o->reprice.settings = v; return 0;
	case O_REPRICE_DIR: o->reprice.dir = v; return 0;
	case O_REPRICE_CHECK: o->reprice.checks = v; return 0;
	case O_WINDOW: o->window = true; return 0;
	case O_ERA_BASE: o->era_base = v; return 0;
	case O_VARIANTS: return names_opt_parse(&opt_set, id, v, &o->variants);
	case O_MODELS: return models_opt_parse(&opt_set, id, v, &o->models);
	case O_CALIB: return parse_calib(o, v);
	default: o->plot_data_only = true; return 0; /* O_PLOT_DATA_ONLY */
	}
}

/* 0 ok, else ss_opt_scan()'s SS_OPT_HELP or -1. */
static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	int rc;

	if ((rc = ss_opt_scan(&opt_set, argc, argv, take_report_opt, o)))
		return rc;
	if (!o->workload || !o->dir)
		return ss_opt_usage_err(&opt_set, "--workload and --dir are required");
	if (!rp_name_ok(o->workload))
		return ss_opt_usage_err(&opt_set, "--workload: '%s' is not [A-Za-z0-9._+-]+",
					o->workload);
	if (!o->kernel_before != !o->kernel_after)
		return ss_opt_usage_err(&opt_set, "--kernel-before and --kernel-after go together");
	if (o->capture_meta && !o->kernel_after)
		return ss_opt_usage_err(&opt_set, "--capture-meta needs --kernel-after");
	if (o->kernel_fill_after && !o->kernel_after)
		return ss_opt_usage_err(&opt_set, "--kernel-fill-after needs --kernel-after");
	if (!o->reprice.dir != !(o->reprice.settings || o->reprice.checks))
		return ss_opt_usage_err(&opt_set, "--reprice-dir goes with --reprice or --reprice-check");
	if (!o->command) {
		snprintf(o->default_command, sizeof(o->default_command),
			 "make sim WORKLOAD=%s", o->workload);
		o->command = o->default_command;
	}
	return 0;
}

/* The outputs, written to temporary files and renamed together: the four
 * generic ones, then the workload's extra plot-data files. */
enum { OUT_SUMMARY, OUT_WASTE, OUT_LATENCY, OUT_TITLE, OUT_FIGURES, OUT_REPORT, OUT_KERNEL,
       OUT_CHANGE, OUT_TIMELINE, OUT_PHASES, NR_OUT };
#define MAX_OUT (NR_OUT + RP_MAX_EXTRA_DAT)
static const char *const out_names[NR_OUT] = {
	"summary.csv", "waste.dat", "latency.dat", "title.gp", "figures.csv", "report.md",
	"kernel.csv", "change.dat", "timeline.dat", "phases.dat",
};

/* The comparison with the live kernel, when asked for (NULL if not). */
static const struct rp_kernel *kernel_cmp;

static const char *out_name(const struct rp_extra *ex, int k)
{
	if (k < NR_OUT)
		return out_names[k];
	return ex ? ex->dat_names[k - NR_OUT] : NULL;
}

/* Output k is one this report writes (kernel.csv with --kernel-after,
 * whether or not the comparison could be loaded). */
static bool wanted(const struct report_opts *o, const struct rp_extra *ex, int k)
{
	if ((k == OUT_KERNEL || k == OUT_CHANGE) && !o->kernel_after)
		return false;
	/* a capture's plots draw the change (--window), not the machine */
	if ((k == OUT_WASTE && o->window) ||
	    ((k == OUT_TIMELINE || k == OUT_PHASES) && !o->window))
		return false;
	return out_name(ex, k) &&
	       (!o->plot_data_only || k == OUT_WASTE || k == OUT_LATENCY ||
		k == OUT_TITLE || k == OUT_CHANGE || k > OUT_CHANGE);
}

/* A failed report removes the outputs it would have written, so an older
 * report.md or summary.csv cannot pass for this one.  Not a staging
 * directory as `run` has (outdir.h): DIR also holds runs/ and the plots. */
static void remove_outputs(const struct report_opts *o)
{
	const struct ss_workload *wl = ss_workload_find(o->workload);
	const struct rp_extra *ex = wl ? wl->report : NULL;
	char path[4200];

	for (int k = 0; k < MAX_OUT; k++)
		if (wanted(o, ex, k)) {
			snprintf(path, sizeof(path), "%s/%s", o->dir, out_name(ex, k));
			ss_remove_stale(path);
		}
}

/* timeline.dat: every run's block, in the report's order (timeline_dat.h). */
static int write_timeline(FILE *fp, const struct rp_report_in *in, struct ss_error *err)
{
	const struct rp_results *res = in->res;

	ss_timeline_dat_head(fp, "slabsim report");
	for (unsigned vi = 0; vi < res->variants.n; vi++)
		for (unsigned mi = 0; mi < res->models.n; mi++) {
			struct cmp_timeline tl = {0};
			int rc = ss_timeline_dat_block(fp, in->dir, rp_find(res, vi, mi),
						       res->variants.v[vi], res->models.v[mi],
						       &tl, err);

			cmp_timeline_free(&tl);
			if (rc)
				return -1;
		}
	return ferror(fp) ? ss_errorf(err, "timeline.dat: write failed") : 0;
}

/* phases.dat: each variant's markers, read from its first run. */
static int write_phases(FILE *fp, const struct rp_report_in *in, struct ss_error *err)
{
	const struct rp_results *res = in->res;

	ss_phases_dat_head(fp, "slabsim report");
	for (unsigned vi = 0; vi < res->variants.n; vi++) {
		const struct rp_run *run = NULL;
		struct cmp_timeline tl = {0};
		char path[4400];

		for (unsigned mi = 0; mi < res->models.n && !run; mi++)
			run = rp_find(res, vi, mi);
		if (run) {
			snprintf(path, sizeof(path), "%s/runs/%s__%s/timeline.csv", in->dir,
				 run->variant, run->model);
			if (cmp_read_timeline(path, NULL, NULL, &tl, err))
				return -1;
		}
		ss_phases_dat_block(fp, res->variants.v[vi], run ? &tl : NULL);
		cmp_timeline_free(&tl);
	}
	return ferror(fp) ? ss_errorf(err, "phases.dat: write failed") : 0;
}

/* Output k into fp: 0, or -1 with err set (a bad input file) or not (out
 * of memory, a write error). */
static int write_one(const struct rp_extra *ex, int k, FILE *fp,
		     const struct rp_report_in *in, struct ss_error *err)
{
	switch (k) {
	case OUT_SUMMARY: return rp_write_summary_csv(fp, in->res, in->baseline);
	case OUT_WASTE: return rp_write_waste_dat(fp, in->res);
	case OUT_LATENCY: return rp_write_latency_dat(fp, in->res);
	case OUT_TITLE: {
		char title[512];

		rp_plot_title(in->res, in->title ? in->title : in->workload, title, sizeof(title));
		/* a capture's timeline draws each run's change since its start */
		return rp_write_title_gp(fp, title) || ss_timeline_dat_title(fp, in->window);
	}
	case OUT_FIGURES: return rp_write_figures_csv(fp, in->figs);
	case OUT_REPORT:
		if (rp_write_report(fp, in))
			return -1;
		return ex && ex->write_md ? ex->write_md(fp, in) : 0;
	case OUT_KERNEL: return rp_kernel_write_csv(fp, kernel_cmp);
	case OUT_CHANGE: return rp_capture_write_change_dat(fp, in);
	case OUT_TIMELINE: return write_timeline(fp, in, err);
	case OUT_PHASES: return write_phases(fp, in, err);
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
		want[k] = wanted(o, ex, k);
	for (k = 0; k < MAX_OUT; k++) {
		if (!want[k])
			continue;
		snprintf(path, sizeof(path), "%s/%s", o->dir, out_name(ex, k));
		if (ss_atomic_open(&f[k], path, err))
			goto out;
		open_[k] = true;
		err->msg[0] = '\0';
		if (write_one(ex, k, f[k].fp, in, err)) {
			if (!err->msg[0])
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

/* "waste.png, latency.png" and a PNG for each of the workload's extra
 * plot-data files (FILE.dat is drawn as FILE.png); a capture's
 * (--window) "change.png, timeline.png, latency.png", change.png only
 * with --kernel-after. */
static void plot_list(const struct report_opts *o, const struct rp_extra *ex, char *buf,
		      size_t n)
{
	size_t len = (size_t)snprintf(buf, n, "%s",
				      !o->window ? "waste.png, latency.png"
				      : o->kernel_after ? "change.png, timeline.png, latency.png"
							: "timeline.png, latency.png");

	for (unsigned k = 0; ex && k < RP_MAX_EXTRA_DAT && ex->dat_names[k]; k++) {
		const char *d = ex->dat_names[k];
		size_t l = strlen(d);

		if (l > 4 && !strcmp(d + l - 4, ".dat") && len < n)
			len += (size_t)snprintf(buf + len, n - len, ", %.*s.png",
						(int)(l - 4), d);
	}
}

/* The headline figures: the seed's, then the workload's own. */
static int collect_figures(const struct rp_report_in *in, struct rp_figures *f,
			   struct ss_error *err);

/* --reprice: the exit code (REPRICE_NOT_PRICEABLE: 4). */
static int reprice(const struct report_opts *o, const struct rp_report_in *in,
		   struct rp_results *res)
{
	struct ss_error err = {{0}};

	switch (report_reprice(&o->reprice, in, res, collect_figures, &err)) {
	case REPRICE_DONE:
		return 0;
	case REPRICE_NOT_PRICEABLE:
		fprintf(stderr, "slabsim report: not priced: %s\n", err.msg);
		return 4;
	default:
		fprintf(stderr, "slabsim report: %s\n", err.msg);
		return 1;
	}
}

static int collect_figures(const struct rp_report_in *in, struct rp_figures *f,
			   struct ss_error *err)
{
	const struct ss_workload *wl = ss_workload_find(in->workload);
	const struct rp_extra *ex = wl ? wl->report : NULL;

	if (rp_seed_figures(in, f) || (ex && ex->figures && ex->figures(in, f)))
		return ss_errorf(err, "headline figures: out of memory or a bad name");
	return 0;
}

/* Everything a report reads besides the runs themselves. */
struct report_data {
	struct rp_results res, alt[MAX_ALT];
	struct rp_results era_base;	/* --era-base */
	bool have_era_base;
	struct rp_seed seed;
	bool have_seed;
	struct rp_figures figs;
	struct rp_sensitivity sens;
	bool have_sens;
	struct rp_inferred *inferred;
	unsigned ninferred;
	struct rp_settings *settings; /* each run's kernel.txt */
	size_t nsettings;
	char pick_target[64], pick_why[1024]; /* --capture-target */
	char compare_why[160];	/* --compare-model's default, and why */
	char title[256];	/* a capture's name (report.md's title) */
};

/* --capture-target FILE: its target= and why= lines. */
static int load_pick(const char *path, struct report_data *d, struct ss_error *err)
{
	FILE *fp = fopen(path, "r");
	char line[1200];

	if (!fp)
		return ss_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "target=", 7))
			snprintf(d->pick_target, sizeof(d->pick_target), "%.63s", line + 7);
		else if (!strncmp(line, "why=", 4))
			snprintf(d->pick_why, sizeof(d->pick_why), "%.1000s", line + 4);
	}
	fclose(fp);
	if (!d->pick_target[0])
		return ss_errorf(err, "%s: no target= line (slabsim pick-target writes it)", path);
	return 0;
}

static int load_data(struct report_opts *o, struct report_data *d,
		     struct ss_error *err)
{
	if (o->seed_path) {
		if (rp_seed_load(o->seed_path, &d->seed, err))
			return -1;
		d->have_seed = true;
	}
	if (rp_load_results(o->dir, o->workload, &d->res, err) ||
	    rp_report_arrange(&d->res, d->have_seed ? &d->seed : NULL, &o->variants, &o->models,
			      false, o->compare_model, err))
		return -1;
	if (!o->compare_model)
		o->compare_model = rp_default_compare_model(&d->res, d->compare_why,
							    sizeof(d->compare_why));
	for (unsigned k = 0; k < o->nalt; k++)
		if (rp_load_results(o->alt[k], o->workload, &d->alt[k], err) ||
		    rp_report_arrange(&d->alt[k], d->have_seed ? &d->seed : NULL, &o->variants,
				      &o->models, true, o->compare_model, err))
			return -1;
	if (o->era_base) {
		if (rp_load_results(o->era_base, o->workload, &d->era_base, err) ||
		    rp_report_arrange(&d->era_base, d->have_seed ? &d->seed : NULL, &o->variants,
				      &o->models, false, o->compare_model, err))
			return -1;
		d->have_era_base = true;
	}
	if (o->sens_path) {
		if (rp_sensitivity_load(o->sens_path, &d->sens, err))
			return -1;
		d->have_sens = true;
	}
	if (report_inferred(&d->res, &d->inferred, &d->ninferred, err) ||
	    rp_settings_load_all(o->dir, &d->res, &d->settings, err))
		return -1;
	d->nsettings = d->res.nruns;
	if (o->capture_target && load_pick(o->capture_target, d, err))
		return -1;
	for (unsigned k = 0; k < o->nalt; k++)
		if (report_inferred(&d->alt[k], &d->inferred, &d->ninferred, err))
			return -1;
	return 0;
}

static void free_data(const struct report_opts *o, struct report_data *d)
{
	rp_results_free(&d->res);
	for (unsigned k = 0; k < o->nalt; k++)
		rp_results_free(&d->alt[k]);
	if (d->have_era_base)
		rp_results_free(&d->era_base);
	if (d->have_seed)
		rp_seed_free(&d->seed);
	if (d->have_sens)
		rp_sensitivity_free(&d->sens);
	rp_figures_free(&d->figs);
	free(d->inferred);
	rp_settings_free_all(d->settings, d->nsettings);
}

/* A capture's report is titled by its directory: reports/NAME (make's
 * NAME, the capture directory's by default), a what-if's NAME--SUFFIX. */
static void capture_title(const char *dir, char *buf, size_t n)
{
	const char *slash = strrchr(dir, '/'), *base = slash && slash[1] ? slash + 1 : dir;

	snprintf(buf, n, "%s", base);
}

/* A capture's report draws no waste.png (--window): the one an earlier
 * report left would pass for this one's. */
static void remove_waste_plot(const char *dir)
{
	static const char *const names[] = {"waste.dat", "waste.png", "waste.svg"};
	char path[4200];

	for (size_t k = 0; k < sizeof(names) / sizeof(*names); k++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
		ss_remove_stale(path);
	}
}

/* Read everything, then write everything: exit code 0 or 1. */
static int run_report(struct report_opts *o)
{
	const struct ss_workload *wl = ss_workload_find(o->workload);
	struct report_data *d = calloc(1, sizeof(*d));
	struct ss_error err = {{0}};
	struct rp_report_in in;
	struct rp_run_waste rw = {0};
	char plots[512];
	unsigned secno = 0;
	struct rp_kernel kernel = {0};
	int rc = 1;

	if (!d) {
		fprintf(stderr, "slabsim report: out of memory\n");
		return 1;
	}
	if (load_data(o, d, &err))
		goto fail;
	if (!o->plot_data_only && !o->reprice.dir && rp_waste_load(o->dir, &d->res, &rw, &err))
		goto fail;
	plot_list(o, wl ? wl->report : NULL, plots, sizeof(plots));
	if (o->kernel_after && !o->window && strlen(plots) + 13 < sizeof(plots))
		strcat(plots, ", change.png");
	if (o->kernel_after) {
		char run[4200];

		if (!d->res.variants.n || rp_names_find(&d->res.models, o->compare_model) < 0) {
			ss_errorf(&err, "--kernel-after: no run of model '%s' in %s/runs",
				  o->compare_model, o->dir);
			goto fail;
		}
		snprintf(run, sizeof(run), "%s/runs/%s__%s", o->dir, d->res.variants.v[0],
			 o->compare_model);
		if (rp_kernel_load(&kernel, o->kernel_before, o->kernel_after, run,
				   o->compare_model, &err))
			goto fail;
		if (o->capture_meta && rp_kernel_load_meta(&kernel, o->capture_meta, &err))
			goto fail;
		if (o->kernel_fill_after &&
		    rp_kernel_load_fill_after(&kernel, o->kernel_fill_after, &err))
			goto fail;
		kernel_cmp = &kernel;
	}
	if (o->capture_target)
		capture_title(o->dir, d->title, sizeof(d->title));
	in = (struct rp_report_in){
		.workload = o->workload, .command = o->command, .dir = o->dir,
		.res = &d->res, .seed = d->have_seed ? &d->seed : NULL,
		.seed_path = o->seed_path, .compare_model = o->compare_model,
		.baseline = o->baseline,
		.calib = o->calib, .ncalib = o->ncalib,
		.plots = plots, .waste = rw.w, .secno = &secno,
		.alt = d->alt, .alt_dirs = o->alt, .nalt = o->nalt,
		.inferred = d->inferred, .ninferred = d->ninferred,
		.figs = &d->figs, .sens = d->have_sens ? &d->sens : NULL,
		.settings = d->settings,
		.pick_target = d->pick_target[0] ? d->pick_target : NULL,
		.pick_why = d->pick_why,
		.title = d->title[0] ? d->title : NULL,
		.kernel = kernel_cmp,
		.compare_why = d->compare_why,
		.time_first = wl && wl->report ? wl->report->time_first : NULL,
		.window = o->window,
		.era_base = d->have_era_base ? &d->era_base : NULL,
		.era_base_dir = o->era_base,
	};
	if (o->reprice.dir) {
		rc = reprice(o, &in, &d->res);
		goto out;
	}
	if (collect_figures(&in, &d->figs, &err) || write_outputs(o, &in, &err))
		goto fail;
	if (o->window)
		remove_waste_plot(o->dir);
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "slabsim report: %s\n", err.msg);
	remove_outputs(o);
out:
	rp_waste_free(&rw);
	rp_kernel_free(&kernel);
	kernel_cmp = NULL;
	free_data(o, d);
	free(d);
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
	r = r ? ss_opt_exit(r) : run_report(o);
	rp_names_free(&o->variants);
	rp_names_free(&o->models);
	free(o);
	return r;
}
