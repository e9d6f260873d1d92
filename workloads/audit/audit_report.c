/* report_audit.c - the audit workload's report sections and plot data
 * (audit_report.h).  Every sentence is generated from the numbers it
 * states; the seed's figures come from workloads/audit (consts, profile). */
#include "audit_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "audit_consts.h"
#include "audit_labels.h"
#include "audit_profile.h"
#include "audit_recipe.h"
#include "compare_runs.h"
#include "csv.h"
#include "md_table.h"

#define MAX_SWEEP 16
/* 2.6.16 allocates three context strings per access(2) that off does not
 * (audit_recipe.h): the seed profile's extra allocator samples buy three
 * alloc + free pairs. */
#define SEED_EXTRA_PAIRS 3

/* One run's time, from summary.csv and work.csv. */
struct times {
	int have;
	double calls;			/* loop iterations: user_loop events */
	double ms[AUDIT_NR_CATEGORIES];	/* work.csv ms by category, all CPUs */
	double sim_ms;			/* sim_time_ms: the busiest CPU */
	double footprint_kib;
	double ops;			/* alloc_ops + free_ops */
};

struct audit_data {
	const struct ss_report_report_in *in;	/* for ss_report_heading() */
	const struct ss_report_results *res;
	unsigned nv, nm;
	struct times *t;		/* [vi * nm + mi] */
	int v[AUDIT_NR_VARIANTS];	/* variant index of each, or -1 */
	int cm;				/* --compare-model index, or -1 */
	struct times ss_sweep[MAX_SWEEP];	/* parallel to ss_audit_lspp16() */
	struct times seedk[2];		/* off, on-2.6.16 on the seed's kernel */
	char seedk_kernel[160];		/* "TARGET, ALLOCATOR" of those runs */
};

/* The runs of off and on-2.6.16 on the seed's own kernel (target
 * x86_64-2.6.16, SLAB; audit.mk's seedkernel/ directory). */
static const char *const seedk_variant[2] = {"off", "on-2.6.16"};

/* ---- loading ---- */

static int read_work(const char *path, struct times *t, struct ss_error *err)
{
	struct ss_csv c;
	unsigned il, ie, ims;
	int r;

	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	if (ss_csv_need(&c, "label", &il, err) || ss_csv_need(&c, "events", &ie, err) ||
	    ss_csv_need(&c, "ms", &ims, err))
		goto fail;
	while ((r = ss_csv_next(&c, err)) == 1) {
		const char *label = ss_csv_get(&c, il);
		int l = ss_audit_label_find(label);
		double ev, ms;

		if (ss_csv_num(&c, ie, &ev, err) || ss_csv_num(&c, ims, &ms, err))
			goto fail;
		if (!strcmp(label, "allocator")) {
			t->ms[AUDIT_CAT_ALLOCATOR] += ms;
			continue;
		}
		if (l < 0) {
			ss_error_at(err, path, c.line, "'%s' is not an audit work label", label);
			goto fail;
		}
		t->ms[ss_audit_label_category(l)] += ms;
		if (l == AUDIT_L_USER)
			t->calls += ev;
	}
	if (r < 0)
		goto fail;
	ss_csv_close(&c);
	if (t->calls <= 0)
		return ss_error_at(err, path, 0, "no user_loop events: not an audit run");
	t->have = 1;
	return 0;
fail:
	ss_csv_close(&c);
	return -1;
}

/* Column `col` of a run directory's summary.csv; 1 when it has none. */
static int read_summary_num(const char *dir, const char *col, double *out,
			    struct ss_error *err)
{
	char path[4300];
	struct ss_csv c;
	unsigned i;
	FILE *fp;
	int r;

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if (!(fp = fopen(path, "r")))
		return 1;
	fclose(fp);
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	r = ss_csv_need(&c, col, &i, err) || ss_csv_next(&c, err) != 1 ||
	    ss_csv_num(&c, i, out, err);
	ss_csv_close(&c);
	return r ? (err->msg[0] ? -1 : ss_error_at(err, path, 0, "no data row")) : 0;
}

static int read_sim_ms(const char *dir, double *out, struct ss_error *err)
{
	return read_summary_num(dir, "sim_time_ms", out, err);
}

/* kernel.txt's target and allocator as "TARGET (ALLOCATOR)". */
static void read_kernel(const char *path, char *buf, size_t n)
{
	char line[256], target[96] = "?", alloc[32] = "?";
	FILE *fp = fopen(path, "r");

	while (fp && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "target=", 7))
			snprintf(target, sizeof(target), "%.80s", line + 7);
		else if (!strncmp(line, "allocator=", 10))
			snprintf(alloc, sizeof(alloc), "%.24s", line + 10);
	}
	if (fp)
		fclose(fp);
	snprintf(buf, n, "%s (%s)", target, alloc);
}

/* seedkernel/{off,on-2.6.16}: time by category and allocator operations. */
static int load_seedkernel(const char *dir, struct audit_data *d, struct ss_error *err)
{
	for (int i = 0; i < 2; i++) {
		char run[4200], work[4300];
		double a, f;
		int r;

		snprintf(run, sizeof(run), "%s/seedkernel/%s", dir, seedk_variant[i]);
		r = read_sim_ms(run, &d->seedk[i].sim_ms, err);
		if (r > 0)
			continue;
		if (r < 0 || read_summary_num(run, "alloc_ops", &a, err) ||
		    read_summary_num(run, "free_ops", &f, err))
			return -1;
		d->seedk[i].ops = a + f;
		snprintf(work, sizeof(work), "%s/work.csv", run);
		if (read_work(work, &d->seedk[i], err))
			return -1;
		snprintf(work, sizeof(work), "%s/kernel.txt", run);
		read_kernel(work, d->seedk_kernel, sizeof(d->seedk_kernel));
	}
	return 0;
}

