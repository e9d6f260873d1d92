/* smack_label.c - which strings the 3.10 kernel accepts as Smack labels. */
#include "smack_label.h"

#include <stdio.h>
#include <string.h>

#include "smack_consts.h"

int ss_smack_label_stop_byte(unsigned char c)
{
	return c <= ' ' || c > '~' || c == '/' || c == '"' || c == '\\' ||
	       c == '\'';
}

/* Models smk_parse_smack() (smack_access.c, 3.5-3.13): a leading '-' is
 * reserved for options, the label ends at the first stop byte, and 1..255
 * bytes are accepted.  The kernel compares signed chars on x86 and
 * unsigned on ARM; both reject every byte >= 0x7f. */
size_t ss_smack_parse_label_len(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || s[0] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (ss_smack_label_stop_byte((unsigned char)s[i]))
			break;
	if (i == 0 || i >= SMACK_LONGLABEL)
		return 0;
	return i;
}

static const char *byte_name(unsigned char c, char *buf, size_t n)
{
	if (c > ' ' && c <= '~')
		snprintf(buf, n, "'%c'", c);
	else
		snprintf(buf, n, "byte 0x%02x", c);
	return buf;
}

int ss_smack_label_check(const char *s, size_t n, char *why, size_t whylen)
{
	char b[16];
	size_t i;

	if (n == 0) {
		snprintf(why, whylen, "empty label");
		return -1;
	}
	if (s[0] == '-') {
		snprintf(why, whylen,
			 "label '%.40s' starts with '-' (reserved by the kernel)", s);
		return -1;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!ss_smack_label_stop_byte(c))
			continue;
		snprintf(why, whylen,
			 "label has %s at byte %zu: the kernel would cut the label there",
			 byte_name(c, b, sizeof(b)), i + 1);
		return -1;
	}
	if (n >= SMACK_LONGLABEL) {
		snprintf(why, whylen,
			 "label is %zu bytes; the kernel accepts at most %d",
			 n, SMACK_LONGLABEL - 1);
		return -1;
	}
	return 0;
}

unsigned ss_smack_builtin_pos(const char *s, size_t n)
{
	/* smack_known_list order from its head: web, invalid, floor, star,
	 * hat, huh.  The invalid label "" (position 2) cannot be named. */
	static const char order[] = "@\0_*^?";

	if (n != 1 || s[0] == '\0')
		return 0;
	for (unsigned i = 0; i < sizeof(order) - 1; i++)
		if (order[i] == s[0])
			return i + 1;
	return 0;
}
