/* csv.c - strict CSV reading for the report builder (see csv.h). */
#include "csv.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>


/* Read one physical line into c->buf without its line end.
 * 1 = line, 0 = end of file, -1 = error. */
static int read_line(struct ss_csv *c, struct ss_error *err)
{
	ssize_t n;

	errno = 0;
	n = getline(&c->buf, &c->cap, c->fp);
	if (n < 0) {
		if (ferror(c->fp))
			return ss_error_at(err, c->path, c->line + 1,
					   "read error: %s", strerror(errno));
		return 0;
	}
	c->line++;
	if (strlen(c->buf) != (size_t)n)
		return ss_error_at(err, c->path, c->line, "NUL byte in line");
	if (n > 0 && c->buf[n - 1] == '\n')
		c->buf[--n] = '\0';
	if (n > 0 && c->buf[n - 1] == '\r')
		c->buf[--n] = '\0';
	return 1;
}

/* Next line that is not a comment: 1 = line, 0 = end, -1 = error. */
static int next_record_line(struct ss_csv *c, struct ss_error *err)
{
	int r;

	while ((r = read_line(c, err)) == 1) {
		if (c->buf[0] != '#')
			break;
		if (c->on_comment &&
		    c->on_comment(c->ctx, c->buf + 1, c->line, err))
			return -1;
	}
	if (r == 1 && c->buf[0] == '\0')
		return ss_error_at(err, c->path, c->line, "empty line");
	return r;
}

/* Parse a quoted field starting at *p (on the opening quote), unescaping
 * in place to *w.  Leaves *p after the closing quote. */
static int split_quoted(struct ss_csv *c, char **p, char **w,
			struct ss_error *err)
{
	char *r = *p + 1, *o = *w;

	for (;;) {
		if (*r == '\0')
			return ss_error_at(err, c->path, c->line,
					   "unterminated quoted field");
		if (*r == '"' && r[1] == '"') {
			*o++ = '"';
			r += 2;
		} else if (*r == '"') {
			r++;
			break;
		} else {
			*o++ = *r++;
		}
	}
	if (*r != ',' && *r != '\0')
		return ss_error_at(err, c->path, c->line,
				   "text after closing quote");
	*p = r;
	*w = o;
	return 0;
}

/* Split c->buf in place into tok (at most max); returns the field count,
 * or -1 on error.  Counting goes on past max so the message is exact. */
static long split_line(struct ss_csv *c, char **tok, unsigned max,
		       struct ss_error *err)
{
	char *p = c->buf, *w = c->buf;
	unsigned long n = 0;

	for (;;) {
		char *start = w;

		if (*p == '"') {
			if (split_quoted(c, &p, &w, err))
				return -1;
		} else {
			while (*p && *p != ',') {
				if (*p == '"')
					return ss_error_at(err, c->path, c->line,
							   "quote inside unquoted field %lu",
							   n + 1);
				*w++ = *p++;
			}
		}
		if (n < max)
			tok[n] = start;
		n++;
		if (*p == '\0') {
			*w = '\0';
			return (long)n;
		}
		p++; /* the comma */
		*w++ = '\0';
	}
}

static int read_header(struct ss_csv *c, struct ss_error *err)
{
	char **tok;
	long n;
	int r = next_record_line(c, err);

	if (r < 0)
		return -1;
	if (r == 0)
		return ss_error_at(err, c->path, 0, "empty file (no header)");
	c->hdr_line = c->line;
	/* A line of L bytes has at most L + 1 fields. */
	tok = calloc(strlen(c->buf) + 1, sizeof(*tok));
	if (!tok)
		return ss_errorf(err, "%s: out of memory", c->path);
	n = split_line(c, tok, (unsigned)strlen(c->buf) + 1, err);
	if (n < 0)
		goto fail;
	c->hdr = calloc((size_t)n, sizeof(*c->hdr));
	c->fields = calloc((size_t)n, sizeof(*c->fields));
	if (!c->hdr || !c->fields) {
		ss_errorf(err, "%s: out of memory", c->path);
		goto fail;
	}
	for (long i = 0; i < n; i++) {
		if (tok[i][0] == '\0') {
			ss_error_at(err, c->path, c->line,
				    "empty column name (column %ld)", i + 1);
			goto fail;
		}
		for (long j = 0; j < i; j++)
			if (!strcmp(tok[i], tok[j])) {
				ss_error_at(err, c->path, c->line,
					    "duplicate column '%s'", tok[i]);
				goto fail;
			}
		c->hdr[i] = strdup(tok[i]);
		c->ncols = (unsigned)i + 1;
		if (!c->hdr[i]) {
			ss_errorf(err, "%s: out of memory", c->path);
			goto fail;
		}
	}
	free(tok);
	return 0;
fail:
	free(tok);
	return -1;
}