static int load_sweep(const char *dir, struct audit_data *d, struct ss_error *err)
{
	size_t n;
	const struct ss_audit_lspp16_point *pt = ss_audit_lspp16(&n);

	for (size_t i = 0; i < n && i < MAX_SWEEP; i++) {
		char run[4200], work[4300];
		int r;

		snprintf(run, sizeof(run), "%s/sweep/r%u", dir, pt[i].rules);
		r = read_sim_ms(run, &d->ss_sweep[i].sim_ms, err);
		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		snprintf(work, sizeof(work), "%s/work.csv", run);
		if (read_work(work, &d->ss_sweep[i], err))
			return -1;
	}
	return 0;
}

static int load(const struct ss_report_report_in *in, struct audit_data *d,
		struct ss_error *err)
{
	const struct ss_report_results *res = in->res;

	memset(d, 0, sizeof(*d));
	d->in = in;
	d->res = res;
	d->nv = res->variants.n;
	d->nm = res->models.n;
	d->t = calloc((size_t)d->nv * d->nm + 1, sizeof(*d->t));
	if (!d->t)
		return ss_errorf(err, "out of memory");
	for (int v = 0; v < AUDIT_NR_VARIANTS; v++)
		d->v[v] = ss_report_names_find(&res->variants, ss_audit_variant_name(v));
	d->cm = ss_report_names_find(&res->models, in->compare_model);
	for (size_t i = 0; i < res->nruns; i++) {
		const struct ss_report_run *run = &res->runs[i];
		struct times *t = &d->t[run->vi * d->nm + run->mi];
		char path[4400];

		snprintf(path, sizeof(path), "%s/runs/%s__%s/work.csv", in->dir,
			 run->variant, run->model);
		if (read_work(path, t, err))
			return -1;
		t->sim_ms = run->s.sim_time_ms;
		t->footprint_kib = run->s.footprint_kib;
		t->ops = run->s.alloc_ops + run->s.free_ops;
	}
	return load_sweep(in->dir, d, err) || load_seedkernel(in->dir, d, err) ? -1 : 0;
}

static const struct times *at(const struct audit_data *d, int vi, int mi)
{
	if (vi < 0 || mi < 0 || !d->t[vi * (int)d->nm + mi].have)
		return NULL;
	return &d->t[vi * (int)d->nm + mi];
}

static double ns_per_call(const struct times *t, int cat)
{
	return t->ms[cat] * 1e6 / t->calls;
}

static double total_ns(const struct times *t)
{
	double s = 0;

	for (int c = 0; c < AUDIT_NR_CATEGORIES; c++)
		s += ns_per_call(t, c);
	return s;
}

/* Overhead of variant vi against off, same model, on sim_time_ms. */
static int hit_pct(const struct audit_data *d, int vi, int mi, double *out)
{
	const struct times *t = at(d, vi, mi), *off = at(d, d->v[AUDIT_OFF], mi);

	if (!t || !off || off->sim_ms <= 0)
		return -1;
	*out = (t->sim_ms / t->calls) / (off->sim_ms / off->calls) * 100 - 100;
	return 0;
}

/* ---- report.md sections ---- */

static double seed_hit_pct(void)
{
	return ((double)AUDIT_SEED_ON_REAL_US / AUDIT_SEED_OFF_REAL_US - 1) * 100;
}

static int sec_calibration(FILE *fp, const struct audit_data *d, const char *model)
{
	const struct times *off = at(d, d->v[AUDIT_OFF], d->cm);
	double hit;

	ss_report_heading(fp, d->in, "Audit: the calibration against the seed's %d%%", AUDIT_SEED_HIT_PCT);
	fprintf(fp, "The seed measured %.3f s with audit off and %.3f s on (real time, "
		"+%.1f%%; it states %d%%; system time alone gives +%.1f%%).  ",
		AUDIT_SEED_OFF_REAL_US / 1e6, AUDIT_SEED_ON_REAL_US / 1e6, seed_hit_pct(),
		AUDIT_SEED_HIT_PCT,
		((double)AUDIT_SEED_ON_SYS_US / AUDIT_SEED_OFF_SYS_US - 1) * 100);
	fprintf(fp, "One constant is fitted: AUDIT_PROFILE_SCALE_PERMILLE = %u, a scale on the "
		"audit costs read from the profile (workloads/audit/audit_consts.h says how and "
		"when).  Everything else comes from the profiles, costs.md or estimates "
		"(the cost table, last section); the loop is assumed to be %u M access(2) calls at %u MHz.\n\n",
		AUDIT_PROFILE_SCALE_PERMILLE, AUDIT_SEED_SYSCALLS / 1000000, AUDIT_CLOCK_MHZ);
	if (!off || hit_pct(d, d->v[AUDIT_ON_2616], d->cm, &hit)) {
		fprintf(fp, "No `off` and `on-2.6.16` runs of model `%s`: no check.\n\n", model);
		return 0;
	}
	fprintf(fp, "Model `%s`: off %.1f ns per call (%.1f s for the seed's loop; measured: "
		"%.3f s system + %.3f s user), on-2.6.16 %+.1f%% against the seed's %d%%: "
		"**%+.1f points from the fitted figure** (the fit was made with the cost "
		"table of its day; a change of the model since moves it, and the report "
		"says by how much rather than judging it).\n\n", model,
		off->sim_ms * 1e6 / off->calls,
		off->sim_ms / 1e3 * AUDIT_SEED_SYSCALLS / off->calls,
		AUDIT_SEED_OFF_SYS_US / 1e6, AUDIT_SEED_OFF_USER_US / 1e6, hit,
		AUDIT_SEED_HIT_PCT, hit - AUDIT_SEED_HIT_PCT);
	return 0;
}

