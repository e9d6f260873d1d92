/* strict.c - strict readers of the output formats (strict.h). */
#include "strict.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "escape.h"

#define WRAP_LIMIT (1ull << 62) /* no count in any output comes near it */

static int fail(char *why, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return -1;
}

/* 1 when s is [-]digits with a value of WRAP_LIMIT or more: an unsigned
 * difference that went below zero. */
static int wrapped(const char *s)
{
	const char *p = s + (*s == '-');
	unsigned long long v = 0;

	if (!*p)
		return 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		if (v > (WRAP_LIMIT - 9) / 10)
			return 1;
		v = v * 10 + (unsigned)(*p - '0');
	}
	return v >= WRAP_LIMIT;
}

/* ---- CSV ---- */

int strict_csv(const char *path, char *why, size_t n)
{
	struct ss_csv c;
	struct ss_error err;
	int r;

	if (ss_csv_open(&c, path, NULL, NULL, &err))
		return fail(why, n, "%s", err.msg);
	for (unsigned i = 0; i < c.ncols; i++) {
		if (!c.hdr[i][0]) {
			ss_csv_close(&c);
			return fail(why, n, "%s:%lu: empty column name", path, c.hdr_line);
		}
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(c.hdr[i], c.hdr[j])) {
				ss_csv_close(&c);
				return fail(why, n, "%s:%lu: column '%s' twice", path,
					    c.hdr_line, c.hdr[i]);
			}
	}
	while ((r = ss_csv_next(&c, &err)) == 1)
		for (unsigned i = 0; i < c.ncols; i++)
			if (wrapped(ss_csv_get(&c, i))) {
				fail(why, n, "%s:%lu: column '%s' holds %s: a wrapped unsigned",
				     path, c.line, c.hdr[i], ss_csv_get(&c, i));
				ss_csv_close(&c);
				return -1;
			}
	ss_csv_close(&c);
	return r < 0 ? fail(why, n, "%s", err.msg) : 0;
}

/* ---- JSON ---- */

struct json {
	const char *start, *s, *end, *path;
	char *why;
	size_t n;
	int depth;
	/* strict_json_string: the key looked for at depth 1, and its value */
	const char *want;
	char *out;
	size_t out_n;
	int found;
};

static int jfail(struct json *j, const char *what)
{
	return fail(j->why, j->n, "%s: byte %ld: %s", j->path, (long)(j->s - j->start), what);
}

static void ws(struct json *j)
{
	while (j->s < j->end && (*j->s == ' ' || *j->s == '\t' || *j->s == '\n' || *j->s == '\r'))
		j->s++;
}

