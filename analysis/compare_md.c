/* compare_md.c - compare.md: models and variants side by side
 * (compare_out.h, docs/outputs.md "Comparing models"). */
#include "compare_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contention_table.h"
#include "latency_table.h"
#include "md_table.h"

static const struct cmp_slot *slot_of(const struct cmp_in *in, unsigned vi,
				      unsigned mi)
{
	return &in->slot[vi * in->res->models.n + mi];
}

/* "a, b, c" */
static void join(FILE *fp, const struct rp_names *l)
{
	for (unsigned i = 0; i < l->n; i++)
		fprintf(fp, "%s%s", i ? ", " : "", l->v[i]);
}

static void sec_what(FILE *fp, const struct cmp_in *in)
{
	const struct rp_results *res = in->res;

	fprintf(fp, "# %s: models compared\n\n"
		    "Built by `slabsim compare` from the per-run results; every column is defined in\n"
		    "docs/outputs.md.\n\n"
		    "## 1. What was compared\n\n"
		    "- Command: `%s`\n"
		    "- Runs: %zu (%u variants × %u models) from %s/runs/\n",
		in->workload, in->command, res->nruns, res->variants.n,
		res->models.n, in->dir);
	fputs("- Models: ", fp);
	join(fp, &res->models);
	fprintf(fp, "; Δ columns are against the first, %s\n- Variants: ",
		res->models.v[0]);
	join(fp, &res->variants);
	fputc('\n', fp);
	cmp_write_kernels(fp, in);
	fputs("- Plots beside this file (PNG, and SVG under the same name): "
	      "waste.png (where the bytes go, models side by side), latency.png "
	      "(latency CCDFs, alloc and free, one curve per run), timeline.png (footprint over the trace, "
	      "phase markers)\n\n", fp);
}

/* The cell of variant vi, model mi in a variant_model_table. */
typedef void grid_cell_fn(struct md_table *t, const struct rp_results *res,
			  unsigned vi, unsigned mi);

/* One row per variant, one column per model (as many as a table holds),
 * each cell written by cell(). */
static int variant_model_table(FILE *fp, const struct rp_results *res,
			       grid_cell_fn *cell)
{
	struct md_table t;
	char align[MDT_MAX_COLS + 1] = "l";

	for (unsigned mi = 0; mi < res->models.n && mi + 1 < MDT_MAX_COLS; mi++)
		strcat(align, "r");
	mdt_init(&t, align);
	mdt_cell(&t, "variant");
	for (unsigned mi = 0; mi + 1 < t.ncols; mi++)
		mdt_cell(&t, "%s", res->models.v[mi]);
	for (unsigned vi = 0; vi < res->variants.n; vi++) {
		mdt_cell(&t, "%s", res->variants.v[vi]);
		for (unsigned mi = 0; mi + 1 < t.ncols; mi++)
			cell(&t, res, vi, mi);
	}
	return mdt_print(fp, &t);
}

/* The footprint, and its change from model 0's in the other columns. */
static void footprint_cell(struct md_table *t, const struct rp_results *res,
			   unsigned vi, unsigned mi)
{
	const struct rp_run *base = rp_find(res, vi, 0);
	const struct rp_run *r = rp_find(res, vi, mi);

	if (!r)
		mdt_cell(t, "n/a");
	else if (!mi || !base || base->s.footprint_kib <= 0)
		mdt_cell(t, "%.0f", r->s.footprint_kib);
	else
		mdt_cell(t, "%.0f (%+.1f%%)", r->s.footprint_kib,
			 100 * (r->s.footprint_kib - base->s.footprint_kib) /
				 base->s.footprint_kib);
}

static int sec_footprint(FILE *fp, const struct cmp_in *in)
{
	fputs("## 2. Footprint (KiB)\n\n"
	      "Slab memory held at the end of each run (summary.csv `footprint_kib`), with the change\n"
	      "against the first model; waste.png splits each bar into the six parts of report.md §4.\n\n", fp);
	return variant_model_table(fp, in->res, footprint_cell);
}

static void time_cell(struct md_table *t, const struct rp_results *res,
		      unsigned vi, unsigned mi)
{
	const struct rp_run *r = rp_find(res, vi, mi);

	if (r)
		mdt_cell(t, "%.3f", r->s.sim_time_ms);
	else
		mdt_cell(t, "n/a");
}

static int sec_latency(FILE *fp, const struct cmp_in *in)
{
	fputs("## 3. Latency and time\n\n"
	      "Allocator latency per run (ns; a quantile is the upper bound of its latency.csv bucket,\n"
	      "at most 1/64 above; latency.png draws every run's CCDF):\n\n", fp);
	if (rp_latency_table(fp, in->res))
		return -1;
	fputs("Contention on the simulated clocks (summary.csv, locks.csv; docs/cost-model.md):\n\n", fp);
	if (rp_contention_table(fp, in->res))
		return -1;
	fputs("Simulated time (summary.csv `sim_time_ms`: the busiest CPU's allocator steps and work):\n\n", fp);
	return variant_model_table(fp, in->res, time_cell);
}

/* ---- 4. footprint over the trace ------------------------------------------ */

#define MAX_PHASE_COLS 8

/* The distinct phase names over every run, in the order first seen. */
static unsigned phase_names(const struct cmp_in *in, const char **names)
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
static double phase_end(const struct cmp_timeline *tl, const char *name)
{
	double v = NAN;

	for (size_t p = 0; p < tl->nph; p++)
		if (!strcmp(tl->ph[p].name, name))
			v = tl->ph[p].end_kib;
	return v;
}

