/* report_figures.c - headline figures, sensitivity.csv and intervals
 * (report_figures.h). */
#include "report_figures.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

static int name_ok(const char *s)
{
	if (!*s || strlen(s) >= SS_REPORT_FIGURE_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._+/:-", *s)))
			return 0;
	return 1;
}

int ss_report_figures_add(struct ss_report_figures *f, const char *name, const char *unit,
		   double value, const char *what)
{
	struct ss_report_figure *x;

	if (!name_ok(name))
		return -1;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct ss_report_figure *v = realloc(f->v, cap * sizeof(*v));

		if (!v)
			return -1;
		f->v = v;
		f->cap = cap;
	}
	x = &f->v[f->n++];
	snprintf(x->name, sizeof(x->name), "%s", name);
	snprintf(x->unit, sizeof(x->unit), "%s", unit);
	snprintf(x->what, sizeof(x->what), "%s", what);
	x->value = value;
	return 0;
}

const struct ss_report_figure *ss_report_figures_find(const struct ss_report_figures *f,
					const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

void ss_report_figures_free(struct ss_report_figures *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

int ss_report_write_figures_csv(FILE *fp, const struct ss_report_figures *f)
{
	fprintf(fp, "figure,unit,value,what\n");
	for (size_t i = 0; i < f->n; i++) {
		fprintf(fp, "%s,%s,%.6f,", f->v[i].name, f->v[i].unit, f->v[i].value);
		ss_csv_put(fp, f->v[i].what);
		fputc('\n', fp);
	}
	return ferror(fp) ? -1 : 0;
}

int ss_report_figures_load(const char *path, struct ss_report_figures *f,
		    struct ss_error *err)
{
	struct ss_csv c;
	unsigned in, iu, iv, iw;
	int r;

	memset(f, 0, sizeof(*f));
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	if (ss_csv_need(&c, "figure", &in, err) || ss_csv_need(&c, "unit", &iu, err) ||
	    ss_csv_need(&c, "value", &iv, err) || ss_csv_need(&c, "what", &iw, err)) {
		ss_csv_close(&c);
		return -1;
	}
	while ((r = ss_csv_next(&c, err)) == 1) {
		double v;

		if (ss_csv_num(&c, iv, &v, err)) {
			r = -1;
			break;
		}
		if (ss_report_figures_add(f, ss_csv_get(&c, in), ss_csv_get(&c, iu), v,
				   ss_csv_get(&c, iw))) {
			r = -1;
			ss_errorf(err, "%s:%lu: bad figure name '%.64s' (or out of memory)",
				  path, c.line, ss_csv_get(&c, in));
			break;
		}
	}
	ss_csv_close(&c);
	if (r < 0)
		ss_report_figures_free(f);
	return r < 0 ? -1 : 0;
}

/* ---- sensitivity.csv ---- */

int ss_report_sens_add(struct ss_report_sensitivity *s, const struct ss_report_sens_row *r)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct ss_report_sens_row *v = realloc(s->rows, cap * sizeof(*v));

		if (!v)
			return -1;
		s->rows = v;
		s->cap = cap;
	}
	s->rows[s->n++] = *r;
	return 0;
}

