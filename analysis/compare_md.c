/* compare_md.c - compare.md: models and variants side by side
 * (compare_out.h, docs/outputs.md "Comparing models"). */
#include "compare_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contention_table.h"
#include "latency_table.h"
#include "md_table.h"
#include "report_md.h"
#include "waste_md.h"

static const struct ss_compare_slot *slot_of(const struct ss_compare_in *in, unsigned vi,
				      unsigned mi)
{
	return &in->slot[vi * in->res->models.n + mi];
}

/* "a, b, c" */
static void join(FILE *fp, const struct ss_report_names *l)
{
	for (unsigned i = 0; i < l->n; i++)
		fprintf(fp, "%s%s", i ? ", " : "", l->v[i]);
}

static void sec_what(FILE *fp, const struct ss_compare_in *in)
{
	const struct ss_report_results *res = in->res;

	fprintf(fp, "# %s: models compared\n\n"
		    "Built by `slabsim compare` from the per-run results; every column is defined in\n"
		    "docs/outputs.md.\n\n"
		    "## 1. What was compared\n\n"
		    "- Command: `%s`\n",
		in->title ? in->title : in->workload, in->command);
	ss_report_runs_line(fp, res, in->dir);
	fputs("- Models: ", fp);
	join(fp, &res->models);
	fprintf(fp, "\n- Baseline: `%s`, the first model given (--models; without it `traced` "
		    "when it ran, else the first in name order): every Δ and %% column is against it\n"
		    "- Variants: ", res->models.v[0]);
	join(fp, &res->variants);
	fputc('\n', fp);
	/* what each run used (run_settings.h): one value, or each with its runs */
	ss_report_settings_line(fp, "Target", res, in->settings, ss_report_sv_target);
	ss_compare_write_kernels(fp, in);
	ss_report_settings_line(fp, "CPUs", res, in->settings, ss_report_sv_cpus);
	ss_report_settings_line(fp, "Cost table", res, in->settings, ss_report_sv_costs);
	ss_report_settings_line(fp, "Initial state", res, in->settings, ss_report_sv_initial);
	fputs("- Plots beside this file (PNG, and SVG under the same name): "
	      "waste.png (where the bytes go at the end and at the peak, models side by side), "
	      "latency.png (latency CCDFs, alloc and free, one curve per run), timeline.png (footprint over the trace, "
	      "phase markers)\n\n", fp);
}

/* The cell of variant vi, model mi in a variant_model_table. */
typedef void grid_cell_fn(struct ss_md_table *t, const struct ss_report_results *res,
			  unsigned vi, unsigned mi);

/* Most pairs did not run (hackbench: one model per variant): a row per
 * run, not a grid of n/a. */
static int run_rows_table(FILE *fp, const struct ss_report_results *res,
			  grid_cell_fn *cell, const char *what)
{
	struct ss_md_table t;

	ss_mdtable_init(&t, "llr");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "model");
	ss_mdtable_cell(&t, "%s", what);
	for (size_t k = 0; k < res->nruns; k++) {
		ss_mdtable_cell(&t, "%s", res->runs[k].variant);
		ss_mdtable_cell(&t, "%s", res->runs[k].model);
		cell(&t, res, res->runs[k].vi, res->runs[k].mi);
	}
	return ss_mdtable_print(fp, &t);
}

/* One row per variant, one column per model (as many as a table holds),
 * each cell written by cell(); a row per run when most pairs did not run. */
static int variant_model_table(FILE *fp, const struct ss_report_results *res,
			       grid_cell_fn *cell, const char *what)
{
	struct ss_md_table t;
	char align[SS_MDTABLE_MAX_COLS + 1] = "l";

	if (ss_report_sparse(res))
		return run_rows_table(fp, res, cell, what);
	for (unsigned mi = 0; mi < res->models.n && mi + 1 < SS_MDTABLE_MAX_COLS; mi++)
		strcat(align, "r");
	ss_mdtable_init(&t, align);
	ss_mdtable_cell(&t, "variant");
	for (unsigned mi = 0; mi + 1 < t.ncols; mi++)
		ss_mdtable_cell(&t, "%s", res->models.v[mi]);
	for (unsigned vi = 0; vi < res->variants.n; vi++) {
		ss_mdtable_cell(&t, "%s", res->variants.v[vi]);
		for (unsigned mi = 0; mi + 1 < t.ncols; mi++)
			cell(&t, res, vi, mi);
	}
	return ss_mdtable_print(fp, &t);
}

