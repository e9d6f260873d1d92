/* test_audit_context.c - SELinux contexts and the 2.6.16 MLS length, string
 * and bit-walk arithmetic (context_struct_to_string, mls_compute_context_len,
 * mls_sid_to_context), against hand-worked values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "audit/audit_context.h"

struct expect {
	const char *in;
	const char *str;  /* the kernel's string */
	unsigned len;	  /* scontext_len: string + NUL */
	unsigned bits;	  /* ebitmap bits walked in one pass */
};

static void check(const struct expect *x)
{
	struct ss_audit_context c;
	struct ss_error err = {{0}};
	char buf[8192];

	if (ss_audit_context_parse(x->in, &c, &err))
		fail_msg("%s: %s", x->in, err.msg);
	ss_audit_context_string(&c, buf);
	assert_string_equal(buf, x->str);
	assert_int_equal(ss_audit_context_len(&c), x->len);
	assert_int_equal(strlen(buf) + 1, x->len);
	assert_int_equal(ss_audit_mls_walk_bits(&c), x->bits);
}

/* reference/audit.md's two examples: 27 (kmalloc-32) and 44 (kmalloc-64).
 * 8+1 + 8+1 + 5+1 + ":s0" 3 = 27; 6+1 + 8+1 + 11+1 + ":s0-s15:c0.c1023"
 * 16 = 44.  s0 has no ebitmap node; c0.c1023 has 16 of 64 bits. */
static void test_reference_examples(void **state)
{
	static const struct expect x[] = {
		{"system_u:object_r:etc_t:s0", "system_u:object_r:etc_t:s0", 27, 0},
		{"user_u:object_r:user_home_t:s0-s15:c0.c1023",
		 "user_u:object_r:user_home_t:s0-s15:c0.c1023", 44, 1024},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
		check(&x[i]);
}

/* low == high: mls_level_eq() stops after the low level (one walk). */
static void test_equal_levels(void **state)
{
	static const struct expect x[] = {
		{"u:r:t:s0-s0", "u:r:t:s0", 9, 0},
		/* 6 + ":s0:c0.c1023" 12 */
		{"u:r:t:s0:c0.c1023", "u:r:t:s0:c0.c1023", 18, 1024},
		{"u:r:t:s0:c0.c1023-s0:c0.c1023", "u:r:t:s0:c0.c1023", 18, 1024},
		/* both levels walked: 1024 + 1024 */
		{"u:r:t:s0:c0.c1023-s15:c0.c1023", "u:r:t:s0:c0.c1023-s15:c0.c1023", 31, 2048},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
		check(&x[i]);
}

/* Runs: one category "cN", two "cN,cM", three or more "cN.cM"; the walk
 * covers every bit of every node present, 64 a node. */
static void test_runs(void **state)
{
	static const struct expect x[] = {
		{"u:r:t:s0:c0,c1", "u:r:t:s0:c0,c1", 15, 64},
		{"u:r:t:s0:c0,c1,c2", "u:r:t:s0:c0.c2", 15, 64},
		{"u:r:t:s0:c5.c7,c3,c70", "u:r:t:s0:c3,c5.c7,c70", 22, 128},
		/* a run ending at the node's last bit: the after-loop case */
		{"u:r:t:s0:c62,c63", "u:r:t:s0:c62,c63", 17, 64},
		{"u:r:t:s0:c1000", "u:r:t:s0:c1000", 15, 64},
		/* no range at all: MLS disabled, no ':' part */
		{"u:r:t", "u:r:t", 6, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
		check(&x[i]);
}

/* 2.6.16's ebitmap_for_each_bit jumps over a missing node without closing
 * the run: c62,c63 then c128 (node 2, node 1 absent) prints as one range. */
static void test_node_gap_quirk(void **state)
{
	static const struct expect x = {
		"u:r:t:s0:c62,c63,c128,c129", "u:r:t:s0:c62.c129", 18, 128,
	};

	(void)state;
	check(&x);
}

static void test_bad_contexts(void **state)
{
	static const struct {
		const char *in, *why;
	} bad[] = {
		{"u:r", "bad role"},
		{"u::t:s0", "bad role"},
		{":r:t", "bad user"},
		{"u:r:t:", "not a sensitivity"},
		{"u r:x:t", "bad user"},
		{"u:r:t:s16", "s0..s15"},
		{"u:r:t:s01", "not a sensitivity"},
		{"u:r:t:s0:c1024", "c0..c1023"},
		{"u:r:t:s0:c5.c3", "does not go up"},
		{"u:r:t:s0:c5.c5", "does not go up"},
		{"u:r:t:s0:", "not a category"},
		{"u:r:t:s0:c1,,c2", "not a category"},
		{"u:r:t:s1-s0", "does not dominate"},
		{"u:r:t:s0:c1-s1", "does not dominate"},
		{"u:r:t:s0-s1-s2", "one '-'"},
	};
	struct ss_audit_context c;
	struct ss_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(ss_audit_context_parse(bad[i].in, &c, &err), -1);
		if (!strstr(err.msg, bad[i].why))
			fail_msg("%s: '%s' lacks '%s'", bad[i].in, err.msg, bad[i].why);
		assert_non_null(strstr(err.msg, bad[i].in));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_examples),
		cmocka_unit_test(test_equal_levels),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_node_gap_quirk),
		cmocka_unit_test(test_bad_contexts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
