/* smack_recipe.c - the 3.10 allocation recipe of one /smack/load2 write per
 * rule, per variant (see smack_recipe.h for the event list and
 * docs/workloads/smack17k.md for every size and cost).
 *
 * The kernel state the recipe depends on is modelled exactly:
 * smack_known_list (new labels added at the head by list_add_rcu, after
 * the six built-in entries), and each subject's smk_rules list (new rules
 * at the head), so the walk lengths of smk_find_entry and smk_set_access
 * are those the kernel would make.
 */
#include "smack_recipe.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate.h"
#include "smack_consts.h"

static const char *const variant_names[SS_SMACK_NR_VARIANTS] = {
	"ref", "memfix", "patch2", "patch3", "patch4",
};

const char *ss_smack_variant_name(enum ss_smack_variant v)
{
	return (unsigned)v < SS_SMACK_NR_VARIANTS ? variant_names[v] : "?";
}

int ss_smack_variant_parse(const char *s, enum ss_smack_variant *out)
{
	for (int i = 0; i < SS_SMACK_NR_VARIANTS; i++)
		if (!strcmp(s, variant_names[i])) {
			*out = (enum ss_smack_variant)i;
			return 0;
		}
	return -1;
}

void ss_smack_recipe_defaults(struct ss_smack_recipe *rp)
{
	*rp = (struct ss_smack_recipe){
		.variant = SS_SMACK_REF,
		.cpu = 0,
		.system_kib = SMACK_SYSTEM_SLAB_KIB,
		.write_cycles = SMACK_WRITE_CYCLES,
		.label_cmp_cycles = SMACK_LABEL_CMP_CYCLES,
		.rule_cmp_cycles = SMACK_RULE_CMP_CYCLES,
		.sscanf_byte_cycles = SMACK_SSCANF_CYCLES_PER_BYTE,
	};
}

void ss_smack_estimates(struct ss_smack_recipe *rp, struct ss_estimate *est)
{
	est[0] = (struct ss_estimate){"SMACK_LABEL_CMP_CYCLES", &rp->label_cmp_cycles, 0};
	est[1] = (struct ss_estimate){"SMACK_RULE_CMP_CYCLES", &rp->rule_cmp_cycles, 0};
	est[2] = (struct ss_estimate){"SMACK_SSCANF_CYCLES_PER_BYTE", &rp->sscanf_byte_cycles, 0};
}

#define NOT_CREATED UINT32_MAX

/* The kernel state that decides what each write allocates. */
struct kstate {
	struct ss_trace_writer *w;
	const struct ss_smack_ruleset *rs;
	const struct ss_smack_recipe *rp;
	uint32_t *label_seq;	/* creation order of a new label */
	uint32_t nr_created;	/* labels smk_import_entry has added */
	uint32_t *nr_subj_rules; /* length of each subject's smk_rules */
	struct ss_smack_pairmap pairs; /* (s, o) -> position it was added at */
	struct ss_idpool ids;
	uint32_t api_rule, api_master; /* kmalloc or the variant's caches */
};

static int do_alloc(struct kstate *k, const char *site, uint32_t api,
		    uint64_t size, uint64_t *id)
{
	*id = ss_idpool_get(&k->ids);
	return ss_trace_write_alloc(k->w, k->rp->cpu, *id, site, api, size);
}

static int do_free(struct kstate *k, uint64_t id)
{
	ss_idpool_put(&k->ids, id);
	return ss_trace_write_free(k->w, k->rp->cpu, id);
}

static int do_work(struct kstate *k, uint64_t cycles, const char *label)
{
	return ss_trace_write_work(k->w, k->rp->cpu, cycles, label);
}

/* Entries smk_find_entry compares before it returns (the whole list when
 * the label is new): new labels sit at the head, most recent first, then
 * @ "" _ * ^ ? (init_smack_known_list). */
static uint64_t find_entry_steps(const struct kstate *k, uint32_t label)
{
	const struct ss_smack_label *l = &k->rs->labels[label];

	if (l->builtin)
		return (uint64_t)k->nr_created + l->builtin;
	if (k->label_seq[label] != NOT_CREATED)
		return (uint64_t)k->nr_created - k->label_seq[label];
	return (uint64_t)k->nr_created + SMACK_NR_BUILTIN_LABELS;
}

/* smk_import_entry(): smk_parse_smack copies the label, smk_find_entry
 * walks the list; a known label's copy is freed, a new one is kept with
 * its smack_known and the catmap smk_netlbl_mls allocates. */