/* The footprint, and its change from model 0's in the other columns. */
static void footprint_cell(struct ss_md_table *t, const struct ss_report_results *res,
			   unsigned vi, unsigned mi)
{
	const struct ss_report_run *base = ss_report_find(res, vi, 0);
	const struct ss_report_run *r = ss_report_find(res, vi, mi);

	if (!r)
		ss_mdtable_cell(t, "n/a");
	else if (!mi || !base || base->s.footprint_kib <= 0)
		ss_mdtable_cell(t, "%.0f", r->s.footprint_kib);
	else
		ss_mdtable_cell(t, "%.0f (%+.1f%%)", r->s.footprint_kib,
			 100 * (r->s.footprint_kib - base->s.footprint_kib) /
				 base->s.footprint_kib);
}

/* The same at the peak (summary.csv peak_footprint_kib). */
static void peak_cell(struct ss_md_table *t, const struct ss_report_results *res,
		      unsigned vi, unsigned mi)
{
	const struct ss_report_run *base = ss_report_find(res, vi, 0);
	const struct ss_report_run *r = ss_report_find(res, vi, mi);

	if (!r || !ss_report_has_peak(&r->s))
		ss_mdtable_cell(t, "n/a");
	else if (!mi || !base || !ss_report_has_peak(&base->s) || base->s.peak_footprint_kib <= 0)
		ss_mdtable_cell(t, "%.0f", r->s.peak_footprint_kib);
	else
		ss_mdtable_cell(t, "%.0f (%+.1f%%)", r->s.peak_footprint_kib,
			 100 * (r->s.peak_footprint_kib - base->s.peak_footprint_kib) /
				 base->s.peak_footprint_kib);
}

static int sec_footprint(FILE *fp, const struct ss_compare_in *in)
{
	fprintf(fp, "## 2. Footprint (KiB)\n\n"
		"Slab memory held at the end of each run (summary.csv `footprint_kib`), with the change\n"
		"against the baseline, `%s`; waste.png splits each bar into the six parts of report.md's\n"
		"\"Where the bytes go\".\n\n",
		in->res->models.v[0]);
	if (variant_model_table(fp, in->res, footprint_cell, "KiB at the end"))
		return -1;
	fputs("At the peak (summary.csv `peak_footprint_kib`: the most slab memory held at once):\n\n", fp);
	return variant_model_table(fp, in->res, peak_cell, "KiB at the peak");
}

static void time_cell(struct ss_md_table *t, const struct ss_report_results *res,
		      unsigned vi, unsigned mi)
{
	const struct ss_report_run *r = ss_report_find(res, vi, mi);

	if (r)
		ss_mdtable_cell(t, "%.3f", r->s.sim_time_ms);
	else
		ss_mdtable_cell(t, "n/a");
}

static int sec_latency(FILE *fp, const struct ss_compare_in *in)
{
	fputs("## 3. Latency and time\n\n"
	      "Allocator latency per run (ns; a quantile is the upper bound of its latency.csv bucket,\n"
	      "at most 1/64 above; latency.png draws every run's CCDF):\n\n", fp);
	if (ss_report_latency_table(fp, in->res))
		return -1;
	fputs("Contention on the simulated clocks (summary.csv, locks.csv; docs/cost-model.md):\n\n", fp);
	if (ss_report_contention_table(fp, in->res))
		return -1;
	fputs("Simulated time (summary.csv `sim_time_ms`: the busiest CPU's allocator steps and work):\n\n", fp);
	return variant_model_table(fp, in->res, time_cell, "sim_time_ms");
}

