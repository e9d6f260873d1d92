/* test_escape.c - a name in a CSV field or a JSON string reads back as
 * itself (base/escape.h), and the label rule refuses what no output could
 * carry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "escape.h"
#include "test_util.h"

/* What f(s) writes, in out. */
static void written(void (*f)(FILE *, const char *), const char *s, char *out, size_t n)
{
	FILE *fp = fmemopen(out, n, "w");

	assert_non_null(fp);
	f(fp, s);
	assert_int_equal(fclose(fp), 0);
}

static void test_csv_put(void **state)
{
	char out[128];
	(void)state;

	written(ss_csv_put, "plain", out, sizeof(out));
	assert_string_equal(out, "plain");
	written(ss_csv_put, "a,b\"c", out, sizeof(out));
	assert_string_equal(out, "\"a,b\"\"c\"");
	written(ss_csv_put, "#lead", out, sizeof(out)); /* not a comment */
	assert_string_equal(out, "\"#lead\"");
	written(ss_csv_put, "back\\slash'", out, sizeof(out)); /* no quoting needed */
	assert_string_equal(out, "back\\slash'");
}

/* Written with ss_csv_put, read with the report's reader: the same. */
static void test_csv_round_trip(void **state)
{
	static const char *const names[] = {"a,b\"c", "#x", "\"", ",", "x\\y", "q\"\"q", "é,ü"};
	char path[TU_PATH_MAX];
	struct ss_csv c;
	struct ss_error err;
	FILE *fp;
	(void)state;

	tu_path(path, sizeof(path), "names.csv");
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("name,n\n", fp);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ss_csv_put(fp, names[i]);
		fprintf(fp, ",%zu\n", i);
	}
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(ss_csv_open(&c, path, NULL, NULL, &err), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(ss_csv_next(&c, &err), 1);
		assert_string_equal(ss_csv_get(&c, 0), names[i]);
	}
	assert_int_equal(ss_csv_next(&c, &err), 0);
	ss_csv_close(&c);
}

static void test_json_put(void **state)
{
	char out[128];
	(void)state;

	written(ss_json_put, "a\"b\\c", out, sizeof(out));
	assert_string_equal(out, "\"a\\\"b\\\\c\"");
	written(ss_json_put, "tab\there\x01", out, sizeof(out));
	assert_string_equal(out, "\"tab\\u0009here\\u0001\"");
	written(ss_json_put, "caf\xc3\xa9", out, sizeof(out)); /* UTF-8 as it is */
	assert_string_equal(out, "\"caf\xc3\xa9\"");
}

static void test_utf8_and_labels(void **state)
{
	(void)state;
	assert_true(ss_utf8_valid("plain"));
	assert_true(ss_utf8_valid("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
	assert_false(ss_utf8_valid("caf\xe9"));	      /* Latin-1 */
	assert_false(ss_utf8_valid("\xc0\xaf"));      /* overlong '/' */
	assert_false(ss_utf8_valid("\xed\xa0\x80"));  /* a surrogate */
	assert_false(ss_utf8_valid("\xf4\x90\x80\x80")); /* above U+10FFFF */
	assert_false(ss_utf8_valid("\xe2\x82"));      /* cut short */
	assert_true(ss_label_ok("a,b\"c\\d #e"));
	assert_false(ss_label_ok(""));
	assert_false(ss_label_ok(" lead"));
	assert_false(ss_label_ok("new\nline"));
	assert_false(ss_label_ok("cr\r"));
	assert_false(ss_label_ok("tab\tx"));
	assert_false(ss_label_ok("del\x7f"));
	assert_false(ss_label_ok("caf\xe9"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_put),
		cmocka_unit_test(test_csv_round_trip),
		cmocka_unit_test(test_json_put),
		cmocka_unit_test(test_utf8_and_labels),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
