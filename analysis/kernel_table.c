/* kernel_table.c - the held caches of several captures' reports in one
 * table (kernel_table.h). */
#include "kernel_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "escape.h"
#include "md_table.h"

/* kernel.csv's columns this reads, in struct order below. */
enum {
	C_CACHE, C_KOBJ0, C_KOBJ1, C_MOBJ1, C_KDOBJ, C_MDOBJ, C_KSLAB0, C_KSLAB1, C_MSLAB1,
	C_KDSLAB, C_MDSLAB, C_HELD, C_WITHIN, C_IN_MODEL, C_PRIOR_FREED, C_PRIOR_MISSING,
	C_SETTLED, C_UOBJ1, C_USLAB1, C_WITHIN_U, C_UNTRACED, C_CPU_EST, C_CPU_MEAS, NR_COLS
};
static const char *const col_name[NR_COLS] = {
	"cache", "kernel_objects_before", "kernel_objects_after", "model_objects_after",
	"kernel_delta_objects", "model_delta_objects", "kernel_slabs_before",
	"kernel_slabs_after", "model_slabs_after", "kernel_delta_slabs", "model_delta_slabs",
	"held", "within", "in_model", "prior_freed", "prior_missing", "settled",
	"model_objects_unsettled", "model_slabs_unsettled", "within_unsettled",
	"untraced_allocs", "cpu_free_estimated", "cpu_free_measured",
};

/* The last component of dir, without trailing slashes. */
static void base_name(const char *dir, char *out, size_t n)
{
	size_t len = strlen(dir);
	const char *b;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	b = dir + len;
	while (b > dir && b[-1] != '/')
		b--;
	snprintf(out, n, "%.*s", (int)(len - (size_t)(b - dir)), b);
}

/* A field that must be 0 or 1. */
static int flag(const struct ss_csv *c, unsigned idx, bool *out, struct ss_error *err)
{
	uint64_t v;

	if (ss_csv_u64(c, idx, &v, err))
		return -1;
	if (v > 1)
		return ss_errorf(err, "%s:%lu: %s is %llu, not 0 or 1", c->path, c->line,
				 c->hdr[idx], (unsigned long long)v);
	*out = v;
	return 0;
}

/* A signed change the row states, checked against the one its figures
 * give. */
static int same_change(const struct ss_csv *c, unsigned idx, int64_t want, struct ss_error *err)
{
	double v;

	if (ss_csv_num(c, idx, &v, err))
		return -1;
	if (v != (double)want)
		return ss_errorf(err, "%s:%lu: %s is %s, its before and after figures give %lld "
				      "(a what-if run that laid the cache out in its own geometry "
				      "changes from its own start: not a check of the kernel)",
				 c->path, c->line, c->hdr[idx], ss_csv_get(c, idx), (long long)want);
	return 0;
}

/* kernel.csv's columns of what the trace says of the kernel's slabs
 * (optional: a kernel.csv before them has none) into r, checked. */
static int read_kslabs(const struct ss_csv *c, const int *kcol, struct ss_report_kernel_row *r,
		       struct ss_error *err)
{
	uint64_t v[SS_REPORT_KERNEL_KSLAB_COLS];

	if (ss_report_kernel_kslab_read(c, kcol, v, err))
		return -1;
	r->kslabs_freed_from = v[0];
	r->kslabs_whole = v[1];
	r->prior_not_full = v[2];
	r->prior_slabs_freed = v[3];
	r->kslabs_listed = v[4];
	r->prior_listed_unseen = v[5];
	r->cpu_slabs_listed = v[6];
	return 0;
}

/* An optional count (a kernel.csv before its column has none; an empty
 * field is not known): into *v with *known. */
static int read_known(const struct ss_csv *c, int idx, uint64_t *v, bool *known,
		      struct ss_error *err)
{
	*known = idx >= 0 && *ss_csv_get(c, (unsigned)idx);
	return *known ? ss_csv_u64(c, (unsigned)idx, v, err) : 0;
}

/* One record into r, checked.  fcol: kernel_cpu_free_after and
 * model_cpu_free_after (-1: absent). */
