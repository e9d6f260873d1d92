/* smack_gen.h - a synthetic Tizen-style Smack rule set, deterministic for
 * a seed (splitmix64, integer-only arithmetic: the same seed gives the
 * same file on every host).
 *
 * Labels: platform labels first ("System", "User", "System::Shared", ...),
 * then package labels ("org.tizen.browser", "com.samsung.message-consumer
 * ::home"), unique, 4..60 bytes, valid for the kernel, never built in.
 * Rules: distinct (subject, object) pairs with subject != object, every
 * label used at least once, subject and object drawn with a Zipf-like
 * popularity (weight 1 / (rank + 2)) so platform labels appear in many
 * rules; access a random non-empty subset of "rwxat" (occasionally "-").
 * Emitted grouped by subject, like one accesses.d file per package.
 */
#ifndef SS_SMACK_GEN_H
#define SS_SMACK_GEN_H

#include <stdint.h>

#include "error.h"
#include "smack_rules.h"

#define SS_SMACK_GEN_NAME "slabsim-smack-gen/1" /* bump when output changes */
#define SS_SMACK_GEN_MAX_RULES 20000000u
#define SS_SMACK_GEN_MAX_LABELS 1000000u
#define SS_SMACK_LABEL_MIN 4
#define SS_SMACK_LABEL_MAX 60

struct ss_smack_gen_params {
	uint64_t seed;
	uint32_t nr_rules;
	uint32_t nr_labels;
};

/* splitmix64 (Steele, Lea, Flood 2014): tiny, full period, good enough
 * for workload shapes. */
struct ss_smack_rng {
	uint64_t state;
};
void ss_smack_rng_seed(struct ss_smack_rng *r, uint64_t seed);
uint64_t ss_smack_rng_next(struct ss_smack_rng *r);
/* Uniform in [0, n), n >= 1, without modulo bias. */
uint64_t ss_smack_rng_below(struct ss_smack_rng *r, uint64_t n);

/* 0 if a rule set with these counts exists: labels >= 2, rules enough to
 * use every label (>= ceil(labels / 2)) and few enough to stay distinct
 * (<= labels * (labels - 1)).  Otherwise -1 with the reason. */
int ss_smack_gen_check(const struct ss_smack_gen_params *p,
		       struct ss_error *err);

/* Fill the empty rs.  -1 with err on a bad parameter or ENOMEM. */
int ss_smack_generate(const struct ss_smack_gen_params *p,
		      struct ss_smack_ruleset *rs, struct ss_error *err);

#endif
