/* report_md.c - write report.md (report_md.h). */
#include "report_md.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "contention_table.h"
#include "latency_table.h"
#include "md_table.h"
#include "report_figures.h"
#include "report_seed_md.h"

/* ---- helpers ---------------------------------------------------------- */

static int col_index(const struct rp_results *res, const char *name)
{
	for (unsigned i = 0; i < res->ncols; i++)
		if (!strcmp(res->header[i], name))
			return (int)i;
	return -1;
}

/* The distinct values of a text column over the runs (of model mi, or of
 * all models when mi < 0), joined with ", ". */
static void distinct(const struct rp_results *res, const char *col, int mi,
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
static void value_range(const struct rp_results *res, size_t off, char *buf,
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

/* ---- 1. what was run ---------------------------------------------------- */

static void sec_run(FILE *fp, const struct rp_report_in *in)
{
	const struct rp_results *res = in->res;
	char a[512], b[512], c[512];

	fprintf(fp, "## 1. What was run\n\n");
	fprintf(fp, "- Command: `%s`\n", in->command);
	distinct(res, "target", -1, a, sizeof(a));
	distinct(res, "era", -1, b, sizeof(b));
	distinct(res, "cpus", -1, c, sizeof(c));
	fprintf(fp, "- Target: %s (kernel era %s, %s CPUs)\n", a, b, c);
	value_range(res, offsetof(struct rp_summary, rules), a, sizeof(a));
	value_range(res, offsetof(struct rp_summary, labels), b, sizeof(b));
	if (a[0])
		fprintf(fp, "- Rules loaded: %s\n", a);
	if (b[0])
		fprintf(fp, "- Labels: %s\n", b);
	fprintf(fp, "- Runs: %zu (%u variants × %u models) from %s/runs/\n",
		res->nruns, res->variants.n, res->models.n, in->dir);
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
			const struct rp_seed_row *s =
				rp_seed_find(in->seed, res->variants.v[v]);

			fprintf(fp, "  - %s: %s\n", res->variants.v[v],
				s ? s->what : "(not in the seed table)");
		}
		fprintf(fp, "- Seed table: %s\n", in->seed_path);
	}
	fprintf(fp, "- Plots: waste.png, latency.png (CCDF per run) (and .svg) beside this file\n\n");
}

/* ---- 3. fitted and inferred parameters ---------------------------------- */

/* Every figure that was fitted to or inferred from a seed rather than
 * known: the constants make passes (CALIBRATION) and the target keys
 * declared `inferred.KEY` in a target file. */
static int sec_calib(FILE *fp, const struct rp_report_in *in)
{
	struct md_table t;

	fprintf(fp, "## 3. Fitted and inferred parameters\n\n");
	if (!in->ncalib && !in->ninferred) {
		fprintf(fp, "None: make passed no fitted constant (CALIBRATION is empty) and "
			    "no target declares an inferred parameter.\n\n");
		return 0;
	}
	mdt_wrap(fp, "", "", true, "%s",
		 "Fitted: a constant fitted once on a seed figure (docs/cost-model.md, "
		 "section \"Calibration constants\"; passed by make as CALIBRATION).  Inferred: a "
		 "target parameter the machine does not document, deduced from the seed's "
		 "own figures (the target file's inferred.KEY line; docs/targets.md).  "
		 "Either acts as a parameter fitted to the seed: a figure that depends on "
		 "it is not an independent check.");
	mdt_init(&t, "llll");
	mdt_cell(&t, "parameter");
	mdt_cell(&t, "value");
	mdt_cell(&t, "kind");
	mdt_cell(&t, "evidence");
	for (unsigned i = 0; i < in->ncalib; i++) {
		mdt_cell(&t, "%s", in->calib[i].name);
		mdt_cell(&t, "%s", in->calib[i].value);
		mdt_cell(&t, "fitted");
		mdt_cell(&t, "docs/cost-model.md");
	}
	for (unsigned i = 0; i < in->ninferred; i++) {
		const struct rp_inferred *f = &in->inferred[i];

		mdt_cell(&t, "%s: %s", f->target, f->key);
		mdt_cell(&t, "%s", f->value);
		mdt_cell(&t, "inferred");
		mdt_cell(&t, "%s", f->evidence);
	}
	return mdt_print(fp, &t);
}

