/* hb_report.c - the hackbench sections of report.md and time.dat
 * (hb_report.h). */
#include "hb_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "md_table.h"

/* What the sections need from one run beyond report_runs.c's summary. */
struct ss_hackbench_run {
	const struct ss_report_run *run;
	char era[16];
	bool is_p;		/* variant P-ERA (else none-ERA) */
	bool extra_ok;		/* summary.json, counters and functions read */
	char why[160];		/* why not */
	double clock_mhz;
	double deact_cycles;	/* deactivate_slab, all caches */
	double slow_cycles;	/* ___slab_alloc, all caches */
	uint64_t slow_allocs, remote_frees;
};

/* ---- reading a run's extra files ------------------------------------- */

static int col_of(const struct ss_report_results *res, const char *name)
{
	for (unsigned i = 0; i < res->ncols; i++)
		if (!strcmp(res->header[i], name))
			return (int)i;
	return -1;
}

/* "clock_mhz" from summary.json (written by results.c, one key per line). */
static int read_clock(const char *path, double *clock, struct ss_error *err)
{
	char line[1024];
	FILE *fp = fopen(path, "r");
	char *p;

	if (!fp)
		return ss_errorf(err, "%s: cannot open", path);
	*clock = 0;
	while (fgets(line, sizeof(line), fp))
		if ((p = strstr(line, "\"clock_mhz\": ")))
			*clock = strtod(p + strlen("\"clock_mhz\": "), NULL);
	fclose(fp);
	if (!(*clock > 0))
		return ss_errorf(err, "%s: no clock_mhz", path);
	return 0;
}

/* The sum over every cache of column `value` in the rows of a per-cache
 * CSV whose column `key` is `name` (counters.csv, functions.csv). */
static int sum_rows(const char *path, const char *key, const char *name,
		    const char *value, double *sum, struct ss_error *err)
{
	struct ss_csv c;
	unsigned ikey, ivalue;
	int r;

	*sum = 0;
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	if (ss_csv_need(&c, key, &ikey, err) || ss_csv_need(&c, value, &ivalue, err)) {
		ss_csv_close(&c);
		return -1;
	}
	while ((r = ss_csv_next(&c, err)) == 1) {
		double v;

		if (strcmp(ss_csv_get(&c, ikey), name))
			continue;
		if (ss_csv_num(&c, ivalue, &v, err)) {
			r = -1;
			break;
		}
		*sum += v;
	}
	ss_csv_close(&c);
	return r;
}

/* What the sections need of a run: its clock, its slow-path allocations
 * and remote frees (counters.csv), and the cycles the model recorded in
 * ___slab_alloc and deactivate_slab (functions.csv). */
static int load_extra(const char *dir, struct ss_hackbench_run *hr, struct ss_error *err)
{
	char base[4200], path[4400];
	double slow_allocs, remote_frees;

	snprintf(base, sizeof(base), "%s/runs/%s__%s", dir, hr->run->variant,
		 hr->run->model);
	snprintf(path, sizeof(path), "%s/summary.json", base);
	if (read_clock(path, &hr->clock_mhz, err))
		return -1;
	snprintf(path, sizeof(path), "%s/counters.csv", base);
	if (sum_rows(path, "counter", "alloc_slowpath", "value", &slow_allocs, err) ||
	    sum_rows(path, "counter", "remote_free", "value", &remote_frees, err))
		return -1;
	snprintf(path, sizeof(path), "%s/functions.csv", base);
	if (sum_rows(path, "function", "___slab_alloc", "cycles", &hr->slow_cycles, err) ||
	    sum_rows(path, "function", "deactivate_slab", "cycles", &hr->deact_cycles, err))
		return -1;
	hr->slow_allocs = (uint64_t)slow_allocs;
	hr->remote_frees = (uint64_t)remote_frees;
	return 0;
}

/* Every run whose variant is none-ERA or P-ERA, in report order. */
static struct ss_hackbench_run *collect(const struct ss_report_report_in *in, size_t *nr)
{
	const struct ss_report_results *res = in->res;
	struct ss_hackbench_run *hr = calloc(res->nruns ? res->nruns : 1, sizeof(*hr));
	int iera = col_of(res, "era");
	size_t n = 0;

