/* hb_cmd.c - option handling of `slabsim gen hackbench`. */
#include "hb_cmd.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hb_consts.h"
#include "hb_gen.h"
#include "parse.h"

enum opt_id {
	OPT_GROUPS, OPT_LOOPS, OPT_FDS, OPT_DATASIZE, OPT_PIPES, OPT_CPUS,
	OPT_QUANTUM, OPT_MSG_CYCLES, OPT_OUTPUT, OPT_HELP, NR_OPTS,
};

struct opt_spec {
	const char *name;  /* long name without "--" */
	const char *alias; /* short form (rt-tests hackbench's), or NULL */
	const char *arg;   /* NULL: takes no value */
	const char *help;
};

static const struct opt_spec specs[NR_OPTS] = {
	[OPT_GROUPS] = {"groups", "-g", "G", "groups of senders and receivers (default 20)"},
	[OPT_LOOPS] = {"loops", "-l", "L",
		"messages each sender writes to each receiver (default 1000)"},
	[OPT_FDS] = {"fds", "-f", "N", "senders = receivers per group (default 20)"},
	[OPT_DATASIZE] = {"datasize", "-s", "B", "bytes per message (default 100)"},
	[OPT_PIPES] = {"pipes", "-p", NULL,
		"pipes instead of AF_UNIX sockets (no slab objects)"},
	[OPT_CPUS] = {"cpus", NULL, "N",
		"CPUs the tasks are spread over (default 8, the x86_64\n"
		"                      targets' count; replay with the same --cpus)"},
	[OPT_QUANTUM] = {"quantum", NULL, "Q",
		"messages a task handles per scheduler turn (default 64)"},
	[OPT_MSG_CYCLES] = {"msg-cycles", NULL, "C",
		"non-allocator cycles per message (default HB_MSG_CYCLES,\n"
		"                      the fitted constant; 0 for allocator time only)"},
	[OPT_OUTPUT] = {"output", "-o", "TRACE", "the trace (\"-\" = stdout); required"},
	[OPT_HELP] = {"help", "-h", NULL, "this text"},
};

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
	for (int i = 0; i < NR_OPTS; i++) {
		char left[40];

		snprintf(left, sizeof(left), "%s%s--%s%s%s",
			 specs[i].alias ? specs[i].alias : "",
			 specs[i].alias ? ", " : "", specs[i].name,
			 specs[i].arg ? " " : "", specs[i].arg ? specs[i].arg : "");
		fprintf(out, "  %-20s%s\n", left, specs[i].help);
	}
	fprintf(out, "\nHB_MSG_CYCLES = %u; see docs/workloads/hackbench.md.\n"
		     "exit status: 0 ok, 1 failed write, 2 bad usage\n", HB_MSG_CYCLES);
}

#define USAGE_ERR(...) (fprintf(stderr, "slabsim gen hackbench: " __VA_ARGS__), \
			fprintf(stderr, "\n(try 'slabsim gen hackbench --help')\n"), -1)

static int find_opt(const char *a, size_t n)
{
	for (int i = 0; i < NR_OPTS; i++) {
		if (a[0] == '-' && a[1] == '-' && strlen(specs[i].name) == n - 2 &&
		    !strncmp(a + 2, specs[i].name, n - 2))
			return i;
		if (specs[i].alias && strlen(specs[i].alias) == n &&
		    !strncmp(a, specs[i].alias, n))
			return i;
	}
	return -1;
}

/* Collect "--name value", "--name=value", "-g value"; the last one wins. */
static int scan_args(const char **val, int *seen, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t n = eq && a[1] == '-' ? (size_t)(eq - a) : strlen(a);
		int id = a[0] == '-' && a[1] ? find_opt(a, n) : -1;

		if (id < 0)
			return a[0] == '-' ? USAGE_ERR("unknown option '%s'", a)
					   : USAGE_ERR("unexpected argument '%s'", a);
		seen[id] = 1;
		if (!specs[id].arg) {
			if (a[n])
				return USAGE_ERR("--%s takes no value", specs[id].name);
			continue;
		}
		if (a[n])
			val[id] = a + n + 1;
		else if (i + 1 < argc)
			val[id] = argv[++i];
		else
			return USAGE_ERR("%s needs a value (%s)", a, specs[id].arg);
	}
	return 0;
}

static int num_opt(const char **val, int id, uint64_t max, uint64_t *out)
{
	if (!val[id])
		return 0;
	if (ss_parse_u64(val[id], max, out))
		return USAGE_ERR("--%s '%s': want an integer 0..%" PRIu64,
				 specs[id].name, val[id], max);
	return 0;
}

static int parse(int argc, char **argv, struct hb_params *p, const char **out,
		 int *help)
{
	const char *val[NR_OPTS] = {0};
	int seen[NR_OPTS] = {0};
	uint64_t g, l, f, d, c, q, m;
	struct ss_error err;

	hb_params_defaults(p);
	g = p->sched.groups, l = p->sched.loops, f = p->sched.fds;
	d = p->datasize, c = p->sched.cpus, q = p->sched.quantum, m = p->msg_cycles;
	if (scan_args(val, seen, argc, argv))
		return -1;
	*help = seen[OPT_HELP];
	if (*help)
		return 0;
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
	p->pipes = seen[OPT_PIPES];
	p->msg_cycles = m;
	if (hb_params_finish(p, &err))
		return USAGE_ERR("%s", err.msg);
	*out = val[OPT_OUTPUT];
	return 0;
}

int ss_hackbench_gen_main(int argc, char **argv)
{
	struct hb_params p;
	struct hb_stats st;
	struct ss_error err = {{0}};
	const char *out = NULL;
	int help = 0;

	if (parse(argc, argv, &p, &out, &help))
		return 2;
	if (help) {
		usage(stdout);
		return 0;
	}
	if (hb_gen_trace(&p, out, &st, &err)) {
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