static int sec_overhead(FILE *fp, const struct audit_data *d)
{
	struct ss_md_table t;
	char align[SS_REPORT_NAME_MAX];
	const struct ss_report_results *res = d->res;

	ss_report_heading(fp, d->in, "Overhead against `off`, every model (%%, ns per call)");
	fprintf(fp, "sim_time_ms per loop iteration over the same model's `off` run, minus 1 "
		"(overhead.csv has the same).  slub_debug models pay their checks in `off` "
		"too.\n\n");
	memset(align, 'r', sizeof(align));
	align[0] = 'l';
	align[res->models.n + 1 < sizeof(align) ? res->models.n + 1 : sizeof(align) - 1] = '\0';
	ss_mdtable_init(&t, align);
	ss_mdtable_cell(&t, "variant");
	for (unsigned m = 0; m < res->models.n && m + 1 < sizeof(align); m++)
		ss_mdtable_cell(&t, "%s", res->models.v[m]);
	for (unsigned v = 0; v < res->variants.n; v++) {
		ss_mdtable_cell(&t, "%s", res->variants.v[v]);
		for (unsigned m = 0; m < res->models.n && m + 1 < sizeof(align); m++) {
			const struct times *x = at(d, (int)v, (int)m);
			double h;

			if (!x)
				ss_mdtable_cell(&t, "n/a");
			else if (hit_pct(d, (int)v, (int)m, &h))
				ss_mdtable_cell(&t, "(%.0f)", x->sim_ms * 1e6 / x->calls);
			else
				ss_mdtable_cell(&t, "%+.1f (%.0f)", h, x->sim_ms * 1e6 / x->calls);
		}
	}
	return ss_mdtable_print(fp, &t);
}

static int breakdown_table(FILE *fp, const struct audit_data *d)
{
	struct ss_md_table t;

	ss_mdtable_init(&t, "lrrrrrrrr");
	ss_mdtable_cell(&t, "variant");
	for (int c = 0; c < AUDIT_NR_CATEGORIES; c++)
		ss_mdtable_cell(&t, "%s", ss_audit_category_name(c));
	ss_mdtable_cell(&t, "total");
	for (unsigned v = 0; v < d->nv; v++) {
		const struct times *x = at(d, (int)v, d->cm);

		if (!x)
			continue;
		ss_mdtable_cell(&t, "%s", d->res->variants.v[v]);
		for (int c = 0; c < AUDIT_NR_CATEGORIES; c++)
			ss_mdtable_cell(&t, "%.1f", ns_per_call(x, c));
		ss_mdtable_cell(&t, "%.1f", total_ns(x));
	}
	return ss_mdtable_print(fp, &t);
}

/* The hit of on-2.6.16 by category, beside the seed profile's split. */
static int hit_table(FILE *fp, const struct times *on, const struct times *off,
		     double *alloc_share)
{
	double prof[AUDIT_NR_CATEGORIES + 1], ptotal = 0, hit = total_ns(on) - total_ns(off);
	struct ss_md_table t;

	ss_audit_profile_hit_split(prof);
	for (int c = 0; c <= AUDIT_NR_CATEGORIES; c++)
		ptotal += prof[c];
	ss_mdtable_init(&t, "lrrrr");
	ss_mdtable_cell(&t, "category");
	ss_mdtable_cell(&t, "simulated ns");
	ss_mdtable_cell(&t, "share %%");
	ss_mdtable_cell(&t, "seed samples");
	ss_mdtable_cell(&t, "share %%");
	for (int c = 0; c <= AUDIT_NR_CATEGORIES; c++) {
		double s = c < AUDIT_NR_CATEGORIES ? ns_per_call(on, c) - ns_per_call(off, c) : 0;

		ss_mdtable_cell(&t, "%s", c < AUDIT_NR_CATEGORIES ? ss_audit_category_name(c)
							    : "(unattributed)");
		ss_mdtable_cell(&t, c < AUDIT_NR_CATEGORIES ? "%.1f" : "-", s);
		ss_mdtable_cell(&t, c < AUDIT_NR_CATEGORIES ? "%.1f" : "-", s * 100 / hit);
		ss_mdtable_cell(&t, "%.0f", prof[c]);
		ss_mdtable_cell(&t, "%.1f", prof[c] * 100 / ptotal);
	}
	ss_mdtable_cell(&t, "total");
	ss_mdtable_cell(&t, "%.1f", hit);
	ss_mdtable_cell(&t, "100.0");
	ss_mdtable_cell(&t, "%.0f", ptotal);
	ss_mdtable_cell(&t, "100.0");
	*alloc_share = (ns_per_call(on, AUDIT_CAT_ALLOCATOR) - ns_per_call(off, AUDIT_CAT_ALLOCATOR)) *
		       100 / hit;
	return ss_mdtable_print(fp, &t);
}