static int read_row(const struct ss_csv *c, const unsigned *col, const int *sheaf_col,
		    const int *kcol, const int *fcol, struct ss_report_kernel_row *r,
		    struct ss_error *err)
{
	uint64_t *u[NR_COLS] = {
		[C_KOBJ0] = &r->k_obj0, [C_KOBJ1] = &r->k_obj1, [C_MOBJ1] = &r->m_obj1,
		[C_KSLAB0] = &r->k_slab0, [C_KSLAB1] = &r->k_slab1, [C_MSLAB1] = &r->m_slab1,
		[C_PRIOR_FREED] = &r->prior_freed, [C_PRIOR_MISSING] = &r->prior_missing,
		[C_SETTLED] = &r->settled, [C_UOBJ1] = &r->u_obj1, [C_USLAB1] = &r->u_slab1,
		[C_UNTRACED] = &r->untraced_allocs, [C_CPU_EST] = &r->cpu_free_est,
		[C_CPU_MEAS] = &r->cpu_free_meas,
	};
	bool held, within, within_u;
	const char *name = ss_csv_get(c, col[C_CACHE]);

	memset(r, 0, sizeof(*r));
	if (!*name || strlen(name) >= sizeof(r->name))
		return ss_errorf(err, "%s:%lu: cache name empty or longer than %zu bytes", c->path,
				 c->line, sizeof(r->name) - 1);
	snprintf(r->name, sizeof(r->name), "%s", name);
	for (unsigned k = 0; k < NR_COLS; k++)
		if (u[k] && ss_csv_u64(c, col[k], u[k], err))
			return -1;
	if (sheaf_col[0] >= 0) {
		uint64_t s;

		if (ss_csv_u64(c, (unsigned)sheaf_col[0], &s, err))
			return -1;
		if (s > UINT32_MAX)
			return ss_errorf(err, "%s:%lu: sheaf_capacity %llu is too large", c->path,
					 c->line, (unsigned long long)s);
		r->sheaf_capacity = (unsigned)s;
	}
	if (sheaf_col[1] >= 0 && flag(c, (unsigned)sheaf_col[1], &r->sheaves_modelled, err))
		return -1;
	if (read_kslabs(c, kcol, r, err) ||
	    read_known(c, fcol[0], &r->k_cpu_free1, &r->k_cpu_free1_known, err) ||
	    read_known(c, fcol[1], &r->m_cpu_free1, &r->m_cpu_free1_known, err))
		return -1;
	if (flag(c, col[C_IN_MODEL], &r->in_model, err) || flag(c, col[C_HELD], &held, err) ||
	    flag(c, col[C_WITHIN], &within, err) || flag(c, col[C_WITHIN_U], &within_u, err) ||
	    same_change(c, col[C_KDOBJ], ss_report_kernel_delta(r->k_obj0, r->k_obj1), err) ||
	    same_change(c, col[C_MDOBJ], ss_report_kernel_delta(r->k_obj0, r->m_obj1), err) ||
	    same_change(c, col[C_KDSLAB], ss_report_kernel_delta(r->k_slab0, r->k_slab1), err) ||
	    same_change(c, col[C_MDSLAB], ss_report_kernel_delta(r->k_slab0, r->m_slab1), err))
		return -1;
	if (held != ss_report_kernel_row_held(r) || within != ss_report_kernel_row_within(r) ||
	    within_u != (ss_report_kernel_row_held(r) && ss_report_kernel_row_ok_unsettled(r)))
		return ss_errorf(err, "%s:%lu: held, within or within_unsettled is not what the "
				      "figures give under the rule (±%.0f%% objects, ±%.0f%% slabs, "
				      "changes of %d or more): a kernel.csv of other rules?",
				 c->path, c->line, SS_REPORT_KERNEL_OBJ_TOL, SS_REPORT_KERNEL_SLAB_TOL,
				 SS_REPORT_KERNEL_MIN_DELTA);
	return 0;
}

