/* report_seed.c - seed tables and the seed-vs-model checks (report_seed.h). */
#include "report_seed.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "parse.h"

struct seed_ctx {
	struct ss_report_seed *seed;
	const char *path;
};

/* "# NAME: N [TEXT]": a noise figure and what it is the noise of. */
static int parse_noise(struct seed_ctx *x, const char *name, char *arg,
		       unsigned long line, double *value, char *what,
		       size_t what_size, struct ss_error *err)
{
	char *num = arg + strspn(arg, " \t");
	char *rest = num + strcspn(num, " \t");

	if (*value >= 0)
		return ss_error_at(err, x->path, line, "second %s line", name);
	if (*rest)
		*rest++ = '\0';
	rest += strspn(rest, " \t");
	if (ss_parse_decimal(num, value) || *value < 0)
		return ss_error_at(err, x->path, line, "%s: '%s' is not a number of %s",
				   name, num, strstr(name, "_ms") ? "ms" : "KiB");
	if (strlen(rest) >= what_size)
		return ss_error_at(err, x->path, line, "%s: text too long", name);
	if (*rest)
		strcpy(what, rest);
	return 0;
}

static int parse_saving(struct seed_ctx *x, char *arg, unsigned long line,
			struct ss_error *err)
{
	struct ss_report_seed *seed = x->seed;
	struct ss_report_saving *sv;
	char *tok[4];
	int n = ss_split(arg, tok, 4);

	if (n < 2 || n > 3)
		return ss_error_at(err, x->path, line,
				   "saving: expected FROM TO [ESTIMATE_KIB]");
	if (!ss_report_name_ok(tok[0]) || !ss_report_name_ok(tok[1]))
		return ss_error_at(err, x->path, line, "saving: bad variant name");
	sv = realloc(seed->savings, (seed->nsavings + 1) * sizeof(*sv));
	if (!sv)
		return ss_errorf(err, "out of memory");
	seed->savings = sv;
	sv += seed->nsavings;
	memset(sv, 0, sizeof(*sv));
	strcpy(sv->from, tok[0]);
	strcpy(sv->to, tok[1]);
	sv->estimate = -1;
	sv->line = line;
	if (n == 3 && (ss_parse_decimal(tok[2], &sv->estimate) ||
		       sv->estimate < 0))
		return ss_error_at(err, x->path, line,
				   "saving: '%s' is not a number of KiB", tok[2]);
	seed->nsavings++;
	return 0;
}

/* Comment lines: the directives, anything else is free text. */
static int on_comment(void *ctx, const char *text, unsigned long line,
		      struct ss_error *err)
{
	struct seed_ctx *x = ctx;
	char buf[1024];
	const char *p = text + strspn(text, " \t");

	if (strncmp(p, "noise_kib:", 10) && strncmp(p, "saving:", 7) &&
	    strncmp(p, "time_noise_ms:", 14))
		return 0;
	if (strlen(p) >= sizeof(buf))
		return ss_error_at(err, x->path, line, "directive too long");
	strcpy(buf, p);
	if (!strncmp(buf, "noise_kib:", 10))
		return parse_noise(x, "noise_kib", buf + 10, line,
				   &x->seed->noise_kib, x->seed->noise_what,
				   sizeof(x->seed->noise_what), err);
	if (!strncmp(buf, "time_noise_ms:", 14))
		return parse_noise(x, "time_noise_ms", buf + 14, line,
				   &x->seed->time_noise_ms,
				   x->seed->time_noise_what,
				   sizeof(x->seed->time_noise_what), err);
	if (!strncmp(buf, "saving:", 7))
		return parse_saving(ctx, buf + 7, line, err);
	return 0;
}

struct seed_cols {
	unsigned variant, what, avg, min, max, time;
};

static int read_row(struct ss_csv *c, const struct seed_cols *k,
		    struct ss_report_seed *seed, struct ss_error *err)
{
	struct ss_report_seed_row row = {0}, *rows;
	const char *v = ss_csv_get(c, k->variant);
	const char *what = ss_csv_get(c, k->what);

