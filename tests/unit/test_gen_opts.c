/* test_gen_opts.c - the option scanner shared by `slabsim gen W`
 * (workloads/gen_opts.c): every accepted form, every usage error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "opts.h"

enum { T_OUTPUT, T_LOOPS, T_PIPES, T_HELP, T_NR };

static const struct ss_gen_opt specs[T_NR] = {
	[T_OUTPUT] = {"output", "-o", "TRACE", "the trace"},
	[T_LOOPS] = {"loops", NULL, "L", "loops\n                      (two lines)"},
	[T_PIPES] = {"pipes", "-p", NULL, "a flag"},
	[T_HELP] = {"help", "-h", NULL, "this text"},
};

static const struct ss_gen_opt_set set = {"demo", specs, T_NR};

struct scan {
	const char *val[T_NR];
	int seen[T_NR];
	int rc;
	char err[512]; /* what went to stderr */
};

/* Runs the scanner on NULL-terminated args with stderr captured. */
static void run(struct scan *s, ss_gen_opt_take_fn take, void *ctx, ...)
{
	char *argv[16] = {"demo"};
	int argc = 1, saved = dup(2);
	FILE *tmp = tmpfile();
	va_list ap;
	size_t n;

	memset(s, 0, sizeof(*s));
	va_start(ap, ctx);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	s->rc = ss_gen_opt_scan(&set, argc, argv, s->val, s->seen, take, ctx);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(s->err, 1, sizeof(s->err) - 1, tmp);
	s->err[n] = '\0';
	fclose(tmp);
}

static void test_accepted_forms(void **state)
{
	struct scan s;

	(void)state;
	run(&s, NULL, NULL, "--output", "a", "--loops=5", "-p", NULL);
	assert_int_equal(s.rc, 0);
	assert_string_equal(s.val[T_OUTPUT], "a");
	assert_string_equal(s.val[T_LOOPS], "5");
	assert_null(s.val[T_PIPES]);
	assert_int_equal(s.seen[T_PIPES], 1);
	assert_int_equal(s.seen[T_HELP], 0);
	assert_string_equal(s.err, "");

	/* the alias, "=" inside a value, an empty value, the last one wins */
	run(&s, NULL, NULL, "-o", "x=y", "--loops=", "--output=b=c", "--pipes", NULL);
	assert_int_equal(s.rc, 0);
	assert_string_equal(s.val[T_OUTPUT], "b=c");
	assert_string_equal(s.val[T_LOOPS], "");
	assert_int_equal(s.seen[T_PIPES], 1);

	/* a value may look like an option */
	run(&s, NULL, NULL, "-o", "--help", NULL);
	assert_int_equal(s.rc, 0);
	assert_string_equal(s.val[T_OUTPUT], "--help");
	assert_int_equal(s.seen[T_HELP], 0);

	run(&s, NULL, NULL, NULL);
	assert_int_equal(s.rc, 0);
	assert_null(s.val[T_OUTPUT]);
}

static void expect_error(const char *arg1, const char *arg2, const char *msg)
{
	struct scan s;
	char want[256];

	run(&s, NULL, NULL, arg1, arg2, NULL);
	snprintf(want, sizeof(want),
		 "slabsim gen demo: %s\n(try 'slabsim gen demo --help')\n", msg);
	assert_int_equal(s.rc, -1);
	assert_string_equal(s.err, want);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("--bogus", NULL, "unknown option '--bogus'");
	expect_error("--out", NULL, "unknown option '--out'"); /* no prefixes */
	expect_error("-o=x", NULL, "unknown option '-o=x'");   /* "=" is long-only */
	expect_error("-", NULL, "unknown option '-'");
	expect_error("--", NULL, "unknown option '--'");
	expect_error("stray", NULL, "unexpected argument 'stray'");
	expect_error("", NULL, "unexpected argument ''");
}

static void test_value_errors(void **state)
{
	(void)state;
	expect_error("-o", NULL, "-o needs a value (TRACE)");
	expect_error("--loops", NULL, "--loops needs a value (L)");
	expect_error("--pipes=1", NULL, "--pipes takes no value");
	expect_error("--help=", NULL, "--help takes no value");
	expect_error("-p", "x", "unexpected argument 'x'"); /* flags take nothing */
	/* the scan stops at the first error: later ones are not reported */
	expect_error("--bogus", "--worse", "unknown option '--bogus'");
}

struct taken {
	int calls;
	const char *last[T_NR];
};

static int take_twice(void *ctx, int id, const char *v)
{
	struct taken *t = ctx;

	if (++t->calls > 2)
		return ss_gen_opt_usage_err("demo", "more than %d values", 2);
	t->last[id] = v;
	return 0;
}

static void test_take_hook(void **state)
{
	struct taken t = {0};
	struct scan s;

	(void)state;
	run(&s, take_twice, &t, "-o", "a", "--loops=3", "-p", NULL);
	assert_int_equal(s.rc, 0);
	assert_int_equal(t.calls, 2); /* flags do not reach the hook */
	assert_null(s.val[T_OUTPUT]); /* the hook stores instead */
	assert_string_equal(t.last[T_OUTPUT], "a");
	assert_string_equal(t.last[T_LOOPS], "3");
	assert_int_equal(s.seen[T_PIPES], 1);

	memset(&t, 0, sizeof(t));
	run(&s, take_twice, &t, "-o", "a", "-o", "b", "-o", "c", "--bogus", NULL);
	assert_int_equal(s.rc, -1);
	assert_string_equal(s.err, "slabsim gen demo: more than 2 values\n"
				   "(try 'slabsim gen demo --help')\n");
}

static void test_help(void **state)
{
	char buf[512] = {0};
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	assert_non_null(f);
	ss_gen_opt_help(f, &set);
	fclose(f);
	assert_string_equal(buf,
		"  -o, --output TRACE  the trace\n"
		"  --loops L           loops\n"
		"                      (two lines)\n"
		"  -p, --pipes         a flag\n"
		"  -h, --help          this text\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_take_hook),
		cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
