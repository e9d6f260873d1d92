/* test_audit_profile.c - the costs derived from the seed's profiles: the
 * attribution of functions to labels, samples -> cycles, the implied loop
 * length and rule count, the lspp.16 slope.  Expected values worked by
 * hand from shared/seeds/001_* (docs/workloads/audit.md). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "audit/audit_consts.h"
#include "audit/audit_profile.h"

static void near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.6f, want %.6f +- %g", got, want, tol);
}

/* Samples per event: formatting = (context_struct_to_string 2659 +
 * vsnprintf 2341 + strnlen 604) / 2 conversions; base = the off run
 * 12133 - kmem_cache_alloc 269 - kmem_cache_free 432. */
static void test_attribution(void **state)
{
	(void)state;
	near(ss_audit_label_samples(AUDIT_L_FORMAT), 2802, 1e-9);
	near(ss_audit_label_samples(AUDIT_L_MLS), (624 + 489) / 2.0, 1e-9);
	near(ss_audit_label_samples(AUDIT_L_GETSECURITY), (456 + 348 + 394) / 2.0, 1e-9);
	near(ss_audit_label_samples(AUDIT_L_RDLOCK), 567 / 3.0, 1e-9);
	near(ss_audit_label_samples(AUDIT_L_SIDTAB), 234, 1e-9);
	/* dput 922-382, _atomic_dec_and_lock 1047-548, 1/3 _raw_read_lock */
	near(ss_audit_label_samples(AUDIT_L_PWD_REF), 540 + 499 + 189, 1e-9);
	/* _raw_spin_lock 853-261, spin_bug 280 */
	near(ss_audit_label_samples(AUDIT_L_TASK_LOCK), 872, 1e-9);
	near(ss_audit_label_samples(AUDIT_L_NAME), 456 + 358, 1e-9);
	near(ss_audit_label_samples(AUDIT_L_EXIT), 690, 1e-9);
	near(ss_audit_label_samples(AUDIT_L_INODE_CTX), 320, 1e-9);
	near(ss_audit_label_samples(AUDIT_L_BASE), 11432, 1e-9);
	near(ss_audit_label_samples(AUDIT_L_RULES), 0, 1e-9);
	assert_true(ss_audit_label_scaled(AUDIT_L_FORMAT));
	assert_false(ss_audit_label_scaled(AUDIT_L_BASE));
	assert_false(ss_audit_label_scaled(AUDIT_L_RULES));
	assert_false(ss_audit_label_scaled(AUDIT_L_MLS_BITS));
}

/* The hit (30514 - 12133 = 18381 samples) split by category. */
static void test_hit_split(void **state)
{
	double s[AUDIT_NR_CATEGORIES + 1], total = 0;

	(void)state;
	ss_audit_profile_hit_split(s);
	near(s[AUDIT_CAT_ALLOCATOR], 2806 - 701, 1e-9);
	near(s[AUDIT_CAT_RULES], 1320, 1e-9);
	near(s[AUDIT_CAT_FORMAT], 320 + 1198 + 5604 + 1113, 1e-9);
	near(s[AUDIT_CAT_LOCKING], 872 + 1228 + 378 + 468, 1e-9);
	near(s[AUDIT_CAT_BOOKKEEPING], 690 + 814, 1e-9);
	near(s[AUDIT_CAT_BASE], 0, 1e-9);
	near(s[AUDIT_PROFILE_UNATTRIBUTED], 2271, 1e-9);
	for (int i = 0; i <= AUDIT_NR_CATEGORIES; i++)
		total += s[i];
	near(total, 18381, 1e-9);
}

/* vsnprintf + strnlen = 2945 samples x 4.005899 ms / (2 x 100 ns) =
 * 58.99 M; audit_filter_syscall 1320 samples = 5.288 s / 1.37522 s per
 * rule = 3.85 -> 4; lspp.16 slope = sum(R dT) / sum(R^2) = 23310 / 16950. */
static void test_implied(void **state)
{
	(void)state;
	near(ss_audit_implied_seed_syscalls(), 58986862, 1);
	near(ss_audit_implied_seed_syscalls() / AUDIT_SEED_SYSCALLS, 1, 0.001);
	near(ss_audit_lspp16_seconds_per_rule(), 23310.0 / 16950, 1e-12);
	assert_int_equal(ss_audit_implied_rules(), 4);
	near(ss_audit_on_sample_s(), 122.236 / 30514, 1e-12);
	near(ss_audit_off_sample_s(), 48.639 / 12133, 1e-12);
}

/* cycles = samples x s/sample x 3000 MHz / 59 M: formatting 2802 x
 * 0.2036897 = 570.74; base 11432 x 0.2038383 = 2330.28; user 1.516 s x
 * 3e9 / 59e6 = 77.08; a rule 1.37522 s -> 69.93; at scale 1500 the
 * formatting is 856.1. */
static void test_costs(void **state)
{
	struct ss_audit_costs c;

	(void)state;
	ss_audit_costs_derive(&c, 1000);
	assert_int_equal(c.cycles[AUDIT_L_FORMAT], 571);
	assert_int_equal(c.cycles[AUDIT_L_MLS], 113);
	assert_int_equal(c.cycles[AUDIT_L_PWD_REF], 250);
	assert_int_equal(c.cycles[AUDIT_L_TASK_LOCK], 178);
	assert_int_equal(c.cycles[AUDIT_L_BASE], 2330);
	assert_int_equal(c.cycles[AUDIT_L_USER], 77);
	assert_int_equal(c.rule_cycles, 70);
	assert_int_equal(c.cycles[AUDIT_L_SID_COPY], AUDIT_SID_COPY_CYCLES);
	ss_audit_costs_derive(&c, 1500);
	assert_int_equal(c.cycles[AUDIT_L_FORMAT], 856);
	assert_int_equal(c.cycles[AUDIT_L_BASE], 2330); /* not scaled */
	assert_int_equal(c.rule_cycles, 70);
	ss_audit_costs_derive(&c, 0);
	assert_int_equal(c.cycles[AUDIT_L_FORMAT], 0);
	assert_int_equal(c.cycles[AUDIT_L_USER], 77);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attribution),
		cmocka_unit_test(test_hit_split),
		cmocka_unit_test(test_implied),
		cmocka_unit_test(test_costs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
