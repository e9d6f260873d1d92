/* parse.c - strict number and token parsing. */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

int ss_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = v;
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
