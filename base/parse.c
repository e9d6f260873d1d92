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

int ss_split_words(char *line, char **words, int max)
{
	int n = 0;
	char *p = line, *w;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			return n;
		if (n == max)
			return -1;
		words[n++] = w = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
			if (*p == '\'' || *p == '"') {
				char q = *p++;

				while (*p && *p != q)
					*w++ = *p++;
				if (!*p)
					return -1;
				p++;
			} else {
				*w++ = *p++;
			}
		}
		if (*p)
			p++;
		*w = '\0';
	}
}

/* One token of a counts list: [p, end) as NAME and COUNT; 0 when good. */
static int count_token(const char *p, const char *end, size_t *name_len, uint64_t *count)
{
	char num[24];
	const char *eq = NULL;

	for (const char *q = p; q < end; q++)
		if (*q == '=')
			eq = q;
	if (!eq || eq == p || (size_t)(end - eq - 1) >= sizeof(num))
		return -1;
	memcpy(num, eq + 1, (size_t)(end - eq - 1));
	num[end - eq - 1] = '\0';
	*name_len = (size_t)(eq - p);
	return ss_parse_u64(num, UINT64_MAX, count);
}

const char *ss_parse_counts_bad(const char *list, size_t *len)
{
	for (const char *p = list; p;) {
		const char *end = strchr(p, ' ');
		size_t n;
		uint64_t c;

		if (!end)
			end = p + strlen(p);
		if (count_token(p, end, &n, &c)) {
			*len = (size_t)(end - p);
			return p;
		}
		p = *end ? end + 1 : NULL;
	}
	return NULL;
}

int ss_parse_count_of(const char *list, const char *name, uint64_t *count)
{
	size_t want = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ' ');
		size_t n;
		uint64_t c;

		if (!end)
			end = p + strlen(p);
		if (!count_token(p, end, &n, &c) && n == want && !memcmp(p, name, n)) {
			*count = c;
			return 1;
		}
		p = *end ? end + 1 : NULL;
	}
	return 0;
}
