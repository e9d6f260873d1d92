/* test_opts.c - the option scanner of every slabsim command (base/opts.c):
 * every accepted form, every usage error, the help table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "opts.h"

enum { T_OUTPUT, T_LOOPS, T_PIPES, T_TAG, T_FILE, T_HELP, T_NR };

static int help_calls;

static void demo_usage(FILE *out)
{
	(void)out;
	help_calls++;
}

static const struct ss_opt specs[T_NR] = {
	[T_OUTPUT] = {"output", "-o", "TRACE", "the trace"},
	[T_LOOPS] = {"loops", NULL, "L", "loops\n(two lines)"},
	[T_PIPES] = {"pipes", "-p", NULL, "a flag"},
	[T_TAG] = {"tag", NULL, "T", NULL}, /* not listed in help */
	[T_FILE] = {NULL, NULL, "FILE", "a positional argument"},
	[T_HELP] = {"help", "-h", NULL, "this text"},
};

static const struct ss_opt_set set = {"gen demo", specs, T_NR, demo_usage};

/* The same table without positional arguments. */
static const struct ss_opt_set no_files = {"demo", specs, T_FILE, NULL};

/* What the take function saw: every call, in order. */
struct scan {
	int rc;
	int calls;
	int id[16];
	const char *v[16];
	char err[512]; /* what went to stderr */
};

/* Values "bad" are bad; "worse" is reported by the take function itself. */
static int take(void *ctx, int id, const char *v)
{
	struct scan *s = ctx;

	if (v && !strcmp(v, "bad"))
		return SS_OPT_BAD_VALUE;
	if (v && !strcmp(v, "worse"))
		return ss_opt_usage_err(&set, "%s is worse", v);
	s->id[s->calls] = id;
	s->v[s->calls++] = v;
	return 0;
}

/* Runs the scanner of set on NULL-terminated args with stderr captured. */
static void run_set(struct scan *s, const struct ss_opt_set *st, ...)
{
	char *argv[16] = {"demo"};
	int argc = 1, saved = dup(2);
	FILE *tmp = tmpfile();
	va_list ap;
	size_t n;

	memset(s, 0, sizeof(*s));
	va_start(ap, st);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	s->rc = ss_opt_scan(st, argc, argv, take, s);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(s->err, 1, sizeof(s->err) - 1, tmp);
	s->err[n] = '\0';
	fclose(tmp);
}
#define run(s, ...) run_set(s, &set, __VA_ARGS__)

static void expect_call(const struct scan *s, int k, int id, const char *v)
{
	assert_true(k < s->calls);
	assert_int_equal(s->id[k], id);
	if (v)
		assert_string_equal(s->v[k], v);
	else
		assert_null(s->v[k]);
}

static void test_accepted_forms(void **state)
{
	struct scan s;

	(void)state;
	run(&s, "--output", "a", "--loops=5", "-p", NULL);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.calls, 3);
	expect_call(&s, 0, T_OUTPUT, "a");
	expect_call(&s, 1, T_LOOPS, "5"); /* --name=value */
	expect_call(&s, 2, T_PIPES, NULL); /* a flag: no value */
	assert_string_equal(s.err, "");

	/* the alias, "=" inside a value, an empty value */
	run(&s, "-o", "x=y", "--loops=", "--output=b=c", "--pipes", NULL);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.calls, 4);
	expect_call(&s, 0, T_OUTPUT, "x=y");
	expect_call(&s, 1, T_LOOPS, "");
	expect_call(&s, 2, T_OUTPUT, "b=c");

	/* a value may look like an option; a hidden option still parses */
	run(&s, "-o", "--help", "--tag", "t", NULL);
	assert_int_equal(s.rc, 0);
	expect_call(&s, 0, T_OUTPUT, "--help");
	expect_call(&s, 1, T_TAG, "t");

	run(&s, NULL);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.calls, 0);
}

static void test_repeated_and_positional(void **state)
{
	struct scan s;

	(void)state;
	/* every occurrence reaches take, in order, positionals anywhere */
	run(&s, "in", "-o", "a", "-", "--output", "b", "out", NULL);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.calls, 5);
	expect_call(&s, 0, T_FILE, "in");
	expect_call(&s, 1, T_OUTPUT, "a");
	expect_call(&s, 2, T_FILE, "-"); /* "-" is stdin, not an option */
	expect_call(&s, 3, T_OUTPUT, "b");
	expect_call(&s, 4, T_FILE, "out");

	/* after "--" everything is positional */
	run(&s, "-p", "--", "-o", "--", NULL);
	assert_int_equal(s.rc, 0);
	assert_int_equal(s.calls, 3);
	expect_call(&s, 1, T_FILE, "-o");
	expect_call(&s, 2, T_FILE, "--");
}

static void test_help(void **state)
{
	struct scan s;

	(void)state;
	help_calls = 0;
	run(&s, "-o", "a", "--help", "--bogus", NULL); /* the scan stops at --help */
	assert_int_equal(s.rc, SS_OPT_HELP);
	assert_int_equal(help_calls, 1);
	assert_int_equal(ss_opt_exit(s.rc), 0);
	run(&s, "-h", NULL);
	assert_int_equal(s.rc, SS_OPT_HELP);
	assert_int_equal(help_calls, 2);
	/* an error before --help wins */
	run(&s, "--bogus", "--help", NULL);
	assert_int_equal(s.rc, -1);
	assert_int_equal(help_calls, 2);
	assert_int_equal(ss_opt_exit(s.rc), 2);
}

