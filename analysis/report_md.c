/* report_md.c - write report.md (report_md.h). */
#include "report_md.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "contention_table.h"
#include "latency_table.h"
#include "md_table.h"

/* ---- prose -------------------------------------------------------------- */

#define MD_WRAP 96 /* text columns of prose lines */

/* Words that would turn a continuation line into a list item, quote or
 * heading if a line began with them. */
static bool md_bad_line_start(const char *w)
{
	size_t d = strspn(w, "0123456789");

	return (strchr("+-*>=", w[0]) && (w[1] == '\0' || w[1] == ' ')) ||
	       w[0] == '#' || (d && (w[d] == '.' || w[d] == ')'));
}

/* Print formatted prose wrapped at MD_WRAP columns: the first line starts
 * with `first`, the others with `cont`; a blank line follows when `para`. */
static void md_wrap(FILE *fp, const char *first, const char *cont, bool para,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void md_wrap(FILE *fp, const char *first, const char *cont, bool para,
		    const char *fmt, ...)
{
	char text[4096], *save = NULL;
	size_t col = mdt_width(first);
	bool start = true;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fputs(first, fp);
	for (char *w = strtok_r(text, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		size_t ww = mdt_width(w);

		if (!start && col + 1 + ww > MD_WRAP && !md_bad_line_start(w)) {
			fprintf(fp, "\n%s", cont);
			col = mdt_width(cont);
			start = true;
		}
		if (!start) {
			fputc(' ', fp);
			col++;
		}
		fputs(w, fp);
		col += ww;
		start = false;
	}
	fputs(para ? "\n\n" : "\n", fp);
}

/* ---- helpers ---------------------------------------------------------- */

static int col_index(const struct rp_results *res, const char *name)
{
	for (unsigned i = 0; i < res->ncols; i++)
		if (!strcmp(res->header[i], name))
			return (int)i;
	return -1;
}

/* The distinct values of a text column over the runs (of model mi, or of
 * all models when mi < 0), joined with ", ". */
static void distinct(const struct rp_results *res, const char *col, int mi,
		     char *buf, size_t n)
{
	int c = col_index(res, col);
	size_t len = 0;

	buf[0] = '\0';
	if (c < 0)
		return;
	for (size_t k = 0; k < res->nruns; k++) {
		const char *v = res->runs[k].row[c];
		bool seen = false;

		if (mi >= 0 && res->runs[k].mi != (unsigned)mi)
			continue;
		for (size_t j = 0; j < k && !seen; j++)
			seen = (mi < 0 || res->runs[j].mi == (unsigned)mi) &&
			       !strcmp(res->runs[j].row[c], v);
		if (seen || len + strlen(v) + 3 >= n)
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					len ? ", " : "", v);
	}
}

/* "17000" when every run agrees, "16990–17000" when they differ; empty
 * when no run has the optional column. */
static void value_range(const struct rp_results *res, size_t off, char *buf,
			size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	buf[0] = '\0';
	for (size_t k = 0; k < res->nruns; k++) {
		double v = *(const double *)((const char *)&res->runs[k].s + off);

		if (v < 0)
			continue;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (lo > hi)
		return;
	if (lo == hi)
		snprintf(buf, n, "%.0f", lo);
	else
		snprintf(buf, n, "%.0f–%.0f", lo, hi);
}

static const struct rp_run *run_of(const struct rp_results *res,
				   const char *variant, int mi)
{
	int vi = rp_names_find(&res->variants, variant);

	if (vi < 0 || mi < 0)
		return NULL;
	return rp_find(res, (unsigned)vi, (unsigned)mi);
}

void rp_heading(FILE *fp, const struct rp_report_in *in, const char *fmt, ...)
{
	va_list ap;

	fprintf(fp, "## %u. ", ++*in->secno);
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	fputs("\n\n", fp);
}

/* "x86_64-4.5, x86_64-4.6" -> "x86_64-4.5/4.6": the names after the
 * first share its part up to the last '-'. */
static void squeeze_targets(char *list)
{
	char out[256], *save = NULL, *first = NULL;
	size_t plen = 0, len = 0;

	out[0] = '\0';
	for (char *t = strtok_r(list, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		if (!first) {
			char *dash = strrchr(t, '-');

			first = t;
			plen = dash ? (size_t)(dash - t) + 1 : 0;
			len += (size_t)snprintf(out + len, sizeof(out) - len, "%s", t);
		} else if (plen && !strncmp(t, first, plen)) {
			len += (size_t)snprintf(out + len, sizeof(out) - len, "/%s", t + plen);
		} else {
			len += (size_t)snprintf(out + len, sizeof(out) - len, ", %s", t);
		}
		if (len >= sizeof(out))
			break;
	}
	strcpy(list, out);
}

void rp_plot_title(const struct rp_results *res, const char *workload,
		   char *buf, size_t n)
{
	char t[256], e[128], c[128], kernel[160] = "";
	int tc = col_index(res, "target"), ec = col_index(res, "era");
	bool named = tc >= 0 && ec >= 0;

	/* the era only when a target's name does not end in it */
	for (size_t k = 0; named && k < res->nruns; k++) {
		const char *tn = res->runs[k].row[tc], *era = res->runs[k].row[ec];
		size_t lt = strlen(tn), le = strlen(era);

		named = lt > le && tn[lt - le - 1] == '-' && !strcmp(tn + lt - le, era);
	}
	distinct(res, "target", -1, t, sizeof(t));
	distinct(res, "era", -1, e, sizeof(e));
	distinct(res, "cpus", -1, c, sizeof(c));
	squeeze_targets(t);
	if (!named)
		snprintf(kernel, sizeof(kernel), " (kernel %s)", e);
	snprintf(buf, n, "%s, %s%s, %s CPU%s", workload, t, kernel, c,
		 strcmp(c, "1") ? "s" : "");
}

int rp_write_title_gp(FILE *fp, const char *title)
{
	fputs("# title.gp - the plots' title head, loaded by make before each script\n"
	      "# (workload_plain for a title drawn noenhanced)\nworkload_plain = '", fp);
	for (const char *c = title; *c; c++) {
		if (*c == '\'')
			fputc('\'', fp);
		fputc(*c, fp);
	}
	fputs("'\nworkload = '", fp);
	for (; *title; title++) {
		if (*title == '\'') /* gnuplot: '' is a quote inside '...' */
			fputc('\'', fp);
		else if (strchr("_^@{}&~\\", *title)) /* literal in enhanced text */
			fputc('\\', fp);
		fputc(*title, fp);
	}
	fputs("'\n", fp);
	return ferror(fp) ? -1 : 0;
}

/* ---- what was run ---------------------------------------------------- */

/* "Runs: 20 (5 variants × 4 models)" when every pair ran; otherwise the
 * count alone and the pairs that did not run, said as such. */
void rp_runs_line(FILE *fp, const struct rp_results *res, const char *dir)
{
	size_t pairs = (size_t)res->variants.n * res->models.n;

	if (res->nruns == pairs)
		fprintf(fp, "- Runs: %zu (%u variants × %u models) from %s/runs/\n",
			res->nruns, res->variants.n, res->models.n, dir);
	else
		fprintf(fp, "- Runs: %zu from %s/runs/, of the %zu pairs of %u variants and %u models\n",
			res->nruns, dir, pairs, res->variants.n, res->models.n);
}

static void sec_run(FILE *fp, const struct rp_report_in *in)
{
	const struct rp_results *res = in->res;
	char a[512], b[512], c[512];

	rp_heading(fp, in, "What was run");
	fprintf(fp, "- Command: `%s`\n", in->command);
	distinct(res, "target", -1, a, sizeof(a));
	distinct(res, "era", -1, b, sizeof(b));
	distinct(res, "cpus", -1, c, sizeof(c));
	fprintf(fp, "- Target: %s (kernel era %s, %s CPU%s)\n", a, b, c,
		strcmp(c, "1") ? "s" : "");
	value_range(res, offsetof(struct rp_summary, rules), a, sizeof(a));
	value_range(res, offsetof(struct rp_summary, labels), b, sizeof(b));
	if (a[0])
		fprintf(fp, "- Rules loaded: %s\n", a);
	if (b[0])
		fprintf(fp, "- Labels: %s\n", b);
	rp_runs_line(fp, res, in->dir);
	if (res->dropped)
		fprintf(fp, "- Left out: %zu run directories whose variant or model was not listed\n",
			res->dropped);
	fprintf(fp, "- Models (slub_debug):");
	for (unsigned m = 0; m < res->models.n; m++) {
		distinct(res, "slub_debug", (int)m, a, sizeof(a));
		fprintf(fp, "%s %s (%s)", m ? "," : "", res->models.v[m],
			a[0] ? a : "no runs");
	}
	fprintf(fp, "\n- Variants:");
	if (!in->seed) {
		for (unsigned v = 0; v < res->variants.n; v++)
			fprintf(fp, "%s %s", v ? "," : "", res->variants.v[v]);
		fprintf(fp, "\n");
	} else {
		fprintf(fp, "\n");
		for (unsigned v = 0; v < res->variants.n; v++) {
			const struct rp_seed_row *s =
				rp_seed_find(in->seed, res->variants.v[v]);

			fprintf(fp, "  - %s: %s\n", res->variants.v[v],
				s ? s->what : "(not in the seed table)");
		}
		fprintf(fp, "- Seed table: %s\n", in->seed_path);
	}
	fprintf(fp, "- Plots: %s (and .svg) beside this file\n\n",
		in->plots ? in->plots : "waste.png, latency.png");
}

/* ---- 2. seed vs simulator ---------------------------------------------- */

/* The last four columns of the footprint and savings tables: the model's
 * figure, its difference from the seed's, and the verdict against the
 * tolerance tol (percent). */
static void check_head(struct md_table *t, double tol)
{
	mdt_cell(t, "model KiB");
	mdt_cell(t, "diff KiB");
	mdt_cell(t, "diff %%");
	mdt_cell(t, "±%.0f%%", tol);
}

/* Those four cells for check c, or "n/a" in each without runs (c NULL). */
static void check_cells(struct md_table *t, const struct rp_check *c)
{
	if (!c) {
		for (int k = 0; k < 4; k++)
			mdt_cell(t, "n/a");
		return;
	}
	mdt_cell(t, "%.0f", c->model);
	mdt_cell(t, "%+.0f", c->diff);
	mdt_cell(t, "%+.1f%%", c->pct);
	mdt_cell(t, "%s", c->pass ? "pass" : "FAIL");
}

static int seed_footprints(FILE *fp, const struct rp_report_in *in, int mi)
{
	const struct rp_seed *seed = in->seed;
	char why[1024];
	struct md_table t;

	mdt_init(&t, "lrrrrrl");
	mdt_cell(&t, "variant");
	mdt_cell(&t, "seed avg KiB");
	mdt_cell(&t, "seed min–max");
	check_head(&t, RP_FOOTPRINT_TOL_PCT);
	for (unsigned i = 0; i < seed->nrows; i++) {
		const struct rp_seed_row *s = &seed->rows[i];
		const struct rp_run *run = run_of(in->res, s->variant, mi);
		struct rp_check c;

		mdt_cell(&t, "%s", s->variant);
		mdt_cell(&t, "%.0f", s->avg);
		mdt_cell(&t, "%.0f–%.0f", s->min, s->max);
		if (run)
			rp_check_footprint(s, run->s.footprint_kib, &c);
		check_cells(&t, run ? &c : NULL);
	}
	if (mdt_print(fp, &t))
		return -1;
	for (unsigned i = 0; i < seed->nrows; i++) {
		const struct rp_seed_row *s = &seed->rows[i];
		const struct rp_run *run = run_of(in->res, s->variant, mi);
		struct rp_check c;

		if (!run) {
			fprintf(fp, "- %s: no run of model `%s`.\n", s->variant,
				in->compare_model);
			continue;
		}
		rp_check_footprint(s, run->s.footprint_kib, &c);
		rp_explain_footprint(&c, seed, why, sizeof(why));
		md_wrap(fp, "- ", "  ", false, "%s: %s", s->variant, why);
	}
	fprintf(fp, "\n");
	return 0;
}

static int seed_savings(FILE *fp, const struct rp_report_in *in, int mi)
{
	const struct rp_seed *seed = in->seed;
	char why[1024];
	struct md_table t;

	if (!seed->nsavings)
		return 0;
	md_wrap(fp, "", "", true, "Savings (FROM footprint − TO footprint); pass = model within ±%.0f%% of the seed's saving:",
		RP_SAVING_TOL_PCT);
	mdt_init(&t, "lrrrrrl");
	mdt_cell(&t, "saving");
	mdt_cell(&t, "seed KiB");
	mdt_cell(&t, "seed range");
	check_head(&t, RP_SAVING_TOL_PCT);
	for (unsigned i = 0; i < seed->nsavings; i++) {
		const struct rp_saving *sv = &seed->savings[i];
		const struct rp_run *a = run_of(in->res, sv->from, mi);
		const struct rp_run *b = run_of(in->res, sv->to, mi);
		struct rp_check c;

		rp_check_saving(rp_seed_find(seed, sv->from),
				rp_seed_find(seed, sv->to),
				a ? a->s.footprint_kib : 0,
				b ? b->s.footprint_kib : 0, &c);
		mdt_cell(&t, "%s → %s", sv->from, sv->to);
		mdt_cell(&t, "%.0f", c.seed);
		mdt_cell(&t, "%.0f–%.0f", c.lo, c.hi);
		check_cells(&t, a && b ? &c : NULL);
	}
	if (mdt_print(fp, &t))
		return -1;
	for (unsigned i = 0; i < seed->nsavings; i++) {
		const struct rp_saving *sv = &seed->savings[i];
		const struct rp_run *a = run_of(in->res, sv->from, mi);
		const struct rp_run *b = run_of(in->res, sv->to, mi);
		struct rp_check c;

		if (!a || !b) {
			fprintf(fp, "- %s → %s: no run of model `%s` for both variants.\n",
				sv->from, sv->to, in->compare_model);
			continue;
		}
		rp_check_saving(rp_seed_find(seed, sv->from),
				rp_seed_find(seed, sv->to), a->s.footprint_kib,
				b->s.footprint_kib, &c);
		rp_explain_saving(&c, seed, sv->estimate, why, sizeof(why));
		md_wrap(fp, "- ", "  ", false, "%s → %s: %s", sv->from, sv->to,
			why);
	}
	fprintf(fp, "\n");
	return 0;
}

/* One sentence per step of the time table: the seed's change, the model's,
 * and what the model leaves out, measured against the seed's time noise. */
static int explain_times(FILE *fp, const struct rp_report_in *in, int mi)
{
	const struct rp_seed *seed = in->seed;

	for (unsigned i = 1; i < seed->nrows; i++) {
		const struct rp_seed_row *s = &seed->rows[i];
		const struct rp_run *run = run_of(in->res, s->variant, mi);
		const struct rp_run *prev = run_of(in->res, s[-1].variant, mi);
		double sd, md, rest;
		char noise[256] = "";

		if (!run || !prev)
			continue;
		sd = (s->time_s - s[-1].time_s) * 1000;
		md = run->s.sim_time_ms - prev->s.sim_time_ms;
		rest = sd - md;
		if (seed->time_noise_ms > 0)
			snprintf(noise, sizeof(noise), fabs(sd) <= seed->time_noise_ms
				 ? "; the seed's change is within the ±%.0f ms noise of %s"
				 : "; the seed's change exceeds the ±%.0f ms noise of %s",
				 seed->time_noise_ms, seed->time_noise_what);
		md_wrap(fp, "- ", "  ", false,
			"%s: the seed's load time changed by %+.0f ms, the model's by %+.1f ms "
			"(the allocations and work events this variant adds or removes); "
			"%.0f ms of the seed's change is outside the model%s.",
			s->variant, sd, md, rest, noise);
	}
	fprintf(fp, "\n");
	return 0;
}

/* The seed's load time beside the simulated one; Δ = change from the
 * previous row of the seed table, as the seed states its speed-ups. */
static int seed_times(FILE *fp, const struct rp_report_in *in, int mi)
{
	const struct rp_seed *seed = in->seed;
	const struct rp_run *prev = NULL;
	struct md_table t;

	md_wrap(fp, "", "", true, "%s", "Load time: the seed's Time column beside the simulated sim_time_ms (Δ = change from the row above):");
	mdt_init(&t, "lrrrr");
	mdt_cell(&t, "variant");
	mdt_cell(&t, "seed s");
	mdt_cell(&t, "seed Δ ms");
	mdt_cell(&t, "sim ms");
	mdt_cell(&t, "sim Δ ms");
	for (unsigned i = 0; i < seed->nrows; i++) {
		const struct rp_seed_row *s = &seed->rows[i];
		const struct rp_run *run = run_of(in->res, s->variant, mi);

		mdt_cell(&t, "%s", s->variant);
		mdt_cell(&t, "%.3f", s->time_s);
		if (i)
			mdt_cell(&t, "%+.0f", (s->time_s - s[-1].time_s) * 1000);
		else
			mdt_cell(&t, "%s", "");
		if (run)
			mdt_cell(&t, "%.3f", run->s.sim_time_ms);
		else
			mdt_cell(&t, "n/a");
		if (run && prev)
			mdt_cell(&t, "%+.3f", run->s.sim_time_ms - prev->s.sim_time_ms);
		else
			mdt_cell(&t, "%s", "");
		prev = run;
	}
	if (mdt_print(fp, &t))
		return -1;
	return explain_times(fp, in, mi);
}

/* Counts of passing and failing checks, for the verdict line. */
static void count_checks(const struct rp_report_in *in, int mi,
			 unsigned cnt[4])
{
	const struct rp_seed *seed = in->seed;
	struct rp_check c;

	for (unsigned i = 0; i < seed->nrows; i++) {
		const struct rp_seed_row *s = &seed->rows[i];
		const struct rp_run *run = run_of(in->res, s->variant, mi);

		if (!run)
			continue;
		rp_check_footprint(s, run->s.footprint_kib, &c);
		cnt[c.pass ? 0 : 1]++;
	}
	for (unsigned i = 0; i < seed->nsavings; i++) {
		const struct rp_saving *sv = &seed->savings[i];
		const struct rp_run *a = run_of(in->res, sv->from, mi);
		const struct rp_run *b = run_of(in->res, sv->to, mi);

		if (!a || !b)
			continue;
		rp_check_saving(rp_seed_find(seed, sv->from),
				rp_seed_find(seed, sv->to), a->s.footprint_kib,
				b->s.footprint_kib, &c);
		cnt[c.pass ? 2 : 3]++;
	}
}

static int sec_seed(FILE *fp, const struct rp_report_in *in)
{
	int mi = rp_names_find(&in->res->models, in->compare_model);
	unsigned cnt[4] = {0};

	rp_heading(fp, in, "Seed vs simulator (model `%s`)", in->compare_model);
	count_checks(in, mi, cnt);
	fprintf(fp, "Verdict: footprint %u pass, %u fail; savings %u pass, %u fail.\n\n",
		cnt[0], cnt[1], cnt[2], cnt[3]);
	if (in->ncalib)
		fprintf(fp, "Fitted constants passed by make are listed in the next section.\n\n");
	md_wrap(fp, "", "", true, "Footprint: the seed's Diff (SUnreclaim after − before, mean of its runs) against the model's footprint_kib; pass = within ±%.0f%% of the seed's mean:",
		RP_FOOTPRINT_TOL_PCT);
	if (seed_footprints(fp, in, mi) || seed_savings(fp, in, mi) ||
	    seed_times(fp, in, mi))
		return -1;
	return 0;
}

/* ---- 3. fitted constants ------------------------------------------------ */

static int sec_calib(FILE *fp, const struct rp_report_in *in)
{
	struct md_table t;

	rp_heading(fp, in, "Fitted constants");
	if (!in->ncalib) {
		fprintf(fp, "None were passed (make's CALIBRATION is empty).\n\n");
		return 0;
	}
	fprintf(fp, "Passed by make (CALIBRATION), as NAME = VALUE:\n\n");
	mdt_init(&t, "ll");
	mdt_cell(&t, "constant");
	mdt_cell(&t, "value");
	for (unsigned i = 0; i < in->ncalib; i++) {
		mdt_cell(&t, "%s", in->calib[i].name);
		mdt_cell(&t, "%s", in->calib[i].value);
	}
	return mdt_print(fp, &t);
}

/* ---- where the bytes go ---------------------------------------------- */

/* One row of the bytes table: the six parts at the end or at the peak. */
static void bytes_row(struct md_table *t, const struct rp_run *run, bool peak)
{
	double total = 0, pad;

	mdt_cell(t, "%s", run->variant);
	mdt_cell(t, "%s", run->model);
	if (peak)
		mdt_cell(t, "peak, event %.0f", run->s.peak_event);
	else
		mdt_cell(t, "end");
	for (int p = 0; p < RP_NR_PARTS; p++) {
		double b = peak ? rp_peak_part_bytes(&run->s, (enum rp_part)p)
				: rp_part_bytes(&run->s, (enum rp_part)p);

		total += b;
		mdt_cell(t, "%.1f", b / 1024);
	}
	mdt_cell(t, "%.1f", total / 1024);
	mdt_cell(t, "%.0f", peak ? run->s.peak_footprint_kib : run->s.footprint_kib);
	pad = peak ? run->s.peak_rounding_bytes + run->s.peak_align_bytes
		   : run->s.padding_bytes;
	if (total > 0)
		mdt_cell(t, "%.1f", pad * 100 / total);
	else
		mdt_cell(t, "n/a");
}

static int sec_bytes(FILE *fp, const struct rp_report_in *in)
{
	const struct rp_results *res = in->res;
	struct md_table t;
	bool any_peak = false;

	for (size_t k = 0; k < res->nruns; k++)
		any_peak |= rp_has_peak(&res->runs[k].s);
	rp_heading(fp, in, "Where the bytes go (KiB)%s", any_peak ? ": at the end and at the peak" : "");
	md_wrap(fp, "", "", true, "%s%s",
		"requested = bytes the callers asked for; rounding = up to the kmalloc class or cache size; "
		"align = up to the cache's alignment; debug = slub_debug metadata; free slots = unused objects "
		"in the slabs held; slab tail = leftover at the end of each slab (slabinfo's Lpadd); "
		"total = the six parts (the footprint, unless a run keeps kmalloc_large pages out of them); "
		"padding % = (rounding + align) × 100 / total.",
		any_peak ? " Each run has two rows: the end of the trace, and the moment its footprint "
			   "first reached its largest value (the peak), with the event it was reached at." : "");
	mdt_init(&t, "lllrrrrrrrrr");
	mdt_cell(&t, "variant");
	mdt_cell(&t, "model");
	mdt_cell(&t, "when");
	mdt_cell(&t, "requested");
	mdt_cell(&t, "rounding");
	mdt_cell(&t, "align");
	mdt_cell(&t, "debug");
	mdt_cell(&t, "free slots");
	mdt_cell(&t, "slab tail");
	mdt_cell(&t, "total");
	mdt_cell(&t, "footprint");
	mdt_cell(&t, "padding %%");
	for (size_t k = 0; k < res->nruns; k++) {
		bytes_row(&t, &res->runs[k], false);
		if (rp_has_peak(&res->runs[k].s))
			bytes_row(&t, &res->runs[k], true);
	}
	return mdt_print(fp, &t);
}

/* ---- where the waste is -------------------------------------------------- */

#define REPORT_TOP 3 /* caches and sites per run */

static int sec_waste(FILE *fp, const struct rp_report_in *in)
{
	if (!in->waste)
		return 0;
	rp_heading(fp, in, "Where the waste is: top caches and sites");
	md_wrap(fp, "", "", true,
		"Per run, the %d caches holding the most bytes no caller asked for at the end of the trace: "
		"waste = Space − requested = rounding + align + debug + free slots + slab tail (KiB; "
		"caches.csv), beside slabinfo's Loss = Space − Objects × Objsize, which leaves the "
		"rounding up to the kmalloc class out.", REPORT_TOP);
	if (wm_caches_table(fp, in->waste, (unsigned)in->res->nruns, REPORT_TOP))
		return -1;
	md_wrap(fp, "", "", true,
		"Per run, the %d allocation sites whose objects live at the end carry the most padding "
		"and debug bytes (sites.csv): waste = rounding + align + debug of those objects (KiB); "
		"live (peak) = objects live at the end (the most at once); Frag %% = perf kmem's, "
		"100 − requested × 100 / allocated over every allocation of the site.", REPORT_TOP);
	return wm_sites_table(fp, in->waste, (unsigned)in->res->nruns, REPORT_TOP);
}

/* ---- latency ------------------------------------------------------------ */

static int sec_latency(FILE *fp, const struct rp_report_in *in)
{
	const struct rp_results *res = in->res;

	rp_heading(fp, in, "Latency and contention");
	md_wrap(fp, "", "", true, "%s", "Latency per run in ns (latency.csv; a quantile is the upper bound of its bucket, at most 1/64 above the operation's time; latency.png draws each run's CCDF):");
	if (rp_latency_table(fp, res))
		return -1;
	md_wrap(fp, "", "", true, "%s", "Contention on the simulated clocks (summary.csv, locks.csv; docs/cost-model.md): time waited for list_lock and slab_lock summed over the CPUs, its share of the allocator time, cmpxchg_double retries, and cache lines moved between CPUs (object and slab lines of remote frees):");
	return rp_contention_table(fp, res);
}

/* ---- strategies compared ---------------------------------------------- */

/* One row per variant, one column per model (and the seed's mean). */
static int strategy_grid(FILE *fp, const struct rp_report_in *in, bool peak)
{
	const struct rp_results *res = in->res;
	char align[MDT_MAX_COLS + 2] = "l";
	bool seed = in->seed && !peak;
	struct md_table t;

	if (res->models.n + 2 >= sizeof(align))
		return -1;
	for (unsigned m = 0; m < res->models.n + (seed ? 1 : 0); m++)
		strcat(align, "r");
	mdt_init(&t, align);
	mdt_cell(&t, "variant");
	if (seed)
		mdt_cell(&t, "seed");
	for (unsigned m = 0; m < res->models.n; m++)
		mdt_cell(&t, "%s", res->models.v[m]);
	for (unsigned v = 0; v < res->variants.n; v++) {
		const struct rp_seed_row *s =
			seed ? rp_seed_find(in->seed, res->variants.v[v]) : NULL;

		mdt_cell(&t, "%s", res->variants.v[v]);
		if (seed && s)
			mdt_cell(&t, "%.0f", s->avg);
		else if (seed)
			mdt_cell(&t, "n/a");
		for (unsigned m = 0; m < res->models.n; m++) {
			const struct rp_run *run = rp_find(res, v, m);

			if (!run || (peak && !rp_has_peak(&run->s)))
				mdt_cell(&t, "n/a");
			else
				mdt_cell(&t, "%.0f", peak ? run->s.peak_footprint_kib
							  : run->s.footprint_kib);
		}
	}
	return mdt_print(fp, &t);
}

/* Not every pair ran (hackbench: one model per variant): one row per run
 * instead of a grid of n/a. */
static int strategy_rows(FILE *fp, const struct rp_report_in *in)
{
	const struct rp_results *res = in->res;
	struct md_table t;

	mdt_init(&t, in->seed ? "llrrr" : "llrr");
	mdt_cell(&t, "variant");
	mdt_cell(&t, "model");
	if (in->seed)
		mdt_cell(&t, "seed");
	mdt_cell(&t, "end");
	mdt_cell(&t, "peak");
	for (size_t k = 0; k < res->nruns; k++) {
		const struct rp_run *run = &res->runs[k];
		const struct rp_seed_row *s =
			in->seed ? rp_seed_find(in->seed, run->variant) : NULL;

		mdt_cell(&t, "%s", run->variant);
		mdt_cell(&t, "%s", run->model);
		if (in->seed && s)
			mdt_cell(&t, "%.0f", s->avg);
		else if (in->seed)
			mdt_cell(&t, "n/a");
		mdt_cell(&t, "%.0f", run->s.footprint_kib);
		if (rp_has_peak(&run->s))
			mdt_cell(&t, "%.0f", run->s.peak_footprint_kib);
		else
			mdt_cell(&t, "n/a");
	}
	return mdt_print(fp, &t);
}

static int sec_strategies(FILE *fp, const struct rp_report_in *in)
{
	const struct rp_results *res = in->res;
	bool any_peak = false;

	for (size_t k = 0; k < res->nruns; k++)
		any_peak |= rp_has_peak(&res->runs[k].s);
	rp_heading(fp, in, "Strategies compared: footprint (KiB)");
	if (rp_sparse(res)) {
		md_wrap(fp, "", "", true, "%s", "Each run's footprint at the end of the trace and at its peak "
			"(most variants ran one model only, so one row per run):");
		return strategy_rows(fp, in);
	}
	fputs("At the end of the trace:\n\n", fp);
	if (strategy_grid(fp, in, false))
		return -1;
	if (!any_peak)
		return 0;
	fputs("At the peak (the most slab memory held at once):\n\n", fp);
	return strategy_grid(fp, in, true);
}

int rp_write_report(FILE *fp, const struct rp_report_in *in_)
{
	struct rp_report_in copy = *in_, *in = &copy;
	unsigned secno = 0;

	if (!in->secno) /* a caller that numbers nothing after this */
		in->secno = &secno;
	fprintf(fp, "# %s: slab memory report\n\n", in->workload);
	md_wrap(fp, "", "", true, "%s", "Built by `slabsim report` from the per-run results; every column is defined in docs/outputs.md.");
	sec_run(fp, in);
	if (in->seed && sec_seed(fp, in))
		return -1;
	if (sec_calib(fp, in) || sec_bytes(fp, in) || sec_waste(fp, in) ||
	    sec_latency(fp, in) || sec_strategies(fp, in))
		return -1;
	return ferror(fp) ? -1 : 0;
}