static int read_csv(struct ss_ktable_capture *cap, struct ss_error *err)
{
	struct ss_csv c;
	unsigned col[NR_COLS];
	int sheaf_col[2], kcol[SS_REPORT_KERNEL_KSLAB_COLS], fcol[2], rc;
	size_t room = 0;

	if (ss_csv_open(&c, cap->csv, NULL, NULL, err))
		return -1;
	for (unsigned k = 0; k < NR_COLS; k++)
		if (ss_csv_need(&c, col_name[k], &col[k], err))
			goto fail;
	/* (kernel.csv before them: none) */
	sheaf_col[0] = ss_csv_col(&c, "sheaf_capacity");
	sheaf_col[1] = ss_csv_col(&c, "sheaves_modelled");
	ss_report_kernel_kslab_cols(&c, kcol);
	fcol[0] = ss_csv_col(&c, "kernel_cpu_free_after");
	fcol[1] = ss_csv_col(&c, "model_cpu_free_after");
	while ((rc = ss_csv_next(&c, err)) == 1) {
		struct ss_report_kernel_row *r;

		if (cap->n == room) {
			size_t n = room ? 2 * room : 64;

			if (!(r = realloc(cap->rows, n * sizeof(*r)))) {
				ss_errorf(err, "%s: out of memory", cap->csv);
				goto fail;
			}
			cap->rows = r;
			room = n;
		}
		r = &cap->rows[cap->n];
		if (read_row(&c, col, sheaf_col, kcol, fcol, r, err))
			goto fail;
		cap->n++;
		if (!ss_report_kernel_row_held(r))
			continue;
		cap->held++;
		cap->settled += r->settled > 0;
		cap->within += ss_report_kernel_row_within(r);
		cap->within_unsettled += ss_report_kernel_row_ok_unsettled(r);
	}
	ss_csv_close(&c);
	return rc;
fail:
	ss_csv_close(&c);
	return -1;
}

static double obj_err(const struct ss_report_kernel_row *r)
{
	return ss_report_kernel_err_pct(ss_report_kernel_delta(r->k_obj0, r->k_obj1),
				 ss_report_kernel_model_dobj(r));
}

static double slab_err(const struct ss_report_kernel_row *r)
{
	return ss_report_kernel_err_pct(ss_report_kernel_delta(r->k_slab0, r->k_slab1),
				 ss_report_kernel_model_dslab(r));
}

/* e into [*lo, *hi]; NaN (no error: the kernel's change is 0) is none. */
static void widen(double *lo, double *hi, double e)
{
	if (isnan(e))
		return;
	if (isnan(*lo) || e < *lo)
		*lo = e;
	if (isnan(*hi) || e > *hi)
		*hi = e;
}

static const struct ss_report_kernel_row *row_named(const struct ss_ktable_capture *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->rows[i].name, name))
			return &c->rows[i];
	return NULL;
}

/* Draw d's report of cap (dir.drawD) into cap's spreads. */
static int add_draw(struct ss_ktable_capture *cap, const char *dir, unsigned d, struct ss_error *err)
{
	struct ss_ktable_capture o = {0};
	int rc = 0;

	snprintf(o.csv, sizeof(o.csv), "%s.draw%u/kernel.csv", dir, d);
	if (read_csv(&o, err)) {
		free(o.rows);
		return -1;
	}
	for (size_t i = 0; i < cap->n && !rc; i++) {
		const struct ss_report_kernel_row *r = &cap->rows[i], *q;

		if (!ss_report_kernel_row_held(r))
			continue;
		q = row_named(&o, r->name);
		if (!q || q->k_obj0 != r->k_obj0 || q->k_obj1 != r->k_obj1 ||
		    q->k_slab0 != r->k_slab0 || q->k_slab1 != r->k_slab1)
			rc = ss_errorf(err, "%s: cache %s: %s, not the kernel's of %s (another capture?)",
				       o.csv, r->name, q ? "other kernel figures" : "no row", cap->csv);
		else {
			cap->spread[i].within += ss_report_kernel_row_within(q);
			widen(&cap->spread[i].obj_min, &cap->spread[i].obj_max, obj_err(q));
			widen(&cap->spread[i].slab_min, &cap->spread[i].slab_max, slab_err(q));
		}
	}
	free(o.rows);
	return rc;
}

