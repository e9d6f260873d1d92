/* audit_context.h - SELinux security contexts and the 2.6.16 MLS string
 * arithmetic.
 *
 * A context "user:role:type[:low[-high]]", a level "sN[:cats]", cats a
 * comma list of "cN" and "cN.cM" (reference MLS policy: s0..s15,
 * c0..c1023).  Parsing builds the kernel's struct context (two levels,
 * each a sensitivity and a category bitmap); the string and its length
 * are then computed the way 2.6.16 does it:
 *
 *   context_struct_to_string(): len = strlen(user) + 1 + strlen(role) + 1
 *       + strlen(type) + 1 + mls_compute_context_len(); kmalloc(len);
 *       sprintf("%s:%s:%s"); mls_sid_to_context() appends the range.
 *   mls_compute_context_len() / mls_sid_to_context(): ":" + low level,
 *       and "-" + high level unless mls_level_eq(low, high); a level is
 *       its sensitivity, then its categories walked bit by bit with
 *       ebitmap_for_each_bit over the bitmap's 64-bit nodes: a run of one
 *       category prints "cN", of two "cN,cM", of three or more "cN.cM".
 *
 * The walk visits every bit of every node present (64 per node), set or
 * not, and jumps over missing nodes without closing a run (a 2.6.16 quirk
 * reproduced as is).  It is done twice per conversion (length pass, write
 * pass): ss_audit_mls_walk_bits() is one pass.
 */
#ifndef SS_AUDIT_CONTEXT_H
#define SS_AUDIT_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "audit_consts.h"
#include "error.h"

#define AUDIT_NAME_MAX 255 /* a user, role or type name */
#define AUDIT_CAT_WORDS ((AUDIT_MAX_CAT + 1) / 64)

struct ss_audit_level {
	unsigned sens;			/* N of sN */
	uint64_t cats[AUDIT_CAT_WORDS];	/* bit N = category cN */
};

struct ss_audit_context {
	char user[AUDIT_NAME_MAX + 1];
	char role[AUDIT_NAME_MAX + 1];
	char type[AUDIT_NAME_MAX + 1];
	bool mls;			/* has a range (MLS policy) */
	struct ss_audit_level low, high;
};

/* Parse s; -1 with the reason in err (no file:line: the caller adds it). */
int ss_audit_context_parse(const char *s, struct ss_audit_context *c,
			struct ss_error *err);

/* mls_compute_context_len(): ":" and the range, 0 without MLS. */
unsigned ss_audit_mls_len(const struct ss_audit_context *c);
/* context_struct_to_string()'s *scontext_len: the string + its NUL, the
 * size every context-string kmalloc() asks for. */
unsigned ss_audit_context_len(const struct ss_audit_context *c);
/* Bits ebitmap_for_each_bit visits in one pass over the levels printed. */
unsigned ss_audit_mls_walk_bits(const struct ss_audit_context *c);
/* The string the kernel builds (buf of at least ss_audit_context_len()). */
void ss_audit_context_string(const struct ss_audit_context *c, char *buf);

#endif
