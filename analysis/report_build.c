/* report_build.c - `slabsim report`: read and arrange, then write
 * (report_build.h). */
#include "report_build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "report_capture.h"
#include "report_kernel.h"
#include "report_load.h"
#include "report_plot.h"
#include "report_seed.h"
#include "report_seed_md.h"
#include "sensitivity_data.h"
#include "timeline_dat.h"

/* The outputs, written to temporary files and renamed together: the four
 * generic ones, then the workload's extra plot-data files. */
enum { OUT_SUMMARY, OUT_WASTE, OUT_LATENCY, OUT_TITLE, OUT_FIGURES, OUT_REPORT, OUT_KERNEL,
       OUT_CHANGE, OUT_TIMELINE, OUT_PHASES, NR_OUT };
#define MAX_OUT (NR_OUT + SS_REPORT_MAX_EXTRA_DAT)
static const char *const out_names[NR_OUT] = {
	"summary.csv", "waste.dat", "latency.dat", "title.gp", "figures.csv", "report.md",
	"kernel.csv", "change.dat", "timeline.dat", "phases.dat",
};

static const char *out_name(const struct ss_report_extra *ex, int k)
{
	if (k < NR_OUT)
		return out_names[k];
	return ex ? ex->dat_names[k - NR_OUT] : NULL;
}

/* Output k is one this report writes (kernel.csv with --kernel-after,
 * whether or not the comparison could be loaded). */