static int hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at j->s (its '"'), decoded into a malloc'd *out. */
static int jstring(struct json *j, char **out)
{
	size_t cap = (size_t)(j->end - j->s) + 1, len = 0;
	char *o = malloc(cap);

	if (!o)
		return jfail(j, "out of memory");
	j->s++;
	for (;;) {
		unsigned char c;

		if (j->s >= j->end) {
			free(o);
			return jfail(j, "unterminated string");
		}
		c = (unsigned char)*j->s++;
		if (c == '"')
			break;
		if (c < 0x20) {
			free(o);
			return jfail(j, "control byte in a string");
		}
		if (c != '\\') {
			o[len++] = (char)c;
			continue;
		}
		if (j->s >= j->end) {
			free(o);
			return jfail(j, "unterminated escape");
		}
		c = (unsigned char)*j->s++;
		switch (c) {
		case '"': case '\\': case '/': o[len++] = (char)c; break;
		case 'b': o[len++] = '\b'; break;
		case 'f': o[len++] = '\f'; break;
		case 'n': o[len++] = '\n'; break;
		case 'r': o[len++] = '\r'; break;
		case 't': o[len++] = '\t'; break;
		case 'u': {
			unsigned cp, lo;

			if (j->end - j->s < 4 || hex4(j->s, &cp)) {
				free(o);
				return jfail(j, "bad \\u escape");
			}
			j->s += 4;
			if (cp >= 0xdc00 && cp <= 0xdfff) {
				free(o);
				return jfail(j, "lone low surrogate");
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (j->end - j->s < 6 || j->s[0] != '\\' || j->s[1] != 'u' ||
				    hex4(j->s + 2, &lo) || lo < 0xdc00 || lo > 0xdfff) {
					free(o);
					return jfail(j, "high surrogate without its low half");
				}
				j->s += 6;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			if (!cp) {
				free(o);
				return jfail(j, "\\u0000 in a string");
			}
			len += put_utf8(o + len, cp);
			break;
		}
		default:
			free(o);
			return jfail(j, "unknown escape");
		}
	}
	o[len] = '\0';
	if (!ss_utf8_valid(o)) {
		free(o);
		return jfail(j, "string is not UTF-8");
	}
	*out = o;
	return 0;
}

static int jnumber(struct json *j)
{
	const char *start = j->s;
	int integer = 1;

	if (j->s < j->end && *j->s == '-')
		j->s++;
	if (j->s >= j->end || *j->s < '0' || *j->s > '9')
		return jfail(j, "bad number");
	if (*j->s == '0')
		j->s++;
	else
		while (j->s < j->end && *j->s >= '0' && *j->s <= '9')
			j->s++;
	if (j->s < j->end && *j->s == '.') {
		integer = 0;
		j->s++;
		if (j->s >= j->end || *j->s < '0' || *j->s > '9')
			return jfail(j, "bad fraction");
		while (j->s < j->end && *j->s >= '0' && *j->s <= '9')
			j->s++;
	}
	if (j->s < j->end && (*j->s == 'e' || *j->s == 'E')) {
		integer = 0;
		j->s++;
		if (j->s < j->end && (*j->s == '+' || *j->s == '-'))
			j->s++;
		if (j->s >= j->end || *j->s < '0' || *j->s > '9')
			return jfail(j, "bad exponent");
		while (j->s < j->end && *j->s >= '0' && *j->s <= '9')
			j->s++;
	}
	if (integer) {
		char buf[32];
		size_t len = (size_t)(j->s - start);

		if (len >= sizeof(buf) || (snprintf(buf, sizeof(buf), "%.*s", (int)len, start),
					   wrapped(buf)))
			return jfail(j, "an integer of 2^62 or more: a wrapped unsigned");
	}
	return 0;
}

static int jvalue(struct json *j);

static int jobject(struct json *j)
{
	char *keys[512];
	unsigned nk = 0;
	int rc = 0;

	j->s++;
	ws(j);
	if (j->s < j->end && *j->s == '}') {
		j->s++;
		return 0;
	}
	for (;;) {
		char *k;

		ws(j);
		if (j->s >= j->end || *j->s != '"') {
			rc = jfail(j, "object key is not a string");
			break;
		}
		if (jstring(j, &k)) {
			rc = -1;
			break;
		}
		for (unsigned i = 0; i < nk && !rc; i++)
			if (!strcmp(keys[i], k))
				rc = jfail(j, "duplicate key");
		if (rc || nk == sizeof(keys) / sizeof(keys[0])) {
			free(k);
			rc = rc ? rc : jfail(j, "too many keys");
			break;
		}
		keys[nk++] = k;
		ws(j);
		if (j->s >= j->end || *j->s != ':') {
			rc = jfail(j, "want ':'");
			break;
		}
		j->s++;
		ws(j);
		if (j->want && j->depth == 1 && !strcmp(k, j->want) && j->s < j->end &&
		    *j->s == '"') {
			char *v;

			if (jstring(j, &v)) {
				rc = -1;
				break;
			}
			snprintf(j->out, j->out_n, "%s", v);
			j->found = 1;
			free(v);
		} else if (jvalue(j)) {
			rc = -1;
			break;
		}
		ws(j);
		if (j->s < j->end && *j->s == ',') {
			j->s++;
			continue;
		}
		if (j->s < j->end && *j->s == '}') {
			j->s++;
			break;
		}
		rc = jfail(j, "want ',' or '}'");
		break;
	}
	for (unsigned i = 0; i < nk; i++)
		free(keys[i]);
	return rc;
}

static int jarray(struct json *j)
{
	j->s++;
	ws(j);
	if (j->s < j->end && *j->s == ']') {
		j->s++;
		return 0;
	}
	for (;;) {
		if (jvalue(j))
			return -1;
		ws(j);
		if (j->s < j->end && *j->s == ',') {
			j->s++;
			continue;
		}
		if (j->s < j->end && *j->s == ']') {
			j->s++;
			return 0;
		}
		return jfail(j, "want ',' or ']'");
	}
}

static int jliteral(struct json *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->s) < n || memcmp(j->s, lit, n))
		return jfail(j, "bad literal");
	j->s += n;
	return 0;
}

