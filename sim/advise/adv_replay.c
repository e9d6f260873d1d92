/* adv_replay.c - the advisor's replays (adv_replay.h). */
#include "adv_replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pass.h"
#include "progress.h"
#include "totals.h"

/* The footprint as summary.csv counts it, after every event: slab pages,
 * and kmalloc_large pages where the era counts them as slab memory. */
static int note_peak(struct ss_run *run, struct ss_error *err)
{
	struct ss_advise_result *res = run->user;
	uint64_t bytes = run->books.mem.slab_pages * run->books.mem.page_size;
	double kib;

	(void)err;
	if (run->target->large_in_slab_stat)
		bytes += run->books.mem.large_bytes;
	kib = (double)bytes / 1024.0;
	if (kib > res->peak_kib)
		res->peak_kib = kib;
	return 0;
}

/* The results of a replayed run. */
static void take_results(struct ss_run *run, struct ss_advise_result *res)
{
	struct ss_totals tot;

	ss_totals_compute(run->desc, run->model, run->target, &tot);
	res->footprint_kib = (double)tot.footprint_bytes / 1024.0;
	res->slab_pages = tot.slab_pages;
	res->sim_ms = ss_run_ns(run, ss_run_sim_cycles(run)) / 1e6;
	if (res->footprint_kib > res->peak_kib) /* an empty trace */
		res->peak_kib = res->footprint_kib;
}

int ss_advise_replay_all(const struct ss_run_spec *spec, struct ss_advise_job *jobs,
		   unsigned n, unsigned threads, struct ss_error *err)
{
	struct ss_run_spec *specs = calloc(n + 1, sizeof(*specs));
	struct ss_run_setup *rs = calloc(n + 1, sizeof(*rs));
	struct ss_run *runs = calloc(n + 1, sizeof(*runs));
	struct ss_pass_run *pr = calloc(n + 1, sizeof(*pr));
	struct ss_pass pass = {0};
	struct ss_progress bar;
	char label[48];
	int rc = -1;

	if (!specs || !rs || !runs || !pr) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		specs[i] = *spec;
		specs[i].place = NULL;
		specs[i].overrides = jobs[i].ov;
		if (jobs[i].config)
			specs[i].config = jobs[i].config;
		memset(&jobs[i].res, 0, sizeof(jobs[i].res));
		runs[i] = (struct ss_run){.on_sample = note_peak, .sample_every = 1,
					  .user = &jobs[i].res};
		pr[i] = (struct ss_pass_run){.spec = &specs[i], .rs = &rs[i], .run = &runs[i]};
		if (ss_run_setup_load(&rs[i], &specs[i], err))
			goto out;
	}
	/* every replay from one pass over the trace; a bar on a terminal,
	 * a line per tenth of the trace in a log */
	snprintf(label, sizeof(label), "advise: %u replays", n);
	ss_progress_start(&bar, STDERR_FILENO, label, spec->trace);
	ss_progress_lines(&bar);
	rc = ss_pass_replay(&pass, pr, n, threads, NULL, NULL, &bar, err);
	ss_progress_done(&bar);
	/* the first job (in job order) that failed */
	for (unsigned i = 0; !rc && i < n; i++) {
		if (pr[i].slot->failed) {
			*err = pr[i].slot->err;
			rc = -1;
		} else {
			take_results(&runs[i], &jobs[i].res);
		}
	}
out:
	for (unsigned i = 0; rs && runs && i < n; i++)
		ss_run_setup_close(&rs[i], &runs[i]);
	ss_pass_close(&pass);
	free(specs);
	free(rs);
	free(runs);
	free(pr);
	return rc;
}