int ss_csv_open(struct ss_csv *c, const char *path,
		ss_csv_comment_fn on_comment, void *ctx, struct ss_error *err)
{
	memset(c, 0, sizeof(*c));
	if (strlen(path) >= sizeof(c->path))
		return ss_errorf(err, "%s: path too long", path);
	strcpy(c->path, path);
	c->on_comment = on_comment;
	c->ctx = ctx;
	c->fp = fopen(path, "r");
	if (!c->fp)
		return ss_errorf(err, "%s: cannot open: %s", path,
				 strerror(errno));
	if (read_header(c, err)) {
		ss_csv_close(c);
		return -1;
	}
	return 0;
}

void ss_csv_close(struct ss_csv *c)
{
	if (c->fp)
		fclose(c->fp);
	c->fp = NULL;
	for (unsigned i = 0; c->hdr && i < c->ncols; i++)
		free(c->hdr[i]);
	free(c->hdr);
	free(c->fields);
	free(c->buf);
	c->hdr = NULL;
	c->fields = NULL;
	c->buf = NULL;
	c->ncols = 0;
}

int ss_csv_col(const struct ss_csv *c, const char *name)
{
	for (unsigned i = 0; i < c->ncols; i++)
		if (!strcmp(c->hdr[i], name))
			return (int)i;
	return -1;
}

int ss_csv_need(const struct ss_csv *c, const char *name, unsigned *idx,
		struct ss_error *err)
{
	int i = ss_csv_col(c, name);

	if (i < 0)
		return ss_error_at(err, c->path, c->hdr_line,
				   "missing column '%s'", name);
	*idx = (unsigned)i;
	return 0;
}

int ss_csv_next(struct ss_csv *c, struct ss_error *err)
{
	long n;
	int r = next_record_line(c, err);

	if (r <= 0)
		return r;
	n = split_line(c, c->fields, c->ncols, err);
	if (n < 0)
		return -1;
	if ((unsigned long)n != c->ncols)
		return ss_error_at(err, c->path, c->line,
				   "%ld fields, header has %u", n, c->ncols);
	return 1;
}

const char *ss_csv_get(const struct ss_csv *c, unsigned idx)
{
	return idx < c->ncols ? c->fields[idx] : "";
}

int ss_csv_u64(const struct ss_csv *c, unsigned idx, uint64_t *out,
	       struct ss_error *err)
{
	const char *s = ss_csv_get(c, idx);
	const char *d;
	char *end;

	/* Decimal digits only (ss_parse_u64 would read 0x.. as hex and 0..
	 * as octal). */
	for (d = s; *d && isdigit((unsigned char)*d); d++)
		;
	errno = 0;
	if (*s && !*d)
		*out = strtoull(s, &end, 10);
	if (*s == '\0' || *d || errno)
		return ss_error_at(err, c->path, c->line,
				   "column '%s': '%s' is not an unsigned integer",
				   c->hdr[idx], s);
	return 0;
}

int ss_parse_decimal(const char *s, double *out)
{
	const char *p = s;
	char *end;

	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end)
		return -1;
	return 0;
}

int ss_csv_num(const struct ss_csv *c, unsigned idx, double *out,
	       struct ss_error *err)
{
	const char *s = ss_csv_get(c, idx);

	if (ss_parse_decimal(s, out))
		return ss_error_at(err, c->path, c->line,
				   "column '%s': '%s' is not a number",
				   c->hdr[idx], s);
	return 0;
}
