/* report_md.c - write report.md (report_md.h). */
#include "report_md.h"
#include "report_era.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "contention_table.h"
#include "latency_table.h"
#include "md_table.h"
#include "report_capture.h"
#include "report_figures.h"
#include "report_kernel.h"
#include "report_seed_md.h"

/* ---- helpers ---------------------------------------------------------- */

static int col_index(const struct ss_report_results *res, const char *name)
{
	for (unsigned i = 0; i < res->ncols; i++)
		if (!strcmp(res->header[i], name))
			return (int)i;
	return -1;
}

/* The distinct values of a text column over the runs (of model mi, or of
 * all models when mi < 0), joined with ", ". */
static void distinct(const struct ss_report_results *res, const char *col, int mi,
		     char *buf, size_t n)
{
	int c = col_index(res, col);
	size_t len = 0;

	buf[0] = '\0';
	if (c < 0)
		return;
	for (size_t k = 0; k < res->nruns; k++) {
		const char *v = res->runs[k].row[c];
		bool seen = false;

		if (mi >= 0 && res->runs[k].mi != (unsigned)mi)
			continue;
		for (size_t j = 0; j < k && !seen; j++)
			seen = (mi < 0 || res->runs[j].mi == (unsigned)mi) &&
			       !strcmp(res->runs[j].row[c], v);
		if (seen || len + strlen(v) + 3 >= n)
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					len ? ", " : "", v);
	}
}

/* "17000" when every run agrees, "16990–17000" when they differ; empty
 * when no run has the optional column. */