/* The spreads of cap over the default draw and t->draws others. */
static int add_draws(const struct ss_ktable_table *t, struct ss_ktable_capture *cap, const char *dir,
		     struct ss_error *err)
{
	if (!(cap->spread = calloc(cap->n ? cap->n : 1, sizeof(*cap->spread))))
		return ss_errorf(err, "out of memory");
	for (size_t i = 0; i < cap->n; i++) {
		struct ss_ktable_spread *sp = &cap->spread[i];

		sp->within = ss_report_kernel_row_within(&cap->rows[i]);
		sp->obj_min = sp->obj_max = obj_err(&cap->rows[i]);
		sp->slab_min = sp->slab_max = slab_err(&cap->rows[i]);
	}
	for (unsigned d = 1; d <= t->draws; d++)
		if (add_draw(cap, dir, d, err))
			return -1;
	for (size_t i = 0; i < cap->n; i++)
		if (ss_report_kernel_row_held(&cap->rows[i]) && !cap->rows[i].settled) {
			cap->within_all += cap->spread[i].within == t->draws + 1;
			cap->within_none += !cap->spread[i].within;
		}
	return 0;
}

int ss_ktable_add_report(struct ss_ktable_table *t, const char *dir, struct ss_error *err)
{
	struct ss_ktable_capture *cap;

	if (t->n == t->cap) {
		size_t n = t->cap ? 2 * t->cap : 8;
		struct ss_ktable_capture *p = realloc(t->c, n * sizeof(*p));

		if (!p)
			return ss_errorf(err, "out of memory");
		t->c = p;
		t->cap = n;
	}
	cap = &t->c[t->n];
	memset(cap, 0, sizeof(*cap));
	base_name(dir, cap->name, sizeof(cap->name));
	snprintf(cap->csv, sizeof(cap->csv), "%s/kernel.csv", dir);
	if (read_csv(cap, err) || add_draws(t, cap, dir, err)) {
		free(cap->rows);
		free(cap->spread);
		return -1;
	}
	t->n++;
	return 0;
}

void ss_ktable_free(struct ss_ktable_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->c[i].rows);
		free(t->c[i].spread);
	}
	free(t->c);
	memset(t, 0, sizeof(*t));
}

struct ss_ktable_totals ss_ktable_totals(const struct ss_ktable_table *t)
{
	struct ss_ktable_totals s = {0};

	for (size_t i = 0; i < t->n; i++) {
		s.held += t->c[i].held;
		s.settled += t->c[i].settled;
		s.within += t->c[i].within;
		s.within_unsettled += t->c[i].within_unsettled;
		s.within_all += t->c[i].within_all;
		s.within_none += t->c[i].within_none;
	}
	return s;
}

/* A row that is held and, not settled, misses. */
static bool misses(const struct ss_report_kernel_row *r)
{
	return ss_report_kernel_row_held(r) && !r->settled && !ss_report_kernel_row_within(r);
}

static void rows_head(struct ss_md_table *m, unsigned draws)
{
	static const char *const head[] = {
		"capture", "cache", "kernel Δobjects", "model Δobjects", "error",
		"kernel Δslabs", "model Δslabs", "error", "within",
	};

	ss_mdtable_init(m, draws ? "llrrrrrrlrlll" : "llrrrrrrll");
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		ss_mdtable_cell(m, "%s", head[i]);
	if (draws) {
		ss_mdtable_cell(m, "draws within");
		ss_mdtable_cell(m, "objects error, every draw");
		ss_mdtable_cell(m, "slabs error, every draw");
	}
	ss_mdtable_cell(m, "what the model leaves out");
}

/* "-2.5% … +1.0%", one figure when they are equal, "0" for none. */
static void range_cell(struct ss_md_table *m, double lo, double hi)
{
	if (isnan(lo))
		ss_mdtable_cell(m, "0");
	else if (lo == hi)
		ss_mdtable_cell(m, "%+.1f%%", lo);
	else
		ss_mdtable_cell(m, "%+.1f%% … %+.1f%%", lo, hi);
}