/* ---- 4. footprint over the trace ------------------------------------------ */

#define MAX_PHASE_COLS 8

/* The distinct phase names over every run, in the order first seen. */
static unsigned phase_names(const struct ss_compare_in *in, const char **names)
{
	size_t n = (size_t)in->res->variants.n * in->res->models.n;
	unsigned k = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < in->slot[i].tl.nph; p++) {
			const char *name = in->slot[i].tl.ph[p].name;
			unsigned j = 0;

			while (j < k && strcmp(names[j], name))
				j++;
			if (j == k && k < MAX_PHASE_COLS)
				names[k++] = name;
		}
	return k;
}

/* The footprint at the end of the last phase called name, or NaN. */
static double phase_end(const struct ss_compare_timeline *tl, const char *name)
{
	double v = NAN;

	for (size_t p = 0; p < tl->nph; p++)
		if (!strcmp(tl->ph[p].name, name))
			v = tl->ph[p].end_kib;
	return v;
}

static void marker_lines(FILE *fp, const struct ss_compare_in *in)
{
	for (unsigned vi = 0; vi < in->res->variants.n; vi++) {
		const struct ss_compare_slot *s = NULL;

		for (unsigned mi = 0; mi < in->res->models.n && !s; mi++)
			if (slot_of(in, vi, mi)->have)
				s = slot_of(in, vi, mi);
		fprintf(fp, "- %s:", in->res->variants.v[vi]);
		if (!s || !s->tl.nph)
			fputs(" none", fp);
		for (size_t p = 0; s && p < s->tl.nph; p++)
			fprintf(fp, "%s %s at %.0f", p ? "," : "", s->tl.ph[p].name,
				s->tl.ph[p].events);
		fputc('\n', fp);
	}
	fputc('\n', fp);
}

static int sec_timeline(FILE *fp, const struct ss_compare_in *in)
{
	const struct ss_report_results *res = in->res;
	const char *names[MAX_PHASE_COLS];
	unsigned np = phase_names(in, names);
	bool change = ss_compare_timeline_change(in);
	char align[9 + MAX_PHASE_COLS] = "llrrr";
	struct ss_md_table t;

	if (change)
		strcat(align, "r");
	for (unsigned k = 0; k < np; k++)
		strcat(align, "r");
	ss_mdtable_init(&t, align);
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "model");
	ss_mdtable_cell(&t, "peak KiB");
	ss_mdtable_cell(&t, "at event");
	ss_mdtable_cell(&t, "end KiB");
	if (change)
		ss_mdtable_cell(&t, "change KiB");
	for (unsigned k = 0; k < np; k++)
		ss_mdtable_cell(&t, "end of %s", names[k]);
	for (unsigned vi = 0; vi < res->variants.n; vi++)
		for (unsigned mi = 0; mi < res->models.n; mi++) {
			const struct ss_compare_slot *s = slot_of(in, vi, mi);
			const struct ss_report_run *r = ss_report_find(res, vi, mi);

			if (!s->have || !r)
				continue; /* a pair that did not run: no row */
			ss_mdtable_cell(&t, "%s", res->variants.v[vi]);
			ss_mdtable_cell(&t, "%s", res->models.v[mi]);
			if (ss_report_has_peak(&r->s)) { /* exact, from the replay */
				ss_mdtable_cell(&t, "%.0f", r->s.peak_footprint_kib);
				ss_mdtable_cell(&t, "%.0f", r->s.peak_event);
			} else { /* an older run: the largest sample */
				ss_mdtable_cell(&t, "%.0f", s->tl.peak.footprint_kib);
				ss_mdtable_cell(&t, "%.0f", s->tl.peak.events);
			}
			ss_mdtable_cell(&t, "%.0f", s->tl.last.footprint_kib);
			if (change)
				ss_mdtable_cell(&t, "%+.0f", cmp_point_change(&s->tl.last));
			for (unsigned k = 0; k < np; k++) {
				double v = phase_end(&s->tl, names[k]);

				if (isnan(v))
					ss_mdtable_cell(&t, "-");
				else
					ss_mdtable_cell(&t, "%.0f", v);
			}
		}
	fputs("## 4. Footprint over the trace\n\n"
	      "The peak footprint and the event it was first reached at (summary.csv, exact), the\n"
	      "footprint at the end, and at the end of each phase (each run's timeline.csv: the next\n"
	      "marker's row, or the last row).  timeline.png draws every timeline row.\n\n", fp);
	if (change)
		fputs("Runs from an initial state (a capture) load each of the kernel's caches on its first\n"
		      "use, so their footprint starts at the machine's size: change KiB is the end's\n"
		      "footprint less the initial state's slabs loaded (timeline.csv `footprint_kib −\n"
		      "initial_kib`), and timeline.png draws that change over the trace, from 0.\n\n", fp);
	fputs("Phase markers, by the events replayed before them:\n\n", fp);
	marker_lines(fp, in);
	return ss_mdtable_print(fp, &t);
}