static void value_range(const struct ss_report_results *res, size_t off, char *buf,
			size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	buf[0] = '\0';
	for (size_t k = 0; k < res->nruns; k++) {
		double v = *(const double *)((const char *)&res->runs[k].s + off);

		if (v < 0)
			continue;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (lo > hi)
		return;
	if (lo == hi)
		snprintf(buf, n, "%.0f", lo);
	else
		snprintf(buf, n, "%.0f–%.0f", lo, hi);
}

void ss_report_heading(FILE *fp, const struct ss_report_report_in *in, const char *fmt, ...)
{
	va_list ap;

	fprintf(fp, "## %u. ", ++*in->secno);
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	fputs("\n\n", fp);
}

/* "x86_64-4.5, x86_64-4.6" -> "x86_64-4.5/4.6": the names after the
 * first share its part up to the last '-'. */
static void squeeze_targets(char *list)
{
	char out[256], *save = NULL, *first = NULL;
	size_t plen = 0, len = 0;

	out[0] = '\0';
	for (char *t = strtok_r(list, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		if (!first) {
			char *dash = strrchr(t, '-');

			first = t;
			plen = dash ? (size_t)(dash - t) + 1 : 0;
			len += (size_t)snprintf(out + len, sizeof(out) - len, "%s", t);
		} else if (plen && !strncmp(t, first, plen)) {
			len += (size_t)snprintf(out + len, sizeof(out) - len, "/%s", t + plen);
		} else {
			len += (size_t)snprintf(out + len, sizeof(out) - len, ", %s", t);
		}
		if (len >= sizeof(out))
			break;
	}
	strcpy(list, out);
}

void ss_report_plot_title(const struct ss_report_results *res, const char *workload,
		   char *buf, size_t n)
{
	char t[256], e[128], c[128], kernel[160] = "";
	int tc = col_index(res, "target"), ec = col_index(res, "era");
	bool named = tc >= 0 && ec >= 0;

	/* the era only when a target's name does not end in it */
	for (size_t k = 0; named && k < res->nruns; k++) {
		const char *tn = res->runs[k].row[tc], *era = res->runs[k].row[ec];
		size_t lt = strlen(tn), le = strlen(era);

		named = lt > le && tn[lt - le - 1] == '-' && !strcmp(tn + lt - le, era);
	}
	distinct(res, "target", -1, t, sizeof(t));
	distinct(res, "era", -1, e, sizeof(e));
	distinct(res, "cpus", -1, c, sizeof(c));
	squeeze_targets(t);
	if (!named)
		snprintf(kernel, sizeof(kernel), " (kernel %s)", e);
	snprintf(buf, n, "%s, %s%s, %s CPU%s", workload, t, kernel, c,
		 strcmp(c, "1") ? "s" : "");
}

int ss_report_write_title_gp(FILE *fp, const char *title)
{
	fputs("# title.gp - the plots' title head, loaded by make before each script\n"
	      "# (workload_plain for a title drawn noenhanced)\nworkload_plain = '", fp);
	for (const char *c = title; *c; c++) {
		if (*c == '\'')
			fputc('\'', fp);
		fputc(*c, fp);
	}
	fputs("'\nworkload = '", fp);
	for (; *title; title++) {
		if (*title == '\'') /* gnuplot: '' is a quote inside '...' */
			fputc('\'', fp);
		else if (strchr("_^@{}&~\\", *title)) /* literal in enhanced text */
			fputc('\\', fp);
		fputc(*title, fp);
	}
	fputs("'\n", fp);
	return ferror(fp) ? -1 : 0;
}

/* ---- what was run ---------------------------------------------------- */

/* "Runs: 20 (5 variants × 4 models)" when every pair ran; otherwise the
 * count alone and the pairs that did not run, said as such. */
void ss_report_runs_line(FILE *fp, const struct ss_report_results *res, const char *dir)
{
	size_t pairs = (size_t)res->variants.n * res->models.n;

	if (res->nruns == pairs)
		fprintf(fp, "- Runs: %zu (%u variants × %u models) from %s/runs/\n",
			res->nruns, res->variants.n, res->models.n, dir);
	else
		fprintf(fp, "- Runs: %zu from %s/runs/, of the %zu pairs of %u variants and %u models\n",
			res->nruns, dir, pairs, res->variants.n, res->models.n);
}

/* ---- the settings each run used (run_settings.h) ---------------------- */

/* For a capture's runs (the report knows its own target) that had no
 * initial state, that the caches started empty. */
static bool v_initial_capture(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
			      char *buf, size_t n)
{
	if (!ss_report_sv_initial(res, k, s, buf, n))
		snprintf(buf, n, "none: the caches start empty");
	return true;
}

/* A capture's target: the one its kernel takes, or a what-if's. */
static void pick_line(FILE *fp, const struct ss_report_report_in *in)
{
	const struct ss_report_results *res = in->res;
	bool all = res->nruns > 0;

	if (!in->pick_target)
		return;
	for (size_t k = 0; k < res->nruns; k++)
		all = all && !strcmp(ss_report_run_column(res, k, "target"), in->pick_target);
	if (all)
		fprintf(fp, "- Target chosen from the capture: %s\n", in->pick_why);
	else
		fprintf(fp, "- The capture's own target would be %s (%s); these runs are a what-if "
			    "on another\n", in->pick_target, in->pick_why);
}

static void sec_run(FILE *fp, const struct ss_report_report_in *in)
{
	const struct ss_report_results *res = in->res;
	char a[512], b[512];

	ss_report_heading(fp, in, "What was run");
	fprintf(fp, "- Command: `%s`\n", in->command);
	ss_report_settings_line(fp, "Target", res, in->settings, ss_report_sv_target);
	pick_line(fp, in);
	ss_report_settings_line(fp, "Kernel", res, in->settings, ss_report_sv_kernel);
	ss_report_settings_line(fp, "CPUs", res, in->settings, ss_report_sv_cpus);
	ss_report_settings_line(fp, "Cost table", res, in->settings, ss_report_sv_costs);
	ss_report_settings_line(fp, "Traces from", res, in->settings, ss_report_sv_traces);
	ss_report_settings_line(fp, "Initial state", res, in->settings,
			 in->pick_target ? v_initial_capture : ss_report_sv_initial);
	ss_report_settings_line(fp, "Draw of the initial state (--draw-seed)", res, in->settings,
			 ss_report_sv_draw_seed);
	value_range(res, offsetof(struct ss_report_summary, rules), a, sizeof(a));
	value_range(res, offsetof(struct ss_report_summary, labels), b, sizeof(b));
	if (a[0])
		fprintf(fp, "- Rules loaded: %s\n", a);
	if (b[0])
		fprintf(fp, "- Labels: %s\n", b);
	ss_report_runs_line(fp, res, in->dir);
	if (res->dropped)
		fprintf(fp, "- Left out: %zu run directories whose variant or model was not listed\n",
			res->dropped);
	fprintf(fp, "- Models (slub_debug):");
	for (unsigned m = 0; m < res->models.n; m++) {
		distinct(res, "slub_debug", (int)m, a, sizeof(a));
		fprintf(fp, "%s %s (%s)", m ? "," : "", res->models.v[m],
			a[0] ? a : "no runs");
	}
	fprintf(fp, "\n- Variants:");
	if (!in->seed) {
		for (unsigned v = 0; v < res->variants.n; v++)
			fprintf(fp, "%s %s", v ? "," : "", res->variants.v[v]);
		fprintf(fp, "\n");
	} else {
		fprintf(fp, "\n");
		for (unsigned v = 0; v < res->variants.n; v++) {
			const struct ss_report_seed_row *s =
				ss_report_seed_find(in->seed, res->variants.v[v]);

			fprintf(fp, "  - %s: %s\n", res->variants.v[v],
				s ? s->what : "(not in the seed table)");
		}
		fprintf(fp, "- Seed table: %s\n", in->seed_path);
	}
	fprintf(fp, "- Plots: %s (and .svg) beside this file\n\n",
		in->plots ? in->plots : "waste.png, latency.png");
}

/* ---- fitted and inferred parameters ----------------------------------- */

/* Every figure that was fitted to or inferred from a seed rather than
 * known: the constants make passes (CALIBRATION) and the target keys
 * declared `inferred.KEY` in a target file. */
static int sec_calib(FILE *fp, const struct ss_report_report_in *in)
{
	struct ss_md_table t;

	ss_report_heading(fp, in, "Fitted and inferred parameters");
	if (!in->ncalib && !in->ninferred) {
		fprintf(fp, "None: make passed no fitted constant (CALIBRATION is empty) and "
			    "no target declares an inferred parameter.\n\n");
		return 0;
	}
	ss_mdtable_wrap(fp, "", "", true, "%s",
		 "Fitted: a constant fitted once on a seed figure (docs/cost-model.md, "
		 "section \"Calibration constants\"; passed by make as CALIBRATION).  Inferred: a "
		 "target parameter the machine does not document, deduced from the seed's "
		 "own figures (the target file's inferred.KEY line; docs/targets.md).  "
		 "Either acts as a parameter fitted to the seed: a figure that depends on "
		 "it is not an independent check.");
	ss_mdtable_init(&t, "llll");
	ss_mdtable_cell(&t, "parameter");
	ss_mdtable_cell(&t, "value");
	ss_mdtable_cell(&t, "kind");
	ss_mdtable_cell(&t, "evidence");
	for (unsigned i = 0; i < in->ncalib; i++) {
		ss_mdtable_cell(&t, "%s", in->calib[i].name);
		ss_mdtable_cell(&t, "%s", in->calib[i].value);
		ss_mdtable_cell(&t, "fitted");
		ss_mdtable_cell(&t, "docs/cost-model.md");
	}
	for (unsigned i = 0; i < in->ninferred; i++) {
		const struct ss_report_inferred *f = &in->inferred[i];

		ss_mdtable_cell(&t, "%s: %s", f->target, f->key);
		ss_mdtable_cell(&t, "%s", f->value);
		ss_mdtable_cell(&t, "inferred");
		ss_mdtable_cell(&t, "%s", f->evidence);
	}
	return ss_mdtable_print(fp, &t);
}

/* ---- where the bytes go ---------------------------------------------- */

/* One row of the bytes table: the six parts at the end or at the peak. */
static void bytes_row(struct ss_md_table *t, const struct ss_report_run *run, bool peak)
{
	double total = 0, pad;

	ss_mdtable_cell(t, "%s", run->variant);
	ss_mdtable_cell(t, "%s", run->model);
	if (peak)
		ss_mdtable_cell(t, "peak, event %.0f", run->s.peak_event);
	else
		ss_mdtable_cell(t, "end");
	for (int p = 0; p < SS_REPORT_NR_PARTS; p++) {
		double b = peak ? ss_report_peak_part_bytes(&run->s, (enum ss_report_part)p)
				: ss_report_part_bytes(&run->s, (enum ss_report_part)p);

		total += b;
		ss_mdtable_cell(t, "%.1f", b / 1024);
	}
	ss_mdtable_cell(t, "%.1f", total / 1024);
	ss_mdtable_cell(t, "%.0f", peak ? run->s.peak_footprint_kib : run->s.footprint_kib);
	pad = peak ? run->s.peak_rounding_bytes + run->s.peak_align_bytes
		   : run->s.padding_bytes;
	if (total > 0)
		ss_mdtable_cell(t, "%.1f", pad * 100 / total);
	else
		ss_mdtable_cell(t, "n/a");
}

static int sec_bytes(FILE *fp, const struct ss_report_report_in *in)
{
	const struct ss_report_results *res = in->res;
	struct ss_md_table t;
	bool any_peak = false;

	for (size_t k = 0; k < res->nruns; k++)
		any_peak |= ss_report_has_peak(&res->runs[k].s);
	ss_report_heading(fp, in, "Where the bytes go (KiB)%s", any_peak ? ": at the end and at the peak" : "");
	ss_mdtable_wrap(fp, "", "", true, "%s%s%s",
		"requested = bytes the callers asked for; rounding = up to the kmalloc class or cache size; "
		"align = up to the cache's alignment; debug = slub_debug metadata; free slots = unused objects "
		"in the slabs held; slab tail = leftover at the end of each slab (slabinfo's Lpadd); "
		"total = the six parts (the footprint, unless a run keeps kmalloc_large pages out of them); "
		"padding % = (rounding + align) × 100 / total.",
		any_peak ? " Each run has two rows: the end of the trace, and the moment its footprint "
			   "first reached its largest value (the peak), with the event it was reached at." : "",
		in->window ? " A capture's run counts here the caches it held; the start and end at the "
			     "top of this report, for a run from the kernel's caches, also count the caches "
			     "it never touched, at their before-snapshot's size." : "");
	ss_mdtable_init(&t, "lllrrrrrrrrr");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "model");
	ss_mdtable_cell(&t, "when");
	ss_mdtable_cell(&t, "requested");
	ss_mdtable_cell(&t, "rounding");
	ss_mdtable_cell(&t, "align");
	ss_mdtable_cell(&t, "debug");
	ss_mdtable_cell(&t, "free slots");
	ss_mdtable_cell(&t, "slab tail");
	ss_mdtable_cell(&t, "total");
	ss_mdtable_cell(&t, "footprint");
	ss_mdtable_cell(&t, "padding %%");
	for (size_t k = 0; k < res->nruns; k++) {
		bytes_row(&t, &res->runs[k], false);
		if (ss_report_has_peak(&res->runs[k].s))
			bytes_row(&t, &res->runs[k], true);
	}
	return ss_mdtable_print(fp, &t);
}

/* ---- where the waste is -------------------------------------------------- */

#define REPORT_TOP 3 /* caches and sites per run */

static int sec_waste(FILE *fp, const struct ss_report_report_in *in)
{
	if (!in->waste)
		return 0;
	ss_report_heading(fp, in, "Where the waste is: top caches and sites");
	ss_mdtable_wrap(fp, "", "", true,
		"Per run, the %d caches holding the most bytes no caller asked for at the end of the trace: "
		"waste = Space − requested = rounding + align + debug + free slots + slab tail (KiB; "
		"caches.csv), beside slabinfo's Loss = Space − Objects × Objsize, which leaves the "
		"rounding up to the kmalloc class out.", REPORT_TOP);
	if (ss_wastemd_caches_table(fp, in->waste, (unsigned)in->res->nruns, REPORT_TOP))
		return -1;
	ss_mdtable_wrap(fp, "", "", true,
		"Per run, the %d allocation sites whose objects live at the end carry the most padding "
		"and debug bytes (sites.csv): waste = rounding + align + debug of those objects (KiB); "
		"live (peak) = objects live at the end (the most at once); rounding %% = 100 − "
		"requested × 100 / (allocations × object_size) over every allocation of the site "
		"(sites.csv's frag_pct).  Not perf kmem's Frag: perf divides by bytes_alloc = "
		"s->size, the stride with the cache's alignment and slub_debug metadata, so a cache "
		"with either reads higher there; those bytes are the align and debug columns.", REPORT_TOP);
	return ss_wastemd_sites_table(fp, in->waste, (unsigned)in->res->nruns, REPORT_TOP);
}

/* ---- latency ------------------------------------------------------------ */

static int sec_latency(FILE *fp, const struct ss_report_report_in *in)
{
	const struct ss_report_results *res = in->res;

	ss_report_heading(fp, in, "Latency and contention");
	ss_mdtable_wrap(fp, "", "", true, "%s", "Latency per run in ns (latency.csv; a quantile is the upper bound of its bucket, at most 1/64 above the operation's time; latency.png draws each run's CCDF):");
	if (ss_report_latency_table(fp, res))
		return -1;
	ss_mdtable_wrap(fp, "", "", true, "%s", "Contention on the simulated clocks (summary.csv, locks.csv; docs/cost-model.md): time waited for list_lock and slab_lock summed over the CPUs, its share of the allocator time, cmpxchg_double retries, and cache lines moved between CPUs (object and slab lines of remote frees):");
	return ss_report_contention_table(fp, res);
}

/* ---- strategies compared ---------------------------------------------- */

/* One row per variant, one column per model (and the seed's mean). */
/* The baseline variant's index (--baseline), or -1. */
static int baseline_vi(const struct ss_report_report_in *in)
{
	return in->baseline ? ss_report_names_find(&in->res->variants, in->baseline) : -1;
}

static int strategy_grid(FILE *fp, const struct ss_report_report_in *in, bool peak)
{
	const struct ss_report_results *res = in->res;
	char align[SS_MDTABLE_MAX_COLS + 2] = "l";
	bool seed = in->seed && !peak;
	int bv = peak ? -1 : baseline_vi(in);
	struct ss_md_table t;

	if (res->models.n + 3 >= sizeof(align))
		return -1;
	for (unsigned m = 0; m < res->models.n + (seed ? 1 : 0) + (bv >= 0 ? 1 : 0); m++)
		strcat(align, "r");
	ss_mdtable_init(&t, align);
	ss_mdtable_cell(&t, "variant");
	if (seed)
		ss_mdtable_cell(&t, "seed");
	for (unsigned m = 0; m < res->models.n; m++)
		ss_mdtable_cell(&t, "%s", res->models.v[m]);
	if (bv >= 0)
		ss_mdtable_cell(&t, "%s − %s", res->models.v[0], in->baseline);
	for (unsigned v = 0; v < res->variants.n; v++) {
		const struct ss_report_seed_row *s =
			seed ? ss_report_seed_find(in->seed, res->variants.v[v]) : NULL;
		const struct ss_report_run *r0 = ss_report_find(res, v, 0), *b0 = bv >= 0 ? ss_report_find(res, (unsigned)bv, 0) : NULL;

		ss_mdtable_cell(&t, "%s", res->variants.v[v]);
		if (seed && s)
			ss_mdtable_cell(&t, "%.0f", s->avg);
		else if (seed)
			ss_mdtable_cell(&t, "n/a");
		for (unsigned m = 0; m < res->models.n; m++) {
			const struct ss_report_run *run = ss_report_find(res, v, m);

			if (!run || (peak && !ss_report_has_peak(&run->s)))
				ss_mdtable_cell(&t, "n/a");
			else
				ss_mdtable_cell(&t, "%.0f", peak ? run->s.peak_footprint_kib
							  : run->s.footprint_kib);
		}
		if (bv >= 0 && r0 && b0)
			ss_mdtable_cell(&t, "%+.0f", r0->s.footprint_kib - b0->s.footprint_kib);
		else if (bv >= 0)
			ss_mdtable_cell(&t, "n/a");
	}
	return ss_mdtable_print(fp, &t);
}

/* ---- headline figures and their intervals ------------------------------ */

static int sec_figures(FILE *fp, const struct ss_report_report_in *in)
{
	struct ss_md_table t;

	fprintf(fp, "## Headline figures and their intervals\n\n");
	if (!in->figs || !in->figs->n) {
		fprintf(fp, "This workload names no headline time figure.\n\n");
		return 0;
	}
	if (in->sens)
		ss_mdtable_wrap(fp, "", "", true, "Each figure with the lowest and highest value it took when "
			 "every estimated cost of the cost table, the target's clock and the "
			 "workload's own estimated parameters were moved over their ranges "
			 "(docs/cost-model.md), one at a time and all together (`make "
			 "sensitivity WORKLOAD=%s`, sensitivity.csv, tornado.png); then the "
			 "three steps it depends on most: each step's range, and the figure at "
			 "its low and high ends.  Fitted constants (\"Fitted and inferred "
			 "parameters\" below) are held at their values.", in->workload);
	else
		ss_mdtable_wrap(fp, "", "", true, "No sensitivity.csv beside this report: `make "
			 "sensitivity WORKLOAD=%s` gives every figure below its interval and "
			 "the steps it depends on most.", in->workload);
	ss_mdtable_init(&t, in->sens ? "lrrl" : "lrl");
	ss_mdtable_cell(&t, "figure");
	ss_mdtable_cell(&t, "value");
	if (in->sens) {
		ss_mdtable_cell(&t, "interval");
		ss_mdtable_cell(&t, "depends most on: step low–high (figure at low–high)");
	} else {
		ss_mdtable_cell(&t, "what");
	}
	for (size_t i = 0; i < in->figs->n; i++) {
		const struct ss_report_figure *f = &in->figs->v[i];
		struct ss_report_interval iv;
		char a[64], b[512];

		ss_mdtable_cell(&t, "%s (%s)", f->name, f->unit);
		ss_mdtable_cell(&t, "%.4g", f->value);
		if (!in->sens) {
			ss_mdtable_cell(&t, "%s", f->what);
			continue;
		}
		if (ss_report_sens_interval(in->sens, f->name, 3, &iv)) {
			ss_mdtable_cell(&t, "n/a");
			ss_mdtable_cell(&t, "not in sensitivity.csv");
			continue;
		}
		ss_report_interval_str(&iv, a, sizeof(a));
		ss_report_top_steps_str(&iv, 3, b, sizeof(b));
		if (fabs(iv.base - f->value) > 1e-3 * fabs(f->value) + 1e-9)
			ss_mdtable_cell(&t, "%s (stale: base %.4g)", a, iv.base);
		else
			ss_mdtable_cell(&t, "%s", a);
		ss_mdtable_cell(&t, "%s", b);
	}
	if (ss_mdtable_print(fp, &t))
		return -1;
	ss_mdtable_wrap(fp, "", "", true, "%s", "Memory figures (footprints, the bytes by cause, the "
		 "seed's KiB) do not depend on the cost table, the clock or any "
		 "timing parameter: they have no interval.");
	return 0;
}

/* Not every pair ran (hackbench: one model per variant): one row per run
 * instead of a grid of n/a. */
static int strategy_rows(FILE *fp, const struct ss_report_report_in *in)
{
	const struct ss_report_results *res = in->res;
	struct ss_md_table t;

	ss_mdtable_init(&t, in->seed ? "llrrr" : "llrr");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "model");
	if (in->seed)
		ss_mdtable_cell(&t, "seed");
	ss_mdtable_cell(&t, "end");
	ss_mdtable_cell(&t, "peak");
	for (size_t k = 0; k < res->nruns; k++) {
		const struct ss_report_run *run = &res->runs[k];
		const struct ss_report_seed_row *s =
			in->seed ? ss_report_seed_find(in->seed, run->variant) : NULL;

		ss_mdtable_cell(&t, "%s", run->variant);
		ss_mdtable_cell(&t, "%s", run->model);
		if (in->seed && s)
			ss_mdtable_cell(&t, "%.0f", s->avg);
		else if (in->seed)
			ss_mdtable_cell(&t, "n/a");
		ss_mdtable_cell(&t, "%.0f", run->s.footprint_kib);
		if (ss_report_has_peak(&run->s))
			ss_mdtable_cell(&t, "%.0f", run->s.peak_footprint_kib);
		else
			ss_mdtable_cell(&t, "n/a");
	}
	return ss_mdtable_print(fp, &t);
}

