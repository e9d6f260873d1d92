/* smack_cmd.c - option handling of `slabsim gen smack17k`. */
#include "smack_cmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "estimate.h"
#include "opts.h"
#include "smack_consts.h"
#include "smack_gen.h"
#include "smack_recipe.h"
#include "smack_rules.h"
#include "trace.h"

#define DEFAULT_RULES 17000u /* the seed: "circa 17K rules" */
#define DEFAULT_LABELS 500u  /* the seed: "and 500 labels" */
#define DEFAULT_SEED 1u
#define MAX_CPU 65535u	     /* what a trace can carry */
#define MAX_SYSTEM_KIB (16ull << 20) /* 16 GiB */

enum opt_id {
	OPT_RULES, OPT_LABELS, OPT_SEED, OPT_FROM, OPT_WRITE_RULES,
	OPT_VARIANT, OPT_OUTPUT, OPT_SYSTEM_KIB, OPT_CPU, OPT_ESTIMATE, OPT_HELP,
	NR_OPTS,
};


static const struct ss_opt specs[NR_OPTS] = {
	[OPT_RULES] = {"rules", NULL, "N",
		"rules to generate (default 17000, the seed's \"circa 17K\")"},
	[OPT_LABELS] = {"labels", NULL, "M",
		"labels to generate (default 500, the seed's count)"},
	[OPT_SEED] = {"seed", NULL, "S",
		"generator seed (default 1): the same seed gives the same rules"},
	[OPT_FROM] = {"from-rules", NULL, "FILE",
		"read a real load2 rule file instead of generating\n"
		"(\"subject object access\" a line, # comments;\n"
		"not with --rules, --labels, --seed)"},
	[OPT_WRITE_RULES] = {"write-rules", NULL, "FILE",
		"write the rule set there (load2 format, # header)"},
	[OPT_VARIANT] = {"variant", NULL, "V",
		"ref | memfix | patch2 | patch3 | patch4 (with -o)"},
	[OPT_OUTPUT] = {"output", "-o", "TRACE",
		"write the variant's trace there (\"-\" = stdout)"},
	[OPT_SYSTEM_KIB] = {"system-kib", NULL, "K",
		"KiB of slab the rest of the system allocates during\n"
		"the load (default SMACK_SYSTEM_SLAB_KIB)"},
	[OPT_CPU] = {"cpu", NULL, "C",
		"CPU smackctl runs on (default 0)"},
	[OPT_ESTIMATE] = {"estimate", NULL, "NAME=V",
		"set an estimated cycle constant of smack_consts.h\n"
		"(repeatable; make sensitivity varies each)"},
	[OPT_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"gen smack17k", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim gen smack17k [--rules N --labels M --seed S | --from-rules FILE]\n"
		"                         [--write-rules FILE] [--variant V -o TRACE]\n"
		"                         [--system-kib K] [--cpu C] [--estimate NAME=V]...\n\n"
		"The smack17k workload: smackctl loading a Smack rule set through\n"
		"/smack/load2, one rule per write, on the 2013 seed's 32-bit ARM board\n"
		"(kernel 3.10).  Generates a Tizen-style rule set (or reads one) and\n"
		"writes the kernel's allocations for one variant of the patch set\n"
		"\"Optimizations for memory handling in SMACK\" as a trace.\n\n"
		"options:\n");
	ss_opt_help(out, &opt_set);
	fprintf(out,
		"\nGive -o and/or --write-rules.  SMACK_SYSTEM_SLAB_KIB = %d,\n"
		"see docs/workloads/smack17k.md.  Estimates: ",
		SMACK_SYSTEM_SLAB_KIB);
	{
		struct ss_smack_recipe rp;
		struct ss_estimate est[SMACK_NR_ESTIMATES];

		ss_smack_recipe_defaults(&rp);
		ss_smack_estimates(&rp, est);
		ss_estimate_list(out, est, SMACK_NR_ESTIMATES);
	}
	fprintf(out, ".\nexit status: 0 ok, 1 bad rule file or failed write, 2 bad usage\n");
}