/* The same split on the seed's own allocator: SLAB of 2.6.16, predicted
 * with the same traces, costs and fitted scale (nothing refitted). */
static int seedkernel_share(FILE *fp, const struct audit_data *d, double profile_pct)
{
	const struct times *off = &d->seedk[0], *on = &d->seedk[1];
	double alloc_ns, hit, pairs;

	if (!off->have || !on->have) {
		fprintf(fp, "No runs on the seed's own kernel (seedkernel/off and "
			"seedkernel/on-2.6.16, made by `make sim`): no SLAB prediction.\n\n");
		return 0;
	}
	alloc_ns = ns_per_call(on, AUDIT_CAT_ALLOCATOR) - ns_per_call(off, AUDIT_CAT_ALLOCATOR);
	hit = total_ns(on) - total_ns(off);
	pairs = (on->ops / on->calls - off->ops / off->calls) / 2;
	fprintf(fp, "**Under SLAB, the seed's own allocator: %.1f%% of the hit** beside the "
		"profile's %.1f%% (%.1f of %.1f ns per call, %.1f ns per extra alloc + free "
		"pair; off and on-2.6.16 replayed with model `traced` on %s, the same "
		"traces, cost table and AUDIT_PROFILE_SCALE_PERMILLE, nothing refitted: "
		"a prediction).\n\n",
		hit > 0 ? alloc_ns * 100 / hit : 0.0, profile_pct, alloc_ns, hit,
		pairs > 0 ? alloc_ns / pairs : 0.0, d->seedk_kernel);
	return 0;
}

static int sec_breakdown(FILE *fp, const struct audit_data *d, const char *model)
{
	const struct times *on = at(d, d->v[AUDIT_ON_2616], d->cm);
	const struct times *off = at(d, d->v[AUDIT_OFF], d->cm);
	double prof[AUDIT_NR_CATEGORIES + 1], ptot = 0, share, alloc_ns, pairs;

	ss_report_heading(fp, d->in, "Where the time goes (model `%s`, ns per loop iteration)", model);
	fprintf(fp, "Work events by category (workloads/audit/audit_labels.c) plus the "
		"allocator's replayed time, all CPUs, over the loop iterations "
		"(breakdown.dat, breakdown.png).\n\n");
	if (breakdown_table(fp, d))
		return -1;
	if (!on || !off)
		return 0;
	fprintf(fp, "The hit of on-2.6.16 over off by category, beside the seed's profile "
		"(on - off samples; allocator = kfree, __kmalloc, kmem_cache_alloc, "
		"kmem_cache_free):\n\n");
	if (hit_table(fp, on, off, &share))
		return -1;
	ss_audit_profile_hit_split(prof);
	for (int c = 0; c <= AUDIT_NR_CATEGORIES; c++)
		ptot += prof[c];
	alloc_ns = ns_per_call(on, AUDIT_CAT_ALLOCATOR) - ns_per_call(off, AUDIT_CAT_ALLOCATOR);
	pairs = (on->ops / on->calls - off->ops / off->calls) / 2;
	fprintf(fp, "**Allocator share of the hit: %.1f%%** (%.1f of %.1f ns per call; %.1f "
		"allocator operations per call against off's %.1f, %.1f ns per extra "
		"alloc + free pair).  The seed's profile puts %.1f%% of its hit in the "
		"allocator (%.0f of %.0f samples), %.1f ns per extra pair at the assumed "
		"loop length: 2.6.16's SLAB on 2006 hardware, against today's SLUB fast "
		"path in the model.  Either way the hit is the string work around the "
		"allocations, not the allocations.\n\n",
		share, alloc_ns, total_ns(on) - total_ns(off), on->ops / on->calls,
		off->ops / off->calls, alloc_ns / pairs,
		prof[AUDIT_CAT_ALLOCATOR] * 100 / ptot, prof[AUDIT_CAT_ALLOCATOR], ptot,
		prof[AUDIT_CAT_ALLOCATOR] * ss_audit_on_sample_s() * 1e9 / AUDIT_SEED_SYSCALLS /
			SEED_EXTRA_PAIRS);
	return seedkernel_share(fp, d, prof[AUDIT_CAT_ALLOCATOR] * 100 / ptot);
}

/* What remains of on-sid's hit, largest category first, as text. */
static void remaining(char *buf, size_t n, const struct times *v, const struct times *off)
{
	int done[AUDIT_NR_CATEGORIES] = {0};
	size_t at = 0;

	buf[0] = '\0';
	for (int k = 0; k < AUDIT_NR_CATEGORIES; k++) {
		int best = -1;
		double bs = 0;

		for (int c = 0; c < AUDIT_NR_CATEGORIES; c++) {
			double s = ns_per_call(v, c) - ns_per_call(off, c);

			if (!done[c] && s > 0.5 && (best < 0 || s > bs)) {
				best = c;
				bs = s;
			}
		}
		if (best < 0 || at >= n)
			break;
		done[best] = 1;
		at += (size_t)snprintf(buf + at, n - at, "%s%s %.0f ns", at ? ", " : "",
				       ss_audit_category_name(best), bs);
	}
}

