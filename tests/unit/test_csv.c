/* test_csv.c - the strict CSV reader: header lookup, quoting, comments,
 * number parsing and file:line errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "test_util.h"

/* A temporary file holding `len` bytes of text; removed by tmp_done(). */
struct tmp {
	char path[TU_PATH_MAX];
};

static void tmp_write(struct tmp *t, const char *text, size_t len)
{
	tu_tmp_file(t->path, sizeof(t->path), text, len);
}

static void tmp_done(struct tmp *t)
{
	unlink(t->path);
}

/* Open text as a CSV file; returns 0 or the open error in err. */
static int open_text(struct tmp *t, struct ss_csv *c, const char *text,
		     struct ss_error *err)
{
	tmp_write(t, text, strlen(text));
	return ss_csv_open(c, t->path, NULL, NULL, err);
}

/* The error of reading every record of text (header included). */
static void read_all_error(const char *text, const char *want_suffix)
{
	struct ss_error err = {{0}};
	struct ss_csv c;
	struct tmp t;
	char want[TU_PATH_MAX + 256];
	int r;

	if (open_text(&t, &c, text, &err) == 0) {
		while ((r = ss_csv_next(&c, &err)) == 1)
			;
		ss_csv_close(&c);
		assert_int_equal(r, -1);
	}
	snprintf(want, sizeof(want), "%s:%s", t.path, want_suffix);
	tmp_done(&t);
	if (strcmp(err.msg, want))
		fail_msg("error '%s', want '%s'", err.msg, want);
}

static void test_header_lookup(void **state)
{
	struct ss_error err = {{0}};
	struct ss_csv c;
	struct tmp t;
	unsigned idx;

	(void)state;
	assert_int_equal(open_text(&t, &c, "op,ns,count\nalloc,32,7\n", &err), 0);
	assert_int_equal(c.ncols, 3);
	assert_int_equal(ss_csv_col(&c, "op"), 0);
	assert_int_equal(ss_csv_col(&c, "count"), 2);
	assert_int_equal(ss_csv_col(&c, "Count"), -1);
	assert_int_equal(ss_csv_need(&c, "ns", &idx, &err), 0);
	assert_int_equal(idx, 1);
	assert_int_equal(ss_csv_need(&c, "bytes", &idx, &err), -1);
	assert_true(strstr(err.msg, ":1: missing column 'bytes'"));
	assert_int_equal(ss_csv_next(&c, &err), 1);
	assert_int_equal(c.line, 2);
	assert_string_equal(ss_csv_get(&c, 0), "alloc");
	assert_string_equal(ss_csv_get(&c, 2), "7");
	assert_int_equal(ss_csv_next(&c, &err), 0);
	ss_csv_close(&c);
	tmp_done(&t);
}

static void test_quoted_fields(void **state)
{
	struct ss_error err = {{0}};
	struct ss_csv c;
	struct tmp t;

	(void)state;
	assert_int_equal(open_text(&t, &c,
				   "a,b,c,d\r\n"
				   "\"x,y\",\"say \"\"hi\"\"\",,\"\"\r\n"
				   "\"#not a comment\",2,3,4\n",
				   &err), 0);
	assert_int_equal(ss_csv_next(&c, &err), 1);
	assert_string_equal(ss_csv_get(&c, 0), "x,y");
	assert_string_equal(ss_csv_get(&c, 1), "say \"hi\"");
	assert_string_equal(ss_csv_get(&c, 2), "");
	assert_string_equal(ss_csv_get(&c, 3), ""); /* the \r is gone */
	assert_int_equal(ss_csv_next(&c, &err), 1);
	assert_string_equal(ss_csv_get(&c, 0), "#not a comment");
	assert_int_equal(ss_csv_next(&c, &err), 0);
	ss_csv_close(&c);
	tmp_done(&t);
}

struct seen {
	char text[4][64];
	unsigned long line[4];
	int n;
};

static int on_comment(void *ctx, const char *text, unsigned long line,
		      struct ss_error *err)
{
	struct seen *s = ctx;

	(void)err;
	if (s->n < 4) {
		snprintf(s->text[s->n], sizeof(s->text[0]), "%s", text);
		s->line[s->n++] = line;
	}
	return 0;
}

static void test_comments(void **state)
{
	const char *text = "# first\n#second\nk,v\n# third\nx,1\n";
	struct ss_error err = {{0}};
	struct seen s = {0};
	struct ss_csv c;
	struct tmp t;

	(void)state;
	tmp_write(&t, text, strlen(text));
	assert_int_equal(ss_csv_open(&c, t.path, on_comment, &s, &err), 0);
	assert_int_equal(c.hdr_line, 3);
	assert_int_equal(ss_csv_next(&c, &err), 1);
	assert_int_equal(c.line, 5);
	assert_string_equal(ss_csv_get(&c, 0), "x");
	ss_csv_close(&c);
	tmp_done(&t);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.text[0], " first");
	assert_string_equal(s.text[1], "second");
	assert_string_equal(s.text[2], " third");
	assert_int_equal(s.line[2], 4);
}