static void expect_error_in(const struct ss_opt_set *st, const char *arg1,
			    const char *arg2, const char *msg)
{
	struct scan s;
	char want[256];

	run_set(&s, st, arg1, arg2, NULL);
	snprintf(want, sizeof(want), "slabsim %s: %s\n(try 'slabsim %s --help')\n",
		 st->cmd, msg, st->cmd);
	assert_int_equal(s.rc, -1);
	assert_string_equal(s.err, want);
}

static void expect_error(const char *arg1, const char *arg2, const char *msg)
{
	expect_error_in(&set, arg1, arg2, msg);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("--bogus", NULL, "unknown option '--bogus'");
	expect_error("--bogus=1", NULL, "unknown option '--bogus=1'");
	expect_error("--out", NULL, "unknown option '--out'"); /* no prefixes */
	expect_error("-o=x", NULL, "unknown option '-o=x'");   /* "=" is long-only */
	expect_error("-x", NULL, "unknown option '-x'");
	expect_error("---", NULL, "unknown option '---'");
	expect_error_in(&no_files, "stray", NULL, "unexpected argument 'stray'");
	expect_error_in(&no_files, "", NULL, "unexpected argument ''");
	expect_error_in(&no_files, "--", "x", "unexpected argument 'x'");
}

static void test_value_errors(void **state)
{
	(void)state;
	expect_error("-o", NULL, "-o needs a value (TRACE)");
	expect_error("--output", NULL, "--output needs a value (TRACE)");
	expect_error("--loops", NULL, "--loops needs a value (L)");
	expect_error("--pipes=1", NULL, "--pipes takes no value");
	expect_error("--help=", NULL, "--help takes no value");
	expect_error_in(&no_files, "-p", "x", "unexpected argument 'x'"); /* flags take nothing */
	/* the scan stops at the first error: later ones are not reported */
	expect_error("--bogus", "--worse", "unknown option '--bogus'");
	/* take's verdicts: the generic message, or its own */
	expect_error("-o", "bad", "bad value 'bad' for --output");
	expect_error("--loops=bad", NULL, "bad value 'bad' for --loops");
	expect_error("bad", NULL, "bad argument 'bad'");
	expect_error("-o", "worse", "worse is worse");
}

static void capture(char *buf, size_t n, int (*fn)(void))
{
	int saved = dup(2), r;
	FILE *tmp = tmpfile();

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	r = fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_int_equal(r, -1);
	rewind(tmp);
	buf[fread(buf, 1, n - 1, tmp)] = '\0';
	fclose(tmp);
}

static uint64_t got;

static int u64_out_of_range(void)
{
	return ss_opt_u64(&set, T_LOOPS, "0", 1, 10, &got);
}

static int u64_not_a_number(void)
{
	return ss_opt_u64(&set, T_LOOPS, "12x", 0, 10, &got);
}

static void test_numbers(void **state)
{
	unsigned u = 7;
	char err[256];

	(void)state;
	got = 3;
	assert_int_equal(ss_opt_u64(&set, T_LOOPS, NULL, 1, 10, &got), 0);
	assert_int_equal(got, 3); /* not given: unchanged */
	assert_int_equal(ss_opt_u64(&set, T_LOOPS, "10", 1, 10, &got), 0);
	assert_int_equal(got, 10);
	assert_int_equal(ss_opt_uint(&set, T_LOOPS, "4", 1, 10, &u), 0);
	assert_int_equal(u, 4);
	capture(err, sizeof(err), u64_out_of_range);
	assert_string_equal(err, "slabsim gen demo: bad value '0' for --loops (want an integer 1..10)\n"
				 "(try 'slabsim gen demo --help')\n");
	capture(err, sizeof(err), u64_not_a_number);
	assert_string_equal(err, "slabsim gen demo: bad value '12x' for --loops (want an integer 0..10)\n"
				 "(try 'slabsim gen demo --help')\n");
	assert_int_equal(got, 10);
}

static void test_keep(void **state)
{
	const char *val[T_NR] = {0};
	char *argv[] = {"demo", "-o", "a", "--loops=3", "-p", "--output", "b"};

	(void)state;
	assert_int_equal(ss_opt_scan(&no_files, 7, argv, ss_opt_keep, val), 0);
	assert_string_equal(val[T_OUTPUT], "b"); /* the last one wins */
	assert_string_equal(val[T_LOOPS], "3");
	assert_string_equal(val[T_PIPES], ""); /* a flag given */
	assert_null(val[T_TAG]);
}

static void test_help_table(void **state)
{
	static const struct ss_opt wide[] = {
		[0] = {"profile-scale-permille", NULL, "S", "too wide\nfor the column"},
		[1] = {"cpus", NULL, "C", "fits"},
		[2] = {NULL, NULL, "FILE", "positional"},
		[3] = {"help", "-h", NULL, "this text"},
	};
	static const struct ss_opt_set wide_set = {"w", wide, 4, NULL};
	char buf[512] = {0};
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	assert_non_null(f);
	ss_opt_help(f, &set);
	fclose(f);
	assert_string_equal(buf,
		"  -o, --output TRACE  the trace\n"
		"  --loops L           loops\n"
		"                      (two lines)\n"
		"  -p, --pipes         a flag\n"
		"  FILE                a positional argument\n"
		"  -h, --help          this text\n");

	/* the column follows the widest name that fits; a wider one wraps */
	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_non_null(f);
	ss_opt_help(f, &wide_set);
	fclose(f);
	assert_string_equal(buf,
		"  --profile-scale-permille S\n"
		"              too wide\n"
		"              for the column\n"
		"  --cpus C    fits\n"
		"  FILE        positional\n"
		"  -h, --help  this text\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted_forms),
		cmocka_unit_test(test_repeated_and_positional),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_keep),
		cmocka_unit_test(test_help_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
