/* test_smack_rules.c - the load2 rule-file reader and writer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "smack17k/smack_rules.h"
#include "test_util.h"

/* Load text; returns the reader's result, rs filled, msg in err; the
 * file's name in path_out (TU_PATH_MAX bytes) unless NULL. */
static int load_text(const char *text, size_t n, struct ss_smack_ruleset *rs,
		     struct ss_error *err, char *path_out)
{
	char path[TU_PATH_MAX];
	int rc;

	tu_tmp_file(path, sizeof(path), text, n);
	ss_smack_ruleset_init(rs);
	err->msg[0] = '\0';
	rc = ss_smack_rules_load(rs, path, err);
	if (path_out)
		strcpy(path_out, path);
	unlink(path);
	return rc;
}

#define LOAD(s, rs, err, p) load_text((s), sizeof(s) - 1, (rs), (err), (p))

static const char *label(const struct ss_smack_ruleset *rs, size_t rule,
			 int object)
{
	const struct ss_smack_rule *r = &rs->rules[rule];

	return rs->labels[object ? r->object : r->subject].name;
}

static void test_parse_basic(void **state)
{
	static const char text[] =
		"# accesses.d/org.tizen.browser\n"
		"\n"
		"org.tizen.browser System rwx\n"
		"   \t\n"
		"  # an indented comment with many words in it\n"
		"org.tizen.browser\tUser::Home   RwXaT\n"
		"System org.tizen.browser -\n"
		"_ System r-x--\n"
		"System User::Home l\n"
		"System User::Home b";	/* last line without a newline */
	struct ss_smack_ruleset rs;
	struct ss_error err;

	(void)state;
	assert_int_equal(LOAD(text, &rs, &err, NULL), 0);
	assert_int_equal(rs.nr_rules, 6);
	assert_string_equal(label(&rs, 0, 0), "org.tizen.browser");
	assert_string_equal(label(&rs, 0, 1), "System");
	assert_int_equal(rs.rules[0].access, 0x07);
	assert_int_equal(rs.rules[0].line, 3);
	assert_string_equal(label(&rs, 1, 1), "User::Home");
	assert_int_equal(rs.rules[1].access, 0x1f);
	assert_int_equal(rs.rules[1].line, 6);
	assert_int_equal(rs.rules[2].access, 0);
	assert_string_equal(label(&rs, 3, 0), "_");
	assert_int_equal(rs.rules[3].access, 0x05);
	assert_int_equal(rs.rules[4].access, 0x20);
	assert_int_equal(rs.rules[5].access, 0x40);
	assert_int_equal(rs.rules[5].line, 10);
	/* duplicate (System, User::Home) kept: the kernel updates the bits */
	assert_int_equal(rs.rules[4].subject, rs.rules[5].subject);
	assert_int_equal(rs.rules[4].object, rs.rules[5].object);
	/* labels: org.tizen.browser System User::Home _ ; '_' is built in */
	assert_int_equal(rs.nr_labels, 4);
	assert_int_equal(ss_smack_ruleset_new_labels(&rs), 3);
	assert_int_equal(rs.labels[rs.rules[3].subject].builtin, 3);
	ss_smack_ruleset_release(&rs);
}

/* An empty file (or only comments) is a valid load of zero rules. */
static void test_empty(void **state)
{
	struct ss_smack_ruleset rs;
	struct ss_error err;

	(void)state;
	assert_int_equal(load_text("", 0, &rs, &err, NULL), 0);
	assert_int_equal(rs.nr_rules, 0);
	assert_int_equal(rs.nr_labels, 0);
	ss_smack_ruleset_release(&rs);
	assert_int_equal(LOAD("# nothing\n\n#x y z w v\n", &rs, &err, NULL), 0);
	assert_int_equal(rs.nr_rules, 0);
	ss_smack_ruleset_release(&rs);
}