static int import_entry(struct kstate *k, uint32_t label)
{
	const struct ss_smack_label *l = &k->rs->labels[label];
	uint64_t id, known, cat;

	if (do_alloc(k, "smk_parse_smack:label", SS_API_KMALLOC,
		     (uint64_t)l->len + 1, &id) ||
	    do_work(k, find_entry_steps(k, label) * k->rp->label_cmp_cycles,
		    "smk_find_entry"))
		return -1;
	if (l->builtin || k->label_seq[label] != NOT_CREATED)
		return do_free(k, id);
	k->label_seq[label] = k->nr_created++;
	return do_alloc(k, "smk_import_entry:smack_known", SS_API_KMALLOC,
			SMACK_ARM_SIZEOF_SMACK_KNOWN, &known) ||
	       do_alloc(k, "smk_netlbl_mls:catmap", SS_API_KMALLOC,
			SMACK_ARM_SIZEOF_CATMAP, &cat);
}

/* smk_set_access(): walk the subject's rules; a new pair gets a
 * smack_rule and, for a global load, a smack_master_list entry. */
static int set_access(struct kstate *k, uint32_t s, uint32_t o)
{
	uint32_t at;
	uint64_t id;

	if (ss_smack_pairmap_get(&k->pairs, s, o, &at))
		return do_work(k, (uint64_t)(k->nr_subj_rules[s] - at) *
				      k->rp->rule_cmp_cycles,
			       "smk_set_access");
	if (do_work(k, (uint64_t)k->nr_subj_rules[s] * k->rp->rule_cmp_cycles,
		    "smk_set_access") ||
	    ss_smack_pairmap_put(&k->pairs, s, o, k->nr_subj_rules[s]++))
		return -1;
	return do_alloc(k, "smk_set_access:rule", k->api_rule,
			SMACK_ARM_SIZEOF_SMACK_RULE, &id) ||
	       do_alloc(k, "smk_set_access:master", k->api_master,
			SMACK_ARM_SIZEOF_MASTER_LIST, &id);
}

/* One write(2) of one rule to /smack/load2: smk_write_rules_list(). */
static int rule_write(struct kstate *k, const struct ss_smack_rule *r)
{
	const struct ss_smack_label *sl = &k->rs->labels[r->subject];
	const struct ss_smack_label *ol = &k->rs->labels[r->object];
	enum ss_smack_variant v = k->rp->variant;
	uint64_t len = ss_smack_write_len(sl->len, ol->len);
	uint64_t data, parsed, buf[4] = {0};
	int sscanf_bufs = v <= SS_SMACK_MEMFIX;

	if (do_work(k, k->rp->write_cycles, "write_syscall") ||
	    do_alloc(k, "smk_write_rules_list:data", SS_API_KMALLOC, len + 1,
		     &data))
		return -1;
	/* ref: kzalloc'ed parsed rule, never freed on success (the memleak) */
	if (v == SS_SMACK_REF &&
	    do_alloc(k, "smk_write_rules_list:rule", SS_API_KMALLOC,
		     SMACK_ARM_SIZEOF_PARSED_RULE, &parsed))
		return -1;
	if (sscanf_bufs &&
	    (do_alloc(k, "smk_parse_long_rule:subject", SS_API_KMALLOC, len + 1, &buf[0]) ||
	     do_alloc(k, "smk_parse_long_rule:object", SS_API_KMALLOC, len, &buf[1]) ||
	     do_alloc(k, "smk_parse_long_rule:access1", SS_API_KMALLOC, len, &buf[2]) ||
	     do_alloc(k, "smk_parse_long_rule:access2", SS_API_KMALLOC, len, &buf[3]) ||
	     do_work(k, len * k->rp->sscanf_byte_cycles, "sscanf")))
		return -1;
	/* smk_fill_rule: subject (smk_import_entry), then object (smk_import) */
	if (import_entry(k, r->subject) || import_entry(k, r->object))
		return -1;
	if (sscanf_bufs &&
	    (do_free(k, buf[3]) || do_free(k, buf[2]) || do_free(k, buf[1]) ||
	     do_free(k, buf[0])))
		return -1;
	return set_access(k, r->subject, r->object) || do_free(k, data);
}