struct opts {
	const char *val[NR_OPTS]; /* last value given, NULL if absent */
	struct ss_estimate_args estimates;
	struct ss_smack_gen_params gen;
	struct ss_smack_recipe recipe;
};

#define USAGE_ERR(...) ss_opt_usage_err(&opt_set, __VA_ARGS__)

/* --estimate repeats: every value counts, not only the last. */
static int take_value(void *ctx, int id, const char *v)
{
	struct opts *o = ctx;
	struct ss_error err;

	if (id != OPT_ESTIMATE)
		return ss_opt_keep(o->val, id, v);
	return ss_estimate_keep(&o->estimates, v, &err) ? USAGE_ERR("%s", err.msg) : 0;
}

/* val[id] (if given) as an integer 0..max. */
static int num_opt(const struct opts *o, int id, uint64_t max, uint64_t *out)
{
	return ss_opt_u64(&opt_set, id, o->val[id], 0, max, out);
}

static int check_opts(struct opts *o)
{
	uint64_t rules = DEFAULT_RULES, labels = DEFAULT_LABELS;
	uint64_t seed = DEFAULT_SEED, kib, cpu = 0;
	struct ss_error err;

	ss_smack_recipe_defaults(&o->recipe);
	kib = o->recipe.system_kib;
	if (num_opt(o, OPT_RULES, SS_SMACK_GEN_MAX_RULES, &rules) ||
	    num_opt(o, OPT_LABELS, SS_SMACK_GEN_MAX_LABELS, &labels) ||
	    num_opt(o, OPT_SEED, UINT64_MAX, &seed) ||
	    num_opt(o, OPT_SYSTEM_KIB, MAX_SYSTEM_KIB, &kib) ||
	    num_opt(o, OPT_CPU, MAX_CPU, &cpu))
		return -1;
	if (o->val[OPT_FROM] &&
	    (o->val[OPT_RULES] || o->val[OPT_LABELS] || o->val[OPT_SEED]))
		return USAGE_ERR("--from-rules cannot be combined with --rules, --labels or --seed");
	if (!o->val[OPT_OUTPUT] && !o->val[OPT_WRITE_RULES])
		return USAGE_ERR("nothing to write: give -o TRACE and/or --write-rules FILE");
	if (o->val[OPT_OUTPUT] && !o->val[OPT_VARIANT])
		return USAGE_ERR("-o needs --variant (ref, memfix, patch2, patch3, patch4)");
	if (o->val[OPT_VARIANT] && !o->val[OPT_OUTPUT])
		return USAGE_ERR("--variant needs -o TRACE");
	if (o->val[OPT_VARIANT] &&
	    ss_smack_variant_parse(o->val[OPT_VARIANT], &o->recipe.variant))
		return USAGE_ERR("--variant '%s': want ref, memfix, patch2, patch3 or patch4",
				 o->val[OPT_VARIANT]);
	if (o->val[OPT_OUTPUT] && o->val[OPT_WRITE_RULES] &&
	    (!strcmp(o->val[OPT_OUTPUT], o->val[OPT_WRITE_RULES]) ||
	     ss_same_file(o->val[OPT_OUTPUT], o->val[OPT_WRITE_RULES])))
		return USAGE_ERR("-o and --write-rules name the same file");
	for (int k = 0; k < 2 && o->val[OPT_FROM]; k++) {
		const char *out = o->val[k ? OPT_WRITE_RULES : OPT_OUTPUT];

		if (out && ss_same_file(out, o->val[OPT_FROM]))
			return USAGE_ERR("%s %s is the input --from-rules %s: refusing to overwrite it",
					 k ? "--write-rules" : "-o", out, o->val[OPT_FROM]);
	}
	o->gen = (struct ss_smack_gen_params){
		.seed = seed, .nr_rules = (uint32_t)rules,
		.nr_labels = (uint32_t)labels,
	};
	if (!o->val[OPT_FROM] && ss_smack_gen_check(&o->gen, &err))
		return USAGE_ERR("%s", err.msg);
	o->recipe.system_kib = kib;
	o->recipe.cpu = (uint32_t)cpu;
	{
		struct ss_estimate est[SMACK_NR_ESTIMATES];

		ss_smack_estimates(&o->recipe, est);
		if (ss_estimate_apply_all(est, SMACK_NR_ESTIMATES, &o->estimates, &err))
			return USAGE_ERR("%s", err.msg);
	}
	return 0;
}

