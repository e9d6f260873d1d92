/* timeline_dat.c - timeline.dat and phases.dat (timeline_dat.h). */
#include "timeline_dat.h"

void ss_timeline_dat_head(FILE *fp, const char *by)
{
	fprintf(fp, "# timeline.dat - slab memory over the trace, one block per (variant, model); %s\n"
		    "# block index = variant index * models + model index; each opens with a \"VARIANT MODEL\" header line\n"
		    "# kib = footprint_kib - initial_kib of the run's timeline.csv: the change since the run's start\n"
		    "# (the footprint itself for a run without an initial state)\n"
		    "# events kib live_objects sim_time_ms\n", by);
}

void ss_phases_dat_head(FILE *fp, const char *by)
{
	fprintf(fp, "# phases.dat - phase markers per variant; %s\n"
		    "# block index = variant index; events = events replayed before the phase's first event\n"
		    "# variant events phase\n", by);
}

static int row(void *ctx, const struct ss_compare_point *pt)
{
	FILE *fp = ctx;

	fprintf(fp, "%.0f %.2f %.0f %.3f\n", pt->events, cmp_point_change(pt),
		pt->live_objects, pt->sim_time_ms);
	return ferror(fp) ? -1 : 0;
}

int ss_timeline_dat_block(FILE *fp, const char *dir, const struct ss_report_run *run,
			  const char *variant, const char *model, struct ss_compare_timeline *tl,
			  struct ss_error *err)
{
	char path[4400];

	fprintf(fp, "\n\n");
	if (!run) {
		/* the header names the model all the same: the legend takes
		 * it from whichever variant comes first */
		fprintf(fp, "%s %s\nNaN NaN NaN NaN\n", variant, model);
		return 0;
	}
	fprintf(fp, "%s %s\n", run->variant, run->model);
	snprintf(path, sizeof(path), "%s/runs/%s__%s/timeline.csv", dir, run->variant,
		 run->model);
	return ss_compare_read_timeline(path, row, fp, tl, err);
}

void ss_phases_dat_block(FILE *fp, const char *variant, const struct ss_compare_timeline *tl)
{
	fprintf(fp, "\n\n");
	if (!tl || !tl->nph)
		fprintf(fp, "%s NaN \"\"\n", variant);
	for (size_t k = 0; tl && k < tl->nph; k++) {
		fprintf(fp, "%s %.0f \"", variant, tl->ph[k].events);
		/* a plot label: gnuplot's data files have no escape for '"'
		 * inside a quoted string, so it is shown as '\'' */
		for (const char *p = tl->ph[k].name; *p; p++)
			fputc(*p == '"' ? '\'' : *p, fp);
		fputs("\"\n", fp);
	}
}

int ss_timeline_dat_title(FILE *fp, bool change)
{
	if (change)
		fputs("change = 1\n", fp);
	return ferror(fp) ? -1 : 0;
}
