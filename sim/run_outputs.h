/* run_outputs.h - one run's output directory, as `slabsim run --out DIR`
 * writes it (docs/outputs.md): staged and swapped in whole
 * (base/outdir.h); timeline.csv and slabinfo.K-PHASE written during the
 * replay (the run's on_sample and on_phase); at the end the settling
 * (--final-state: settled.csv, slabinfo.unsettled), kernel.txt, prior.csv
 * and the result files (results.h), and the slabtop summary on stdout.
 *
 *   ss_run_out_begin()     stage DIR; the run's callbacks set
 *   ss_run_out_start()     after the set-up: timeline.csv opened, the bar
 *   ss_run_out_complete()  after the replay: the files, DIR swapped in
 *   ss_run_out_release()   a run that failed leaves DIR empty
 */
#ifndef SS_RUN_OUTPUTS_H
#define SS_RUN_OUTPUTS_H

#include <stdbool.h>
#include <stdint.h>

#include "atomic_file.h"
#include "outdir.h"
#include "progress.h"
#include "replay.h"
#include "run.h"

/* What a run writes, as options give it. */
struct ss_run_out_opts {
	const char *out;       /* the output directory */
	const char *variant;   /* the summary's variant; NULL: the trace's meta */
	const char *label;     /* the summary's model; NULL: spec.model */
	uint64_t sample_every; /* timeline interval in events (0: 4096) */
	bool quiet;	       /* no slabtop summary on stdout */
	bool progress;	       /* a progress bar on a terminal's stderr */
	/* when no kernel has the run's allocator and options: why, into
	 * this file, and the run left out (no --out); NULL: an error */
	const char *no_kernel_note;
};

struct ss_run_out {
	struct ss_outdir od;	       /* --out, staged */
	struct ss_atomic_file timeline;
	struct ss_progress progress;
	char tl[4300];
	const struct ss_run *run; /* ss_run_out_begin()'s, for the timeline's header */
};

/* Stage opts->out, set run's on_phase, on_sample and sample_every. */
int ss_run_out_begin(struct ss_run_out *o, const struct ss_run_out_opts *opts,
		     struct ss_run *run, struct ss_error *err);
/* The run is set up: open timeline.csv, start the bar (label: the model,
 * input: the trace). */
int ss_run_out_start(struct ss_run_out *o, const struct ss_run_out_opts *opts,
		     const struct ss_run_spec *spec, struct ss_error *err);
/* The replay is done: settle, write every file, swap the directory in. */
int ss_run_out_complete(struct ss_run_out *o, const struct ss_run_out_opts *opts,
			struct ss_run *run, const struct ss_run_spec *spec,
			const struct ss_run_setup *rs, struct ss_error *err);
/* Erase the bar; a failed run (failed) leaves no file of its own and an
 * empty DIR (outdir.h). */
void ss_run_out_release(struct ss_run_out *o, bool failed);

#endif