/* ---- 4. where the bytes go ---------------------------------------------- */

static int sec_bytes(FILE *fp, const struct rp_report_in *in)
{
	const struct rp_results *res = in->res;
	struct md_table t;

	fprintf(fp, "## 4. Where the bytes go (KiB)\n\n");
	mdt_wrap(fp, "", "", true, "%s",
		"requested = bytes the callers asked for; rounding = up to the kmalloc class or cache size; "
		"align = up to the cache's alignment; debug = slub_debug metadata; free slots = unused objects "
		"in the slabs held; slab tail = leftover at the end of each slab (slabinfo's Lpadd); "
		"total = the six parts (the footprint, unless a run keeps kmalloc_large pages out of them); "
		"padding % = (rounding + align) × 100 / total.");
	mdt_init(&t, "llrrrrrrrrr");
	mdt_cell(&t, "variant");
	mdt_cell(&t, "model");
	mdt_cell(&t, "requested");
	mdt_cell(&t, "rounding");
	mdt_cell(&t, "align");
	mdt_cell(&t, "debug");
	mdt_cell(&t, "free slots");
	mdt_cell(&t, "slab tail");
	mdt_cell(&t, "total");
	mdt_cell(&t, "footprint");
	mdt_cell(&t, "padding %%");
	for (size_t k = 0; k < res->nruns; k++) {
		const struct rp_run *run = &res->runs[k];
		double total = 0;

		mdt_cell(&t, "%s", run->variant);
		mdt_cell(&t, "%s", run->model);
		for (int p = 0; p < RP_NR_PARTS; p++) {
			double b = rp_part_bytes(&run->s, (enum rp_part)p);

			total += b;
			mdt_cell(&t, "%.1f", b / 1024);
		}
		mdt_cell(&t, "%.1f", total / 1024);
		mdt_cell(&t, "%.0f", run->s.footprint_kib);
		if (total > 0)
			mdt_cell(&t, "%.1f", run->s.padding_bytes * 100 / total);
		else
			mdt_cell(&t, "n/a");
	}
	return mdt_print(fp, &t);
}

/* ---- 5. latency ------------------------------------------------------------ */

static int sec_latency(FILE *fp, const struct rp_report_in *in)
{
	const struct rp_results *res = in->res;

	fprintf(fp, "## 5. Latency and contention\n\n");
	mdt_wrap(fp, "", "", true, "%s", "Latency per run in ns (latency.csv; a quantile is the upper bound of its bucket, at most 1/64 above the operation's time; latency.png draws each run's CCDF):");
	if (rp_latency_table(fp, res))
		return -1;
	mdt_wrap(fp, "", "", true, "%s", "Contention on the simulated clocks (summary.csv, locks.csv; docs/cost-model.md): time waited for list_lock and slab_lock summed over the CPUs, its share of the allocator time, cmpxchg_double retries, and cache lines moved between CPUs (object and slab lines of remote frees):");
	return rp_contention_table(fp, res);
}

/* ---- 6. strategies compared ---------------------------------------------- */

static int sec_strategies(FILE *fp, const struct rp_report_in *in)
{
	const struct rp_results *res = in->res;
	char align[MDT_MAX_COLS + 2] = "l";
	struct md_table t;

	fprintf(fp, "## 6. Strategies compared: footprint (KiB)\n\n");
	if (res->models.n + 2 >= sizeof(align))
		return -1;
	for (unsigned m = 0; m < res->models.n + (in->seed ? 1 : 0); m++)
		strcat(align, "r");
	mdt_init(&t, align);
	mdt_cell(&t, "variant");
	if (in->seed)
		mdt_cell(&t, "seed");
	for (unsigned m = 0; m < res->models.n; m++)
		mdt_cell(&t, "%s", res->models.v[m]);
	for (unsigned v = 0; v < res->variants.n; v++) {
		const struct rp_seed_row *s =
			in->seed ? rp_seed_find(in->seed, res->variants.v[v]) : NULL;

		mdt_cell(&t, "%s", res->variants.v[v]);
		if (in->seed && s)
			mdt_cell(&t, "%.0f", s->avg);
		else if (in->seed)
			mdt_cell(&t, "n/a");
		for (unsigned m = 0; m < res->models.n; m++) {
			const struct rp_run *run = rp_find(res, v, m);

			if (run)
				mdt_cell(&t, "%.0f", run->s.footprint_kib);
			else
				mdt_cell(&t, "n/a");
		}
	}
	return mdt_print(fp, &t);
}