static void row_cells(struct ss_md_table *m, const struct ss_ktable_table *t, const struct ss_ktable_capture *cap,
		      size_t j)
{
	const struct ss_report_kernel_row *r = &cap->rows[j];
	const struct ss_ktable_spread *sp = &cap->spread[j];
	int64_t ko = ss_report_kernel_delta(r->k_obj0, r->k_obj1), mo = ss_report_kernel_model_dobj(r);
	int64_t ks = ss_report_kernel_delta(r->k_slab0, r->k_slab1), ms = ss_report_kernel_model_dslab(r);
	char note[SS_REPORT_KERNEL_NOTE_MAX];

	ss_mdtable_cell(m, "%s", cap->name);
	ss_mdtable_cell(m, "%s", r->name);
	ss_mdtable_cell(m, "%+lld", (long long)ko);
	ss_mdtable_cell(m, "%+lld", (long long)mo);
	ss_report_kernel_err_cell(m, ko, mo);
	ss_mdtable_cell(m, "%+lld", (long long)ks);
	ss_mdtable_cell(m, "%+lld", (long long)ms);
	ss_report_kernel_err_cell(m, ks, ms);
	ss_mdtable_cell(m, "%s", r->settled ? "settled" : ss_report_kernel_row_ok(r) ? "yes" : "no");
	if (t->draws) {
		ss_mdtable_cell(m, "%u of %u", sp->within, t->draws + 1);
		range_cell(m, sp->obj_min, sp->obj_max);
		range_cell(m, sp->slab_min, sp->slab_max);
	}
	ss_report_kernel_note(r, note, sizeof(note));
	ss_mdtable_cell(m, "%s", note);
}

/* The held rows of every capture, or only those that miss. */
static int rows_table(FILE *fp, const struct ss_ktable_table *t, bool only_misses)
{
	struct ss_md_table m;

	rows_head(&m, t->draws);
	for (size_t i = 0; i < t->n; i++)
		for (size_t j = 0; j < t->c[i].n; j++) {
			const struct ss_report_kernel_row *r = &t->c[i].rows[j];

			if (ss_report_kernel_row_held(r) && (!only_misses || misses(r)))
				row_cells(&m, t, &t->c[i], j);
		}
	return ss_mdtable_print(fp, &m);
}

/* The captures, one line each: their counts and the caches that miss. */
static int captures_table(FILE *fp, const struct ss_ktable_table *t)
{
	struct ss_md_table m;

	ss_mdtable_init(&m, "lrrrl");
	ss_mdtable_cell(&m, "capture");
	ss_mdtable_cell(&m, "held");
	ss_mdtable_cell(&m, "within");
	ss_mdtable_cell(&m, "settled");
	ss_mdtable_cell(&m, "misses");
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_ktable_capture *cap = &t->c[i];
		char list[1024] = "";
		size_t n = 0;

		for (size_t j = 0; j < cap->n && n < sizeof(list); j++)
			if (misses(&cap->rows[j]))
				n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
						      n ? ", " : "", cap->rows[j].name);
		ss_mdtable_cell(&m, "%s", cap->name);
		ss_mdtable_cell(&m, "%zu", cap->held);
		ss_mdtable_cell(&m, "%zu", cap->within);
		ss_mdtable_cell(&m, "%zu", cap->settled);
		ss_mdtable_cell(&m, "%s", list);
	}
	return ss_mdtable_print(fp, &m);
}

