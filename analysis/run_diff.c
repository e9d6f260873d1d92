/* run_diff.c - two runs compared cache by cache (run_diff.h). */
#include "run_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_runs.h"
#include "csv.h"
#include "md_table.h"
#include "sort.h"

/* What the totals need of a run's summary.csv. */
struct run_sum {
	char label[256];	/* "workload variant model, target" */
	double footprint_kib, requested_bytes, live_objects, peak_kib, sim_ms;
};

static int read_summary(const char *dir, struct run_sum *s, struct ss_error *err)
{
	static const char *const text[] = {"workload", "variant", "model", "target"};
	static const char *const num[] = {"footprint_kib", "requested_bytes", "live_objects",
					  "sim_time_ms"};
	double *out[] = {&s->footprint_kib, &s->requested_bytes, &s->live_objects, &s->sim_ms};
	const char *t[4];
	char path[4200];
	struct ss_csv c;
	unsigned idx;
	int pk, r = -1;

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	if (ss_csv_next(&c, err) != 1) {
		if (!err->msg[0])
			ss_error_at(err, path, c.line, "no data row");
		goto out;
	}
	for (int k = 0; k < 4; k++) {
		if (ss_csv_need(&c, text[k], &idx, err))
			goto out;
		t[k] = ss_csv_get(&c, idx);
	}
	for (int k = 0; k < 4; k++)
		if (ss_csv_need(&c, num[k], &idx, err) || ss_csv_num(&c, idx, out[k], err))
			goto out;
	s->peak_kib = NAN;
	if ((pk = ss_csv_col(&c, "peak_footprint_kib")) >= 0 &&
	    ss_csv_num(&c, (unsigned)pk, &s->peak_kib, err))
		goto out;
	snprintf(s->label, sizeof(s->label), "%s %s %s, %s", t[0], t[1], t[2], t[3]);
	r = 0;
out:
	ss_csv_close(&c);
	return r;
}

/* One cache: its figures in run A (k = 0) and run B (k = 1). */
struct pair {
	const char *name;
	double objects[2], slabs[2], kib[2], waste_kib[2];
};

static struct pair *pair_of(struct pair *p, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(p[i].name, name))
			return &p[i];
	memset(&p[*n], 0, sizeof(p[*n]));
	p[*n].name = name;
	return &p[(*n)++];
}

static int by_change(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	double dx = fabs(x->kib[1] - x->kib[0]), dy = fabs(y->kib[1] - y->kib[0]);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* "A → B (+D)" */
static void cell(struct ss_md_table *t, const double v[2], const char *fmt)
{
	char a[32], b[32], d[40];

	snprintf(a, sizeof(a), fmt, v[0]);
	snprintf(b, sizeof(b), fmt, v[1]);
	snprintf(d, sizeof(d), fmt, v[1] - v[0]);
	ss_mdtable_cell(t, "%s → %s (%s%s)", a, b, v[1] >= v[0] ? "+" : "", d);
}

static void row(struct ss_md_table *t, const char *name, const double obj[2],
		const double slabs[2], const double kib[2], const double waste[2])
{
	ss_mdtable_cell(t, "%s", name);
	cell(t, obj, "%.0f");
	cell(t, slabs, "%.0f");
	cell(t, kib, "%.1f");
	cell(t, waste, "%.1f");
}

int ss_rundiff_diff(FILE *fp, const char *run_a, const char *run_b, struct ss_error *err)
{
	const char *dirs[2] = {run_a, run_b};
	struct ss_compare_caches cc[2] = {{0}};
	struct run_sum sum[2];
	struct pair *p = NULL;
	double tot_slabs[2] = {0, 0}, obj[2], kib[2], waste[2];
	size_t n = 0;
	struct ss_md_table t;
	char path[4200];
	int r = -1;

	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/caches.csv", dirs[k]);
		if (read_summary(dirs[k], &sum[k], err) || ss_compare_read_caches(path, &cc[k], err))
			goto out;
	}
	p = calloc(cc[0].n + cc[1].n + 1, sizeof(*p));
	if (!p) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < cc[k].n; i++) {
			const struct ss_compare_cache *c = &cc[k].c[i];
			struct pair *q = pair_of(p, &n, c->name);

			q->objects[k] = (double)c->objects;
			q->slabs[k] = (double)c->slabs;
			q->kib[k] = (double)c->space_bytes / 1024;
			q->waste_kib[k] = (double)c->waste_bytes / 1024;
			tot_slabs[k] += (double)c->slabs;
		}
	ss_sort(p, n, sizeof(*p), by_change);
	fprintf(fp, "A: %s (%s)\nB: %s (%s)\n\n", sum[0].label, run_a, sum[1].label, run_b);
	ss_mdtable_init(&t, "lrrrr");
	ss_mdtable_cell(&t, "cache");
	ss_mdtable_cell(&t, "objects A → B (Δ)");
	ss_mdtable_cell(&t, "slabs A → B (Δ)");
	ss_mdtable_cell(&t, "footprint KiB A → B (Δ)");
	ss_mdtable_cell(&t, "waste KiB A → B (Δ)");
	for (size_t i = 0; i < n; i++)
		row(&t, p[i].name, p[i].objects, p[i].slabs, p[i].kib, p[i].waste_kib);
	for (int k = 0; k < 2; k++) {
		obj[k] = sum[k].live_objects;
		kib[k] = sum[k].footprint_kib;
		waste[k] = sum[k].footprint_kib - sum[k].requested_bytes / 1024;
	}
	row(&t, "total (summary.csv)", obj, tot_slabs, kib, waste);
	if (ss_mdtable_print(fp, &t)) {
		ss_errorf(err, "out of memory or write error");
		goto out;
	}
	if (!isnan(sum[0].peak_kib) && !isnan(sum[1].peak_kib))
		fprintf(fp, "peak footprint KiB: %.1f → %.1f (%+.1f)\n", sum[0].peak_kib,
			sum[1].peak_kib, sum[1].peak_kib - sum[0].peak_kib);
	fprintf(fp, "simulated time ms: %.3f → %.3f (%+.3f)\n", sum[0].sim_ms, sum[1].sim_ms,
		sum[1].sim_ms - sum[0].sim_ms);
	r = ferror(fp) ? ss_errorf(err, "write error") : 0;
out:
	free(p);
	ss_compare_caches_free(&cc[0]);
	ss_compare_caches_free(&cc[1]);
	return r;
}
