/* report_seed_md.c - report.md section 2, the seed vs the model
 * (report_seed_md.h). */
#include "report_seed_md.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "md_table.h"

static const struct ss_report_run *run_of(const struct ss_report_results *res,
				   const char *variant, int mi)
{
	int vi = ss_report_names_find(&res->variants, variant);

	if (vi < 0 || mi < 0)
		return NULL;
	return ss_report_find(res, (unsigned)vi, (unsigned)mi);
}

/* The last three columns of the footprint and savings tables: the
 * model's figure and its difference from the seed's. */
static void check_head(struct ss_md_table *t)
{
	ss_mdtable_cell(t, "model KiB");
	ss_mdtable_cell(t, "diff KiB");
	ss_mdtable_cell(t, "diff %%");
}

/* Those cells for check c, or "n/a" in each without runs (c NULL). */
static void check_cells(struct ss_md_table *t, const struct ss_report_check *c)
{
	if (!c) {
		for (int k = 0; k < 3; k++)
			ss_mdtable_cell(t, "n/a");
		return;
	}
	ss_mdtable_cell(t, "%.0f", c->model);
	ss_mdtable_cell(t, "%+.0f", c->diff);
	ss_mdtable_cell(t, "%+.1f%%", c->pct);
}

/* What one seed table is compared with: a set of runs and its model. */
struct seed_side {
	const struct ss_report_seed *seed;
	const struct ss_report_results *res;
	int mi;
	const char *model;
};

static int seed_footprints(FILE *fp, const struct seed_side *d)
{
	const struct ss_report_seed *seed = d->seed;
	char why[1024];
	struct ss_md_table t;

	ss_mdtable_init(&t, "lrrrrr");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "seed avg KiB");
	ss_mdtable_cell(&t, "seed min–max");
	check_head(&t);
	for (unsigned i = 0; i < seed->nrows; i++) {
		const struct ss_report_seed_row *s = &seed->rows[i];
		const struct ss_report_run *run = run_of(d->res, s->variant, d->mi);
		struct ss_report_check c;

		ss_mdtable_cell(&t, "%s", s->variant);
		ss_mdtable_cell(&t, "%.0f", s->avg);
		ss_mdtable_cell(&t, "%.0f–%.0f", s->min, s->max);
		if (run)
			ss_report_check_footprint(s, run->s.footprint_kib, &c);
		check_cells(&t, run ? &c : NULL);
	}
	if (ss_mdtable_print(fp, &t))
		return -1;
	for (unsigned i = 0; i < seed->nrows; i++) {
		const struct ss_report_seed_row *s = &seed->rows[i];
		const struct ss_report_run *run = run_of(d->res, s->variant, d->mi);
		struct ss_report_check c;

		if (!run) {
			fprintf(fp, "- %s: no run of model `%s`.\n", s->variant,
				d->model);
			continue;
		}
		ss_report_check_footprint(s, run->s.footprint_kib, &c);
		ss_report_explain_footprint(&c, seed, why, sizeof(why));
		ss_mdtable_wrap(fp, "- ", "  ", false, "%s: %s", s->variant, why);
	}
	fprintf(fp, "\n");
	return 0;
}

