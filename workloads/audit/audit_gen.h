/* audit_gen.h - the audit workload's trace: the header, then one loop
 * iteration after another (audit_recipe.h), deterministic without any
 * random numbers:
 *
 *  - kinds follow the mix by smooth weighted round robin (each kind's
 *    credit grows by its weight, the richest goes and pays the total), so
 *    every prefix of the loop holds the mix's proportions to within one;
 *  - iteration i touches file i mod files, whose context is file mod
 *    contexts, and runs on CPU i mod cpus (one looping process per CPU);
 *  - it emits records when floor((i + 1) p / 100) > floor(i p / 100).
 */
#ifndef SS_AUDIT_GEN_H
#define SS_AUDIT_GEN_H

#include <stddef.h>

#include "audit_recipe.h"

#define AUDIT_DEFAULT_SYSCALLS 50000u
#define AUDIT_DEFAULT_CONTEXT "system_u:object_r:etc_t:s0"
#define AUDIT_DEFAULT_TASK_CONTEXT "user_u:user_r:user_t:s0"
#define AUDIT_MAX_SYSCALLS 1000000000ull
#define AUDIT_MAX_RULES 100000u
#define AUDIT_MAX_FILES 1000000u

/* Defaults: access only, the seed's rule count, no records, one CPU, one
 * file of AUDIT_DEFAULT_CONTEXT, the fitted profile scale. */
void ss_audit_params_defaults(struct ss_audit_params *p);
/* t[AUDIT_NR_ESTIMATES]: each of e's estimates by its audit_consts.h name
 * (`gen audit --estimate NAME=V`). */
struct ss_estimate;
void ss_audit_estimates_table(struct ss_audit_estimates *e, struct ss_estimate *t);

/* "kind:weight,..." (stat, access, open); weights 0..1000000, not all 0. */
int ss_audit_mix_parse(const char *s, unsigned mix[AUDIT_NR_KINDS],
		    struct ss_error *err);
/* The mix as "access:100" (kinds with weight > 0, in enum order). */
void ss_audit_mix_string(const unsigned mix[AUDIT_NR_KINDS], char *buf, size_t n);

struct ss_audit_mix_state {
	long long credit[AUDIT_NR_KINDS];
};
enum ss_audit_kind ss_audit_mix_next(struct ss_audit_mix_state *s,
			       const unsigned mix[AUDIT_NR_KINDS]);
int ss_audit_records_at(unsigned long long i, unsigned pct);

/* Header (meta, caches) and every iteration into an open writer. */
int ss_audit_emit_trace(struct ss_trace_writer *w, const struct ss_audit_params *p,
		     struct ss_error *err);

#endif