	if (!ss_report_name_ok(v))
		return ss_error_at(err, c->path, c->line,
				   "variant '%s' is not [A-Za-z0-9._+-]+", v);
	if (ss_report_seed_find(seed, v))
		return ss_error_at(err, c->path, c->line,
				   "variant '%s' listed twice", v);
	if (strlen(what) >= sizeof(row.what))
		return ss_error_at(err, c->path, c->line,
				   "what_changed too long");
	strcpy(row.variant, v);
	strcpy(row.what, what);
	if (ss_csv_num(c, k->avg, &row.avg, err) ||
	    ss_csv_num(c, k->min, &row.min, err) ||
	    ss_csv_num(c, k->max, &row.max, err) ||
	    ss_csv_num(c, k->time, &row.time_s, err))
		return -1;
	if (row.min < 0 || row.time_s < 0 || row.min > row.avg ||
	    row.avg > row.max)
		return ss_error_at(err, c->path, c->line,
				   "need 0 <= diff_min_kib <= diff_avg_kib <= diff_max_kib and time_avg_s >= 0");
	rows = realloc(seed->rows, (seed->nrows + 1) * sizeof(*rows));
	if (!rows)
		return ss_errorf(err, "out of memory");
	seed->rows = rows;
	seed->rows[seed->nrows++] = row;
	return 0;
}

static int check_savings(const char *path, const struct ss_report_seed *seed,
			 struct ss_error *err)
{
	for (unsigned i = 0; i < seed->nsavings; i++) {
		const struct ss_report_saving *sv = &seed->savings[i];

		if (!ss_report_seed_find(seed, sv->from) || !ss_report_seed_find(seed, sv->to))
			return ss_error_at(err, path, sv->line,
					   "saving %s -> %s names a variant the table does not have",
					   sv->from, sv->to);
	}
	return 0;
}

int ss_report_seed_load(const char *path, struct ss_report_seed *seed, struct ss_error *err)
{
	struct seed_ctx x = {seed, path};
	struct seed_cols k;
	struct ss_csv c;
	int r;

	memset(seed, 0, sizeof(*seed));
	seed->noise_kib = -1;
	strcpy(seed->noise_what, "one seed mean");
	seed->time_noise_ms = -1;
	strcpy(seed->time_noise_what, "a difference of two seed means");
	if (ss_csv_open(&c, path, on_comment, &x, err))
		goto fail;
	if (ss_csv_need(&c, "variant", &k.variant, err) ||
	    ss_csv_need(&c, "what_changed", &k.what, err) ||
	    ss_csv_need(&c, "diff_avg_kib", &k.avg, err) ||
	    ss_csv_need(&c, "diff_min_kib", &k.min, err) ||
	    ss_csv_need(&c, "diff_max_kib", &k.max, err) ||
	    ss_csv_need(&c, "time_avg_s", &k.time, err))
		goto fail_close;
	while ((r = ss_csv_next(&c, err)) == 1)
		if (read_row(&c, &k, seed, err))
			goto fail_close;
	if (r < 0)
		goto fail_close;
	ss_csv_close(&c);
	if (!seed->nrows) {
		ss_errorf(err, "%s: no variant rows", path);
		goto fail;
	}
	if (check_savings(path, seed, err))
		goto fail;
	return 0;
fail_close:
	ss_csv_close(&c);
fail:
	ss_report_seed_free(seed);
	return -1;
}

void ss_report_seed_free(struct ss_report_seed *seed)
{
	free(seed->rows);
	free(seed->savings);
	seed->rows = NULL;
	seed->savings = NULL;
	seed->nrows = seed->nsavings = 0;
}

const struct ss_report_seed_row *ss_report_seed_find(const struct ss_report_seed *seed,
				       const char *variant)
{
	for (unsigned i = 0; i < seed->nrows; i++)
		if (!strcmp(seed->rows[i].variant, variant))
			return &seed->rows[i];
	return NULL;
}

static void finish_check(struct ss_report_check *c)
{
	c->diff = c->model - c->seed;
	if (c->seed != 0)
		c->pct = c->diff * 100 / fabs(c->seed);
	else
		c->pct = c->diff == 0 ? 0 : INFINITY;
}

void ss_report_check_footprint(const struct ss_report_seed_row *s, double model_kib,
			struct ss_report_check *c)
{
	memset(c, 0, sizeof(*c));
	c->seed = s->avg;
	c->lo = s->min;
	c->hi = s->max;
	c->model = model_kib;
	finish_check(c);
}