static bool wanted(const struct ss_report_request *o, int k)
{
	const struct ss_report_extra *ex = o->extra;

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

/* Not a staging directory as `run` has (outdir.h): DIR also holds runs/
 * and the plots. */
void ss_report_remove_outputs(const struct ss_report_request *o)
{
	const struct ss_report_extra *ex = o->extra;
	char path[4200];

	for (int k = 0; k < MAX_OUT; k++)
		if (wanted(o, k)) {
			snprintf(path, sizeof(path), "%s/%s", o->dir, out_name(ex, k));
			ss_remove_stale(path);
		}
}

/* timeline.dat: every run's block, in the report's order (timeline_dat.h). */
static int write_timeline(FILE *fp, const struct ss_report_report_in *in, struct ss_error *err)
{
	const struct ss_report_results *res = in->res;

	ss_timeline_dat_head(fp, "slabsim report");
	for (unsigned vi = 0; vi < res->variants.n; vi++)
		for (unsigned mi = 0; mi < res->models.n; mi++) {
			struct ss_compare_timeline tl = {0};
			int rc = ss_timeline_dat_block(fp, in->dir, ss_report_find(res, vi, mi),
						       res->variants.v[vi], res->models.v[mi],
						       &tl, err);

			ss_compare_timeline_free(&tl);
			if (rc)
				return -1;
		}
	return ferror(fp) ? ss_errorf(err, "timeline.dat: write failed") : 0;
}

/* phases.dat: each variant's markers, read from its first run. */
static int write_phases(FILE *fp, const struct ss_report_report_in *in, struct ss_error *err)
{
	const struct ss_report_results *res = in->res;

	ss_phases_dat_head(fp, "slabsim report");
	for (unsigned vi = 0; vi < res->variants.n; vi++) {
		const struct ss_report_run *run = NULL;
		struct ss_compare_timeline tl = {0};
		char path[4400];

		for (unsigned mi = 0; mi < res->models.n && !run; mi++)
			run = ss_report_find(res, vi, mi);
		if (run) {
			snprintf(path, sizeof(path), "%s/runs/%s__%s/timeline.csv", in->dir,
				 run->variant, run->model);
			if (ss_compare_read_timeline(path, NULL, NULL, &tl, err))
				return -1;
		}
		ss_phases_dat_block(fp, res->variants.v[vi], run ? &tl : NULL);
		ss_compare_timeline_free(&tl);
	}
	return ferror(fp) ? ss_errorf(err, "phases.dat: write failed") : 0;
}

/* Output k into fp: 0, or -1 with err set (a bad input file) or not (out
 * of memory, a write error). */
static int write_one(const struct ss_report_extra *ex, int k, FILE *fp,
		     const struct ss_report_report_in *in, struct ss_error *err)
{
	switch (k) {
	case OUT_SUMMARY: return ss_report_write_summary_csv(fp, in->res, in->baseline);
	case OUT_WASTE: return ss_report_write_waste_dat(fp, in->res);
	case OUT_LATENCY: return ss_report_write_latency_dat(fp, in->res);
	case OUT_TITLE: {
		char title[512];

		ss_report_plot_title(in->res, in->title ? in->title : in->workload, title, sizeof(title));
		/* a capture's timeline draws each run's change since its start */
		return ss_report_write_title_gp(fp, title) || ss_timeline_dat_title(fp, in->window);
	}
	case OUT_FIGURES: return ss_report_write_figures_csv(fp, in->figs);
	case OUT_REPORT:
		if (ss_report_write_report(fp, in))
			return -1;
		return ex && ex->write_md ? ex->write_md(fp, in) : 0;
	case OUT_KERNEL: return ss_report_kernel_write_csv(fp, in->kernel);
	case OUT_CHANGE: return ss_report_capture_write_change_dat(fp, in);
	case OUT_TIMELINE: return write_timeline(fp, in, err);
	case OUT_PHASES: return write_phases(fp, in, err);
	default: return ex->write_dat((unsigned)(k - NR_OUT), fp, in);
	}
}

static int write_outputs(const struct ss_report_request *o,
			 const struct ss_report_report_in *in, struct ss_error *err)
{
	const struct ss_report_extra *ex = o->extra;
	struct ss_atomic_file f[MAX_OUT];
	bool want[MAX_OUT], open_[MAX_OUT] = {false};
	char path[4200];
	int k, r = -1;

	for (k = 0; k < MAX_OUT; k++)
		want[k] = wanted(o, k);
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
static void plot_list(const struct ss_report_request *o, char *buf, size_t n)
{
	const struct ss_report_extra *ex = o->extra;

	size_t len = (size_t)snprintf(buf, n, "%s",
				      !o->window ? "waste.png, latency.png"
				      : o->kernel_after ? "change.png, timeline.png, latency.png"
							: "timeline.png, latency.png");

	for (unsigned k = 0; ex && k < SS_REPORT_MAX_EXTRA_DAT && ex->dat_names[k]; k++) {
		const char *d = ex->dat_names[k];
		size_t l = strlen(d);

		if (l > 4 && !strcmp(d + l - 4, ".dat") && len < n)
			len += (size_t)snprintf(buf + len, n - len, ", %.*s.png",
						(int)(l - 4), d);
	}
}

int ss_report_collect_figures(const struct ss_report_report_in *in, struct ss_report_figures *f,
		      struct ss_error *err)
{
	const struct ss_report_extra *ex = in->extra;

	if (ss_report_seed_figures(in, f) || (ex && ex->figures && ex->figures(in, f)))
		return ss_errorf(err, "headline figures: out of memory or a bad name");
	return 0;
}

/* Everything a report reads. */
struct ss_report {
	struct ss_report_request *rq;
	struct ss_report_results res, alt[SS_REPORT_MAX_ALT];
	struct ss_report_results era_base; /* --era-base */
	bool have_era_base;
	struct ss_report_seed seed;
	bool have_seed;
	struct ss_report_figures figs;
	struct ss_report_sensitivity sens;
	bool have_sens;
	struct ss_report_inferred *inferred;
	unsigned ninferred;
	struct ss_report_settings *settings; /* each run's kernel.txt */
	size_t nsettings;
	char pick_target[64], pick_why[1024]; /* --capture-target */
	char compare_why[160];	/* --compare-model's default, and why */
	char title[256];	/* a capture's name (report.md's title) */
	struct ss_report_run_waste rw; /* each run's caches and sites, for the waste ranking */
	struct ss_report_kernel kernel; /* --kernel-after's comparison */
	char plots[512];	/* the plots beside report.md */
	unsigned secno;
	struct ss_report_report_in in;
};

/* --capture-target FILE: its target= and why= lines. */
static int load_pick(const char *path, struct ss_report *d, struct ss_error *err)
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

static int load_data(struct ss_report_request *o, struct ss_report *d,
		     struct ss_error *err)
{
	if (o->seed_path) {
		if (ss_report_seed_load(o->seed_path, &d->seed, err))
			return -1;
		d->have_seed = true;
	}
	if (ss_report_load_results(o->dir, o->workload, &d->res, err) ||
	    ss_report_report_arrange(&d->res, d->have_seed ? &d->seed : NULL, &o->variants, &o->models,
			      false, o->compare_model, err))
		return -1;
	if (!o->compare_model)
		o->compare_model = ss_report_default_compare_model(&d->res, d->compare_why,
							    sizeof(d->compare_why));
	for (unsigned k = 0; k < o->nalt; k++)
		if (ss_report_load_results(o->alt[k], o->workload, &d->alt[k], err) ||
		    ss_report_report_arrange(&d->alt[k], d->have_seed ? &d->seed : NULL, &o->variants,
				      &o->models, true, o->compare_model, err))
			return -1;
	if (o->era_base) {
		if (ss_report_load_results(o->era_base, o->workload, &d->era_base, err) ||
		    ss_report_report_arrange(&d->era_base, d->have_seed ? &d->seed : NULL, &o->variants,
				      &o->models, false, o->compare_model, err))
			return -1;
		d->have_era_base = true;
	}
	if (o->sens_path) {
		if (ss_report_sensitivity_load(o->sens_path, &d->sens, err))
			return -1;
		d->have_sens = true;
	}
	if ((o->inferred && o->inferred(&d->res, &d->inferred, &d->ninferred, err)) ||
	    ss_report_settings_load_all(o->dir, &d->res, &d->settings, err))
		return -1;
	d->nsettings = d->res.nruns;
	if (o->capture_target && load_pick(o->capture_target, d, err))
		return -1;
	for (unsigned k = 0; o->inferred && k < o->nalt; k++)
		if (o->inferred(&d->alt[k], &d->inferred, &d->ninferred, err))
			return -1;
	return 0;
}

static void free_data(const struct ss_report_request *o, struct ss_report *d)
{
	ss_report_results_free(&d->res);
	for (unsigned k = 0; k < o->nalt; k++)
		ss_report_results_free(&d->alt[k]);
	if (d->have_era_base)
		ss_report_results_free(&d->era_base);
	if (d->have_seed)
		ss_report_seed_free(&d->seed);
	if (d->have_sens)
		ss_report_sensitivity_free(&d->sens);
	ss_report_figures_free(&d->figs);
	free(d->inferred);
	ss_report_settings_free_all(d->settings, d->nsettings);
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

struct ss_report *ss_report_load(struct ss_report_request *o, struct ss_error *err)
{
	struct ss_report *d = calloc(1, sizeof(*d));

	if (!d) {
		ss_errorf(err, "out of memory");
		return NULL;
	}
	d->rq = o;
	if (load_data(o, d, err))
		goto fail;
	if (!o->plot_data_only && !o->figures_only && ss_report_waste_load(o->dir, &d->res, &d->rw, err))
		goto fail;
	plot_list(o, d->plots, sizeof(d->plots));
	if (o->kernel_after && !o->window && strlen(d->plots) + 13 < sizeof(d->plots))
		strcat(d->plots, ", change.png");
	if (o->kernel_after) {
		char run[4200];

		if (!d->res.variants.n || ss_report_names_find(&d->res.models, o->compare_model) < 0) {
			ss_errorf(err, "--kernel-after: no run of model '%s' in %s/runs",
				  o->compare_model, o->dir);
			goto fail;
		}
		snprintf(run, sizeof(run), "%s/runs/%s__%s", o->dir, d->res.variants.v[0],
			 o->compare_model);
		if (ss_report_kernel_load(&d->kernel, o->kernel_before, o->kernel_after, run,
				   o->compare_model, err))
			goto fail;
		if (o->ss_capture_meta && ss_report_kernel_load_meta(&d->kernel, o->ss_capture_meta, err))
			goto fail;
		if (o->kernel_fill_after &&
		    ss_report_kernel_load_fill_after(&d->kernel, o->kernel_fill_after, err))
			goto fail;
	}
	if (o->capture_target)
		capture_title(o->dir, d->title, sizeof(d->title));
	d->in = (struct ss_report_report_in){
		.workload = o->workload, .command = o->command, .dir = o->dir,
		.res = &d->res, .seed = d->have_seed ? &d->seed : NULL,
		.seed_path = o->seed_path, .compare_model = o->compare_model,
		.baseline = o->baseline,
		.calib = o->calib, .ncalib = o->ncalib,
		.plots = d->plots, .waste = d->rw.w, .secno = &d->secno,
		.alt = d->alt, .alt_dirs = o->alt, .nalt = o->nalt,
		.inferred = d->inferred, .ninferred = d->ninferred,
		.figs = &d->figs, .sens = d->have_sens ? &d->sens : NULL,
		.settings = d->settings,
		.pick_target = d->pick_target[0] ? d->pick_target : NULL,
		.pick_why = d->pick_why,
		.title = d->title[0] ? d->title : NULL,
		.kernel = o->kernel_after ? &d->kernel : NULL,
		.compare_why = d->compare_why,
		.time_first = o->extra ? o->extra->time_first : NULL,
		.window = o->window,
		.extra = o->extra,
		.era_base = d->have_era_base ? &d->era_base : NULL,
		.era_base_dir = o->era_base,
	};
	return d;
fail:
	ss_report_free(d);
	return NULL;
}

const struct ss_report_report_in *ss_report_input(const struct ss_report *r)
{
	return &r->in;
}

struct ss_report_results *ss_report_runs(struct ss_report *r)
{
	return &r->res;
}

int ss_report_write(struct ss_report *d, struct ss_error *err)
{
	if (ss_report_collect_figures(&d->in, &d->figs, err) || write_outputs(d->rq, &d->in, err))
		return -1;
	if (d->rq->window)
		remove_waste_plot(d->rq->dir);
	return 0;
}

void ss_report_free(struct ss_report *d)
{
	if (!d)
		return;
	ss_report_waste_free(&d->rw);
	ss_report_kernel_free(&d->kernel);
	free_data(d->rq, d);
	free(d);
}
