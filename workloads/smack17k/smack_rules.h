/* smack_rules.h - a Smack rule set in memory, its load2 file reader and
 * writer, and the (subject, object) pair map shared by the generator and
 * the allocation recipe.
 *
 * A rule set is what smackctl writes to /smack/load2, in order: one rule
 * per write.  Labels are interned (one index per distinct string) so the
 * recipe can follow the kernel's label list by index.
 */
#ifndef SS_SMACK_RULES_H
#define SS_SMACK_RULES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

/* Access bits, in the canonical order the kernel prints them
 * (smk_rule_show): r w x a t, then l (3.13+) and b (4.3+). */
#define SS_SMACK_MAY_R 0x01u
#define SS_SMACK_MAY_W 0x02u
#define SS_SMACK_MAY_X 0x04u
#define SS_SMACK_MAY_A 0x08u
#define SS_SMACK_MAY_T 0x10u
#define SS_SMACK_MAY_L 0x20u
#define SS_SMACK_MAY_B 0x40u
#define SS_SMACK_ACCESS_LETTERS "rwxatlb"

struct ss_smack_label {
	char *name;   /* NUL-terminated, owned */
	uint32_t len; /* strlen(name) */
	uint32_t builtin; /* ss_smack_builtin_pos(): 0 = a label the load creates */
};

struct ss_smack_rule {
	uint32_t subject, object; /* label indexes */
	uint32_t access;	  /* SS_SMACK_MAY_* */
	uint32_t line;		  /* line in the source file (0: generated) */
};

/* (subject, object) -> value; open addressing on a 64-bit key. */
struct ss_smack_pairmap {
	uint64_t *keys; /* key + 1; 0 = empty slot */
	uint32_t *vals;
	size_t nr, nr_slots;
};

struct ss_smack_ruleset {
	struct ss_smack_label *labels;
	uint32_t nr_labels, cap_labels;
	uint32_t *label_slots; /* name hash: index + 1, 0 = empty */
	uint32_t nr_label_slots;
	struct ss_smack_rule *rules;
	size_t nr_rules, cap_rules;
};

void ss_smack_ruleset_init(struct ss_smack_ruleset *rs);
void ss_smack_ruleset_release(struct ss_smack_ruleset *rs);
/* Index of the n-byte label s, added if new; -1 on ENOMEM.  The caller
 * has checked the label. */
int64_t ss_smack_ruleset_intern(struct ss_smack_ruleset *rs, const char *s,
				size_t n);
/* Index of s, or -1 if absent. */
int64_t ss_smack_ruleset_find(const struct ss_smack_ruleset *rs,
			      const char *s, size_t n);
int ss_smack_ruleset_add(struct ss_smack_ruleset *rs, uint32_t subject,
			 uint32_t object, uint32_t access, uint32_t line);
/* Labels the load creates: interned labels that are not built in. */
uint32_t ss_smack_ruleset_new_labels(const struct ss_smack_ruleset *rs);

/* Access string <-> bits.  Parse accepts r w x a t l b in either case and
 * '-' (none); -1 names the first bad letter in *bad. */
int ss_smack_access_parse(const char *s, uint32_t *out, char *bad);
/* Canonical string ("rwx", "-" for none) into buf (>= 8 bytes). */
void ss_smack_access_str(uint32_t access, char *buf);

/* Bytes smackctl writes for one rule: libsmack (2013) accesses_apply()
 * formats "%s %s %s" with the access padded to SMACK_ACCESSLEN characters
 * and no newline. */
size_t ss_smack_write_len(uint32_t subject_len, uint32_t object_len);

/* Read a load2 rule file (see docs/workloads/smack17k.md for the syntax).
 * Errors name path:line.  name is what messages call the file. */
int ss_smack_rules_read(struct ss_smack_ruleset *rs, FILE *fp,
			const char *name, struct ss_error *err);
int ss_smack_rules_load(struct ss_smack_ruleset *rs, const char *path,
			struct ss_error *err);
/* Write the rules, one per line, after the comment lines in header
 * (each written as "# line"; NULL-terminated array, may be NULL). */
int ss_smack_rules_write(const struct ss_smack_ruleset *rs, FILE *fp,
			 const char *const *header);

/* Pair map.  get returns 1 and *val if present. */
void ss_smack_pairmap_init(struct ss_smack_pairmap *m);
void ss_smack_pairmap_release(struct ss_smack_pairmap *m);
int ss_smack_pairmap_put(struct ss_smack_pairmap *m, uint32_t s, uint32_t o,
			 uint32_t val);
int ss_smack_pairmap_get(const struct ss_smack_pairmap *m, uint32_t s,
			 uint32_t o, uint32_t *val);

#endif