static int seed_savings(FILE *fp, const struct seed_side *d)
{
	const struct ss_report_seed *seed = d->seed;
	char why[1024];
	struct ss_md_table t;

	if (!seed->nsavings)
		return 0;
	ss_mdtable_wrap(fp, "", "", true, "%s", "Savings (FROM footprint − TO footprint):");
	ss_mdtable_init(&t, "lrrrrr");
	ss_mdtable_cell(&t, "saving");
	ss_mdtable_cell(&t, "seed KiB");
	ss_mdtable_cell(&t, "seed range");
	check_head(&t);
	for (unsigned i = 0; i < seed->nsavings; i++) {
		const struct ss_report_saving *sv = &seed->savings[i];
		const struct ss_report_run *a = run_of(d->res, sv->from, d->mi);
		const struct ss_report_run *b = run_of(d->res, sv->to, d->mi);
		struct ss_report_check c;

		ss_report_check_saving(ss_report_seed_find(seed, sv->from),
				ss_report_seed_find(seed, sv->to),
				a ? a->s.footprint_kib : 0,
				b ? b->s.footprint_kib : 0, &c);
		ss_mdtable_cell(&t, "%s → %s", sv->from, sv->to);
		ss_mdtable_cell(&t, "%.0f", c.seed);
		ss_mdtable_cell(&t, "%.0f–%.0f", c.lo, c.hi);
		check_cells(&t, a && b ? &c : NULL);
	}
	if (ss_mdtable_print(fp, &t))
		return -1;
	for (unsigned i = 0; i < seed->nsavings; i++) {
		const struct ss_report_saving *sv = &seed->savings[i];
		const struct ss_report_run *a = run_of(d->res, sv->from, d->mi);
		const struct ss_report_run *b = run_of(d->res, sv->to, d->mi);
		struct ss_report_check c;

		if (!a || !b) {
			fprintf(fp, "- %s → %s: no run of model `%s` for both variants.\n",
				sv->from, sv->to, d->model);
			continue;
		}
		ss_report_check_saving(ss_report_seed_find(seed, sv->from),
				ss_report_seed_find(seed, sv->to), a->s.footprint_kib,
				b->s.footprint_kib, &c);
		ss_report_explain_saving(&c, seed, sv->estimate, why, sizeof(why));
		ss_mdtable_wrap(fp, "- ", "  ", false, "%s → %s: %s", sv->from, sv->to,
			 why);
	}
	fprintf(fp, "\n");
	return 0;
}

/* One sentence per step of the time table: the seed's change, the model's,
 * and what the model leaves out, measured against the seed's time noise. */
static void explain_times(FILE *fp, const struct seed_side *d)
{
	const struct ss_report_seed *seed = d->seed;

	for (unsigned i = 1; i < seed->nrows; i++) {
		const struct ss_report_seed_row *s = &seed->rows[i];
		const struct ss_report_run *run = run_of(d->res, s->variant, d->mi);
		const struct ss_report_run *prev = run_of(d->res, s[-1].variant, d->mi);
		double sd, md, rest;
		char noise[256] = "";

		if (!run || !prev)
			continue;
		sd = (s->time_s - s[-1].time_s) * 1000;
		md = ss_report_sim_ms(&run->s) - ss_report_sim_ms(&prev->s);
		rest = sd - md;
		if (seed->time_noise_ms > 0)
			snprintf(noise, sizeof(noise), fabs(sd) <= seed->time_noise_ms
				 ? "; the seed's change is within the ±%.0f ms noise of %s"
				 : "; the seed's change exceeds the ±%.0f ms noise of %s",
				 seed->time_noise_ms, seed->time_noise_what);
		ss_mdtable_wrap(fp, "- ", "  ", false,
			 "%s: the seed's load time changed by %+.0f ms, the model's by %+.1f ms "
			 "(the allocations and work events this variant adds or removes); "
			 "%.0f ms of the seed's change is outside the model%s.",
			 s->variant, sd, md, rest, noise);
	}
	fprintf(fp, "\n");
}

/* The seed's load time beside the simulated one; Δ = change from the
 * previous row of the seed table, as the seed states its speed-ups. */
static int seed_times(FILE *fp, const struct seed_side *d)
{
	const struct ss_report_seed *seed = d->seed;
	const struct ss_report_run *prev = NULL;
	struct ss_md_table t;

	ss_mdtable_wrap(fp, "", "", true, "%s", "Load time: the seed's Time column beside the simulated sim_time_ms (Δ = change from the row above):");
	ss_mdtable_init(&t, "lrrrr");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "seed s");
	ss_mdtable_cell(&t, "seed Δ ms");
	ss_mdtable_cell(&t, "sim ms");
	ss_mdtable_cell(&t, "sim Δ ms");
	for (unsigned i = 0; i < seed->nrows; i++) {
		const struct ss_report_seed_row *s = &seed->rows[i];
		const struct ss_report_run *run = run_of(d->res, s->variant, d->mi);

		ss_mdtable_cell(&t, "%s", s->variant);
		ss_mdtable_cell(&t, "%.3f", s->time_s);
		if (i)
			ss_mdtable_cell(&t, "%+.0f", (s->time_s - s[-1].time_s) * 1000);
		else
			ss_mdtable_cell(&t, "%s", "");
		if (run)
			ss_mdtable_cell(&t, "%.3f", run->s.sim_time_ms);
		else
			ss_mdtable_cell(&t, "n/a");
		if (run && prev)
			ss_mdtable_cell(&t, "%+.4g", ss_report_sim_ms(&run->s) - ss_report_sim_ms(&prev->s));
		else
			ss_mdtable_cell(&t, "%s", "");
		prev = run;
	}
	if (ss_mdtable_print(fp, &t))
		return -1;
	explain_times(fp, d);
	return 0;
}

