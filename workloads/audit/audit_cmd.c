/* audit_cmd.c - option handling of `slabsim gen audit`. */
#include "audit_cmd.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_consts.h"
#include "audit_gen.h"
#include "estimate.h"
#include "opts.h"
#include "trace.h"

#define MAX_CPUS 65536u /* what a trace can carry */

enum opt_id {
	OPT_VARIANT, OPT_OUTPUT, OPT_SYSCALLS, OPT_MIX, OPT_RULES, OPT_RECORDS,
	OPT_CPUS, OPT_FILES, OPT_CONTEXT, OPT_TASK_CONTEXT, OPT_SCALE, OPT_ESTIMATE,
	OPT_HELP, NR_OPTS,
};


static const struct ss_opt specs[NR_OPTS] = {
	[OPT_VARIANT] = {"variant", NULL, "V",
		"off | on-2.6.16 | on-sid | on-cached | on-ctxcache (required)"},
	[OPT_OUTPUT] = {"output", "-o", "TRACE", "where to write the trace (\"-\" = stdout; required)"},
	[OPT_SYSCALLS] = {"syscalls", NULL, "N", "loop iterations (default 50000)"},
	[OPT_MIX] = {"mix", NULL, "SPEC",
		"kinds and weights, e.g. stat:40,access:40,open:20\n"
		"(default access:100, the seed's loop; an open\n"
		"iteration also closes the file)"},
	[OPT_RULES] = {"rules", NULL, "R",
		"audit rules scanned per syscall (default: the seed's, 4)"},
	[OPT_RECORDS] = {"records", NULL, "PCT",
		"percent of iterations that emit SYSCALL/CWD/PATH records\n"
		"(default 0: the seed emitted none)"},
	[OPT_CPUS] = {"cpus", NULL, "C", "CPUs, one looping process each (default 1)"},
	[OPT_FILES] = {"files", NULL, "F", "files the loop cycles through (default 1)"},
	[OPT_CONTEXT] = {"context", NULL, "CTX",
		"a file context, repeatable; file i gets context i mod n\n"
		"(default " AUDIT_DEFAULT_CONTEXT ";\n"
		"MLS ranges up to s0-s15:c0.c1023)"},
	[OPT_TASK_CONTEXT] = {"task-context", NULL, "CTX",
		"the loop's own context, for subj= (default " AUDIT_DEFAULT_TASK_CONTEXT ")"},
	[OPT_SCALE] = {"profile-scale-permille", NULL, "S",
		"scale of the profile-derived audit costs, per mille\n"
		"(default AUDIT_PROFILE_SCALE_PERMILLE, the fitted one)"},
	[OPT_ESTIMATE] = {"estimate", NULL, "NAME=V",
		"set an estimated constant of audit_consts.h\n"
		"(repeatable; make sensitivity varies each)"},
	[OPT_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"gen audit", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim gen audit --variant V -o TRACE [--syscalls N] [--mix SPEC]\n"
		"                         [--rules R] [--records PCT] [--cpus C] [--files F]\n"
		"                         [--context CTX]... [--task-context CTX]\n"
		"                         [--profile-scale-permille S] [--estimate NAME=V]...\n\n"
		"The audit workload: a loop of stat/access/open on a 2.6.16 SELinux MLS\n"
		"kernel with syscall auditing off or on (shared/seeds/001_*, 146%% hit).\n"
		"Variants: off; on-2.6.16 (context strings formatted per lookup);\n"
		"on-sid (the 2.6.17 fix, SID only); on-cached (the 2.6.16 path served by\n"
		"the 5.6 sidtab string cache); on-ctxcache (on-2.6.16 with the strings in\n"
		"a dedicated cache audit_ctx).  Non-allocator time is written as work\n"
		"events derived from the seed's profiles (docs/workloads/audit.md).\n\n"
		"options:\n");
	ss_opt_help(out, &opt_set);
	fprintf(out,
		"\nAUDIT_PROFILE_SCALE_PERMILLE = %u (fitted once: on-2.6.16 vs off = %d%%).\n"
		"Estimates: ",
		AUDIT_PROFILE_SCALE_PERMILLE, AUDIT_SEED_HIT_PCT);
	{
		struct ss_audit_estimates e;
		struct ss_estimate t[AUDIT_NR_ESTIMATES];

		ss_audit_estimates_table(&e, t);
		ss_estimate_list(out, t, AUDIT_NR_ESTIMATES);
	}
	fprintf(out, ".\nexit status: 0 ok, 1 failed write, 2 bad usage\n");
}

struct opts {
	const char *val[NR_OPTS]; /* last value given, NULL if absent */
	const char *contexts[AUDIT_MAX_CONTEXTS];
	unsigned ncontexts;
	struct ss_estimate_args estimates;
	struct ss_audit_params p;
};

