/* runset.h - a set of runs of one trace, replayed from one pass over it:
 * `slabsim run` with one model, several (--model "A B"), or a run list
 * (--runs FILE).
 *
 * Every run is loaded first (model, target, costs: a bad one stops the
 * set before any replay), then the trace is opened once and its pre-pass
 * made for all of them (prepass.h), then each run set up.  One run
 * replays alone on this thread (the fastest loop, sim/replay.h); several
 * are split into `jobs` groups, heaviest first to the lightest, and
 * replayed on that many threads from one decoding of the trace
 * (multi.h).  Each run's outputs are those it would give alone
 * (run_outputs.h); a run that fails is reported with its output
 * directory and leaves it empty, the others complete.  A run that no
 * kernel can have (its allocator and options: the target's era lacks
 * them, or Kconfig rules them out) stops the set, or, when it has a
 * no_kernel_note, is left out with the reason in that file.  The pass
 * itself: pass.h.
 */
#ifndef SS_RUNSET_H
#define SS_RUNSET_H

#include "run.h"
#include "run_outputs.h"

/* One run of the set. */
struct ss_run_item {
	struct ss_run_spec spec; /* every item's spec.trace is the same */
	struct ss_run_out_opts out;
};

enum ss_runs_result {
	SS_RUNS_OK,
	SS_RUNS_FAILED,	       /* err says why (one run: its error) */
	/* the one run's allocator and options: no kernel has them (the
	 * target's era lacks them, or Kconfig rules them out) */
	SS_RUNS_NO_SUCH_KERNEL,
};

/* Replay the items (n >= 1) from one pass over their trace with `jobs`
 * threads (0: ss_pass_default_jobs(), never more than n).  A run that
 * fails in a set of several is reported on stderr, prefixed with who
 * (as a run left out says in its note), and err then counts them. */
enum ss_runs_result ss_runs_replay(const struct ss_run_item *items, unsigned n, unsigned jobs,
				   const char *who, struct ss_error *err);

#endif