/* Each error names path:line and the reason. */
static void expect_error(const char *text, size_t n, unsigned line,
			 const char *reason)
{
	struct ss_smack_ruleset rs;
	struct ss_error err;
	char path[TU_PATH_MAX], want[TU_PATH_MAX + 32];

	assert_int_equal(load_text(text, n, &rs, &err, path), -1);
	snprintf(want, sizeof(want), "%s:%u: ", path, line);
	if (strncmp(err.msg, want, strlen(want)) || !strstr(err.msg, reason))
		fail_msg("got '%s', want prefix '%s' and '%s'", err.msg, want,
			 reason);
	ss_smack_ruleset_release(&rs);
}

#define EXPECT_ERROR(s, line, reason) expect_error((s), sizeof(s) - 1, (line), (reason))

static void test_errors(void **state)
{
	(void)state;
	EXPECT_ERROR("a b r\nSystem User rwq\n", 2, "'q' is not an access letter");
	EXPECT_ERROR("# c\n\nSystem User\n", 3, "2 fields");
	EXPECT_ERROR("System\n", 1, "1 field ");
	EXPECT_ERROR("a b r\na b r w\n", 2, "too many fields");
	EXPECT_ERROR("-System User r\n", 1, "subject: label '-System' starts with '-'");
	EXPECT_ERROR("System Us/er r\n", 1, "object: label has '/' at byte 3");
	EXPECT_ERROR("System \"User\" r\n", 1, "object: label has '\"' at byte 1");
	EXPECT_ERROR("Sys\x01tem User r\n", 1, "byte 0x01 at byte 4");
	EXPECT_ERROR("caf\xc3\xa9 User r\n", 1, "byte 0xc3 at byte 4");
	EXPECT_ERROR("a b r\x7f\n", 1, "byte 0x7f is not an access letter");
	EXPECT_ERROR("a b r\n\na\0b c r\n", 3, "NUL byte");
}

/* Label 256 bytes: invalid; 255: valid. */
static void test_label_length(void **state)
{
	struct ss_smack_ruleset rs;
	struct ss_error err;
	char line[600];
	size_t n;

	(void)state;
	memset(line, 'L', 255);
	n = 255 + (size_t)sprintf(line + 255, " User rw\n");
	assert_int_equal(load_text(line, n, &rs, &err, NULL), 0);
	assert_int_equal(rs.labels[rs.rules[0].subject].len, 255);
	ss_smack_ruleset_release(&rs);
	memcpy(line, "x y r\n", 6);
	memset(line + 6, 'L', 256);
	n = 6 + 256 + (size_t)sprintf(line + 6 + 256, " User rw\n");
	expect_error(line, n, 2, "label is 256 bytes");
}

/* A rule line may be 523 bytes (2 * 256 + 2 * 5 + 1), not 524. */
static void test_line_limit(void **state)
{
	struct ss_smack_ruleset rs;
	struct ss_error err;
	char line[600];
	size_t n;

	(void)state;
	memset(line, 'S', 255);
	line[255] = ' ';
	memset(line + 256, 'O', 255);
	line[511] = ' ';
	memcpy(line + 512, "rwxatrwxatr", 11); /* 523 bytes */
	line[523] = '\n';
	assert_int_equal(load_text(line, 524, &rs, &err, NULL), 0);
	assert_int_equal(rs.nr_rules, 1);
	ss_smack_ruleset_release(&rs);

	memcpy(line + 512, "rwxatrwxatrw", 12); /* 524 bytes */
	line[524] = '\n';
	expect_error(line, 525, 1, "524 bytes, over the 523-byte limit");
	/* the limit applies to rule lines only; a long comment is fine */
	line[0] = '#';
	assert_int_equal(load_text(line, 525, &rs, &err, NULL), 0);
	assert_int_equal(rs.nr_rules, 0);
	ss_smack_ruleset_release(&rs);
	/* whitespace counts: a short rule padded past 523 bytes */
	n = (size_t)sprintf(line, "a b r%530s\n", "");
	expect_error(line, n, 1, "over the 523-byte limit");
}