static void test_record_errors(void **state)
{
	(void)state;
	read_all_error("a,b,c\n1,2,3\n1,2\n", "3: 2 fields, header has 3");
	read_all_error("a,b\n1,2,3\n", "2: 3 fields, header has 2");
	read_all_error("a,b\n1,2\n\n3,4\n", "3: empty line");
	read_all_error("a,b\n\"1,2\n", "2: unterminated quoted field");
	read_all_error("a,b\n\"1\"x,2\n", "2: text after closing quote");
	read_all_error("a,b\n1,2\"\n", "2: quote inside unquoted field 2");
	read_all_error("a,b,a\n", "1: duplicate column 'a'");
	read_all_error("# only\na,,c\n", "2: empty column name (column 2)");
}

static void test_empty_and_nul(void **state)
{
	struct ss_error err = {{0}};
	struct ss_csv c;
	struct tmp t;

	(void)state;
	assert_int_equal(open_text(&t, &c, "# nothing but a comment\n", &err), -1);
	assert_true(strstr(err.msg, ": empty file (no header)"));
	tmp_done(&t);

	tmp_write(&t, "a,b\n1,\0002\n", 9);
	assert_int_equal(ss_csv_open(&c, t.path, NULL, NULL, &err), 0);
	assert_int_equal(ss_csv_next(&c, &err), -1);
	assert_true(strstr(err.msg, ":2: NUL byte in line"));
	ss_csv_close(&c);
	tmp_done(&t);

	assert_int_equal(ss_csv_open(&c, "/nonexistent/x.csv", NULL, NULL, &err), -1);
	assert_true(strstr(err.msg, "/nonexistent/x.csv: cannot open"));
}

static void test_numbers(void **state)
{
	static const char *const good[] = {"0", "12.5", "-2.25", "1024", "007"};
	static const double good_v[] = {0, 12.5, -2.25, 1024, 7};
	static const char *const bad[] = {
		"", "1e3", ".5", "5.", "+1", " 1", "1 ", "nan", "inf", "0x10",
		"1,5", "--1", "1.2.3",
	};
	double v;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(ss_parse_decimal(good[i], &v), 0);
		assert_true(v == good_v[i]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (ss_parse_decimal(bad[i], &v) == 0)
			fail_msg("'%s' accepted as a number", bad[i]);
}

static void test_number_fields(void **state)
{
	struct ss_error err = {{0}};
	struct ss_csv c;
	struct tmp t;
	uint64_t u;
	double d;

	(void)state;
	assert_int_equal(open_text(&t, &c,
				   "n,u\n"
				   "1.5,18446744073709551615\n"
				   "x1,-1\n"
				   "2,0x10\n"
				   "2,010\n"
				   "3,18446744073709551616\n",
				   &err), 0);
	assert_int_equal(ss_csv_next(&c, &err), 1);
	assert_int_equal(ss_csv_num(&c, 0, &d, &err), 0);
	assert_true(d == 1.5);
	assert_int_equal(ss_csv_u64(&c, 1, &u, &err), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(ss_csv_u64(&c, 0, &u, &err), -1);
	assert_true(strstr(err.msg, ":2: column 'n': '1.5' is not an unsigned integer"));

	assert_int_equal(ss_csv_next(&c, &err), 1);
	assert_int_equal(ss_csv_num(&c, 0, &d, &err), -1);
	assert_true(strstr(err.msg, ":3: column 'n': 'x1' is not a number"));
	assert_int_equal(ss_csv_u64(&c, 1, &u, &err), -1);
	assert_true(strstr(err.msg, ":3: column 'u': '-1' is not an unsigned integer"));

	assert_int_equal(ss_csv_next(&c, &err), 1);
	assert_int_equal(ss_csv_u64(&c, 1, &u, &err), -1); /* no hex */
	assert_int_equal(ss_csv_next(&c, &err), 1);
	assert_int_equal(ss_csv_u64(&c, 1, &u, &err), 0); /* not octal */
	assert_true(u == 10);
	assert_int_equal(ss_csv_next(&c, &err), 1);
	assert_int_equal(ss_csv_u64(&c, 1, &u, &err), -1); /* overflow */
	assert_true(strstr(err.msg, ":6: column 'u'"));
	ss_csv_close(&c);
	tmp_done(&t);
}

static void test_put(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(fp);
	ss_csv_put(fp, "plain");
	fputc('|', fp);
	ss_csv_put(fp, "a,b");
	fputc('|', fp);
	ss_csv_put(fp, "say \"hi\"");
	fputc('|', fp);
	ss_csv_put(fp, "#x");
	fclose(fp);
	assert_string_equal(buf, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"#x\"");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_lookup),
		cmocka_unit_test(test_quoted_fields),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_record_errors),
		cmocka_unit_test(test_empty_and_nul),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_number_fields),
		cmocka_unit_test(test_put),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
