/* pass.c - one pass over a trace feeding several runs (pass.h). */
#include "pass.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned ss_pass_default_jobs(void)
{
	cpu_set_t set;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	return online > 0 ? (unsigned)online : 1;
}

unsigned ss_pass_weight(const struct ss_run_setup *rs)
{
	return rs->debug_spec[0] ? 3 : 1;
}

/* Runs to groups, heaviest first to the lightest group; each group's
 * slots contiguous, in run order. */
static void make_groups(struct ss_pass *p, struct ss_pass_run *runs, unsigned n)
{
	unsigned load[p->jobs], i, g;

	memset(load, 0, sizeof(load));
	for (unsigned w = 3; w > 0; w--) {
		for (i = 0; i < n; i++) {
			unsigned best = 0;

			if (ss_pass_weight(runs[i].rs) != w)
				continue;
			for (g = 1; g < p->jobs; g++)
				if (load[g] < load[best])
					best = g;
			runs[i].group = best;
			load[best] += w;
		}
	}
	for (g = 0, i = 0; g < p->jobs; g++) {
		p->groups[g].slots = p->slots + i;
		p->groups[g].n = 0;
		for (unsigned j = 0; j < n; j++)
			if (runs[j].group == g) {
				runs[j].slot = &p->slots[i + p->groups[g].n++];
				runs[j].slot->run = runs[j].run;
			}
		i += p->groups[g].n;
	}
}

static void tick(void *arg, uint64_t events)
{
	ss_progress_tick(arg, events);
}

int ss_pass_replay(struct ss_pass *p, struct ss_pass_run *runs, unsigned n, unsigned jobs,
		   ss_pass_ready_fn *ready, void *arg, struct ss_progress *bar,
		   struct ss_error *err)
{
	struct ss_prepass_needs needs = {0};

	memset(p, 0, sizeof(*p));
	p->jobs = jobs ? jobs : ss_pass_default_jobs();
	if (p->jobs > n)
		p->jobs = n;
	p->groups = calloc(p->jobs ? p->jobs : 1, sizeof(*p->groups));
	p->slots = calloc(n ? n : 1, sizeof(*p->slots));
	if (!p->groups || !p->slots)
		return ss_errorf(err, "out of memory");
	if (!n)
		return 0;
	for (unsigned i = 0; i < n; i++)
		ss_run_setup_needs(runs[i].rs, runs[i].spec, &needs);
	if (ss_prepass_open(&p->pre, runs[0].spec->trace, &needs, err))
		return -1;
	ss_trace_note_unchecked(p->pre.reader);
	/* the bar measures this pass's reading, not another open of the file */
	if (bar && p->pre.src.seeks)
		ss_progress_follow(bar, fileno(p->pre.src.fp));
	make_groups(p, runs, n);
	if (ss_multi_tables_init(p->groups, p->jobs, p->pre.reader, err))
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (ss_run_setup_open_with(runs[i].rs, runs[i].spec, &p->pre,
					   &p->groups[runs[i].group].tables, err) ||
		    ss_run_setup_start(runs[i].rs, runs[i].run, err) ||
		    (ready && ready(arg, i, err)))
			return -1;
	return ss_replay_multi(p->pre.reader, p->groups, p->jobs, bar ? tick : NULL, bar, err);
}

void ss_pass_close(struct ss_pass *p)
{
	if (p->groups)
		ss_multi_tables_release(p->groups, p->jobs);
	ss_prepass_close(&p->pre);
	free(p->groups);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}
