/* runset.c - a set of runs from one pass over their trace (runset.h). */
#include "runset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pass.h"

/* One run's set-up, replay state and outputs. */
struct one {
	const struct ss_run_item *it;
	struct ss_run_setup rs;
	struct ss_run run;
	struct ss_run_out o;
	bool left_out; /* no kernel has it: its no_kernel_note says so */
};

static void release(struct one *r, bool failed)
{
	ss_run_out_release(&r->o, failed);
	ss_run_setup_close(&r->rs, &r->run);
}

/* A load that failed because no kernel has the run's allocator and
 * options, for a run with a note: the reason into the note, the run's
 * directory gone; 0 (left out), or -1 (err: the load's or the note's). */
static int leave_out(struct one *r, const char *who, struct ss_error *err)
{
	const char *note = r->it->out.no_kernel_note;
	struct ss_atomic_file f;

	if (!r->rs.kernel_error || !note)
		return -1;
	if (ss_atomic_open(&f, note, err))
		return -1;
	fprintf(f.fp, "%s: %s\n", who, err->msg); /* (what the run alone says) */
	if (ss_atomic_commit(&f, err))
		return -1;
	ss_run_out_release(&r->o, true);
	rmdir(r->it->out.out); /* (emptied: outdir.h) */
	r->left_out = true;
	return 0;
}

/* One run alone: its own pass, the in-place loop. */
static enum ss_runs_result replay_one(const struct ss_run_item *it, const char *who,
				      struct ss_error *err)
{
	struct one r = {.it = it};
	int rc = -1;

	if (ss_run_out_begin(&r.o, &it->out, &r.run, err))
		goto out;
	if (ss_run_setup_load(&r.rs, &it->spec, err)) {
		if (!leave_out(&r, who, err))
			rc = 0;
		goto out;
	}
	if (!ss_run_setup_open(&r.rs, &it->spec, err) &&
	    !ss_run_setup_start(&r.rs, &r.run, err) && !ss_run_out_start(&r.o, &it->out, &it->spec, err) &&
	    !ss_replay(&r.run, r.rs.reader, err))
		rc = ss_run_out_complete(&r.o, &it->out, &r.run, &it->spec, &r.rs, err);
out:
	if (rc)
		ss_outdir_name_error(&r.o.od, err);
	if (!r.left_out)
		release(&r, rc != 0);
	else
		ss_run_setup_close(&r.rs, &r.run);
	if (!rc)
		return SS_RUNS_OK;
	return r.rs.kernel_error ? SS_RUNS_NO_SUCH_KERNEL : SS_RUNS_FAILED;
}

/* The set's one bar (on a terminal), "TRACE N runs". */
static void start_bar(struct ss_progress *bar, const struct ss_run_item *items, unsigned n)
{
	char label[32];

	snprintf(label, sizeof(label), "%u runs", n);
	ss_progress_start(bar, STDERR_FILENO, label, items[0].spec.trace);
	if (!items[0].out.progress)
		bar->enabled = false;
}

/* Load every run (those no kernel has left out, when they say so): the
 * runs to replay in act[0 .. *nact), or -1 with err (nothing replayed). */
static int load_all(struct one *runs, unsigned n, struct one **act, unsigned *nact,
		    const char *who, struct ss_error *err)
{
	*nact = 0;
	for (unsigned i = 0; i < n; i++) {
		if (ss_run_out_begin(&runs[i].o, &runs[i].it->out, &runs[i].run, err))
			return -1;
		if (ss_run_setup_load(&runs[i].rs, &runs[i].it->spec, err)) {
			if (leave_out(&runs[i], who, err))
				return -1;
			continue;
		}
		act[(*nact)++] = &runs[i];
	}
	return 0;
}

/* After run i's set-up: its timeline opened. */
static int ready(void *arg, unsigned i, struct ss_error *err)
{
	struct one **act = arg;

	return ss_run_out_start(&act[i]->o, &act[i]->it->out, &act[i]->it->spec, err);
}

enum ss_runs_result ss_runs_replay(const struct ss_run_item *items, unsigned n, unsigned jobs,
				   const char *who, struct ss_error *err)
{
	struct one *runs, **act;
	struct ss_pass_run *pr;
	struct ss_pass pass = {0};
	struct ss_progress bar;
	unsigned nr_failed = 0, nact = 0;
	int rc;

	if (n == 1)
		return replay_one(&items[0], who, err);
	runs = calloc(n, sizeof(*runs));
	act = calloc(n, sizeof(*act));
	pr = calloc(n, sizeof(*pr));
	if (!runs || !act || !pr) {
		free(runs);
		free(act);
		free(pr);
		ss_errorf(err, "out of memory");
		return SS_RUNS_FAILED;
	}
	for (unsigned i = 0; i < n; i++) {
		runs[i].it = &items[i];
		runs[i].o.od.slot = -1; /* (not begun: nothing to clean up) */
	}
	/* a set-up error (a bad target, say) stops the set before any replay */
	rc = load_all(runs, n, act, &nact, who, err);
	for (unsigned i = 0; i < nact; i++)
		pr[i] = (struct ss_pass_run){.spec = &act[i]->it->spec, .rs = &act[i]->rs,
					     .run = &act[i]->run};
	if (!rc && nact) {
		start_bar(&bar, items, nact);
		rc = ss_pass_replay(&pass, pr, nact, jobs, ready, act, &bar, err);
		ss_progress_done(&bar);
	}
	for (unsigned i = 0, k = 0; i < n; i++) {
		struct ss_multi_slot *s = NULL;
		int run_rc;

		if (runs[i].left_out) {
			ss_run_setup_close(&runs[i].rs, &runs[i].run);
			continue;
		}
		if (k < nact && act[k] == &runs[i])
			s = pr[k++].slot;
		run_rc = rc || !s || s->failed ||
			 ss_run_out_complete(&runs[i].o, &items[i].out, &runs[i].run,
					     &items[i].spec, &runs[i].rs, &s->err) ? -1 : 0;
		if (run_rc && !rc && s) {
			ss_outdir_name_error(&runs[i].o.od, &s->err);
			fprintf(stderr, "%s: %s: %s\n", who, items[i].out.out, s->err.msg);
			nr_failed++;
		}
		release(&runs[i], run_rc != 0);
	}
	ss_pass_close(&pass);
	free(runs);
	free(act);
	free(pr);
	if (!rc && nr_failed)
		rc = ss_errorf(err, "%u of %u runs failed", nr_failed, n);
	return rc ? SS_RUNS_FAILED : SS_RUNS_OK;
}