int ss_ktable_write_md(FILE *fp, const struct ss_ktable_table *t, const char *command)
{
	struct ss_ktable_totals s = ss_ktable_totals(t);

	fprintf(fp, "# The live kernel and the simulator: %zu capture%s\n\n", t->n,
		t->n == 1 ? "" : "s");
	if (command)
		fprintf(fp, "`%s`\n\n", command);
	ss_mdtable_wrap(fp, "", "", true,
		 "Each capture's report (`reports/NAME/kernel.csv`: the run of its first model, "
		 "`traced` by default) puts the kernel's change of every cache between its two "
		 "slab snapshots beside the replay's.  A cache whose objects changed by %d or more "
		 "in the kernel is held: its simulated change must be within ±%.0f%% (objects) and "
		 "±%.0f%% (slabs) of the kernel's (docs/own-trace.md).  A settled cache (the settling "
		 "rule read the after-snapshot) is fitted, not predicted: listed, never counted.",
		 SS_REPORT_KERNEL_MIN_DELTA, SS_REPORT_KERNEL_OBJ_TOL, SS_REPORT_KERNEL_SLAB_TOL);
	fprintf(fp, "**%zu of %zu held caches within** over %zu capture%s", s.within,
		s.held - s.settled, t->n, t->n == 1 ? "" : "s");
	if (s.settled)
		fprintf(fp, " (%zu more settled, not counted; without settling %zu of %zu)",
			s.settled, s.within_unsettled, s.held);
	fprintf(fp, ".\n\n");
	if (t->draws)
		ss_mdtable_wrap(fp, "", "", true,
			 "Each capture was replayed %u more times with other draws of which initial "
			 "slab a free of an object from before the trace takes (`run --draw-seed 1` .. "
			 "`%u`, reports NAME.drawS): of the %zu held caches not settled, %zu are within "
			 "under every draw, %zu under none, %zu under some.",
			 t->draws, t->draws, s.held - s.settled, s.within_all, s.within_none,
			 s.held - s.settled - s.within_all - s.within_none);
	if (captures_table(fp, t))
		return -1;
	if (s.within + s.settled < s.held) {
		fprintf(fp, "## The misses\n\n");
		if (rows_table(fp, t, true))
			return -1;
	}
	fprintf(fp, "## Every held cache\n\n");
	if (!s.held)
		fprintf(fp, "No cache's objects changed by %d or more.\n\n", SS_REPORT_KERNEL_MIN_DELTA);
	else if (rows_table(fp, t, false))
		return -1;
	return ferror(fp) ? -1 : 0;
}

int ss_ktable_write_csv(FILE *fp, const struct ss_ktable_table *t)
{
	fprintf(fp, "capture,cache,kernel_objects_before,kernel_delta_objects,model_delta_objects,"
		    "objects_error_pct,kernel_delta_slabs,model_delta_slabs,slabs_error_pct,"
		    "settled,within,draws,within_draws,objects_error_min,objects_error_max,"
		    "slabs_error_min,slabs_error_max,note\n");
	for (size_t i = 0; i < t->n; i++)
		for (size_t j = 0; j < t->c[i].n; j++) {
			const struct ss_report_kernel_row *r = &t->c[i].rows[j];
			int64_t ko = ss_report_kernel_delta(r->k_obj0, r->k_obj1);
			int64_t mo = ss_report_kernel_model_dobj(r);
			int64_t ks = ss_report_kernel_delta(r->k_slab0, r->k_slab1);
			int64_t ms = ss_report_kernel_model_dslab(r);
			char note[SS_REPORT_KERNEL_NOTE_MAX];

			if (!ss_report_kernel_row_held(r))
				continue;
			ss_csv_put(fp, t->c[i].name);
			fputc(',', fp);
			ss_csv_put(fp, r->name);
			fprintf(fp, ",%llu,%lld,%lld", (unsigned long long)r->k_obj0, (long long)ko,
				(long long)mo);
			ss_report_kernel_csv_err(fp, ko, mo);
			fprintf(fp, ",%lld,%lld", (long long)ks, (long long)ms);
			ss_report_kernel_csv_err(fp, ks, ms);
			const struct ss_ktable_spread *sp = &t->c[i].spread[j];

			fprintf(fp, ",%d,%d,%u,%u", r->settled > 0, ss_report_kernel_row_within(r),
				t->draws + 1, sp->within);
			ss_report_kernel_csv_pct(fp, sp->obj_min);
			ss_report_kernel_csv_pct(fp, sp->obj_max);
			ss_report_kernel_csv_pct(fp, sp->slab_min);
			ss_report_kernel_csv_pct(fp, sp->slab_max);
			fputc(',', fp);
			ss_report_kernel_note(r, note, sizeof(note));
			ss_csv_put(fp, note);
			fputc('\n', fp);
		}
	return ferror(fp) ? -1 : 0;
}