/* The seed's saving range pairs the extreme runs: the smallest saving is
 * the lowest FROM run minus the highest TO run. */
void ss_report_check_saving(const struct ss_report_seed_row *from,
		     const struct ss_report_seed_row *to, double model_from_kib,
		     double model_to_kib, struct ss_report_check *c)
{
	memset(c, 0, sizeof(*c));
	c->seed = from->avg - to->avg;
	c->lo = from->min - to->max;
	c->hi = from->max - to->min;
	c->model = model_from_kib - model_to_kib;
	finish_check(c);
}

/* Append to a sentence buffer, never overflowing. */
struct sbuf {
	char *p;
	size_t n, len;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->len + 1 >= b->n)
		return;
	va_start(ap, fmt);
	k = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
	va_end(ap);
	if (k > 0)
		b->len += (size_t)k < b->n - b->len ? (size_t)k : b->n - b->len - 1;
}

/* Where the model falls against the seed's runs. */
static void explain_range(struct sbuf *b, const struct ss_report_check *c)
{
	if (c->model >= c->lo && c->model <= c->hi)
		sb_add(b, "within the seed's run-to-run range (%.0f–%.0f KiB)",
		       c->lo, c->hi);
	else if (c->model > c->hi)
		sb_add(b, "%.0f KiB above the seed's highest run (range %.0f–%.0f KiB)",
		       c->model - c->hi, c->lo, c->hi);
	else
		sb_add(b, "%.0f KiB below the seed's lowest run (range %.0f–%.0f KiB)",
		       c->lo - c->model, c->lo, c->hi);
}

/* The difference against the seed's noise (noise = 0: not stated). */
static void explain_noise(struct sbuf *b, const struct ss_report_check *c,
			  double noise, const char *what)
{
	if (noise <= 0)
		return;
	if (fabs(c->diff) <= noise)
		sb_add(b, "; the difference is within the ±%.0f KiB noise of %s",
		       noise, what);
	else
		sb_add(b, "; the difference is %.1f× the ±%.0f KiB noise of %s",
		       fabs(c->diff) / noise, noise, what);
}

void ss_report_explain_footprint(const struct ss_report_check *c, const struct ss_report_seed *seed,
			  char *buf, size_t n)
{
	struct sbuf b = {buf, n, 0};

	buf[0] = '\0';
	if (fabs(c->diff) < 0.5)
		sb_add(&b, "model equals the seed's mean to the KiB; ");
	else
		sb_add(&b, "model %s than the seed's mean by %.0f KiB (%+.1f%%); ",
		       c->diff > 0 ? "higher" : "lower", fabs(c->diff), c->pct);
	explain_range(&b, c);
	explain_noise(&b, c, seed->noise_kib, seed->noise_what);
	sb_add(&b, ".");
}

void ss_report_explain_saving(const struct ss_report_check *c, const struct ss_report_seed *seed,
		       double estimate, char *buf, size_t n)
{
	struct sbuf b = {buf, n, 0};
	char what[200];

	buf[0] = '\0';
	if (c->model >= 0)
		sb_add(&b, "model saves %.0f KiB, the seed %.0f KiB", c->model,
		       c->seed);
	else
		sb_add(&b, "model grows by %.0f KiB where the seed saves %.0f KiB",
		       -c->model, c->seed);
	if (fabs(c->diff) >= 0.5)
		sb_add(&b, " (model %.0f KiB %s, %+.1f%%)", fabs(c->diff),
		       c->diff > 0 ? "more" : "less", c->pct);
	sb_add(&b, "; ");
	explain_range(&b, c);
	snprintf(what, sizeof(what), "a difference of two means (√2 × the ±%.0f KiB of %s)",
		 seed->noise_kib, seed->noise_what);
	explain_noise(&b, c, seed->noise_kib > 0 ? seed->noise_kib * sqrt(2) : 0,
		      what);
	if (estimate >= 0 && fabs(c->model - estimate) < 0.5)
		sb_add(&b, "; the author's own estimate is %.0f KiB, which the model matches",
		       estimate);
	else if (estimate >= 0)
		sb_add(&b, "; the author's own estimate is %.0f KiB, the model %.0f KiB %s it",
		       estimate, fabs(c->model - estimate),
		       c->model > estimate ? "above" : "below");
	sb_add(&b, ".");
}