/* The memory answer, first: each variant's footprint under each model,
 * the seed's KiB beside them, the difference against the baseline
 * variant (--baseline). */
static int sec_strategies(FILE *fp, const struct ss_report_report_in *in)
{
	const struct ss_report_results *res = in->res;
	bool any_peak = false;

	for (size_t k = 0; k < res->nruns; k++)
		any_peak |= ss_report_has_peak(&res->runs[k].s);
	fprintf(fp, "## Slab memory: each variant's footprint (KiB)\n\n");
	if (ss_report_sparse(res)) {
		ss_mdtable_wrap(fp, "", "", true, "%s", "Each run's footprint at the end of the trace and at its peak "
			"(most variants ran one model only, so one row per run):");
		return strategy_rows(fp, in);
	}
	ss_mdtable_wrap(fp, "", "", true, "The slab footprint (slab pages and kmalloc_large) each variant "
		 "holds at the end of its trace, under each model%s%s%s%s%s.",
		 in->seed ? "; seed = the seed's measured KiB (its mean: \"Seed vs simulator\" "
			    "below compares it with model `" : "",
		 in->seed ? in->compare_model : "", in->seed ? "`)" : "",
		 baseline_vi(in) >= 0 ? "; the last column: the first model's footprint less variant " : "",
		 baseline_vi(in) >= 0 ? in->baseline : "");
	fputs("At the end of the trace:\n\n", fp);
	if (strategy_grid(fp, in, false))
		return -1;
	/* the peak's grid only where some run held more before its end */
	any_peak = false;
	for (size_t k = 0; k < res->nruns; k++)
		any_peak |= ss_report_has_peak(&res->runs[k].s) &&
			    res->runs[k].s.peak_footprint_kib > res->runs[k].s.footprint_kib;
	if (!any_peak) {
		fputs("No run held more at any moment than at its end.\n\n", fp);
		return 0;
	}
	fputs("At the peak (the most slab memory held at once):\n\n", fp);
	return strategy_grid(fp, in, true);
}