/* Rules file and trace are both written to temporary files and renamed
 * only when both are complete. */
static int write_outputs(const struct opts *o, const struct ss_smack_ruleset *rs,
			 struct ss_error *err)
{
	struct ss_atomic_file rf = {0};
	struct ss_trace_writer *tw = NULL;
	char line[2][4200], seed[32];
	const char *header[] = {
		"smack17k rule set, load2 format: subject object access",
		line[0], line[1], NULL,
	};

	snprintf(seed, sizeof(seed), "%" PRIu64, o->gen.seed);
	if (o->val[OPT_FROM])
		snprintf(line[0], sizeof(line[0]), "source: %s (as read by slabsim gen smack17k)",
			 o->val[OPT_FROM]);
	else
		snprintf(line[0], sizeof(line[0]), "generator: slabsim gen smack17k (%s), seed %s",
			 SS_SMACK_GEN_NAME, seed);
	snprintf(line[1], sizeof(line[1]), "rules: %zu, labels: %" PRIu32,
		 rs->nr_rules, ss_smack_ruleset_new_labels(rs));

	if (o->val[OPT_WRITE_RULES]) {
		if (ss_atomic_open(&rf, o->val[OPT_WRITE_RULES], err))
			return -1;
		if (strchr(o->val[OPT_FROM] ? o->val[OPT_FROM] : "", '\n') ||
		    ss_smack_rules_write(rs, rf.fp, header)) {
			int e = errno;

			ss_atomic_abort(&rf);
			return ss_errorf(err, "%s: write failed: %s", o->val[OPT_WRITE_RULES],
					 strerror(e ? e : EIO));
		}
	}
	if (o->val[OPT_OUTPUT]) {
		if (ss_trace_writer_open(&tw, o->val[OPT_OUTPUT], err))
			goto fail;
		if (ss_smack_write_meta(tw, rs, &o->recipe,
					o->val[OPT_FROM] ? "source" : "seed",
					o->val[OPT_FROM] ? o->val[OPT_FROM] : seed, err) ||
		    ss_smack_emit(tw, rs, &o->recipe, err))
			goto fail;
		if (ss_trace_writer_commit(tw, err)) {
			tw = NULL;
			goto fail;
		}
		tw = NULL;
	}
	if (o->val[OPT_WRITE_RULES] && ss_atomic_commit(&rf, err)) {
		/* both outputs or neither: the trace went into place first */
		if (o->val[OPT_OUTPUT] && strcmp(o->val[OPT_OUTPUT], "-"))
			unlink(o->val[OPT_OUTPUT]);
		return -1;
	}
	return 0;
fail:
	ss_trace_writer_abort(tw);
	if (o->val[OPT_WRITE_RULES])
		ss_atomic_abort(&rf);
	return -1;
}

int ss_smack_gen_main(int argc, char **argv)
{
	struct opts o = {0};
	struct ss_smack_ruleset rs;
	struct ss_error err;
	int rc = ss_opt_scan(&opt_set, argc, argv, take_value, &o);

	if (rc)
		return ss_opt_exit(rc);
	if (check_opts(&o))
		return 2;
	ss_smack_ruleset_init(&rs);
	if (o.val[OPT_FROM])
		rc = ss_smack_rules_load(&rs, o.val[OPT_FROM], &err);
	else
		rc = ss_smack_generate(&o.gen, &rs, &err);
	if (!rc)
		rc = write_outputs(&o, &rs, &err);
	if (rc)
		fprintf(stderr, "slabsim gen smack17k: %s\n", err.msg);
	ss_smack_ruleset_release(&rs);
	return rc ? 1 : 0;
}