	if (!hr)
		return NULL;
	for (size_t i = 0; i < res->nruns; i++) {
		const struct ss_report_run *run = &res->runs[i];
		const char *v = run->variant;
		struct ss_hackbench_run *h = &hr[n];
		struct ss_error err = {{0}};

		if (strncmp(v, "none-", 5) && strncmp(v, "P-", 2))
			continue;
		h->run = run;
		h->is_p = v[0] == 'P';
		snprintf(h->era, sizeof(h->era), "%s",
			 iera >= 0 ? run->row[iera] : strchr(v, '-') + 1);
		h->extra_ok = load_extra(in->dir, h, &err) == 0;
		if (!h->extra_ok)
			snprintf(h->why, sizeof(h->why), "%.150s", err.msg);
		n++;
	}
	*nr = n;
	return hr;
}

static const struct ss_hackbench_run *find(const struct ss_hackbench_run *hr, size_t n, bool p,
				 const char *era)
{
	for (size_t i = 0; i < n; i++)
		if (hr[i].is_p == p && !strcmp(hr[i].era, era))
			return &hr[i];
	return NULL;
}

/* ---- report.md sections ---------------------------------------------- */

/* The seed's run time of a variant, and where it comes from. */
static double seed_time(const struct ss_hackbench_run *h, const char **what)
{
	if (!strcmp(h->era, "4.5") && h->is_p) {
		*what = "v2 \"before\"";
		return SS_REPORT_HB_SEED_P45_S;
	}
	if (!strcmp(h->era, "4.6") && h->is_p) {
		*what = "v2 \"after\"";
		return SS_REPORT_HB_SEED_P46_S;
	}
	if (!strcmp(h->era, "4.5") && !h->is_p) {
		*what = "v1, fitted";
		return SS_REPORT_HB_SEED_NONE45_S;
	}
	*what = "";
	return NAN;
}

static int times_table(FILE *fp, const struct ss_hackbench_run *hr, size_t n)
{
	struct ss_md_table t;

	ss_mdtable_init(&t, "lllrrrrrr");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "kernel");
	ss_mdtable_cell(&t, "model");
	ss_mdtable_cell(&t, "CPUs");
	ss_mdtable_cell(&t, "simulated s");
	ss_mdtable_cell(&t, "allocator s (all CPUs)");
	ss_mdtable_cell(&t, "other s (HB_MSG_CYCLES)");
	ss_mdtable_cell(&t, "seed s");
	ss_mdtable_cell(&t, "model vs seed");
	for (size_t i = 0; i < n; i++) {
		const struct ss_report_summary *s = &hr[i].run->s;
		const char *what;
		double seed = seed_time(&hr[i], &what);

		ss_mdtable_cell(&t, "%s", hr[i].run->variant);
		ss_mdtable_cell(&t, "%s", hr[i].era);
		ss_mdtable_cell(&t, "%s", hr[i].run->model);
		ss_mdtable_cell(&t, "%.0f", s->cpus);
		ss_mdtable_cell(&t, "%.3f", s->sim_time_ms / 1000);
		ss_mdtable_cell(&t, "%.3f", s->alloc_time_ms / 1000);
		ss_mdtable_cell(&t, "%.3f", s->work_time_ms / 1000);
		if (isnan(seed)) {
			ss_mdtable_cell(&t, "-");
			ss_mdtable_cell(&t, "-");
		} else if (s->cpus != 1) { /* the seed ran on one CPU */
			ss_mdtable_cell(&t, "%.3f (%s)", seed, what);
			ss_mdtable_cell(&t, "n/a: 1 CPU");
		} else {
			ss_mdtable_cell(&t, "%.3f (%s)", seed, what);
			ss_mdtable_cell(&t, "%+.1f%%", 100 * (s->sim_time_ms / 1000 - seed) / seed);
		}
	}
	return ss_mdtable_print(fp, &t);
}

#define HB_RATIO_FIGURE "ratio:P-4.5/P-4.6"

/* The simulated P-4.5 / P-4.6 against the seed's, said plainly: where it
 * lands, with its interval from sensitivity.csv when there is one. */
