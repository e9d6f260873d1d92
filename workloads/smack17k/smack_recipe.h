/* smack_recipe.h - what the 3.10 kernel allocates, frees and spends while
 * smackctl writes a rule set to /smack/load2, one rule per write(2), for
 * each variant of the 2013 patch set (reference/smack.md).
 *
 * Per write, in order (sites in quotes; "kmalloc" unless a cache is named):
 *   w write_syscall                                 SMACK_WRITE_CYCLES
 *   a "smk_write_rules_list:data"  len + 1          freed at the end
 *   a "smk_write_rules_list:rule"  16               ref only, leaked
 *   a "smk_parse_long_rule:subject" len + 1  \
 *   a "smk_parse_long_rule:object"  len       | ref, memfix: the sscanf
 *   a "smk_parse_long_rule:access1" len       | buffers, freed before
 *   a "smk_parse_long_rule:access2" len      /  smk_set_access
 *   w sscanf                        len * SMACK_SSCANF_CYCLES_PER_BYTE
 *   for the subject, then the object (smk_import_entry):
 *     a "smk_parse_smack:label"  label_len + 1      freed if the label exists
 *     w smk_find_entry           entries compared * SMACK_LABEL_CMP_CYCLES
 *     new label: a "smk_import_entry:smack_known" 72, a "smk_netlbl_mls:catmap" 48
 *   f the sscanf buffers (access2, access1, object, subject)
 *   w smk_set_access             entries compared * SMACK_RULE_CMP_CYCLES
 *   new pair: a "smk_set_access:rule" 20 (cache smack_rule from patch3)
 *             a "smk_set_access:master" 12 (cache smack_master_list in patch4)
 *   f data
 * len = bytes smackctl writes (ss_smack_write_len).  Before the first
 * write: phase "system", SMACK_SYSTEM_SLAB_KIB of 256-byte `system-other`
 * objects (never freed), then phase "load".
 */
#ifndef SS_SMACK_RECIPE_H
#define SS_SMACK_RECIPE_H

#include <stdint.h>

#include "error.h"
#include "smack_rules.h"
#include "trace.h"

enum ss_smack_variant {
	SS_SMACK_REF,	 /* smack/next 2013 */
	SS_SMACK_MEMFIX, /* + "fix memleak in smk_write_rules_list()" */
	SS_SMACK_PATCH2, /* + no kmalloc in smk_parse_long_rule() */
	SS_SMACK_PATCH3, /* + kmem_cache for smack_rule */
	SS_SMACK_PATCH4, /* + kmem_cache for smack_master_list */
	SS_SMACK_NR_VARIANTS,
};

const char *ss_smack_variant_name(enum ss_smack_variant v);
/* -1 if s names no variant. */
int ss_smack_variant_parse(const char *s, enum ss_smack_variant *out);

struct ss_smack_recipe {
	enum ss_smack_variant variant;
	uint32_t cpu;		/* the CPU smackctl runs on */
	uint64_t system_kib;	/* SMACK_SYSTEM_SLAB_KIB unless overridden */
	uint64_t write_cycles;	/* SMACK_WRITE_CYCLES */
	uint64_t label_cmp_cycles;  /* SMACK_LABEL_CMP_CYCLES */
	uint64_t rule_cmp_cycles;   /* SMACK_RULE_CMP_CYCLES */
	uint64_t sscanf_byte_cycles; /* SMACK_SSCANF_CYCLES_PER_BYTE */
};

/* The named constants of smack_consts.h, variant ref, cpu 0. */
void ss_smack_recipe_defaults(struct ss_smack_recipe *rp);
/* The recipe's estimated constants by their smack_consts.h names, for
 * `gen smack17k --estimate NAME=V` (est: SMACK_NR_ESTIMATES entries). */
#define SMACK_NR_ESTIMATES 3
struct ss_estimate;
void ss_smack_estimates(struct ss_smack_recipe *rp, struct ss_estimate *est);

/* Trace header: meta workload/variant/rules/labels/system_kib/target,
 * plus origin_key = origin_value ("seed" or "source"). */
int ss_smack_write_meta(struct ss_trace_writer *w,
			const struct ss_smack_ruleset *rs,
			const struct ss_smack_recipe *rp,
			const char *origin_key, const char *origin_value,
			struct ss_error *err);

/* Cache declarations, phases and every event of the load. */
int ss_smack_emit(struct ss_trace_writer *w, const struct ss_smack_ruleset *rs,
		  const struct ss_smack_recipe *rp, struct ss_error *err);

#endif