static int sec_predictions(FILE *fp, const struct audit_data *d, const char *model)
{
	static const enum ss_audit_variant pred[] = {AUDIT_ON_SID, AUDIT_ON_CACHED};
	const struct times *off = at(d, d->v[AUDIT_OFF], d->cm);
	size_t npt;
	const struct ss_audit_lspp16_point *pt = ss_audit_lspp16(&npt);
	struct ss_md_table t;
	char rest[512];
	double h;

	ss_report_heading(fp, d->in, "Predictions: the fixes against commit 1b50eed9cac0's %d%%",
		   AUDIT_FIX_HIT_PCT);
	fprintf(fp, "No constant is refitted: on-sid (the SID kept, strings only for records) "
		"and on-cached (the 2.6.16 calls served by the 5.6 sidtab string cache) "
		"use the costs fitted on on-2.6.16.  Model `%s`.\n\n", model);
	ss_mdtable_init(&t, "lrrl");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "predicted hit %%");
	ss_mdtable_cell(&t, "reported %%");
	ss_mdtable_cell(&t, "source");
	for (size_t i = 0; i < sizeof(pred) / sizeof(pred[0]); i++) {
		ss_mdtable_cell(&t, "%s", ss_audit_variant_name(pred[i]));
		if (hit_pct(d, d->v[pred[i]], d->cm, &h))
			ss_mdtable_cell(&t, "n/a");
		else
			ss_mdtable_cell(&t, "%+.1f", h);
		ss_mdtable_cell(&t, pred[i] == AUDIT_ON_SID ? "%d" : "-", AUDIT_FIX_HIT_PCT);
		ss_mdtable_cell(&t, "%s", pred[i] == AUDIT_ON_SID ?
			 "\"from 146% down to 23%\" (another build)" : "none published");
	}
	if (ss_mdtable_print(fp, &t))
		return -1;
	if (!off || hit_pct(d, d->v[AUDIT_ON_SID], d->cm, &h))
		return 0;
	remaining(rest, sizeof(rest), at(d, d->v[AUDIT_ON_SID], d->cm), off);
	fprintf(fp, "on-sid is predicted at %+.1f%%, %.1f points %s the %d%% the fix reported.  "
		"What it keeps over off: %s.  These are the lspp.14 profile's per-call "
		"costs the fix did not touch (audit_syscall_exit, audit_getname, the cwd "
		"reference, task_lock under spinlock debugging, the rule scan); the lspp.16 "
		"sweep's 0-rule run (%u s, below the seed's off run at %.1f s) suggests the "
		"build behind the %d%% had shed most of them, so the gap is the profile's, "
		"not the allocator's.\n\n", h, fabs(h - AUDIT_FIX_HIT_PCT),
		h > AUDIT_FIX_HIT_PCT ? "above" : "below", AUDIT_FIX_HIT_PCT, rest,
		pt[0].seconds, AUDIT_SEED_OFF_REAL_US / 1e6, AUDIT_FIX_HIT_PCT);
	if (!hit_pct(d, d->v[AUDIT_ON_CACHED], d->cm, &h))
		fprintf(fp, "on-cached (%+.1f%%) keeps every 2.6.16 call and allocation but "
			"copies a cached string instead of formatting it: the gap between it "
			"and on-2.6.16 is the formatting, the gap between it and on-sid is the "
			"calls, locks and allocations the SID-only fix also removed.\n\n", h);
	return 0;
}

/* on-ctxcache and on-2.6.16 under model m: the same footprint and the
 * same allocator time per call, to the table's precision (0.1 ns). */
static bool ctx_equal(const struct audit_data *d, int m)
{
	const struct times *a = at(d, d->v[AUDIT_ON_2616], m);
	const struct times *b = at(d, d->v[AUDIT_ON_CTXCACHE], m);

	return a && b && a->footprint_kib == b->footprint_kib &&
	       fabs(ns_per_call(a, AUDIT_CAT_ALLOCATOR) - ns_per_call(b, AUDIT_CAT_ALLOCATOR)) < 0.05;
}

/* on-ctxcache against on-2.6.16 (model mi): when audit_ctx's stride is a
 * kmalloc class the strings already used, the two hold the same slots per
 * slab and take the same steps -- say so, with the sizes, where the
 * figures are equal (the default: one context length).  "Equal here" only
 * when it holds for every model compared; else the models where it does
 * and those where it does not. */