static void ratio_check(FILE *fp, const struct ss_report_report_in *in,
			const struct ss_hackbench_run *p45, const struct ss_hackbench_run *p46)
{
	double seed = SS_REPORT_HB_SEED_P45_S / SS_REPORT_HB_SEED_P46_S, model, pct;
	struct ss_report_interval iv;
	char a[64], b[512];

	if (!p45 || !p46 || !(p46->run->s.sim_time_ms > 0)) {
		fprintf(fp, "**P-4.5 / P-4.6: not computed** (the runs of both variants are needed).\n\n");
		return;
	}
	model = p45->run->s.sim_time_ms / p46->run->s.sim_time_ms;
	pct = 100 * (model - seed) / seed;
	fprintf(fp, "**P-4.5 / P-4.6 = %.3f simulated against %.3f measured "
		    "(%.3f / %.3f s): the model is %.1f%% %s the seed.**",
		model, seed, SS_REPORT_HB_SEED_P45_S, SS_REPORT_HB_SEED_P46_S, fabs(pct),
		pct >= 0 ? "above" : "below");
	if (in->sens && !ss_report_sens_interval(in->sens, HB_RATIO_FIGURE, 3, &iv)) {
		ss_report_interval_str(&iv, a, sizeof(a));
		ss_report_top_steps_str(&iv, 3, b, sizeof(b));
		fprintf(fp, "  Over the ranges of the estimated costs, the clock and the "
			    "quantum it spans %s, %s the seed's %.3f; it depends most on %s.",
			a, seed >= iv.lo && seed <= iv.hi ? "which holds" : "which does not hold",
			seed, b);
	} else {
		fprintf(fp, "  No interval: `make sensitivity WORKLOAD=hackbench` gives one.");
	}
	fprintf(fp, "\n\n");
	fprintf(fp, "The series took %.3f s off P (%.0f%%); the model takes %.3f s "
		    "(%.0f%%).\n\n",
		SS_REPORT_HB_SEED_P45_S - SS_REPORT_HB_SEED_P46_S,
		100 * (1 - SS_REPORT_HB_SEED_P46_S / SS_REPORT_HB_SEED_P45_S),
		(p45->run->s.sim_time_ms - p46->run->s.sim_time_ms) / 1000,
		100 * (1 - p46->run->s.sim_time_ms / p45->run->s.sim_time_ms));
}

/* The seed's P / none, where it has one. */
static double seed_cost_ratio(const char *era, const char **what)
{
	if (!strcmp(era, "4.5")) {
		*what = "v1: 15.366 / 7.437, one session";
		return SS_REPORT_HB_SEED_P45_V1_S / SS_REPORT_HB_SEED_NONE45_S;
	}
	if (!strcmp(era, "4.6")) {
		*what = "v2 after / v1 none: 10.836 / 7.437";
		return SS_REPORT_HB_SEED_P46_S / SS_REPORT_HB_SEED_NONE45_S;
	}
	*what = "";
	return NAN;
}

static int cost_table(FILE *fp, const struct ss_hackbench_run *hr, size_t n)
{
	struct ss_md_table t;
	unsigned rows = 0;

	ss_mdtable_init(&t, "lrrrrrl");
	ss_mdtable_cell(&t, "kernel");
	ss_mdtable_cell(&t, "none s");
	ss_mdtable_cell(&t, "P s");
	ss_mdtable_cell(&t, "P / none");
	ss_mdtable_cell(&t, "P - none s");
	ss_mdtable_cell(&t, "per message ns");
	ss_mdtable_cell(&t, "seed P / none");
	for (size_t i = 0; i < n; i++) {
		const struct ss_hackbench_run *p = &hr[i], *none;
		double msgs, extra, sr;
		const char *what;

		if (!p->is_p || !(none = find(hr, n, false, p->era)))
			continue;
		msgs = p->run->s.alloc_ops / 2; /* an sk_buff and a head each */
		extra = p->run->s.sim_time_ms - none->run->s.sim_time_ms;
		sr = seed_cost_ratio(p->era, &what);
		ss_mdtable_cell(&t, "%s", p->era);
		ss_mdtable_cell(&t, "%.3f", none->run->s.sim_time_ms / 1000);
		ss_mdtable_cell(&t, "%.3f", p->run->s.sim_time_ms / 1000);
		ss_mdtable_cell(&t, "%.2f", p->run->s.sim_time_ms / none->run->s.sim_time_ms);
		ss_mdtable_cell(&t, "%.3f", extra / 1000);
		if (msgs > 0)
			ss_mdtable_cell(&t, "%.0f", extra * 1e6 / msgs);
		else
			ss_mdtable_cell(&t, "-");
		if (isnan(sr))
			ss_mdtable_cell(&t, "-");
		else
			ss_mdtable_cell(&t, "%.2f (%s)", sr, what);
		rows++;
	}
	if (!rows) {
		ss_mdtable_free(&t);
		fprintf(fp, "No era has both a none and a P run.\n\n");
		return 0;
	}
	return ss_mdtable_print(fp, &t);
}

