/* parse.c - strict number and token parsing. */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ss_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	int base = s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	/* not base 0: "010" is ten, as documented, not octal eight */
	v = strtoull(s, &end, base);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int ss_parse_size(const char *s, uint64_t max, uint64_t *out)
{
	static const char units[] = "KMGT";
	char num[32];
	size_t n = s ? strlen(s) : 0;
	const char *u;
	unsigned shift = 0;
	uint64_t v;

	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	u = strchr(units, num[n - 1]);
	if (u && num[n - 1]) {
		shift = 10 * (unsigned)(u - units + 1);
		num[n - 1] = '\0';
	}
	if (ss_parse_u64(num, max >> shift, &v))
		return -1;
	*out = v << shift;
	return 0;
}

int ss_parse_uint(const char *s, unsigned max, unsigned *out)
{
	uint64_t v;

	if (ss_parse_u64(s, max, &v))
		return -1;
	*out = (unsigned)v;
	return 0;
}

int ss_split(char *line, char **tok, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			return n;
		if (n == max)
			return -1;
		tok[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}