/* What the report answers first: a capture's change (report_capture.h);
 * a workload's memory, or its times when the workload says its seed asks
 * for time (struct rp_extra's time_first). */
static int sec_lead(FILE *fp, const struct ss_report_report_in *in)
{
	struct ss_error err = {{0}};

	if (in->pick_target) {
		if (ss_report_capture_write_lead(fp, in, &err)) {
			fprintf(stderr, "slabsim report: %s\n", err.msg);
			return -1;
		}
		return 0;
	}
	if (in->time_first) {
		ss_mdtable_wrap(fp, "", "", true, "%s", in->time_first);
		return sec_figures(fp, in) || sec_strategies(fp, in) ? -1 : 0;
	}
	return sec_strategies(fp, in) || sec_figures(fp, in) ? -1 : 0;
}

int ss_report_write_report(FILE *fp, const struct ss_report_report_in *in_)
{
	struct ss_report_report_in copy = *in_, *in = &copy;
	unsigned secno = 0;

	if (!in->secno) /* a caller that numbers nothing after this */
		in->secno = &secno;
	fprintf(fp, "# %s: slab memory report\n\n", in->title ? in->title : in->workload);
	ss_mdtable_wrap(fp, "", "", true, "%s", "Built by `slabsim report` from the per-run results; every column is defined in docs/outputs.md.");
	if (sec_lead(fp, in))
		return -1;
	sec_run(fp, in);
	if (in->kernel && ss_report_kernel_write_md(fp, in->kernel))
		return -1;
	/* a capture names no headline figure; a workload's went first */
	if (in->pick_target && in->figs && in->figs->n && sec_figures(fp, in))
		return -1;
	if (in->seed && ss_report_write_seed_section(fp, in))
		return -1;
	if (in->era_base) {
		struct ss_error err = {{0}};

		if (ss_report_era_write_md(fp, in, &err)) {
			if (err.msg[0])
				fprintf(stderr, "slabsim report: %s\n", err.msg);
			return -1;
		}
	}
	if (sec_calib(fp, in) || sec_bytes(fp, in) || sec_waste(fp, in) ||
	    sec_latency(fp, in))
		return -1;
	if (in->pick_target && sec_strategies(fp, in))
		return -1;
	return ferror(fp) ? -1 : 0;
}