#define USAGE_ERR(...) ss_opt_usage_err(&opt_set, __VA_ARGS__)

/* --context and --estimate repeat: every value counts, not only the last. */
static int take_value(void *ctx, int id, const char *v)
{
	struct opts *o = ctx;
	struct ss_error err;

	if (id == OPT_ESTIMATE)
		return ss_estimate_keep(&o->estimates, v, &err) ? USAGE_ERR("%s", err.msg) : 0;
	if (id != OPT_CONTEXT)
		return ss_opt_keep(o->val, id, v);
	if (o->ncontexts == AUDIT_MAX_CONTEXTS)
		return USAGE_ERR("more than %d --context options", AUDIT_MAX_CONTEXTS);
	o->contexts[o->ncontexts++] = v;
	return 0;
}

static int num_opt(const struct opts *o, int id, uint64_t min, uint64_t max,
		   uint64_t *out)
{
	return ss_opt_u64(&opt_set, id, o->val[id], min, max, out);
}

static int parse_contexts(struct opts *o)
{
	struct ss_error err;

	for (unsigned i = 0; i < o->ncontexts; i++)
		if (ss_audit_context_parse(o->contexts[i], &o->p.ctx[i], &err))
			return USAGE_ERR("--context: %s", err.msg);
	if (o->ncontexts)
		o->p.nctx = o->ncontexts;
	if (o->val[OPT_TASK_CONTEXT] &&
	    ss_audit_context_parse(o->val[OPT_TASK_CONTEXT], &o->p.task, &err))
		return USAGE_ERR("--task-context: %s", err.msg);
	return 0;
}

static int check_opts(struct opts *o)
{
	struct ss_audit_params *p = &o->p;
	uint64_t n = p->syscalls, rules = p->rules, rec = 0, cpus = 1, files = 1;
	uint64_t scale = p->scale_permille;
	struct ss_error err;

	if (!o->val[OPT_VARIANT] || !o->val[OPT_OUTPUT])
		return USAGE_ERR("give --variant V and -o TRACE");
	if (ss_audit_variant_parse(o->val[OPT_VARIANT], &p->variant))
		return USAGE_ERR("--variant '%s': want off, on-2.6.16, on-sid, on-cached or on-ctxcache",
				 o->val[OPT_VARIANT]);
	if (num_opt(o, OPT_SYSCALLS, 1, AUDIT_MAX_SYSCALLS, &n) ||
	    num_opt(o, OPT_RULES, 0, AUDIT_MAX_RULES, &rules) ||
	    num_opt(o, OPT_RECORDS, 0, 100, &rec) ||
	    num_opt(o, OPT_CPUS, 1, MAX_CPUS, &cpus) ||
	    num_opt(o, OPT_FILES, 1, AUDIT_MAX_FILES, &files) ||
	    num_opt(o, OPT_SCALE, 0, 100000, &scale))
		return -1;
	if (o->val[OPT_MIX] && ss_audit_mix_parse(o->val[OPT_MIX], p->mix, &err))
		return USAGE_ERR("--mix: %s", err.msg);
	if (parse_contexts(o))
		return -1;
	p->syscalls = n;
	p->rules = (unsigned)rules;
	p->record_pct = (unsigned)rec;
	p->cpus = (unsigned)cpus;
	p->files = o->val[OPT_FILES] ? (unsigned)files : p->nctx;
	p->scale_permille = (unsigned)scale;
	{
		struct ss_estimate t[AUDIT_NR_ESTIMATES];

		ss_audit_estimates_table(&p->est, t);
		if (ss_estimate_apply_all(t, AUDIT_NR_ESTIMATES, &o->estimates, &err))
			return USAGE_ERR("%s", err.msg);
	}
	if (p->files < p->nctx)
		return USAGE_ERR("--files %u is fewer than the %u contexts given", p->files, p->nctx);
	return 0;
}

int ss_audit_gen_main(int argc, char **argv)
{
	struct opts *o = calloc(1, sizeof(*o));
	struct ss_trace_writer *w = NULL;
	struct ss_error err;
	int rc;

	if (!o) {
		fprintf(stderr, "slabsim gen audit: out of memory\n");
		return 1;
	}
	ss_audit_params_defaults(&o->p);
	rc = ss_opt_scan(&opt_set, argc, argv, take_value, o);
	if (rc) {
		rc = ss_opt_exit(rc);
		goto out;
	}
	rc = 2;
	if (check_opts(o))
		goto out;
	rc = 1;
	if (ss_trace_writer_open(&w, o->val[OPT_OUTPUT], &err))
		goto fail;
	if (ss_audit_emit_trace(w, &o->p, &err)) {
		ss_trace_writer_abort(w);
		goto fail;
	}
	if (ss_trace_writer_commit(w, &err))
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "slabsim gen audit: %s\n", err.msg);
out:
	free(o);
	return rc;
}