void ss_report_sensitivity_free(struct ss_report_sensitivity *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

static const char *const sens_cols[] = {"figure", "step", "low", "high",
					"figure_at_low", "figure_at_high",
					"figure_base"};
#define NR_SENS_COLS (sizeof(sens_cols) / sizeof(sens_cols[0]))

static void put_num(FILE *fp, double v, const char *sep)
{
	if (isnan(v))
		fprintf(fp, "%s", sep);
	else
		fprintf(fp, "%.6g%s", v, sep);
}

int ss_report_write_sensitivity_csv(FILE *fp, const struct ss_report_sensitivity *s)
{
	for (size_t k = 0; k < NR_SENS_COLS; k++)
		fprintf(fp, "%s%s", sens_cols[k], k + 1 < NR_SENS_COLS ? "," : "\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_report_sens_row *r = &s->rows[i];

		fprintf(fp, "%s,%s,", r->figure, r->step);
		put_num(fp, r->low, ",");
		put_num(fp, r->high, ",");
		fprintf(fp, "%.6f,%.6f,%.6f\n", r->at_low, r->at_high, r->base);
	}
	return ferror(fp) ? -1 : 0;
}

/* A number, or NAN for an empty field (the corners' low and high). */
static int num_or_empty(const struct ss_csv *c, unsigned idx, double *v,
			struct ss_error *err)
{
	if (!*ss_csv_get(c, idx)) {
		*v = NAN;
		return 0;
	}
	return ss_csv_num(c, idx, v, err);
}

int ss_report_sensitivity_load(const char *path, struct ss_report_sensitivity *s,
			struct ss_error *err)
{
	struct ss_csv c;
	unsigned idx[NR_SENS_COLS];
	int r;

	memset(s, 0, sizeof(*s));
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	for (size_t k = 0; k < NR_SENS_COLS; k++)
		if (ss_csv_need(&c, sens_cols[k], &idx[k], err)) {
			ss_csv_close(&c);
			return -1;
		}
	while ((r = ss_csv_next(&c, err)) == 1) {
		struct ss_report_sens_row row;
		const char *fig = ss_csv_get(&c, idx[0]), *step = ss_csv_get(&c, idx[1]);

		if (strlen(fig) >= sizeof(row.figure) || strlen(step) >= sizeof(row.step) ||
		    !*fig || !*step) {
			r = ss_errorf(err, "%s:%lu: empty or too long figure or step name",
				      path, c.line);
			break;
		}
		snprintf(row.figure, sizeof(row.figure), "%s", fig);
		snprintf(row.step, sizeof(row.step), "%s", step);
		if (num_or_empty(&c, idx[2], &row.low, err) ||
		    num_or_empty(&c, idx[3], &row.high, err) ||
		    ss_csv_num(&c, idx[4], &row.at_low, err) ||
		    ss_csv_num(&c, idx[5], &row.at_high, err) ||
		    ss_csv_num(&c, idx[6], &row.base, err)) {
			r = -1;
			break;
		}
		if (ss_report_sens_add(s, &row)) {
			r = ss_errorf(err, "out of memory");
			break;
		}
	}
	ss_csv_close(&c);
	if (r < 0)
		ss_report_sensitivity_free(s);
	return r < 0 ? -1 : 0;
}

static double swing(const struct ss_report_sens_row *r)
{
	return fabs(r->at_high - r->at_low);
}

int ss_report_sens_interval(const struct ss_report_sensitivity *s, const char *figure,
		     unsigned k, struct ss_report_interval *iv)
{
	bool seen = false;

	memset(iv, 0, sizeof(*iv));
	if (k > sizeof(iv->top) / sizeof(iv->top[0]))
		k = sizeof(iv->top) / sizeof(iv->top[0]);
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_report_sens_row *r = &s->rows[i];
		unsigned j;

		if (strcmp(r->figure, figure))
			continue;
		if (!seen) {
			iv->lo = iv->hi = iv->base = r->base;
			seen = true;
		}
		iv->lo = fmin(iv->lo, fmin(r->at_low, r->at_high));
		iv->hi = fmax(iv->hi, fmax(r->at_low, r->at_high));
		if (isnan(r->low) || swing(r) == 0) /* a corner, or no effect */
			continue;
		/* insert by swing, largest first; ties keep file order */
		for (j = iv->ntop; j > 0 && swing(iv->top[j - 1]) < swing(r); j--)
			if (j < k)
				iv->top[j] = iv->top[j - 1];
		if (j < k) {
			iv->top[j] = r;
			if (iv->ntop < k)
				iv->ntop++;
		}
	}
	return seen ? 0 : -1;
}

void ss_report_interval_str(const struct ss_report_interval *iv, char *buf, size_t n)
{
	snprintf(buf, n, "%.4g–%.4g", iv->lo, iv->hi);
}

void ss_report_top_steps_str(const struct ss_report_interval *iv, unsigned k, char *buf,
		      size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < iv->ntop && i < k && len + 1 < n; i++) {
		const struct ss_report_sens_row *r = iv->top[i];
		int w = snprintf(buf + len, n - len, "%s%s %.4g–%.4g (%.4g–%.4g)",
				 i ? "; " : "", r->step, r->low, r->high,
				 r->at_low, r->at_high);

		if (w < 0)
			break;
		len += (size_t)w < n - len ? (size_t)w : n - len - 1;
	}
	if (!iv->ntop)
		snprintf(buf, n, "no step moves it");
}
