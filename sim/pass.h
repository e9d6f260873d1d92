/* pass.h - one pass over a trace feeding several runs that their caller
 * loaded (ss_run_setup_load) and gave their callbacks: the trace opened
 * once with what every run needs (prepass.h), the runs spread over
 * threads (heaviest first to the lightest group), each set up, then all
 * replayed from one decoding of the trace (multi.h).  The caller reads
 * each run's results before ss_pass_close() (the runs' models read the
 * pass's tables and pre-pass until then).  `slabsim run` with several
 * runs (runset.h) and `slabsim advise`'s replays use it.
 */
#ifndef SS_PASS_H
#define SS_PASS_H

#include "multi.h"
#include "prepass.h"
#include "progress.h"
#include "run.h"

struct ss_pass_run {
	const struct ss_run_spec *spec;
	struct ss_run_setup *rs; /* loaded */
	struct ss_run *run;	 /* its callbacks set */
	/* by ss_pass_replay: its group, and whether it failed (slot->failed,
	 * slot->err) */
	unsigned group;
	struct ss_multi_slot *slot;
};

struct ss_pass {
	struct ss_prepass pre;
	struct ss_multi_group *groups;
	struct ss_multi_slot *slots;
	unsigned jobs;
};

/* Called after run i is set up (its replay state made): 0, or -1 with err. */
typedef int ss_pass_ready_fn(void *arg, unsigned i, struct ss_error *err);

/* Open the trace of runs[0] (every run's is the same), set every run up
 * (then ready(arg, i, err) when not NULL), replay them on `jobs` threads
 * (0: ss_pass_default_jobs(); never more than n), finishing each; bar,
 * when not NULL, is ticked with the events decoded.  0: every run's
 * failure, if any, is in its slot; -1 with err: nothing was replayed (a
 * set-up error, out of memory).  ss_pass_close() either way. */
int ss_pass_replay(struct ss_pass *p, struct ss_pass_run *runs, unsigned n, unsigned jobs,
		   ss_pass_ready_fn *ready, void *arg, struct ss_progress *bar,
		   struct ss_error *err);
void ss_pass_close(struct ss_pass *p);

/* The CPUs this process may run on (sched_getaffinity, else those
 * online): the default number of threads. */
unsigned ss_pass_default_jobs(void);

/* How much a loaded run costs, roughly, to balance the threads:
 * slub_debug paths (MODEL+LETTERS or --slub-debug, as the registry's
 * ss_model_parse read them) take about twice the work of plain ones. */
unsigned ss_pass_weight(const struct ss_run_setup *rs);

#endif
