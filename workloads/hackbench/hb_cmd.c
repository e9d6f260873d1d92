/* hb_cmd.c - option handling of `slabsim gen hackbench`. */
#include "hb_cmd.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hb_consts.h"
#include "opts.h"
#include "hb_gen.h"

enum opt_id {
	OPT_GROUPS, OPT_LOOPS, OPT_FDS, OPT_DATASIZE, OPT_PIPES, OPT_CPUS,
	OPT_QUANTUM, OPT_MSG_CYCLES, OPT_OUTPUT, OPT_HELP, NR_OPTS,
};

/* The aliases are rt-tests hackbench's. */
static const struct ss_opt specs[NR_OPTS] = {
	[OPT_GROUPS] = {"groups", "-g", "G", "groups of senders and receivers (default 20)"},
	[OPT_LOOPS] = {"loops", "-l", "L",
		"messages each sender writes to each receiver (default 1000)"},
	[OPT_FDS] = {"fds", "-f", "N", "senders = receivers per group (default 20)"},
	[OPT_DATASIZE] = {"datasize", "-s", "B", "bytes per message (default 100)"},
	[OPT_PIPES] = {"pipes", "-p", NULL,
		"pipes instead of AF_UNIX sockets (no slab objects)"},
	[OPT_CPUS] = {"cpus", NULL, "N",
		"CPUs the tasks are spread over (default 8, the x86_64\n"
		"targets' count; replay with the same --cpus)"},
	[OPT_QUANTUM] = {"quantum", NULL, "Q",
		"messages a task handles per scheduler turn (default 64)"},
	[OPT_MSG_CYCLES] = {"msg-cycles", NULL, "C",
		"non-allocator cycles per message (default HB_MSG_CYCLES,\n"
		"the fitted constant; 0 for allocator time only)"},
	[OPT_OUTPUT] = {"output", "-o", "TRACE", "the trace (\"-\" = stdout); required"},
	[OPT_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"gen hackbench", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim gen hackbench [-g G] [-l L] [--fds N] [--datasize B] [--pipes]\n"
		"                             [--cpus N] [--quantum Q] [--msg-cycles C] -o TRACE\n\n"
		"The hackbench workload (hackbench -g 20 -l 1000 under slub_debug=P, Laura\n"
		"Abbott's 2016 series): per message an sk_buff (skbuff_head_cache) and a\n"
		"kmalloc'ed data head on the sender's CPU, freed on the receiver's CPU.  The\n"
		"trace is the same for every kernel era and slub_debug setting: replay it\n"
		"with the target and model of each variant.\n\noptions:\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nHB_MSG_CYCLES = %u; see docs/workloads/hackbench.md.\n"
		     "exit status: 0 ok, 1 failed write, 2 bad usage\n", HB_MSG_CYCLES);
}

#define USAGE_ERR(...) ss_opt_usage_err(&opt_set, __VA_ARGS__)

/* val[id] (if given) as an integer 0..max. */
static int num_opt(const char **val, int id, uint64_t max, uint64_t *out)
{
	return ss_opt_u64(&opt_set, id, val[id], 0, max, out);
}

/* 0 ok, else ss_opt_scan()'s SS_OPT_HELP or -1. */
static int parse(int argc, char **argv, struct ss_hackbench_params *p, const char **out)
{
	const char *val[NR_OPTS] = {0};
	uint64_t g, l, f, d, c, q, m;
	struct ss_error err;
	int rc = ss_opt_scan(&opt_set, argc, argv, ss_opt_keep, val);

	if (rc)
		return rc;
	ss_hackbench_params_defaults(p);
	g = p->sched.groups, l = p->sched.loops, f = p->sched.fds;
	d = p->datasize, c = p->sched.cpus, q = p->sched.quantum, m = p->msg_cycles;
	if (num_opt(val, OPT_GROUPS, HB_MAX_TASKS, &g) ||
	    num_opt(val, OPT_LOOPS, HB_MAX_MESSAGES, &l) ||
	    num_opt(val, OPT_FDS, HB_MAX_TASKS, &f) ||
	    num_opt(val, OPT_DATASIZE, UINT32_MAX, &d) ||
	    num_opt(val, OPT_CPUS, HB_MAX_CPUS, &c) ||
	    num_opt(val, OPT_QUANTUM, UINT32_MAX, &q) ||
	    num_opt(val, OPT_MSG_CYCLES, HB_MAX_MSG_CYCLES, &m))
		return -1;
	if (!val[OPT_OUTPUT])
		return USAGE_ERR("nothing to write: give -o TRACE");
	p->sched.groups = (unsigned)g;
	p->sched.loops = l;
	p->sched.fds = (unsigned)f;
	p->sched.cpus = (unsigned)c;
	p->sched.quantum = (unsigned)q;
	p->datasize = (unsigned)d;
	p->pipes = val[OPT_PIPES] != NULL;
	p->msg_cycles = m;
	if (ss_hackbench_params_finish(p, &err))
		return USAGE_ERR("%s", err.msg);
	*out = val[OPT_OUTPUT];
	return 0;
}

int ss_hackbench_gen_main(int argc, char **argv)
{
	struct ss_hackbench_params p;
	struct ss_hackbench_stats st;
	struct ss_error err = {{0}};
	const char *out = NULL;
	int rc = parse(argc, argv, &p, &out);

	if (rc)
		return ss_opt_exit(rc);
	if (ss_hackbench_gen_trace(&p, out, &st, &err)) {
		fprintf(stderr, "slabsim gen hackbench: %s\n", err.msg);
		return 1;
	}
	if (strcmp(out, "-"))
		fprintf(stderr, "slabsim gen hackbench: %s: %" PRIu64 " messages, %.1f%% to another CPU, "
			"at most %" PRIu64 " in flight (window %u)\n", out, st.messages,
			st.messages ? 100.0 * (double)st.remote / (double)st.messages : 0.0,
			st.max_inflight, p.sched.window);
	return 0;
}