static void ctxcache_note(FILE *fp, const struct audit_data *d, int mi)
{
	struct ss_compare_caches ctx = {0}, base = {0};
	struct ss_error err = {{0}};
	char path[4400], kname[32], where[512] = "", differ[1024] = "";
	const struct ss_compare_cache *c = NULL;
	bool same_class = false;
	size_t lw = 0, ld = 0;

	if (!ctx_equal(d, mi))
		return;
	for (unsigned m = 0; m < d->nm; m++) {
		const struct times *a = at(d, d->v[AUDIT_ON_2616], (int)m);
		const struct times *b = at(d, d->v[AUDIT_ON_CTXCACHE], (int)m);

		if (!a || !b)
			continue;
		if (ctx_equal(d, (int)m)) {
			if (lw < sizeof(where))
				lw += (size_t)snprintf(where + lw, sizeof(where) - lw, "%s`%s`",
						       lw ? ", " : "", d->res->models.v[m]);
		} else if (ld < sizeof(differ)) {
			ld += (size_t)snprintf(differ + ld, sizeof(differ) - ld,
					       "%s`%s` (%.1f against %.1f allocator ns per call, "
					       "%.0f against %.0f KiB)", ld ? "; " : "",
					       d->res->models.v[m], ns_per_call(b, AUDIT_CAT_ALLOCATOR),
					       ns_per_call(a, AUDIT_CAT_ALLOCATOR), b->footprint_kib,
					       a->footprint_kib);
		}
	}
	snprintf(path, sizeof(path), "%s/runs/on-ctxcache__%s/caches.csv", d->in->dir,
		 d->res->models.v[mi]);
	if (ss_compare_read_caches(path, &ctx, &err))
		return;
	for (size_t k = 0; k < ctx.n; k++)
		if (!strcmp(ctx.c[k].name, "audit_ctx"))
			c = &ctx.c[k];
	snprintf(path, sizeof(path), "%s/runs/on-2.6.16__%s/caches.csv", d->in->dir,
		 d->res->models.v[mi]);
	if (c && !ss_compare_read_caches(path, &base, &err)) {
		snprintf(kname, sizeof(kname), "kmalloc-%llu",
			 (unsigned long long)(c->objs_per_slab ? (c->space_bytes / c->slabs) / c->objs_per_slab : 0));
		for (size_t k = 0; k < base.n; k++)
			same_class |= !strcmp(base.c[k].name, kname);
	}
	if (c && same_class && ld)
		fprintf(fp, "on-ctxcache and on-2.6.16 are equal under %s, but not under %s.  ",
			where, differ);
	if (c && same_class)
		fprintf(fp, "%s, not by accident: with one "
			"context length (the default; CONTEXTS=\"...\" gives several), `audit_ctx` "
			"holds the %llu-byte strings %llu to an order-%llu slab, exactly as %s holds "
			"them in on-2.6.16, and a kmem_cache_alloc() from a cache takes the same SLUB "
			"steps as a kmalloc() from a class.  A dedicated cache saves memory only when "
			"the strings' lengths would spread over kmalloc classes, or round up far.\n\n",
			ld ? "Where they are equal, it is" : "on-ctxcache and on-2.6.16 are equal here "
							 "under every model compared",
			(unsigned long long)c->object_size, (unsigned long long)c->objs_per_slab,
			(unsigned long long)c->order, kname);
	ss_compare_caches_free(&ctx);
	ss_compare_caches_free(&base);
}

static int sec_strategies(FILE *fp, const struct audit_data *d)
{
	static const enum ss_audit_variant vs[] = {AUDIT_ON_2616, AUDIT_ON_CTXCACHE};
	struct ss_md_table t;

	ss_report_heading(fp, d->in, "Strategies for the context strings: time and memory");
	fprintf(fp, "kmalloc buckets (`traced`, `kmalloc-buckets`), a cache per fixed-size site "
		"(`kmem_cache`: SLUB may merge it back), the what-if variant on-ctxcache (every "
		"context string from a cache `audit_ctx` of the longest string), and "
		"slub_debug (`+LETTERS`).  Allocator ns per call, hit against off, "
		"footprint.\n\n");
	ss_mdtable_init(&t, "llrrr");
	ss_mdtable_cell(&t, "model");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "allocator ns");
	ss_mdtable_cell(&t, "hit %%");
	ss_mdtable_cell(&t, "footprint KiB");
	for (unsigned m = 0; m < d->nm; m++)
		for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++) {
			const struct times *x = at(d, d->v[vs[i]], (int)m);
			double h;

			if (!x)
				continue;
			ss_mdtable_cell(&t, "%s", d->res->models.v[m]);
			ss_mdtable_cell(&t, "%s", ss_audit_variant_name(vs[i]));
			ss_mdtable_cell(&t, "%.1f", ns_per_call(x, AUDIT_CAT_ALLOCATOR));
			if (hit_pct(d, d->v[vs[i]], (int)m, &h))
				ss_mdtable_cell(&t, "n/a");
			else
				ss_mdtable_cell(&t, "%+.1f", h);
			ss_mdtable_cell(&t, "%.0f", x->footprint_kib);
		}
	if (ss_mdtable_print(fp, &t))
		return -1;
	ctxcache_note(fp, d, d->cm >= 0 ? d->cm : 0);
	return 0;
}

/* Simulated seconds of the seed's loop: per-call time x its length. */
static double seed_seconds(const struct times *x)
{
	return x->sim_ms / 1e3 / x->calls * AUDIT_SEED_SYSCALLS;
}