static int jvalue(struct json *j)
{
	int rc;

	ws(j);
	if (j->s >= j->end)
		return jfail(j, "want a value");
	if (++j->depth > 64)
		return jfail(j, "nested too deep");
	switch (*j->s) {
	case '{': rc = jobject(j); break;
	case '[': rc = jarray(j); break;
	case '"': {
		char *v;

		rc = jstring(j, &v);
		if (!rc)
			free(v);
		break;
	}
	case 't': rc = jliteral(j, "true"); break;
	case 'f': rc = jliteral(j, "false"); break;
	case 'n': rc = jliteral(j, "null"); break;
	default: rc = jnumber(j); break;
	}
	j->depth--;
	return rc;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!fp)
		return NULL;
	for (;;) {
		size_t got;

		if (*len + 1 >= cap) {
			char *b = realloc(buf, cap ? cap * 2 : 4096);

			if (!b) {
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = b;
			cap = cap ? cap * 2 : 4096;
		}
		got = fread(buf + *len, 1, cap - *len - 1, fp);
		*len += got;
		if (!got)
			break;
	}
	fclose(fp);
	buf[*len] = '\0';
	return buf;
}

static int json_file(const char *path, struct json *j)
{
	size_t len;
	char *buf = slurp(path, &len);
	int rc;

	if (!buf)
		return fail(j->why, j->n, "%s: cannot read", path);
	j->start = j->s = buf;
	j->end = buf + len;
	j->path = path;
	rc = jvalue(j);
	if (!rc) {
		ws(j);
		if (j->s != j->end)
			rc = jfail(j, "data after the value");
	}
	free(buf);
	return rc;
}

int strict_json(const char *path, char *why, size_t n)
{
	struct json j = {.why = why, .n = n};

	return json_file(path, &j);
}

int strict_json_string(const char *path, const char *key, char *out, size_t n)
{
	char why[256];
	struct json j = {.why = why, .n = sizeof(why), .want = key, .out = out, .out_n = n};

	return json_file(path, &j) || !j.found ? -1 : 0;
}

/* ---- slabinfo ---- */

int strict_slabinfo(const char *path, char *why, size_t n)
{
	size_t len;
	char *buf = slurp(path, &len), *line, *save = NULL;
	unsigned long lineno = 0;
	int rc = 0;

	if (!buf)
		return fail(why, n, "%s: cannot read", path);
	if (memchr(buf, '\0', len))
		rc = fail(why, n, "%s: NUL byte", path);
	for (line = strtok_r(buf, "\n", &save); line && !rc; line = strtok_r(NULL, "\n", &save)) {
		char *tok[20], *s2 = NULL;
		int nt = 0;

		lineno++;
		if (lineno == 1) {
			if (strcmp(line, "slabinfo - version: 2.1"))
				rc = fail(why, n, "%s:1: not slabinfo 2.1", path);
			continue;
		}
		if (lineno == 2) {
			if (strncmp(line, "# name ", 7))
				rc = fail(why, n, "%s:2: no '# name' header", path);
			continue;
		}
		for (char *t = strtok_r(line, " ", &s2); t && nt < 20; t = strtok_r(NULL, " ", &s2))
			tok[nt++] = t;
		if (nt != 16 || strcmp(tok[6], ":") || strcmp(tok[7], "tunables") ||
		    strcmp(tok[11], ":") || strcmp(tok[12], "slabdata")) {
			rc = fail(why, n, "%s:%lu: want NAME and 5 numbers : tunables 3 : slabdata 3 (%d fields)",
				  path, lineno, nt);
			break;
		}
		for (int i = 1; i < 16 && !rc; i++) {
			if (i == 6 || i == 7 || i == 11 || i == 12)
				continue;
			if (!tok[i][0] || tok[i][strspn(tok[i], "0123456789")] || wrapped(tok[i]))
				rc = fail(why, n, "%s:%lu: field %d '%s' is not a count", path,
					  lineno, i + 1, tok[i]);
		}
	}
	if (!rc && lineno < 2)
		rc = fail(why, n, "%s: no header", path);
	free(buf);
	return rc;
}

/* ---- a directory ---- */

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

int strict_dir(const char *dir, unsigned *checked, char *why, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	*checked = 0;
	if (!d)
		return fail(why, n, "%s: cannot open", dir);
	while (!rc && (e = readdir(d))) {
		char path[4400];

		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (strstr(e->d_name, ".tmp."))
			rc = fail(why, n, "%s: a temporary file left behind", path);
		else if (ends_with(e->d_name, ".csv"))
			rc = strict_csv(path, why, n);
		else if (ends_with(e->d_name, ".json"))
			rc = strict_json(path, why, n);
		else if (!strcmp(e->d_name, "slabinfo") || !strncmp(e->d_name, "slabinfo.", 9))
			rc = strict_slabinfo(path, why, n);
		else
			continue;
		++*checked;
	}
	closedir(d);
	return rc;
}
