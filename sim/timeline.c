/* timeline.c - timeline.csv's header and rows (timeline.h). */
#include "timeline.h"

#include "escape.h"

static void row(FILE *fp, const struct ss_run *run, const char *phase)
{
	fprintf(fp, "%llu,", (unsigned long long)run->books.events);
	ss_csv_put(fp, phase);
	fprintf(fp, ",%.2f,%llu,%.3f", (double)ss_run_footprint_bytes(run) / 1024.0,
		(unsigned long long)ss_run_live_objects(run),
		ss_run_ns(run, ss_run_sim_cycles(run)) / 1e6);
	if (ss_recon_has_initial(run->recon))
		fprintf(fp, ",%.2f", (double)ss_recon_initial_bytes(run->recon) / 1024.0);
	fputc('\n', fp);
}

void ss_timeline_start(FILE *fp, const struct ss_run *run)
{
	fputs("events,phase,footprint_kib,live_objects,sim_time_ms", fp);
	if (!ss_recon_has_initial(run->recon)) {
		fputc('\n', fp);
		return;
	}
	fputs(",initial_kib\n", fp);
	row(fp, run, run->phase);
}

void ss_timeline_row(FILE *fp, const struct ss_run *run)
{
	row(fp, run, run->phase);
}

void ss_timeline_settled(FILE *fp, const struct ss_run *run)
{
	row(fp, run, SS_TIMELINE_SETTLED);
}
