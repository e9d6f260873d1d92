/* sweep_data.c - read the per-value summaries of a sweep (sweep_data.h). */
#include "sweep_data.h"

#include <stdlib.h>
#include <string.h>

#include "csv.h"

static int set_header(struct ss_sweep *sw, const struct ss_csv *c,
		      struct ss_error *err)
{
	if (sw->header) {
		bool same = sw->ncols == c->ncols;

		for (unsigned k = 0; same && k < c->ncols; k++)
			same = !strcmp(sw->header[k], c->hdr[k]);
		return same ? 0 : ss_error_at(err, c->path, c->hdr_line,
					      "header differs from the first value's summary.csv");
	}
	sw->header = calloc(c->ncols, sizeof(*sw->header));
	if (!sw->header)
		return ss_errorf(err, "out of memory");
	sw->ncols = c->ncols;
	for (unsigned k = 0; k < c->ncols; k++)
		if (!(sw->header[k] = strdup(c->hdr[k])))
			return ss_errorf(err, "out of memory");
	return 0;
}

/* name_index()'s answers that are no index. */
enum { NAME_SKIP = -1, NAME_OUT_OF_MEMORY = -2 };

/* Index of name in l, adding it unless the list is fixed (NAME_SKIP: not
 * in a fixed list, the row is skipped). */
static int name_index(struct ss_report_names *l, bool fixed, const char *name)
{
	int i = ss_report_names_find(l, name);

	if (i >= 0 || fixed)
		return i;
	return ss_report_names_add(l, name) ? NAME_OUT_OF_MEMORY : (int)l->n - 1;
}

static int add_row(struct ss_sweep *sw, struct ss_sweep_point *p, const struct ss_csv *c,
		   const unsigned *idx, struct ss_error *err)
{
	const char *wl = ss_csv_get(c, idx[0]);
	int vi, mi;
	struct ss_sweep_row *r;

	if (strcmp(wl, sw->workload))
		return ss_error_at(err, c->path, c->line,
				   "workload '%s', expected '%s'", wl, sw->workload);
	vi = name_index(&sw->variants, sw->only_variants, ss_csv_get(c, idx[1]));
	mi = name_index(&sw->models, sw->only_models, ss_csv_get(c, idx[2]));
	if (vi == NAME_OUT_OF_MEMORY || mi == NAME_OUT_OF_MEMORY)
		return ss_errorf(err, "out of memory");
	if (vi == NAME_SKIP || mi == NAME_SKIP)
		return 0;
	for (size_t k = 0; k < p->n; k++)
		if (p->rows[k].vi == (unsigned)vi && p->rows[k].mi == (unsigned)mi)
			return ss_error_at(err, c->path, c->line,
					   "variant %s, model %s: second row",
					   sw->variants.v[vi], sw->models.v[mi]);
	r = realloc(p->rows, (p->n + 1) * sizeof(*r));
	if (!r)
		return ss_errorf(err, "out of memory");
	p->rows = r;
	r += p->n;
	r->vi = (unsigned)vi;
	r->mi = (unsigned)mi;
	r->f = calloc(c->ncols, sizeof(*r->f));
	if (!r->f)
		return ss_errorf(err, "out of memory");
	p->n++;
	for (unsigned k = 0; k < c->ncols; k++)
		if (!(r->f[k] = strdup(ss_csv_get(c, k))))
			return ss_errorf(err, "out of memory");
	return 0;
}

static int load_point(struct ss_sweep *sw, struct ss_sweep_point *p, struct ss_error *err)
{
	static const char *const key[3] = {"workload", "variant", "model"};
	char path[4400];
	struct ss_csv c;
	unsigned idx[3];
	int r;

	snprintf(path, sizeof(path), "%s/%s/summary.csv", sw->dir, p->value);
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	r = set_header(sw, &c, err);
	for (int k = 0; !r && k < 3; k++)
		r = ss_csv_need(&c, key[k], &idx[k], err);
	while (!r && (r = ss_csv_next(&c, err)) == 1)
		r = add_row(sw, p, &c, idx, err);
	ss_csv_close(&c);
	return r;
}

int ss_sweep_load(struct ss_sweep *sw, char **values, unsigned nvalues,
	    struct ss_error *err)
{
	sw->pt = calloc(nvalues, sizeof(*sw->pt));
	if (!sw->pt)
		return ss_errorf(err, "out of memory");
	sw->npt = nvalues;
	sw->numeric = true;
	for (unsigned i = 0; i < nvalues; i++) {
		sw->pt[i].value = values[i];
		if (ss_parse_decimal(values[i], &sw->pt[i].x))
			sw->numeric = false;
	}
	for (unsigned i = 0; i < nvalues; i++) {
		if (!sw->numeric)
			sw->pt[i].x = i;
		if (load_point(sw, &sw->pt[i], err))
			return -1;
	}
	if (!sw->variants.n || !sw->models.n)
		return ss_errorf(err, "%s: no summary row of the listed variants and models",
				 sw->dir);
	return 0;
}