static int share_table(FILE *fp, const struct ss_hackbench_run *hr, size_t n)
{
	struct ss_md_table t;

	ss_mdtable_init(&t, "lrrrl");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "slow-path allocs");
	ss_mdtable_cell(&t, "___slab_alloc cycles each");
	ss_mdtable_cell(&t, "deactivate_slab cycles each");
	ss_mdtable_cell(&t, "deactivate_slab share");
	for (size_t i = 0; i < n; i++) {
		const struct ss_hackbench_run *h = &hr[i];
		double each;

		ss_mdtable_cell(&t, "%s", h->run->variant);
		if (!h->extra_ok) {
			ss_mdtable_cell(&t, "-");
			ss_mdtable_cell(&t, "-");
			ss_mdtable_cell(&t, "-");
			ss_mdtable_cell(&t, "n/a: %s", h->why);
			continue;
		}
		each = h->slow_allocs ? h->slow_cycles / (double)h->slow_allocs : 0;
		ss_mdtable_cell(&t, "%llu", (unsigned long long)h->slow_allocs);
		ss_mdtable_cell(&t, "%.0f", each);
		ss_mdtable_cell(&t, "%.0f", h->slow_allocs ? h->deact_cycles / (double)h->slow_allocs : 0);
		if (h->slow_cycles > 0 && h->deact_cycles > 0)
			ss_mdtable_cell(&t, "%.0f%%", 100 * h->deact_cycles / h->slow_cycles);
		else
			ss_mdtable_cell(&t, "0 (no deactivate_slab)");
	}
	return ss_mdtable_print(fp, &t);
}

static void share_sentence(FILE *fp, const struct ss_hackbench_run *hr, size_t n)
{
	const struct ss_hackbench_run *p46 = find(hr, n, true, "4.6");
	const struct ss_hackbench_run *p45 = find(hr, n, true, "4.5");
	double s46, s45;

	if (!p46 || !p45 || !p46->extra_ok || !p45->extra_ok ||
	    !(p46->slow_cycles > 0) || !(p45->slow_cycles > 0))
		return;
	s46 = 100 * p46->deact_cycles / p46->slow_cycles;
	s45 = 100 * p45->deact_cycles / p45->slow_cycles;
	fprintf(fp, "The seed profiled 25-50%% of ___slab_alloc in deactivate_slab after "
		    "the series (P-4.6): the model puts %.0f%% there (%s that range), "
		    "%.0f%% before the series (P-4.5, where every freelist update takes "
		    "the slab_lock fallback).  6.1 debug caches take single objects "
		    "from the node partial list and never call deactivate_slab; caches "
		    "without debugging drop an exhausted CPU slab in get_freelist() "
		    "(deactivate_bypass) and never call it either.\n\n",
		s46, s46 < 25 ? "below" : s46 > 50 ? "above" : "inside", s45);
}

static void machine_line(FILE *fp, const struct ss_hackbench_run *hr, size_t n)
{
	uint64_t remote = 0;
	double frees = 0;

	for (size_t i = 0; i < n; i++) {
		remote += hr[i].remote_frees;
		frees += hr[i].run->s.free_ops;
	}
	fprintf(fp, "Simulated: %.0f messages per run on x86_64 at %.0f MHz (the "
		    "targets' clock, an estimate), %.0f CPU%s; %.1f%% of the frees ran "
		    "on another CPU than the allocation.  The seed's figures come from a "
		    "QEMU guest with one CPU (v1 cover letter); `make sim "
		    "WORKLOAD=hackbench CPUS=8` spreads the tasks over 8 CPUs "
		    "instead%s.\n\n",
		n ? hr[0].run->s.alloc_ops / 2 : 0,
		n && hr[0].extra_ok ? hr[0].clock_mhz : 0, n ? hr[0].run->s.cpus : 0,
		n && hr[0].run->s.cpus == 1 ? "" : "s",
		frees > 0 ? 100 * (double)remote / frees : 0,
		n && hr[0].run->s.cpus != 1
			? " (as here: the simulated time is then the busiest CPU's, not "
			  "comparable with the one-CPU seed; compare the ratios)" : "");
}