static int sec_sweep(FILE *fp, const struct audit_data *d)
{
	size_t n;
	const struct ss_audit_lspp16_point *pt = ss_audit_lspp16(&n);
	struct ss_md_table t;

	ss_report_heading(fp, d->in, "Rules sweep beside lspp.16");
	if (!d->ss_sweep[0].have) {
		fprintf(fp, "No sweep runs (DIR/sweep/r0/ missing): `make audit-sweep "
			"WORKLOAD=audit` makes them.\n\n");
		return 0;
	}
	fprintf(fp, "Variant on-sid (lspp.16 postdates the fix), model `traced`, rules "
		"0..90; simulated seconds = time per call x %u M.  Each rule costs %.3f s "
		"over the loop, the lspp.16 least-squares slope through 0 rules, so the "
		"slopes agree by construction: the plot (sweep.png) tests the straight "
		"line against the measured curve and the 0-rule level.  Relative = time / "
		"time at 0 rules.\n\n", AUDIT_SEED_SYSCALLS / 1000000,
		ss_audit_lspp16_seconds_per_rule());
	ss_mdtable_init(&t, "rrrrr");
	ss_mdtable_cell(&t, "rules");
	ss_mdtable_cell(&t, "lspp.16 s");
	ss_mdtable_cell(&t, "relative");
	ss_mdtable_cell(&t, "simulated s");
	ss_mdtable_cell(&t, "relative");
	for (size_t i = 0; i < n && i < MAX_SWEEP; i++) {
		ss_mdtable_cell(&t, "%u", pt[i].rules);
		ss_mdtable_cell(&t, "%u", pt[i].seconds);
		ss_mdtable_cell(&t, "%.3f", (double)pt[i].seconds / pt[0].seconds);
		if (!d->ss_sweep[i].have) {
			ss_mdtable_cell(&t, "n/a");
			ss_mdtable_cell(&t, "n/a");
			continue;
		}
		ss_mdtable_cell(&t, "%.1f", seed_seconds(&d->ss_sweep[i]));
		ss_mdtable_cell(&t, "%.3f", seed_seconds(&d->ss_sweep[i]) / seed_seconds(&d->ss_sweep[0]));
	}
	if (ss_mdtable_print(fp, &t))
		return -1;
	fprintf(fp, "At 0 rules the simulation gives %.1f s against lspp.16's %u s: the "
		"difference is the per-call bookkeeping the lspp.14 profile shows and "
		"lspp.16 no longer paid.\n\n", seed_seconds(&d->ss_sweep[0]), pt[0].seconds);
	return 0;
}

/* Where a label's cycles come from, for section 13. */
static void label_source(enum ss_audit_label l, char *buf, size_t n)
{
	if (l == AUDIT_L_BASE)
		snprintf(buf, n, "off profile: %.0f samples (all but the allocator)",
			 ss_audit_label_samples(l));
	else if (ss_audit_label_scaled(l))
		snprintf(buf, n, "on profile: %.1f samples x %u/1000", ss_audit_label_samples(l),
			 AUDIT_PROFILE_SCALE_PERMILLE);
	else if (l == AUDIT_L_USER)
		snprintf(buf, n, "seed's user time %.3f s / loop", AUDIT_SEED_OFF_USER_US / 1e6);
	else if (l == AUDIT_L_RULES)
		snprintf(buf, n, "lspp.16 slope %.3f s / loop, per rule",
			 ss_audit_lspp16_seconds_per_rule());
	else
		snprintf(buf, n, "estimate (audit_consts.h)");
}

static int sec_costs(FILE *fp, const struct audit_data *d)
{
	struct ss_audit_costs c;
	struct ss_md_table t;
	char src[160];

	ss_audit_costs_derive(&c, AUDIT_PROFILE_SCALE_PERMILLE);
	ss_report_heading(fp, d->in, "The cost table (cycles at %u MHz, loop of %u M)", AUDIT_CLOCK_MHZ,
		   AUDIT_SEED_SYSCALLS / 1000000);
	fprintf(fp, "Per event of each label as `slabsim gen audit` writes it with the fitted "
		"scale.  Variable ones: mls_bits = 2 x bits walked x %u; str_copy = %u + "
		"length / %u; lock_bounce x (cpus - 1) / cpus; record_format = %u per "
		"audit_log_format + %u per d_path + %u.\n\n", AUDIT_MLS_BIT_CYCLES, AUDIT_COPY_START_CYCLES,
		AUDIT_COPY_BYTES_PER_CYCLE, AUDIT_LOG_FORMAT_CYCLES, AUDIT_D_PATH_CYCLES,
		AUDIT_LOG_END_CYCLES);
	ss_mdtable_init(&t, "llrll");
	ss_mdtable_cell(&t, "label");
	ss_mdtable_cell(&t, "category");
	ss_mdtable_cell(&t, "cycles");
	ss_mdtable_cell(&t, "per");
	ss_mdtable_cell(&t, "source");
	for (int l = 0; l < AUDIT_NR_LABELS; l++) {
		uint64_t cy = l == AUDIT_L_RULES ? c.rule_cycles : c.cycles[l];

		label_source(l, src, sizeof(src));
		ss_mdtable_cell(&t, "%s", ss_audit_label_name(l));
		ss_mdtable_cell(&t, "%s", ss_audit_category_name(ss_audit_label_category(l)));
		ss_mdtable_cell(&t, cy ? "%llu" : "-", (unsigned long long)cy);
		ss_mdtable_cell(&t, "%s", l == AUDIT_L_RULES ? "per rule per syscall" : ss_audit_label_unit(l));
		ss_mdtable_cell(&t, "%s", src);
	}
	return ss_mdtable_print(fp, &t);
}

/* load(), saying why it failed on stderr: the report's extras have no
 * error argument.  The caller frees d->t either way. */
static int load_or_say(const struct ss_report_report_in *in, struct audit_data *d)
{
	struct ss_error err = {{0}};

	if (!load(in, d, &err))
		return 0;
	fprintf(stderr, "slabsim report: %s\n", err.msg);
	return -1;
}

