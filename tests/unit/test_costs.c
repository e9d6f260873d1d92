/* test_costs.c - cost tables: "STEP CYCLES [LOW HIGH]" lines, old
 * two-column files still read, errors naming FILE:LINE, and the default
 * table giving every priced step a range (docs/cost-model.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "costs.h"
#include "test_util.h"

static void parse_text(const char *text, struct ss_costs *c, int want_rc,
		       const char *want_msg)
{
	char path[TU_PATH_MAX];
	struct ss_error err = {{0}};

	tu_tmp_text(path, sizeof(path), text);
	memset(c, 0, sizeof(*c));
	assert_int_equal(ss_costs_parse_file(c, path, 'u', &err), want_rc);
	if (want_msg && !strstr(err.msg, want_msg))
		fail_msg("error '%s' lacks '%s'", err.msg, want_msg);
	unlink(path);
}

static void test_ranges(void **state)
{
	struct ss_costs c;
	int fast = ss_step_find("alloc_fastpath"), lock = ss_step_find("list_lock");
	(void)state;

	parse_text("alloc_fastpath 21 15 30   # a range\nlist_lock 36\n", &c, 0, NULL);
	assert_true(c.cycles[fast] == 21 && c.low[fast] == 15 && c.high[fast] == 30);
	assert_true(ss_costs_ranged(&c, fast));
	/* an old two-column line: no range, not varied */
	assert_true(c.cycles[lock] == 36 && c.low[lock] == 36 && c.high[lock] == 36);
	assert_false(ss_costs_ranged(&c, lock));
	assert_int_equal(c.origin[lock], 'u');
	/* a degenerate range is allowed, and is no range */
	parse_text("list_lock 36 36 36\n", &c, 0, NULL);
	assert_false(ss_costs_ranged(&c, lock));
}

static void test_range_errors(void **state)
{
	struct ss_costs c;
	(void)state;

	parse_text("alloc_fastpath 10 20 30\n", &c, -1, ":1: range 20..30 does not hold 10");
	parse_text("\nalloc_fastpath 40 20 30\n", &c, -1, ":2: range 20..30 does not hold 40");
	parse_text("alloc_fastpath 10 x 30\n", &c, -1, ":1: bad low 'x'");
	parse_text("alloc_fastpath 10 5 -1\n", &c, -1, ":1: bad high '-1'");
	parse_text("alloc_fastpath 10 20\n", &c, -1, ":1: want 'STEP CYCLES [LOW HIGH]'");
	parse_text("alloc_fastpath 10 5 20 30\n", &c, -1, ":1: want 'STEP CYCLES [LOW HIGH]'");
	parse_text("alloc_fastpath 10 5 20 30 40\n", &c, -1, ":1: want 'STEP CYCLES [LOW HIGH]'");
}

/* Every step the default table prices is an estimate or a published
 * figure for another machine: each has a range it is varied over, and
 * holds its value. */
static void test_default_table_ranges(void **state)
{
	struct ss_costs c;
	struct ss_error err;
	(void)state;

	assert_int_equal(ss_costs_load(&c, NULL, &err), 0);
	for (int s = 0; s < SS_NR_STEPS; s++) {
		if (!(c.cycles[s] > 0))
			continue;
		if (!ss_costs_ranged(&c, s))
			fail_msg("default step %s has no range", ss_step_name(s));
		assert_true(c.low[s] <= c.cycles[s] && c.cycles[s] <= c.high[s]);
	}
	/* the issue-14 steps exist and are priced */
	assert_true(c.cycles[SS_STEP_CMPXCHG_DOUBLE] > 0);
	assert_true(c.cycles[SS_STEP_CHECK_VALID_POINTER] > 0);
	assert_true(c.cycles[SS_STEP_DEACTIVATE_BYPASS] == 0); /* a counter */
	assert_true(c.cycles[SS_STEP_ALLOC_REFILL] == 0); /* priced as cmpxchg_double */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_range_errors),
		cmocka_unit_test(test_default_table_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
