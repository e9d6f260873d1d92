/* cmd_advise.c - `slabsim advise`: propose slab placements for a trace and
 * replay each proposal (sim/advise/advise.h, docs/advise.md). */
#include <stdio.h>
#include <string.h>

#include "advise.h"
#include "commands.h"
#include "model.h"
#include "opts.h"

enum {
	O_TRACE, O_MODEL, O_TARGET, O_CONFIG, O_COSTS, O_CPUS, O_NODES, O_NOMERGE,
	O_MAXPROP, O_JOBS, O_OUT, O_HELP, NR_OPTS,
};

static const struct ss_opt specs[NR_OPTS] = {
	[O_TRACE] = {"trace", NULL, "TRACE", "a slabsim trace (docs/trace-format.md)"},
	[O_MODEL] = {"model", NULL, "MODEL",
		"the baseline placement every proposal changes (default traced;\n"
		"`slabsim run --help` lists the models)"},
	[O_TARGET] = {"target", NULL, "TARGET",
		"allocators/targets/TARGET.target, or a path to a target file\n"
		"(default: the trace's `meta target`)"},
	[O_CONFIG] = {"config", NULL, "LIST",
		"kernel options of the baseline and every proposal, as for\n"
		"`slabsim run --config` (CONFIG_X=y,...; docs/strategies.md)"},
	[O_COSTS] = {"costs", NULL, "FILE",
		"cost table overriding allocators/costs/default.costs"},
	[O_CPUS] = {"cpus", NULL, "N",
		"CPUs the kernel sees (default: the trace's meta cpus, as an\n"
		"imported capture's, else the target's)"},
	[O_NODES] = {"nodes", NULL, "N", "NUMA nodes (default: the target's)"},
	[O_NOMERGE] = {"no-merge", NULL, NULL,
		"no SLUB merging of the caches the baseline model creates"},
	[O_MAXPROP] = {"max-proposals", NULL, "N",
		"site and group proposals replayed at most, the best by\n"
		"estimate (default " SS_OPT_STR(SS_ADVISE_MAX_PROPOSALS) "); class sets and\n"
		"kmem_buckets proposals are always replayed"},
	[O_JOBS] = {"jobs", "-j", "N", "threads replaying (default: one per CPU this process may use)"},
	[O_OUT] = {"out", NULL, "DIR", "output directory (created if missing)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void advise_usage(FILE *out);

static const struct ss_opt_set opt_set = {"advise", specs, NR_OPTS, advise_usage};

static void advise_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim advise --trace TRACE --out DIR [--target TARGET] [--model MODEL]\n"
		"                      [--config LIST] [--costs FILE] [--cpus N] [--nodes N]\n"
		"                      [--no-merge] [--max-proposals N] [--jobs N]\n\n"
		"Find the slab changes worth making for TRACE on TARGET: for every fixed-size\n"
		"kmalloc site and every group of sites of one size, a dedicated cache of the\n"
		"exact size (with and without SLAB_HWCACHE_ALIGN) and what SLUB merging of\n"
		"the target's era would make of it; other kmalloc class sets; for imported\n"
		"traces, sites moved to their own kmem_buckets.  Every proposal is replayed in\n"
		"full beside the baseline; its saving is the difference of the two replays\n"
		"(footprint at the end and at the peak, slab pages, simulated time).\n\n"
		"Writes DIR/advice.csv (ranked by replayed saving), DIR/advice.md (the ranking\n"
		"and each kernel change in words) and DIR/proposals/NN.place (each proposal\n"
		"for `slabsim run --place`).  See docs/advise.md.\n\n");
	ss_opt_help(out, &opt_set);
}

static int take(void *ctx, int id, const char *v)
{
	struct ss_advise_opts *o = ctx;

	switch (id) {
	case O_TRACE: o->spec.trace = v; return 0;
	case O_MODEL:
		ss_model_canon((char *)v); /* argv is writable: the registry's spelling */
		o->spec.model = v;
		return 0;
	case O_TARGET: o->spec.target = v; return 0;
	case O_CONFIG: o->spec.config = v; return 0;
	case O_COSTS: o->spec.costs = v; return 0;
	case O_CPUS: return ss_opt_uint(&opt_set, id, v, 1, 65536, &o->spec.cpus);
	case O_NODES: return ss_opt_uint(&opt_set, id, v, 1, 1024, &o->spec.nodes);
	case O_NOMERGE: o->spec.no_merge = true; return 0;
	case O_MAXPROP: return ss_opt_uint(&opt_set, id, v, 1, 100000, &o->max_proposals);
	case O_JOBS: return ss_opt_uint(&opt_set, id, v, 1, 1024, &o->jobs);
	default: /* O_OUT */
		o->out = v;
		return 0;
	}
}

int ss_cmd_advise(int argc, char **argv)
{
	struct ss_advise_opts o;
	struct ss_error err = {{0}};
	int rc;

	memset(&o, 0, sizeof(o));
	o.spec.model = "traced";
	if ((rc = ss_opt_scan(&opt_set, argc, argv, take, &o)))
		return ss_opt_exit(rc);
	if (!o.spec.trace || !o.out)
		return ss_opt_exit(ss_opt_usage_err(&opt_set, "--trace and --out are required"));
	if (!strcmp(o.spec.trace, "-"))
		return ss_opt_exit(ss_opt_usage_err(&opt_set, "--trace - : the trace is read once per proposal; give a file"));
	if (ss_advise(&o, &err)) {
		fprintf(stderr, "slabsim advise: %s\n", err.msg);
		return 1;
	}
	return 0;
}