/* ---- 5, 6. top caches and sites by waste ------------------------------------ */

/* The runs of variant vi, in model order, for waste_md's tables. */
static unsigned variant_runs(const struct ss_compare_in *in, unsigned vi,
			     struct ss_wastemd_run *w)
{
	unsigned n = 0;

	for (unsigned mi = 0; mi < in->res->models.n; mi++) {
		const struct ss_compare_slot *s = slot_of(in, vi, mi);

		if (s->have)
			w[n++] = (struct ss_wastemd_run){.model = in->res->models.v[mi],
						 .cc = &s->cc, .ss = &s->ss};
	}
	return n;
}

static int sec_waste(FILE *fp, const struct ss_compare_in *in, bool sites)
{
	struct ss_wastemd_run *w = calloc(in->res->models.n + 1, sizeof(*w));
	int r = 0;

	if (!w)
		return -1;
	if (!sites)
		fprintf(fp, "## 5. Top caches by waste\n\n"
			    "Per run the %u caches holding the most bytes no caller asked for at the end of the\n"
			    "run (KiB, caches.csv): waste = Space − requested = rounding + align + debug + free slots\n"
			    "+ slab tail; waste %% = waste × 100 / Space; Loss = slabinfo's (`slabinfo -X`), Space −\n"
			    "Objects × Objsize, which leaves the rounding up to the kmalloc class out.\n"
			    "top_caches.csv has every caches.csv column of these caches.\n\n", in->top);
	else
		fprintf(fp, "## 6. Top allocation sites by waste\n\n"
			    "Per run the %u sites whose objects live at the end carry the most rounding, align and\n"
			    "debug bytes (KiB, sites.csv); live (peak) = objects live at the end (the most at once);\n"
			    "rounding %% = 100 − requested × 100 / (allocations × object_size), over every\n"
			    "allocation of the site (sites.csv's frag_pct; perf kmem's Frag divides by the stride\n"
			    "s->size instead, alignment and debug bytes included).\n\n",
			in->top);
	for (unsigned vi = 0; vi < in->res->variants.n && !r; vi++) {
		unsigned n = variant_runs(in, vi, w);

		if (!n)
			continue;
		fprintf(fp, "### %s\n\n", in->res->variants.v[vi]);
		r = sites ? ss_wastemd_sites_table(fp, w, n, in->top) : ss_wastemd_caches_table(fp, w, n, in->top);
	}
	free(w);
	return r;
}

int ss_compare_write_md(FILE *fp, const struct ss_compare_in *in)
{
	sec_what(fp, in);
	if (sec_footprint(fp, in) || sec_latency(fp, in) ||
	    sec_timeline(fp, in) || sec_waste(fp, in, false) ||
	    sec_waste(fp, in, true))
		return -1;
	return ferror(fp) ? -1 : 0;
}