static void marker_lines(FILE *fp, const struct cmp_in *in)
{
	for (unsigned vi = 0; vi < in->res->variants.n; vi++) {
		const struct cmp_slot *s = NULL;

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

static int sec_timeline(FILE *fp, const struct cmp_in *in)
{
	const struct rp_results *res = in->res;
	const char *names[MAX_PHASE_COLS];
	unsigned np = phase_names(in, names);
	char align[8 + MAX_PHASE_COLS] = "llrrr";
	struct md_table t;

	for (unsigned k = 0; k < np; k++)
		strcat(align, "r");
	mdt_init(&t, align);
	mdt_cell(&t, "variant");
	mdt_cell(&t, "model");
	mdt_cell(&t, "peak KiB");
	mdt_cell(&t, "at event");
	mdt_cell(&t, "end KiB");
	for (unsigned k = 0; k < np; k++)
		mdt_cell(&t, "end of %s", names[k]);
	for (unsigned vi = 0; vi < res->variants.n; vi++)
		for (unsigned mi = 0; mi < res->models.n; mi++) {
			const struct cmp_slot *s = slot_of(in, vi, mi);

			mdt_cell(&t, "%s", res->variants.v[vi]);
			mdt_cell(&t, "%s", res->models.v[mi]);
			if (!s->have) {
				for (unsigned k = 0; k < 3 + np; k++)
					mdt_cell(&t, "n/a");
				continue;
			}
			mdt_cell(&t, "%.0f", s->tl.peak.footprint_kib);
			mdt_cell(&t, "%.0f", s->tl.peak.events);
			mdt_cell(&t, "%.0f", s->tl.last.footprint_kib);
			for (unsigned k = 0; k < np; k++) {
				double v = phase_end(&s->tl, names[k]);

				if (isnan(v))
					mdt_cell(&t, "-");
				else
					mdt_cell(&t, "%.0f", v);
			}
		}
	fputs("## 4. Footprint over the trace\n\n"
	      "From each run's timeline.csv (a row every --sample-every events and at each phase\n"
	      "marker): the largest sampled footprint and the event it was sampled at, the footprint at\n"
	      "the end, and at the end of each phase (the next marker's row, or the last row).\n"
	      "timeline.png draws every row.  Phase markers, by the events replayed before them:\n\n", fp);
	marker_lines(fp, in);
	return mdt_print(fp, &t);
}

/* ---- 5. top caches by loss --------------------------------------------- */

static void cache_cells(struct md_table *t, const char *model,
			const struct cmp_cache *c)
{
	mdt_cell(t, "%s", model);
	mdt_cell(t, "%s", c->name);
	mdt_cell(t, "%llu", (unsigned long long)c->objects);
	mdt_cell(t, "%llu", (unsigned long long)c->object_size);
	mdt_cell(t, "%llu", (unsigned long long)c->loss_bytes);
	mdt_cell(t, "%llu/%llu/%llu", (unsigned long long)(c->slabs - c->cpu_slabs),
		 (unsigned long long)c->partial_slabs, (unsigned long long)c->cpu_slabs);
	mdt_cell(t, "%llu", (unsigned long long)c->objs_per_slab);
	mdt_cell(t, "%llu", (unsigned long long)c->order);
	mdt_cell(t, "%u", cmp_partial_pct(c));
	mdt_cell(t, "%u", cmp_efficiency_pct(c));
	mdt_cell(t, "%s", strcmp(c->debug, "-") ? c->debug : "");
}

static int loss_table(FILE *fp, const struct cmp_in *in, unsigned vi)
{
	static const char *const head[] = {
		"model", "Name", "Objects", "Objsize", "Loss", "Slabs/Part/Cpu",
		"O/S", "O", "%Fr", "%Ef", "Flg",
	};
	struct md_table t;

	mdt_init(&t, "llrrrrrrrrl");
	for (size_t k = 0; k < sizeof(head) / sizeof(head[0]); k++)
		mdt_cell(&t, "%s", head[k]);
	for (unsigned mi = 0; mi < in->res->models.n; mi++) {
		const struct cmp_slot *s = slot_of(in, vi, mi);

		for (size_t r = 0; s->have && r < s->cc.n && r < in->top; r++)
			cache_cells(&t, in->res->models.v[mi], &s->cc.c[r]);
	}
	fprintf(fp, "### %s\n\n", in->res->variants.v[vi]);
	return mdt_print(fp, &t);
}

static int sec_loss(FILE *fp, const struct cmp_in *in)
{
	fprintf(fp, "## 5. Top caches by loss\n\n"
		    "Like `slabinfo -X -N%u` (\"Slabs sorted by loss\", sizes in bytes): per run the %u caches with\n"
		    "the most Loss = Space − Objects × Objsize, from caches.csv at the end of the run.\n"
		    "Slabs/Part/Cpu = slabs not on a CPU / node partial slabs / CPU slabs; O/S objects per\n"
		    "slab; O order; %%Fr = partial slabs × 100 / slabs; %%Ef = Objects × Objsize × 100 / Space\n"
		    "(integer, as slabinfo); Flg the slub_debug letters.  top_caches.csv has every column.\n\n",
		in->top, in->top);
	for (unsigned vi = 0; vi < in->res->variants.n; vi++)
		if (loss_table(fp, in, vi))
			return -1;
	return 0;
}

int cmp_write_md(FILE *fp, const struct cmp_in *in)
{
	sec_what(fp, in);
	if (sec_footprint(fp, in) || sec_latency(fp, in) ||
	    sec_timeline(fp, in) || sec_loss(fp, in))
		return -1;
	return ferror(fp) ? -1 : 0;
}