static int rp_hackbench_md(FILE *fp, const struct ss_report_report_in *in)
{
	size_t n;
	struct ss_hackbench_run *hr = collect(in, &n);
	int rc = -1;

	if (!hr)
		return -1;
	ss_report_heading(fp, in, "hackbench: run time under slub_debug=P");
	fprintf(fp, "`hackbench -g 20 -l 1000` (shared/seeds/003_*, Laura Abbott, \"Improve "
		    "performance for SLAB_POISON\", v2, Feb 2016, merged in 4.6): 100 runs "
		    "each, slub_debug=P, %.3f s before the series and %.3f s after.  The "
		    "series' v1 (Jan 2016, same benchmark, \"QEMU with one cpu\") also "
		    "measured slub_debug=- at %.3f s: the one figure the model is fitted to "
		    "(HB_MSG_CYCLES, under Fitted constants).  Every other simulated time is a "
		    "prediction.\n\n",
		    SS_REPORT_HB_SEED_P45_S, SS_REPORT_HB_SEED_P46_S, SS_REPORT_HB_SEED_NONE45_S);
	machine_line(fp, hr, n);
	if (times_table(fp, hr, n))
		goto out;
	ratio_check(fp, in, find(hr, n, true, "4.5"), find(hr, n, true, "4.6"));
	fprintf(fp, "### The cost of slub_debug=P in each era (prediction)\n\n");
	if (cost_table(fp, hr, n))
		goto out;
	fprintf(fp, "### deactivate_slab in ___slab_alloc\n\n"
		    "Cycles the model recorded inside deactivate_slab (functions.csv: "
		    "its fixed part, the walk of the objects handed back, their freelist "
		    "updates -- cmpxchg_double, or slab_lock without it -- and its "
		    "list_lock) against those of every slow-path alloc.\n\n");
	if (share_table(fp, hr, n))
		goto out;
	share_sentence(fp, hr, n);
	rc = ferror(fp) ? -1 : 0;
out:
	free(hr);
	return rc;
}

/* time.dat: one row per run, for workloads/hackbench/time.gp. */
static int rp_hackbench_dat(unsigned k, FILE *fp, const struct ss_report_report_in *in)
{
	size_t n;
	struct ss_hackbench_run *hr;

	if (k != 0)
		return -1;
	hr = collect(in, &n);
	if (!hr)
		return -1;
	fprintf(fp, "# time.dat - simulated hackbench run time per variant (s), the\n"
		    "# allocator's share, the rest (HB_MSG_CYCLES), and the seed's time\n"
		    "# (NaN where the seed has none).  x = bar position.\n"
		    "# variant x sim_s alloc_s other_s seed_s\n");
	for (size_t i = 0; i < n; i++) {
		const struct ss_report_summary *s = &hr[i].run->s;
		const char *what;
		double seed = seed_time(&hr[i], &what);

		fprintf(fp, "%s %zu %.4f %.4f %.4f ", hr[i].run->variant, i,
			s->sim_time_ms / 1000, s->alloc_time_ms / 1000,
			s->work_time_ms / 1000);
		if (isnan(seed))
			fprintf(fp, "NaN\n");
		else
			fprintf(fp, "%.3f\n", seed);
	}
	free(hr);
	return ferror(fp) ? -1 : 0;
}

/* Headline figures: P-4.5 / P-4.6, each P variant's simulated time, and
 * P / none in each era. */
static int rp_hackbench_figures(const struct ss_report_report_in *in,
				struct ss_report_figures *out)
{
	size_t n;
	struct ss_hackbench_run *hr = collect(in, &n);
	const struct ss_hackbench_run *p45, *p46;
	int r = 0;

	if (!hr)
		return -1;
	p45 = find(hr, n, true, "4.5");
	p46 = find(hr, n, true, "4.6");
	if (p45 && p46 && p46->run->s.sim_time_ms > 0)
		r |= ss_report_figures_add(out, HB_RATIO_FIGURE, "ratio",
				    p45->run->s.sim_time_ms / p46->run->s.sim_time_ms,
				    "simulated P-4.5 / P-4.6 (the seed: 15.607 / 10.836 = 1.440)");
	for (size_t i = 0; i < n && !r; i++) {
		const struct ss_hackbench_run *p = &hr[i], *none;
		char name[SS_REPORT_FIGURE_NAME_MAX], what[192];

		if (!p->is_p)
			continue;
		snprintf(name, sizeof(name), "sim_s:%.48s", p->run->variant);
		snprintf(what, sizeof(what), "simulated run time of %s", p->run->variant);
		r |= ss_report_figures_add(out, name, "s", p->run->s.sim_time_ms / 1000, what);
		if (!(none = find(hr, n, false, p->era)) || !(none->run->s.sim_time_ms > 0))
			continue;
		snprintf(name, sizeof(name), "P/none:%.16s", p->era);
		snprintf(what, sizeof(what), "P over none, kernel %s", p->era);
		r |= ss_report_figures_add(out, name, "ratio",
				    p->run->s.sim_time_ms / none->run->s.sim_time_ms, what);
	}
	free(hr);
	return r ? -1 : 0;
}

const struct ss_report_extra ss_hackbench_report = {
	rp_hackbench_md, {"time.dat"}, rp_hackbench_dat, rp_hackbench_figures,
	.time_first = "hackbench's seed is a speed figure: the 4.6 series cut `hackbench -g 20 "
		      "-l 1000` under slub_debug=P from 15.607 s to 10.836 s, and it measured no "
		      "memory.  So its answer is time, first; the runs' slab memory follows.",
};