/* The target of a set of runs, as its summary rows name it. */
static const char *target_of(const struct ss_report_results *res)
{
	for (unsigned i = 0; i < res->ncols; i++)
		if (!strcmp(res->header[i], "target") && res->nruns)
			return res->runs[0].row[i];
	return "?";
}

static int seed_tables(FILE *fp, const struct seed_side *d)
{
	ss_mdtable_wrap(fp, "", "", true, "%s",
		 "Footprint: the seed's Diff (SUnreclaim after − before, mean of its runs) against the model's footprint_kib:");
	if (seed_footprints(fp, d) || seed_savings(fp, d) || seed_times(fp, d))
		return -1;
	return 0;
}

int ss_report_write_seed_section(FILE *fp, const struct ss_report_report_in *in)
{
	struct seed_side d = {in->seed, in->res,
			      ss_report_names_find(&in->res->models, in->compare_model),
			      in->compare_model};

	ss_report_heading(fp, in, "Seed vs simulator (model `%s`)", in->compare_model);
	ss_mdtable_wrap(fp, "", "", true, "The model's figures beside the seed's, with the difference; "
		 "a seed figure is a check on the model, not a target, so nothing here "
		 "passes or fails.  Target %s.%s", target_of(in->res),
		 in->ncalib ? "  Fitted constants passed by make are listed in the next section." : "");
	if (seed_tables(fp, &d))
		return -1;
	for (unsigned k = 0; k < in->nalt; k++) {
		const struct ss_report_results *alt = &in->alt[k];

		d.res = alt;
		d.mi = ss_report_names_find(&alt->models, in->compare_model);
		fprintf(fp, "### The seed's table under target %s\n\n", target_of(alt));
		ss_mdtable_wrap(fp, "", "", true,
			 "The same variants replayed with target %s (runs in %s), every fitted "
			 "constant held at its value: what the seed's figures look like if the "
			 "board had that target's parameters (the next section says which "
			 "parameters are inferred).", target_of(alt), in->alt_dirs[k]);
		if (seed_tables(fp, &d))
			return -1;
	}
	return 0;
}

/* The figures of one seed row; `deltas` picks the change from the row
 * above, else the time itself. */
static int seed_row_figure(const struct ss_report_report_in *in, unsigned i,
			   const struct ss_report_run *run, const struct ss_report_run *prev,
			   bool deltas, struct ss_report_figures *out)
{
	const struct ss_report_seed_row *s = &in->seed->rows[i];
	char name[SS_REPORT_FIGURE_NAME_MAX + SS_REPORT_NAME_MAX], what[192];

	if (!deltas) {
		snprintf(name, sizeof(name), "sim_ms:%s", s->variant);
		snprintf(what, sizeof(what), "simulated time of %s, model %s (the seed's %.3f s)",
			 s->variant, in->compare_model, s->time_s);
		return ss_report_figures_add(out, name, "ms", run->s.sim_time_ms, what);
	}
	if (!prev)
		return 0;
	snprintf(name, sizeof(name), "delta_ms:%s", s->variant);
	snprintf(what, sizeof(what), "change of the simulated time from %s to %s "
		 "(the seed's %+.0f ms)", s[-1].variant, s->variant,
		 (s->time_s - s[-1].time_s) * 1000);
	return ss_report_figures_add(out, name, "ms", ss_report_sim_ms(&run->s) - ss_report_sim_ms(&prev->s),
			      what);
}

int ss_report_seed_figures(const struct ss_report_report_in *in, struct ss_report_figures *out)
{
	int mi = ss_report_names_find(&in->res->models, in->compare_model);

	/* the changes first: the seed states its speed-ups by them */
	for (int deltas = 1; deltas >= 0; deltas--) {
		const struct ss_report_run *prev = NULL;

		for (unsigned i = 0; in->seed && i < in->seed->nrows; i++) {
			const struct ss_report_run *run = run_of(in->res, in->seed->rows[i].variant, mi);

			if (run && seed_row_figure(in, i, run, prev, deltas, out))
				return -1;
			prev = run;
		}
	}
	return 0;
}