void ss_sweep_free(struct ss_sweep *sw)
{
	for (unsigned i = 0; sw->pt && i < sw->npt; i++) {
		for (size_t r = 0; r < sw->pt[i].n; r++) {
			for (unsigned k = 0; k < sw->ncols; k++)
				free(sw->pt[i].rows[r].f ? sw->pt[i].rows[r].f[k] : NULL);
			free(sw->pt[i].rows[r].f);
		}
		free(sw->pt[i].rows);
	}
	free(sw->pt);
	for (unsigned k = 0; sw->header && k < sw->ncols; k++)
		free(sw->header[k]);
	free(sw->header);
	ss_report_names_free(&sw->variants);
	ss_report_names_free(&sw->models);
	sw->pt = NULL;
	sw->header = NULL;
}

const struct ss_sweep_row *ss_sweep_find(const struct ss_sweep *sw, unsigned p, unsigned vi,
			     unsigned mi)
{
	for (size_t k = 0; k < sw->pt[p].n; k++)
		if (sw->pt[p].rows[k].vi == vi && sw->pt[p].rows[k].mi == mi)
			return &sw->pt[p].rows[k];
	return NULL;
}

int ss_sweep_figure_col(const struct ss_sweep *sw, const char *figure,
		  struct ss_error *err)
{
	double v;
	int col = -1;

	for (unsigned k = 0; k < sw->ncols; k++)
		if (!strcmp(sw->header[k], figure))
			col = (int)k;
	if (col < 0)
		return ss_errorf(err, "figure '%s' is not a summary.csv column", figure);
	for (unsigned p = 0; p < sw->npt; p++)
		for (size_t r = 0; r < sw->pt[p].n; r++)
			if (ss_parse_decimal(sw->pt[p].rows[r].f[col], &v))
				return ss_errorf(err, "%s/%s/summary.csv: figure '%s' is '%s', not a number",
						 sw->dir, sw->pt[p].value, figure,
						 sw->pt[p].rows[r].f[col]);
	return col;
}

void ss_sweep_figure_label(const char *figure, char *buf, size_t n)
{
	static const struct {
		const char *name, *label;
	} known[] = {
		{"footprint_kib", "slab footprint (KiB)"},
		{"sim_time_ms", "simulated time (ms)"},
		{"alloc_time_ms", "allocator time, all CPUs (ms)"},
		{"work_time_ms", "work time, all CPUs (ms)"},
		{"slab_pages", "slab pages"},
		{"fastpath_pct", "fast-path operations (%)"},
	};
	static const struct {
		const char *suffix, *unit;
	} units[] = {
		{"_kib", "KiB"}, {"_bytes", "bytes"}, {"_ms", "ms"}, {"_ns", "ns"},
		{"_pct", "%"},
	};
	size_t len = strlen(figure);

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(figure, known[i].name)) {
			snprintf(buf, n, "%s", known[i].label);
			return;
		}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t sl = strlen(units[i].suffix);

		if (len > sl && !strcmp(figure + len - sl, units[i].suffix)) {
			snprintf(buf, n, "%.*s (%s)", (int)(len - sl), figure,
				 units[i].unit);
			return;
		}
	}
	snprintf(buf, n, "%s", figure);
}

int ss_sweep_write_csv(FILE *fp, const struct ss_sweep *sw)
{
	fputs("param,value", fp);
	for (unsigned k = 0; k < sw->ncols; k++) {
		fputc(',', fp);
		ss_csv_put(fp, sw->header[k]);
	}
	fputc('\n', fp);
	for (unsigned p = 0; p < sw->npt; p++)
		for (unsigned vi = 0; vi < sw->variants.n; vi++)
			for (unsigned mi = 0; mi < sw->models.n; mi++) {
				const struct ss_sweep_row *r = ss_sweep_find(sw, p, vi, mi);

				if (!r)
					continue;
				ss_csv_put(fp, sw->param);
				fputc(',', fp);
				ss_csv_put(fp, sw->pt[p].value);
				for (unsigned k = 0; k < sw->ncols; k++) {
					fputc(',', fp);
					ss_csv_put(fp, r->f[k]);
				}
				fputc('\n', fp);
			}
	return ferror(fp) ? -1 : 0;
}
