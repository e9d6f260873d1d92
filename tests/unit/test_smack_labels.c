/* test_smack_labels.c - Smack label rules of 3.10 (smk_parse_smack). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "smack17k/smack_label.h"

static int check(const char *s, size_t n)
{
	char why[200];

	return ss_smack_label_check(s, n, why, sizeof(why));
}

static int check_str(const char *s)
{
	return check(s, strlen(s));
}

/* 255 bytes is the longest label (SMK_LONGLABEL 256 counts the NUL). */
static void test_length_limit(void **state)
{
	char buf[300];
	char why[200];

	(void)state;
	memset(buf, 'a', sizeof(buf));
	assert_int_equal(check(buf, 255), 0);
	assert_int_equal(ss_smack_parse_label_len(buf, 255), 255);
	assert_int_equal(check(buf, 256), -1);
	assert_int_equal(ss_smack_parse_label_len(buf, 256), 0);
	assert_int_equal(ss_smack_parse_label_len(buf, 300), 0);
	assert_int_equal(ss_smack_label_check(buf, 256, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "256 bytes"));
	assert_non_null(strstr(why, "255"));
	assert_int_equal(check("a", 1), 0);
	assert_int_equal(check("", 0), -1);
	assert_int_equal(ss_smack_parse_label_len("", 0), 0);
}

/* A leading '-' is reserved; a '-' elsewhere is an ordinary byte. */
static void test_leading_dash(void **state)
{
	(void)state;
	assert_int_equal(check_str("-System"), -1);
	assert_int_equal(check_str("-"), -1);
	assert_int_equal(ss_smack_parse_label_len("-System", 7), 0);
	assert_int_equal(check_str("message-consumer"), 0);
	assert_int_equal(check_str("a-"), 0);
}

/* / " \ ' end a label; the kernel keeps what came before. */
static void test_stop_bytes(void **state)
{
	char why[200];

	(void)state;
	assert_int_equal(check_str("System/Shared"), -1);
	assert_int_equal(ss_smack_parse_label_len("System/Shared", 13), 6);
	assert_int_equal(check_str("a\"b"), -1);
	assert_int_equal(ss_smack_parse_label_len("a\"b", 3), 1);
	assert_int_equal(check_str("a\\b"), -1);
	assert_int_equal(check_str("it's"), -1);
	assert_int_equal(ss_smack_parse_label_len("it's", 4), 2);
	/* stop byte first: nothing left, rejected */
	assert_int_equal(ss_smack_parse_label_len("/abc", 4), 0);
	assert_int_equal(ss_smack_parse_label_len("'x", 2), 0);
	/* the reason names the byte and its 1-based position */
	assert_int_equal(ss_smack_label_check("abc/d", 5, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "'/'"));
	assert_non_null(strstr(why, "byte 4"));
}

/* Control bytes, space, DEL and bytes >= 0x80 are all stop bytes; '!'
 * (0x21) and '~' (0x7e) are the ends of the allowed range. */
static void test_byte_range(void **state)
{
	char why[200];

	(void)state;
	assert_int_equal(check("a\x01" "b", 3), -1);
	assert_int_equal(check("a\tb", 3), -1);
	assert_int_equal(check("a b", 3), -1);
	assert_int_equal(check("a\x7f", 2), -1);
	assert_int_equal(check("caf\xc3\xa9", 5), -1);
	assert_int_equal(ss_smack_parse_label_len("caf\xc3\xa9", 5), 3);
	assert_int_equal(check("\x80", 1), -1);
	assert_int_equal(check("!", 1), 0);
	assert_int_equal(check("~", 1), 0);
	assert_int_equal(check_str("com.samsung.message-consumer::home"), 0);
	assert_int_equal(check_str("a:b;c<d>e=f?g@h[i]j{k}l|m"), 0);
	/* a NUL inside the scanned range stops the label like a space */
	assert_int_equal(ss_smack_parse_label_len("ab\0cd", 5), 2);
	assert_int_equal(ss_smack_label_check("a\x01" "b", 3, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "0x01"));
	assert_non_null(strstr(why, "byte 2"));
	assert_int_equal(ss_smack_label_stop_byte(' '), 1);
	assert_int_equal(ss_smack_label_stop_byte('!'), 0);
	assert_int_equal(ss_smack_label_stop_byte(0xff), 1);
}

/* Built-in labels sit on smack_known_list from boot: @ "" _ * ^ ? from the
 * head (list_add of huh, hat, star, floor, invalid, web in that order). */
static void test_builtin(void **state)
{
	(void)state;
	assert_int_equal(ss_smack_builtin_pos("@", 1), 1);
	assert_int_equal(ss_smack_builtin_pos("_", 1), 3);
	assert_int_equal(ss_smack_builtin_pos("*", 1), 4);
	assert_int_equal(ss_smack_builtin_pos("^", 1), 5);
	assert_int_equal(ss_smack_builtin_pos("?", 1), 6);
	assert_int_equal(ss_smack_builtin_pos("", 0), 0);
	assert_int_equal(ss_smack_builtin_pos("", 1), 0);
	assert_int_equal(ss_smack_builtin_pos("__", 2), 0);
	assert_int_equal(ss_smack_builtin_pos("System", 6), 0);
	assert_int_equal(ss_smack_builtin_pos("a", 1), 0);
	/* special labels are valid labels too */
	assert_int_equal(check_str("_"), 0);
	assert_int_equal(check_str("*"), 0);
	assert_int_equal(check_str("^"), 0);
	assert_int_equal(check_str("?"), 0);
	assert_int_equal(check_str("@"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_length_limit),
		cmocka_unit_test(test_leading_dash),
		cmocka_unit_test(test_stop_bytes),
		cmocka_unit_test(test_byte_range),
		cmocka_unit_test(test_builtin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