static int declare_caches(struct kstate *k, int *api_system)
{
	enum ss_smack_variant v = k->rp->variant;
	int api;

	k->api_rule = k->api_master = SS_API_KMALLOC;
	/* KMEM_CACHE(smack_rule, 0): size and __alignof__ of the struct */
	if (v >= SS_SMACK_PATCH3) {
		api = ss_trace_write_cache(k->w, "smack_rule",
					   SMACK_ARM_SIZEOF_SMACK_RULE,
					   SMACK_ARM_ALIGNOF, 0);
		if (api < 0)
			return -1;
		k->api_rule = (uint32_t)api;
	}
	if (v >= SS_SMACK_PATCH4) {
		api = ss_trace_write_cache(k->w, "smack_master_list",
					   SMACK_ARM_SIZEOF_MASTER_LIST,
					   SMACK_ARM_ALIGNOF, 0);
		if (api < 0)
			return -1;
		k->api_master = (uint32_t)api;
	}
	*api_system = ss_trace_write_cache(k->w, "system-other",
					   SMACK_SYSTEM_OBJ_SIZE,
					   SMACK_SYSTEM_OBJ_ALIGN, 0);
	return *api_system < 0 ? -1 : 0;
}

/* What smackctl and the rest of the system add during the load: the
 * fitted SMACK_SYSTEM_SLAB_KIB as 256-byte objects, never freed. */
static int system_allocs(struct kstate *k, uint32_t api)
{
	uint64_t n = k->rp->system_kib * 1024 / SMACK_SYSTEM_OBJ_SIZE, id;

	if (ss_trace_write_phase(k->w, "system"))
		return -1;
	for (uint64_t i = 0; i < n; i++)
		if (do_alloc(k, "system:other", api, SMACK_SYSTEM_OBJ_SIZE, &id))
			return -1;
	return 0;
}

int ss_smack_emit(struct ss_trace_writer *w, const struct ss_smack_ruleset *rs,
		  const struct ss_smack_recipe *rp, struct ss_error *err)
{
	struct kstate k = { .w = w, .rs = rs, .rp = rp };
	int api_system, rc = -1;

	if ((unsigned)rp->variant >= SS_SMACK_NR_VARIANTS)
		return ss_errorf(err, "bad smack variant %d", (int)rp->variant);
	ss_smack_pairmap_init(&k.pairs);
	k.label_seq = malloc(((size_t)rs->nr_labels + 1) * sizeof(*k.label_seq));
	k.nr_subj_rules = calloc((size_t)rs->nr_labels + 1,
				 sizeof(*k.nr_subj_rules));
	if (!k.label_seq || !k.nr_subj_rules) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < rs->nr_labels; i++)
		k.label_seq[i] = NOT_CREATED;
	if (declare_caches(&k, &api_system) ||
	    system_allocs(&k, (uint32_t)api_system) ||
	    ss_trace_write_phase(w, "load")) {
		ss_trace_writer_failed(w, err);
		goto out;
	}
	for (size_t i = 0; i < rs->nr_rules; i++)
		if (rule_write(&k, &rs->rules[i])) {
			ss_trace_writer_failed(w, err);
			goto out;
		}
	rc = 0;
out:
	free(k.label_seq);
	free(k.nr_subj_rules);
	ss_smack_pairmap_release(&k.pairs);
	ss_idpool_release(&k.ids);
	return rc;
}

int ss_smack_write_meta(struct ss_trace_writer *w,
			const struct ss_smack_ruleset *rs,
			const struct ss_smack_recipe *rp,
			const char *origin_key, const char *origin_value,
			struct ss_error *err)
{
	char n[3][32];

	snprintf(n[0], sizeof(n[0]), "%zu", rs->nr_rules);
	snprintf(n[1], sizeof(n[1]), "%" PRIu32, ss_smack_ruleset_new_labels(rs));
	snprintf(n[2], sizeof(n[2]), "%" PRIu64, rp->system_kib);
	if (ss_trace_write_meta(w, "workload", "smack17k") ||
	    ss_trace_write_meta(w, "variant", ss_smack_variant_name(rp->variant)) ||
	    ss_trace_write_meta(w, "rules", n[0]) ||
	    ss_trace_write_meta(w, "labels", n[1]) ||
	    ss_trace_write_meta(w, origin_key, origin_value) ||
	    ss_trace_write_meta(w, "system_kib", n[2]) ||
	    ss_trace_write_meta(w, "target", "arm32-3.10") ||
	    ss_trace_write_comment(w, "sizes are 32-bit ARM, kernel 3.10: see docs/workloads/smack17k.md"))
		return ss_trace_writer_failed(w, err);
	return 0;
}