/* ---- headline figures and their intervals ------------------------------ */

static int sec_figures(FILE *fp, const struct rp_report_in *in)
{
	struct md_table t;

	fprintf(fp, "## Headline figures and their intervals\n\n");
	if (!in->figs || !in->figs->n) {
		fprintf(fp, "This workload names no headline time figure.\n\n");
		return 0;
	}
	if (in->sens)
		mdt_wrap(fp, "", "", true, "Each figure with the lowest and highest value it took when "
			 "every estimated cost of the cost table, the target's clock and the "
			 "workload's own estimated parameters were moved over their ranges "
			 "(docs/cost-model.md), one at a time and all together (`make "
			 "sensitivity WORKLOAD=%s`, sensitivity.csv, tornado.png); then the "
			 "three steps it depends on most: each step's range, and the figure at "
			 "its low and high ends.  Fitted constants (§3) are held at their "
			 "values.", in->workload);
	else
		mdt_wrap(fp, "", "", true, "No sensitivity.csv beside this report: `make "
			 "sensitivity WORKLOAD=%s` gives every figure below its interval and "
			 "the steps it depends on most.", in->workload);
	mdt_init(&t, in->sens ? "lrrl" : "lrl");
	mdt_cell(&t, "figure");
	mdt_cell(&t, "value");
	if (in->sens) {
		mdt_cell(&t, "interval");
		mdt_cell(&t, "depends most on: step low–high (figure at low–high)");
	} else {
		mdt_cell(&t, "what");
	}
	for (size_t i = 0; i < in->figs->n; i++) {
		const struct rp_figure *f = &in->figs->v[i];
		struct rp_interval iv;
		char a[64], b[512];

		mdt_cell(&t, "%s (%s)", f->name, f->unit);
		mdt_cell(&t, "%.4g", f->value);
		if (!in->sens) {
			mdt_cell(&t, "%s", f->what);
			continue;
		}
		if (rp_sens_interval(in->sens, f->name, 3, &iv)) {
			mdt_cell(&t, "n/a");
			mdt_cell(&t, "not in sensitivity.csv");
			continue;
		}
		rp_interval_str(&iv, a, sizeof(a));
		rp_top_steps_str(&iv, 3, b, sizeof(b));
		if (fabs(iv.base - f->value) > 1e-3 * fabs(f->value) + 1e-9)
			mdt_cell(&t, "%s (stale: base %.4g)", a, iv.base);
		else
			mdt_cell(&t, "%s", a);
		mdt_cell(&t, "%s", b);
	}
	if (mdt_print(fp, &t))
		return -1;
	mdt_wrap(fp, "", "", true, "%s", "Memory figures (footprints, the bytes by cause in §4 and §6, the "
		 "seed's KiB in §2) do not depend on the cost table, the clock or any "
		 "timing parameter: they have no interval.");
	return 0;
}

int rp_write_report(FILE *fp, const struct rp_report_in *in)
{
	fprintf(fp, "# %s: slab memory report\n\n", in->workload);
	mdt_wrap(fp, "", "", true, "%s", "Built by `slabsim report` from the per-run results; every column is defined in docs/outputs.md.");
	sec_run(fp, in);
	if (sec_figures(fp, in))
		return -1;
	if (in->seed && rp_write_seed_section(fp, in))
		return -1;
	if (sec_calib(fp, in) || sec_bytes(fp, in) || sec_latency(fp, in) ||
	    sec_strategies(fp, in))
		return -1;
	return ferror(fp) ? -1 : 0;
}