static void test_access(void **state)
{
	uint32_t a;
	char bad, s[8];

	(void)state;
	assert_int_equal(ss_smack_access_parse("rwxat", &a, &bad), 0);
	assert_int_equal(a, 0x1f);
	assert_int_equal(ss_smack_access_parse("TAXWR", &a, &bad), 0);
	assert_int_equal(a, 0x1f);
	assert_int_equal(ss_smack_access_parse("-----", &a, &bad), 0);
	assert_int_equal(a, 0);
	assert_int_equal(ss_smack_access_parse("rr", &a, &bad), 0);
	assert_int_equal(a, 1);
	assert_int_equal(ss_smack_access_parse("LB", &a, &bad), 0);
	assert_int_equal(a, 0x60);
	assert_int_equal(ss_smack_access_parse("rwz", &a, &bad), -1);
	assert_int_equal(bad, 'z');
	assert_int_equal(ss_smack_access_parse("", &a, &bad), -1);
	ss_smack_access_str(0x1f, s);
	assert_string_equal(s, "rwxat");
	ss_smack_access_str(0, s);
	assert_string_equal(s, "-");
	ss_smack_access_str(0x7f, s);
	assert_string_equal(s, "rwxatlb");
	ss_smack_access_str(0x14, s);
	assert_string_equal(s, "xt");
	/* smackctl writes "System User rwx--": 6 + 1 + 4 + 1 + 5 bytes */
	assert_int_equal(ss_smack_write_len(6, 4), 17);
	assert_int_equal(ss_smack_write_len(255, 255), 517);
}

/* write -> read gives the same rules; the header is a comment. */
static void test_round_trip(void **state)
{
	static const char text[] = "A B rwx\nB A -\nA C RT\n_ A w\n";
	static const char *const header[] = {"made by a test", NULL};
	struct ss_smack_ruleset rs, back;
	struct ss_error err;
	char *buf = NULL;
	size_t n = 0;
	FILE *fp;

	(void)state;
	assert_int_equal(LOAD(text, &rs, &err, NULL), 0);
	fp = open_memstream(&buf, &n);
	assert_non_null(fp);
	assert_int_equal(ss_smack_rules_write(&rs, fp, header), 0);
	fclose(fp);
	assert_string_equal(buf, "# made by a test\nA B rwx\nB A -\nA C rt\n_ A w\n");
	assert_int_equal(load_text(buf, n, &back, &err, NULL), 0);
	assert_int_equal(back.nr_rules, rs.nr_rules);
	for (size_t i = 0; i < rs.nr_rules; i++) {
		assert_string_equal(label(&back, i, 0), label(&rs, i, 0));
		assert_string_equal(label(&back, i, 1), label(&rs, i, 1));
		assert_int_equal(back.rules[i].access, rs.rules[i].access);
	}
	free(buf);
	ss_smack_ruleset_release(&rs);
	ss_smack_ruleset_release(&back);
}

static void test_pairmap(void **state)
{
	struct ss_smack_pairmap m;
	uint32_t v;

	(void)state;
	ss_smack_pairmap_init(&m);
	assert_int_equal(ss_smack_pairmap_get(&m, 1, 2, &v), 0);
	for (uint32_t i = 0; i < 5000; i++)
		assert_int_equal(ss_smack_pairmap_put(&m, i, i + 1, i * 3), 0);
	assert_int_equal(m.nr, 5000);
	assert_int_equal(ss_smack_pairmap_get(&m, 1234, 1235, &v), 1);
	assert_int_equal(v, 3702);
	/* (s, o) is ordered: (1235, 1234) is another pair */
	assert_int_equal(ss_smack_pairmap_get(&m, 1235, 1234, &v), 0);
	assert_int_equal(ss_smack_pairmap_put(&m, 1234, 1235, 7), 0);
	assert_int_equal(m.nr, 5000);
	assert_int_equal(ss_smack_pairmap_get(&m, 1234, 1235, &v), 1);
	assert_int_equal(v, 7);
	ss_smack_pairmap_release(&m);
}

static void test_missing_file(void **state)
{
	struct ss_smack_ruleset rs;
	struct ss_error err;

	(void)state;
	ss_smack_ruleset_init(&rs);
	assert_int_equal(ss_smack_rules_load(&rs, "/nonexistent/rules", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/rules: cannot open"));
	ss_smack_ruleset_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_basic),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_label_length),
		cmocka_unit_test(test_line_limit),
		cmocka_unit_test(test_access),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_pairmap),
		cmocka_unit_test(test_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
