/* sensitivity_data.c - gather the settings of `make sensitivity`
 * (sensitivity_data.h). */
#include "sensitivity_data.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "parse.h"

struct param {
	char name[48];
	double value, low, high;
};

/* DIR/params: "NAME VALUE LOW HIGH KIND" lines. */
static int read_params(const char *dir, struct param **out, size_t *n,
		       struct ss_error *err)
{
	char path[4200], *line = NULL;
	size_t cap = 0;
	unsigned long ln = 0;
	FILE *fp;
	int rc = 0;

	*out = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/params", dir);
	if (!(fp = fopen(path, "r")))
		return ss_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	while (!rc && getline(&line, &cap, fp) >= 0) {
		char *tok[6];
		struct param p, *v;
		int k;

		ln++;
		k = ss_split(line, tok, 6);
		if (k == 0)
			continue;
		if (k != 5 || strlen(tok[0]) >= sizeof(p.name) ||
		    ss_parse_decimal(tok[1], &p.value) || ss_parse_decimal(tok[2], &p.low) ||
		    ss_parse_decimal(tok[3], &p.high) || !(p.low <= p.high)) {
			rc = ss_error_at(err, path, ln, "want 'NAME VALUE LOW HIGH KIND'");
			break;
		}
		snprintf(p.name, sizeof(p.name), "%s", tok[0]);
		if (!(v = realloc(*out, (*n + 1) * sizeof(*v)))) {
			rc = ss_errorf(err, "out of memory");
			break;
		}
		*out = v;
		v[(*n)++] = p;
	}
	free(line);
	fclose(fp);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

static int load_setting(const char *dir, const char *name, struct ss_report_figures *f,
			struct ss_error *err)
{
	char path[4300];

	snprintf(path, sizeof(path), "%s/%s/figures.csv", dir, name);
	return ss_report_figures_load(path, f, err);
}

/* The value of figure `name` in a setting; a figure missing there is an
 * error (the settings were made from different code or runs). */
static int value_in(const struct ss_report_figures *f, const char *setting,
		    const char *name, double *v, struct ss_error *err)
{
	const struct ss_report_figure *x = ss_report_figures_find(f, name);

	if (!x)
		return ss_errorf(err, "setting %s has no figure %s", setting, name);
	*v = x->value;
	return 0;
}

/* Rows of one pair of settings (a param, or the corners). */
static int add_pair(const char *dir, const char *step, double low, double high,
		    const char *lo_set, const char *hi_set,
		    const struct ss_report_figures *base, struct ss_report_sensitivity *s,
		    struct ss_error *err)
{
	struct ss_report_figures fl, fh;
	int rc = -1;

	if (load_setting(dir, lo_set, &fl, err))
		return -1;
	if (load_setting(dir, hi_set, &fh, err)) {
		ss_report_figures_free(&fl);
		return -1;
	}
	for (size_t i = 0; i < base->n; i++) {
		struct ss_report_sens_row r = {.low = low, .high = high, .base = base->v[i].value};

		snprintf(r.figure, sizeof(r.figure), "%s", base->v[i].name);
		snprintf(r.step, sizeof(r.step), "%s", step);
		if (value_in(&fl, lo_set, r.figure, &r.at_low, err) ||
		    value_in(&fh, hi_set, r.figure, &r.at_high, err))
			goto out;
		if (ss_report_sens_add(s, &r)) {
			ss_errorf(err, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	ss_report_figures_free(&fl);
	ss_report_figures_free(&fh);
	return rc;
}

int ss_report_sens_gather(const char *dir, struct ss_report_sensitivity *s,
		   struct ss_report_figures *base, struct ss_error *err)
{
	struct param *p;
	size_t np;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	if (read_params(dir, &p, &np, err))
		return -1;
	if (load_setting(dir, "base", base, err))
		goto out;
	for (size_t i = 0; i < np; i++) {
		char lo[64], hi[64];

		snprintf(lo, sizeof(lo), "%s-low", p[i].name);
		snprintf(hi, sizeof(hi), "%s-high", p[i].name);
		if (add_pair(dir, p[i].name, p[i].low, p[i].high, lo, hi, base, s, err))
			goto out;
	}
	if (add_pair(dir, "all", NAN, NAN, "all-low", "all-high", base, s, err))
		goto out;
	rc = 0;
out:
	free(p);
	if (rc) {
		ss_report_sensitivity_free(s);
		ss_report_figures_free(base);
	}
	return rc;
}

static double pct(double v, double base)
{
	return base != 0 ? 100 * (v - base) / fabs(base) : 0;
}

int ss_report_write_tornado_dat(FILE *fp, const struct ss_report_sensitivity *s,
			 const struct ss_report_figures *base)
{
	fprintf(fp, "# tornado.dat - make sensitivity: per headline figure, the steps that\n"
		    "# move it most (largest swing first), the figure at the step's low and\n"
		    "# high end in %% of its base value.  One gnuplot index per figure.\n");
	for (size_t i = 0; i < base->n && i < SS_REPORT_TORNADO_FIGURES; i++) {
		const struct ss_report_figure *f = &base->v[i];
		struct ss_report_interval iv;

		fprintf(fp, "%s# figure %s (%s) = %.6g\n", i ? "\n\n" : "", f->name,
			f->unit, f->value);
		fprintf(fp, "# rank step pct_at_low pct_at_high\n");
		if (ss_report_sens_interval(s, f->name, SS_REPORT_TORNADO_STEPS, &iv) || !iv.ntop) {
			fprintf(fp, "1 (none) 0 0\n"); /* keeps the block's index */
			continue;
		}
		for (unsigned k = 0; k < iv.ntop; k++)
			fprintf(fp, "%u %s %.4f %.4f\n", iv.ntop - k, iv.top[k]->step,
				pct(iv.top[k]->at_low, f->value),
				pct(iv.top[k]->at_high, f->value));
	}
	return ferror(fp) ? -1 : 0;
}
