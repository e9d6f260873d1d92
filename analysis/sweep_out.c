/* sweep_out.c - a sweep's plot data and sweep.md (sweep_data.h). */
#include "sweep_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "md_table.h"
#include "report_md.h"

/* A log x axis when the values are positive numbers spanning a decade or
 * more (1000 ... 100000 rules); a linear one otherwise (1, 2, 4 CPUs). */
static bool want_logx(const struct ss_sweep *sw)
{
	double lo = INFINITY, hi = 0;

	if (!sw->numeric)
		return false;
	for (unsigned p = 0; p < sw->npt; p++) {
		lo = sw->pt[p].x < lo ? sw->pt[p].x : lo;
		hi = sw->pt[p].x > hi ? sw->pt[p].x : hi;
	}
	return lo > 0 && hi / lo >= 10;
}

/* A log y axis when the x axis is one (log y on a linear x bends every
 * line) and every value of the figure is positive and they span 20x or
 * more, as footprints over 1000 ... 100000 rules do: lines that scale
 * with the parameter are then straight on the log-log plot. */
static bool want_logy(const struct ss_sweep *sw, int col)
{
	double lo = INFINITY, hi = 0, v;

	if (!want_logx(sw))
		return false;
	for (unsigned p = 0; p < sw->npt; p++)
		for (size_t r = 0; r < sw->pt[p].n; r++) {
			if (ss_parse_decimal(sw->pt[p].rows[r].f[col], &v) || v <= 0)
				return false;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	return lo > 0 && hi / lo >= 20;
}

/* "a b c": names are [A-Za-z0-9._+-]+, so gnuplot's word() splits them. */
static void words(FILE *fp, const struct ss_report_names *l)
{
	fputc('"', fp);
	for (unsigned i = 0; i < l->n; i++)
		fprintf(fp, "%s%s", i ? " " : "", l->v[i]);
	fputc('"', fp);
}

int ss_sweep_write_dat(FILE *fp, const struct ss_sweep *sw, const char *figure, int col)
{
	char label[128];

	ss_sweep_figure_label(figure, label, sizeof(label));
	fprintf(fp, "# %s.dat - %s against %s, one block per (variant, model); slabsim sweep\n"
		    "# block 0, one row: nv nm numeric logx logy \"ylabel\" \"param\" \"variants\" \"models\"\n"
		    "# block 1 + variant index * models + model index, one row per value:\n"
		    "#   x (the value, or its index when the values are not all numbers) value %s\n"
		    "%u %u %d %d %d \"%s\" \"%s\" ",
		figure, figure, sw->param, figure, sw->variants.n, sw->models.n,
		sw->numeric, want_logx(sw), want_logy(sw, col), label, sw->param);
	words(fp, &sw->variants);
	fputc(' ', fp);
	words(fp, &sw->models);
	fputc('\n', fp);
	for (unsigned vi = 0; vi < sw->variants.n; vi++)
		for (unsigned mi = 0; mi < sw->models.n; mi++) {
			fprintf(fp, "\n\n# %s %s\n", sw->variants.v[vi], sw->models.v[mi]);
			for (unsigned p = 0; p < sw->npt; p++) {
				const struct ss_sweep_row *r = ss_sweep_find(sw, p, vi, mi);

				fprintf(fp, "%.15g %s %s\n", sw->pt[p].x, sw->pt[p].value,
					r ? r->f[col] : "NaN");
			}
		}
	return ferror(fp) ? -1 : 0;
}

static int figure_table(FILE *fp, const struct ss_sweep *sw, const char *figure,
			int col)
{
	char align[SS_MDTABLE_MAX_COLS + 1] = "rl", label[128];
	struct ss_md_table t;
	unsigned nm = sw->models.n < SS_MDTABLE_MAX_COLS - 2 ? sw->models.n : SS_MDTABLE_MAX_COLS - 2;

	for (unsigned mi = 0; mi < nm; mi++)
		strcat(align, "r");
	ss_mdtable_init(&t, align);
	ss_mdtable_cell(&t, "%s", sw->param);
	ss_mdtable_cell(&t, "variant");
	for (unsigned mi = 0; mi < nm; mi++)
		ss_mdtable_cell(&t, "%s", sw->models.v[mi]);
	for (unsigned p = 0; p < sw->npt; p++)
		for (unsigned vi = 0; vi < sw->variants.n; vi++) {
			ss_mdtable_cell(&t, "%s", sw->pt[p].value);
			ss_mdtable_cell(&t, "%s", sw->variants.v[vi]);
			for (unsigned mi = 0; mi < nm; mi++) {
				const struct ss_sweep_row *r = ss_sweep_find(sw, p, vi, mi);

				ss_mdtable_cell(&t, "%s", r ? r->f[col] : "n/a");
			}
		}
	ss_sweep_figure_label(figure, label, sizeof(label));
	fprintf(fp, "## %s against %s\n\n"
		    "`%s` of each run (summary.csv), one column per model; %s.png draws it, one\n"
		    "panel per variant, one line per model.\n\n",
		label, sw->param, figure, figure);
	return ss_mdtable_print(fp, &t);
}

int ss_sweep_write_title(FILE *fp, const struct ss_sweep *sw)
{
	struct ss_report_results res = {.header = sw->header, .ncols = sw->ncols};
	char title[512];
	size_t n = 0;
	int r;

	for (unsigned p = 0; p < sw->npt; p++)
		n += sw->pt[p].n;
	res.runs = calloc(n + 1, sizeof(*res.runs));
	if (!res.runs)
		return -1;
	for (unsigned p = 0; p < sw->npt; p++)
		for (size_t k = 0; k < sw->pt[p].n; k++)
			res.runs[res.nruns++].row = sw->pt[p].rows[k].f;
	ss_report_plot_title(&res, sw->workload, title, sizeof(title));
	r = ss_report_write_title_gp(fp, title);
	free(res.runs);
	return r;
}

int ss_sweep_write_md(FILE *fp, const struct ss_sweep *sw, char **figures,
		const int *cols, unsigned nfig)
{
	size_t runs = 0;

	for (unsigned p = 0; p < sw->npt; p++)
		runs += sw->pt[p].n;
	fprintf(fp, "# %s: sweep of %s\n\n"
		    "Built by `slabsim sweep` from each value's summary.csv (in the directory named after\n"
		    "the value, with its own report.md); every column is defined in docs/outputs.md.\n\n"
		    "- Command: `%s`\n- Parameter: %s = ",
		sw->workload, sw->param, sw->command, sw->param);
	for (unsigned p = 0; p < sw->npt; p++)
		fprintf(fp, "%s%s", p ? ", " : "", sw->pt[p].value);
	fprintf(fp, "\n- Runs: %zu (%u values × %u variants × %u models)\n- Variants: ",
		runs, sw->npt, sw->variants.n, sw->models.n);
	for (unsigned vi = 0; vi < sw->variants.n; vi++)
		fprintf(fp, "%s%s", vi ? ", " : "", sw->variants.v[vi]);
	fputs("\n- Models: ", fp);
	for (unsigned mi = 0; mi < sw->models.n; mi++)
		fprintf(fp, "%s%s", mi ? ", " : "", sw->models.v[mi]);
	fputs("\n- Plots beside this file (PNG, and SVG under the same name): ", fp);
	for (unsigned f = 0; f < nfig; f++)
		fprintf(fp, "%s%s.png", f ? ", " : "", figures[f]);
	fputs("\n\n", fp);
	for (unsigned f = 0; f < nfig; f++)
		if (figure_table(fp, sw, figures[f], cols[f]))
			return -1;
	return ferror(fp) ? -1 : 0;
}