static int rp_audit_write_md(FILE *fp, const struct ss_report_report_in *in)
{
	struct audit_data d;
	int r = -1;

	if (!load_or_say(in, &d))
		r = sec_calibration(fp, &d, in->compare_model) || sec_overhead(fp, &d) ||
		    sec_breakdown(fp, &d, in->compare_model) ||
		    sec_predictions(fp, &d, in->compare_model) || sec_strategies(fp, &d) ||
		    sec_sweep(fp, &d) || sec_costs(fp, &d) ? -1 : 0;
	free(d.t);
	return r;
}

/* ---- plot data ---- */

static int write_breakdown(FILE *fp, const struct audit_data *d)
{
	fprintf(fp, "# breakdown.dat - ns per loop iteration by category, model %s\n"
		"# variant x", d->cm >= 0 ? d->res->models.v[d->cm] : "(none)");
	for (int c = 0; c < AUDIT_NR_CATEGORIES; c++)
		fprintf(fp, " %s", ss_audit_category_name(c));
	fprintf(fp, " total\n");
	for (unsigned v = 0, x = 0; v < d->nv; v++) {
		const struct times *t = at(d, (int)v, d->cm);

		if (!t)
			continue;
		fprintf(fp, "%s %u", d->res->variants.v[v], x++);
		for (int c = 0; c < AUDIT_NR_CATEGORIES; c++)
			fprintf(fp, " %.3f", ns_per_call(t, c));
		fprintf(fp, " %.3f\n", total_ns(t));
	}
	return 0;
}

static int write_sweep(FILE *fp, const struct audit_data *d)
{
	size_t n;
	const struct ss_audit_lspp16_point *pt = ss_audit_lspp16(&n);

	fprintf(fp, "# sweep.dat - lspp.16 measured vs simulated (on-sid, traced), seconds of\n"
		"# the seed's loop (%u M calls); relative = / the 0-rule value; NaN = no run\n"
		"# rules measured_s measured_rel sim_s sim_rel\n", AUDIT_SEED_SYSCALLS / 1000000);
	for (size_t i = 0; i < n && i < MAX_SWEEP; i++) {
		fprintf(fp, "%u %u %.4f", pt[i].rules, pt[i].seconds,
			(double)pt[i].seconds / pt[0].seconds);
		if (d->ss_sweep[i].have && d->ss_sweep[0].have)
			fprintf(fp, " %.3f %.4f\n", seed_seconds(&d->ss_sweep[i]),
				seed_seconds(&d->ss_sweep[i]) / seed_seconds(&d->ss_sweep[0]));
		else
			fprintf(fp, " NaN NaN\n");
	}
	return 0;
}

static int write_overhead(FILE *fp, const struct audit_data *d)
{
	fprintf(fp, "variant,model,sim_time_ms,off_sim_time_ms,overhead_pct\n");
	for (unsigned v = 0; v < d->nv; v++)
		for (unsigned m = 0; m < d->nm; m++) {
			const struct times *t = at(d, (int)v, (int)m);
			const struct times *off = at(d, d->v[AUDIT_OFF], (int)m);
			double h;

			if (!t)
				continue;
			ss_csv_put(fp, d->res->variants.v[v]);
			fputc(',', fp);
			ss_csv_put(fp, d->res->models.v[m]);
			fprintf(fp, ",%.3f,", t->sim_ms);
			if (hit_pct(d, (int)v, (int)m, &h))
				fprintf(fp, ",\n");
			else
				fprintf(fp, "%.3f,%.2f\n", off->sim_ms, h);
		}
	return 0;
}

static int rp_audit_write_dat(unsigned k, FILE *fp, const struct ss_report_report_in *in)
{
	struct audit_data d;
	int r = -1;

	if (!load_or_say(in, &d)) {
		switch (k) {
		case 0: r = write_breakdown(fp, &d); break;
		case 1: r = write_sweep(fp, &d); break;
		case 2: r = write_overhead(fp, &d); break;
		default: break;
		}
	}
	free(d.t);
	return r;
}

/* Headline figures: each variant's overhead against off, model
 * compare_model (on-2.6.16 is the fitted one). */
static int rp_audit_figures(const struct ss_report_report_in *in, struct ss_report_figures *out)
{
	struct audit_data d;
	int r = 0;

	if (load_or_say(in, &d)) {
		free(d.t);
		return -1;
	}
	for (unsigned v = 0; v < d.nv && !r; v++) {
		char name[SS_REPORT_FIGURE_NAME_MAX], what[192];
		double h;

		if ((int)v == d.v[AUDIT_OFF] || hit_pct(&d, (int)v, d.cm, &h))
			continue;
		snprintf(name, sizeof(name), "overhead_pct:%.48s", d.res->variants.v[v]);
		snprintf(what, sizeof(what), "%s against off, model %s%s", d.res->variants.v[v],
			 in->compare_model, (int)v == d.v[AUDIT_ON_2616]
			 ? " (fitted to the seed's 146% by AUDIT_PROFILE_SCALE_PERMILLE)" : "");
		r = ss_report_figures_add(out, name, "%", h, what);
	}
	free(d.t);
	return r;
}

const struct ss_report_extra ss_audit_report = {rp_audit_write_md,
	{"breakdown.dat", "sweep.dat", "overhead.csv"}, rp_audit_write_dat,
	rp_audit_figures, NULL};
