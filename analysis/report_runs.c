/* report_runs.c - load and order the per-run results (report_runs.h). */
#include "report_runs.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "sort.h"

const char *const ss_report_part_names[SS_REPORT_NR_PARTS] = {
	"requested", "rounding", "align", "debug", "free_slot", "slab_tail",
};

double ss_report_part_bytes(const struct ss_report_summary *s, enum ss_report_part p)
{
	switch (p) {
	case SS_REPORT_REQUESTED: return s->requested_bytes;
	case RP_ROUNDING: return s->rounding_bytes;
	case SS_REPORT_ALIGN: return s->align_bytes;
	case RP_DEBUG: return s->debug_bytes;
	case SS_REPORT_FREE_SLOT: return s->free_slot_bytes;
	case RP_SLAB_TAIL: return s->slab_tail_bytes;
	default: return 0;
	}
}

double ss_report_peak_part_bytes(const struct ss_report_summary *s, enum ss_report_part p)
{
	if (!ss_report_has_peak(s))
		return NAN;
	switch (p) {
	case SS_REPORT_REQUESTED: return s->peak_requested_bytes;
	case RP_ROUNDING: return s->peak_rounding_bytes;
	case SS_REPORT_ALIGN: return s->peak_align_bytes;
	case RP_DEBUG: return s->peak_debug_bytes;
	case SS_REPORT_FREE_SLOT: return s->peak_free_slot_bytes;
	case RP_SLAB_TAIL: return s->peak_slab_tail_bytes;
	default: return 0;
	}
}

bool ss_report_has_peak(const struct ss_report_summary *s)
{
	return !isnan(s->peak_footprint_kib);
}

/* The numeric summary.csv columns: name and where the value goes. */
struct num_col {
	const char *name;
	size_t off;
};

#define NUM(f) {#f, offsetof(struct ss_report_summary, f)}
static const struct num_col num_cols[] = {
	NUM(cpus), NUM(footprint_kib), NUM(requested_bytes),
	NUM(allocated_bytes), NUM(padding_bytes), NUM(rounding_bytes),
	NUM(align_bytes), NUM(debug_bytes), NUM(free_slot_bytes),
	NUM(slab_tail_bytes), NUM(large_bytes), NUM(slab_pages),
	NUM(live_objects), NUM(caches), NUM(alloc_ops), NUM(free_ops),
	NUM(sim_time_ms), NUM(alloc_time_ms), NUM(work_time_ms),
	NUM(p50_ns), NUM(p99_ns), NUM(alloc_p50_ns), NUM(alloc_p99_ns),
	NUM(free_p50_ns), NUM(free_p99_ns), NUM(fastpath_pct),
};
/* Columns some runs lack (a workload's own, or older runs'): -1 then. */
static const struct num_col opt_cols[] = {
	NUM(rules), NUM(labels), NUM(lock_wait_ms), NUM(lock_waits),
	NUM(cmpxchg_retries), NUM(remote_line_transfers), NUM(sim_time_ns),
};
/* Present all together or not at all (runs written before they existed). */
static const struct num_col peak_cols[] = {
	NUM(peak_footprint_kib), NUM(peak_requested_bytes), NUM(peak_rounding_bytes),
	NUM(peak_align_bytes), NUM(peak_debug_bytes), NUM(peak_free_slot_bytes),
	NUM(peak_slab_tail_bytes), NUM(peak_event),
};
#undef NUM
#define NR_NUM_COLS (sizeof(num_cols) / sizeof(num_cols[0]))
#define NR_OPT_COLS (sizeof(opt_cols) / sizeof(opt_cols[0]))
#define NR_PEAK_COLS (sizeof(peak_cols) / sizeof(peak_cols[0]))

/* The text columns that must be present. */
static const char *const text_cols[] = {
	"workload", "variant", "model", "slub_debug", "target", "era",
};

double ss_report_sim_ms(const struct ss_report_summary *s)
{
	return s->sim_time_ns >= 0 ? s->sim_time_ns / 1e6 : s->sim_time_ms;
}

bool ss_report_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= SS_REPORT_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') ||
		      ('0' <= *s && *s <= '9') || strchr("._+-", *s)))
			return false;
	return true;
}

int ss_report_names_find(const struct ss_report_names *l, const char *name)
{
	for (unsigned i = 0; l && i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return (int)i;
	return -1;
}

int ss_report_names_add(struct ss_report_names *l, const char *name)
{
	char **v = realloc(l->v, (l->n + 1) * sizeof(*v));

	if (!v)
		return -1;
	l->v = v;
	l->v[l->n] = strdup(name);
	if (!l->v[l->n])
		return -1;
	l->n++;
	return 0;
}

void ss_report_names_free(struct ss_report_names *l)
{
	for (unsigned i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static void run_free(struct ss_report_run *run, unsigned ncols)
{
	for (unsigned i = 0; run->row && i < ncols; i++)
		free(run->row[i]);
	free(run->row);
	run->row = NULL;
	for (int op = 0; op < SS_REPORT_NR_OPS; op++) {
		free(run->lat[op].b);
		run->lat[op].b = NULL;
		run->lat[op].n = 0;
	}
	free(run->locks);
	run->locks = NULL;
	run->nlocks = 0;
}

/* The first run fixes the header; the others must repeat it exactly. */
static int check_header(const struct ss_csv *c, struct ss_report_results *res,
			struct ss_error *err)
{
	if (res->header) {
		bool same = c->ncols == res->ncols;

		for (unsigned i = 0; same && i < c->ncols; i++)
			same = !strcmp(c->hdr[i], res->header[i]);
		if (!same)
			return ss_error_at(err, c->path, c->hdr_line,
					   "header differs from the other runs' summary.csv");
		return 0;
	}
	res->header = calloc(c->ncols, sizeof(*res->header));
	if (!res->header)
		return ss_errorf(err, "out of memory");
	res->ncols = c->ncols;
	for (unsigned i = 0; i < c->ncols; i++) {
		res->header[i] = strdup(c->hdr[i]);
		if (!res->header[i])
			return ss_errorf(err, "out of memory");
	}
	return 0;
}

static int text_field(const struct ss_csv *c, const char *col,
		      const char *want, const char *what, struct ss_error *err)
{
	unsigned i;

	if (ss_csv_need(c, col, &i, err))
		return -1;
	if (strcmp(ss_csv_get(c, i), want))
		return ss_error_at(err, c->path, c->line,
				   "%s '%s' does not match %s '%s'", col,
				   ss_csv_get(c, i), what, want);
	return 0;
}

/* Each of cols: present, a number, not negative. */
static int read_cols(const struct ss_csv *c, const struct num_col *cols,
		     size_t n, struct ss_report_summary *s, struct ss_error *err)
{
	unsigned idx;

	for (size_t i = 0; i < n; i++) {
		double *v = (double *)((char *)s + cols[i].off);

		if (ss_csv_need(c, cols[i].name, &idx, err) ||
		    ss_csv_num(c, idx, v, err))
			return -1;
		if (*v < 0)
			return ss_error_at(err, c->path, c->line,
					   "column '%s': negative value %s",
					   cols[i].name, ss_csv_get(c, idx));
	}
	return 0;
}

static int read_numbers(const struct ss_csv *c, struct ss_report_summary *s,
			struct ss_error *err)
{
	int opt;

	if (read_cols(c, num_cols, NR_NUM_COLS, s, err))
		return -1;
	s->peak_footprint_kib = NAN;
	if (ss_csv_col(c, peak_cols[0].name) >= 0 &&
	    read_cols(c, peak_cols, NR_PEAK_COLS, s, err))
		return -1;
	for (size_t i = 0; i < NR_OPT_COLS; i++) {
		double *v = (double *)((char *)s + opt_cols[i].off);

		*v = -1;
		if ((opt = ss_csv_col(c, opt_cols[i].name)) >= 0 &&
		    ss_csv_num(c, (unsigned)opt, v, err))
			return -1;
	}
	return 0;
}

/* requested + rounding + align + debug + free_slot + slab_tail is the slab
 * memory; footprint is that, plus kmalloc_large pages when the target
 * counts them (docs/outputs.md).  Half a KiB of slack for the rounding of
 * footprint_kib. */
static int check_identity(const struct ss_csv *c, const struct ss_report_summary *s,
			  struct ss_error *err)
{
	double parts = 0, fp = s->footprint_kib * 1024;
	int p;

	for (p = 0; p < SS_REPORT_NR_PARTS; p++)
		parts += ss_report_part_bytes(s, (enum ss_report_part)p);
	if (fabs(s->padding_bytes - s->rounding_bytes - s->align_bytes) > 0.5)
		return ss_error_at(err, c->path, c->line,
				   "padding_bytes %.0f != rounding_bytes %.0f + align_bytes %.0f",
				   s->padding_bytes, s->rounding_bytes,
				   s->align_bytes);
	if (fabs(fp - parts) > 512 && fabs(fp - parts - s->large_bytes) > 512)
		return ss_error_at(err, c->path, c->line,
				   "footprint_kib %.3f KiB != sum of the six parts %.3f KiB (+ large_bytes %.3f KiB)",
				   s->footprint_kib, parts / 1024,
				   s->large_bytes / 1024);
	if (!ss_report_has_peak(s))
		return 0;
	/* At the peak the writer counts kmalloc_large pages the same way. */
	for (parts = 0, p = 0; p < SS_REPORT_NR_PARTS; p++)
		parts += ss_report_peak_part_bytes(s, (enum ss_report_part)p);
	if (fabs(s->peak_footprint_kib * 1024 - parts) > 512)
		return ss_error_at(err, c->path, c->line,
				   "peak_footprint_kib %.3f KiB != sum of the six peak parts %.3f KiB",
				   s->peak_footprint_kib, parts / 1024);
	if (s->peak_footprint_kib + 0.005 < s->footprint_kib)
		return ss_error_at(err, c->path, c->line,
				   "peak_footprint_kib %.2f is below footprint_kib %.2f",
				   s->peak_footprint_kib, s->footprint_kib);
	return 0;
}

static int keep_row(const struct ss_csv *c, struct ss_report_run *run,
		    struct ss_error *err)
{
	run->row = calloc(c->ncols, sizeof(*run->row));
	if (!run->row)
		return ss_errorf(err, "out of memory");
	for (unsigned i = 0; i < c->ncols; i++) {
		run->row[i] = strdup(ss_csv_get(c, i));
		if (!run->row[i])
			return ss_errorf(err, "out of memory");
	}
	return 0;
}

static int load_summary(const char *path, const char *workload,
			struct ss_report_results *res, struct ss_report_run *run,
			struct ss_error *err)
{
	struct ss_csv c;
	int r = -1;

	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	if (check_header(&c, res, err))
		goto out;
	for (size_t i = 0; i < sizeof(text_cols) / sizeof(text_cols[0]); i++) {
		unsigned idx;

		if (ss_csv_need(&c, text_cols[i], &idx, err))
			goto out;
	}
	r = ss_csv_next(&c, err);
	if (r <= 0) {
		if (r == 0)
			ss_error_at(err, path, c.line, "no data row");
		r = -1;
		goto out;
	}
	r = -1;
	if (text_field(&c, "workload", workload, "--workload", err) ||
	    text_field(&c, "variant", run->variant, "the run directory's",
		       err) ||
	    text_field(&c, "model", run->model, "the run directory's", err) ||
	    read_numbers(&c, &run->s, err) || check_identity(&c, &run->s, err) ||
	    keep_row(&c, run, err))
		goto out;
	switch (ss_csv_next(&c, err)) {
	case 0:
		r = 0;
		break;
	case 1:
		ss_error_at(err, path, c.line,
			    "more than one data row (a run has exactly one)");
		break;
	}
out:
	ss_csv_close(&c);
	return r;
}

static int add_bucket(struct ss_report_hist *h, double ns, uint64_t count)
{
	struct ss_report_bucket *b = realloc(h->b, (h->n + 1) * sizeof(*b));

	if (!b)
		return -1;
	h->b = b;
	h->b[h->n].ns = ns;
	h->b[h->n].count = count;
	h->n++;
	return 0;
}

int ss_report_load_latency(const char *path, struct ss_report_run *run, struct ss_error *err)
{
	struct ss_csv c;
	unsigned iop, ins, icount;
	int r;

	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	if (ss_csv_need(&c, "op", &iop, err) ||
	    ss_csv_need(&c, "ns", &ins, err) ||
	    ss_csv_need(&c, "count", &icount, err)) {
		ss_csv_close(&c);
		return -1;
	}
	while ((r = ss_csv_next(&c, err)) == 1) {
		const char *op = ss_csv_get(&c, iop);
		struct ss_report_hist *h;
		uint64_t count;
		double ns;

		if (!strcmp(op, "alloc"))
			h = &run->lat[SS_REPORT_OP_ALLOC];
		else if (!strcmp(op, "free"))
			h = &run->lat[RP_OP_FREE];
		else {
			r = ss_error_at(err, path, c.line,
					"op '%s' is not alloc or free", op);
			break;
		}
		if (ss_csv_num(&c, ins, &ns, err) ||
		    ss_csv_u64(&c, icount, &count, err)) {
			r = -1;
			break;
		}
		if (ns < 0 || (h->n && ns <= h->b[h->n - 1].ns)) {
			r = ss_error_at(err, path, c.line,
					"%s bucket ns %s is not above the previous one",
					op, ss_csv_get(&c, ins));
			break;
		}
		if (add_bucket(h, ns, count)) {
			r = ss_errorf(err, "out of memory");
			break;
		}
	}
	ss_csv_close(&c);
	return r;
}

int ss_report_load_run(const char *rundir, const char *vdir, const char *workload,
		struct ss_report_results *res, struct ss_report_run *run,
		struct ss_error *err)
{
	const char *sep = strstr(vdir, "__");
	char path[4200];
	size_t vlen;

	memset(run, 0, sizeof(*run));
	if (!sep)
		return ss_errorf(err, "%s: run directory name is not <variant>__<model>",
				 rundir);
	vlen = (size_t)(sep - vdir);
	if (vlen >= SS_REPORT_NAME_MAX || strlen(sep + 2) >= SS_REPORT_NAME_MAX)
		return ss_errorf(err, "%s: variant or model name too long",
				 rundir);
	memcpy(run->variant, vdir, vlen);
	run->variant[vlen] = '\0';
	strcpy(run->model, sep + 2);
	if (!ss_report_name_ok(run->variant) || !ss_report_name_ok(run->model))
		return ss_errorf(err, "%s: variant and model names must be [A-Za-z0-9._+-]+",
				 rundir);
	if ((size_t)snprintf(path, sizeof(path), "%s/summary.csv", rundir) >=
	    sizeof(path))
		return ss_errorf(err, "%s: path too long", rundir);
	if (load_summary(path, workload, res, run, err))
		return -1;
	snprintf(path, sizeof(path), "%s/latency.csv", rundir);
	if (ss_report_load_latency(path, run, err))
		return -1;
	snprintf(path, sizeof(path), "%s/locks.csv", rundir);
	if (access(path, F_OK)) /* runs from before locks.csv */
		return 0;
	return ss_report_load_locks(path, run, err);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of dir, less the staging directories
 * (DIR.tmp.PID, base/outdir.h) a run killed by SIGKILL or a crash leaves
 * behind: no run's results, and half written. */
static int list_dirs(const char *dir, struct ss_report_names *out,
		     struct ss_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4200];
	struct stat st;

	if (!d)
		return ss_errorf(err, "%s: cannot open: %s", dir,
				 strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strstr(e->d_name, ".tmp."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     e->d_name) >= sizeof(path)) {
			closedir(d);
			return ss_errorf(err, "%s/%s: path too long", dir,
					 e->d_name);
		}
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (ss_report_names_add(out, e->d_name)) {
			closedir(d);
			return ss_errorf(err, "out of memory");
		}
	}
	closedir(d);
	if (out->n)
		ss_sort(out->v, out->n, sizeof(*out->v), cmp_str);
	return 0;
}

int ss_report_load_results(const char *dir, const char *workload,
		    struct ss_report_results *res, struct ss_error *err)
{
	struct ss_report_names dirs = {0};
	char runs[4200], rundir[4400];
	int r = -1;

	memset(res, 0, sizeof(*res));
	if ((size_t)snprintf(runs, sizeof(runs), "%s/runs", dir) >= sizeof(runs))
		return ss_errorf(err, "%s: path too long", dir);
	if (list_dirs(runs, &dirs, err))
		goto out;
	if (!dirs.n) {
		ss_errorf(err, "%s: no run directories", runs);
		goto out;
	}
	res->runs = calloc(dirs.n, sizeof(*res->runs));
	if (!res->runs) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < dirs.n; i++) {
		if ((size_t)snprintf(rundir, sizeof(rundir), "%s/%s", runs,
				     dirs.v[i]) >= sizeof(rundir)) {
			ss_errorf(err, "%s/%s: path too long", runs, dirs.v[i]);
			goto out;
		}
		res->nruns++;
		if (ss_report_load_run(rundir, dirs.v[i], workload, res,
				&res->runs[i], err))
			goto out;
	}
	r = 0;
out:
	ss_report_names_free(&dirs);
	return r;
}

/* Build the order of one axis (variants or models) from the runs. */
static int arrange_axis(struct ss_report_results *res, bool model,
			const struct ss_report_names *order, bool only,
			struct ss_report_names *out, struct ss_error *err)
{
	struct ss_report_names rest = {0};
	int r = -1;

	for (unsigned i = 0; order && i < order->n; i++) {
		bool present = false;

		for (size_t k = 0; k < res->nruns && !present; k++)
			present = !strcmp(order->v[i], model ? res->runs[k].model
							     : res->runs[k].variant);
		if ((present || only) && ss_report_names_find(out, order->v[i]) < 0 &&
		    ss_report_names_add(out, order->v[i]))
			goto oom;
	}
	for (size_t k = 0; k < res->nruns && !(only && order); k++) {
		const char *name = model ? res->runs[k].model
					 : res->runs[k].variant;

		if (ss_report_names_find(out, name) < 0 &&
		    ss_report_names_find(&rest, name) < 0 && ss_report_names_add(&rest, name))
			goto oom;
	}
	if (rest.n)
		ss_sort(rest.v, rest.n, sizeof(*rest.v), cmp_str);
	for (unsigned i = 0; i < rest.n; i++)
		if (ss_report_names_add(out, rest.v[i]))
			goto oom;
	r = 0;
	goto out;
oom:
	ss_errorf(err, "out of memory");
out:
	ss_report_names_free(&rest);
	return r;
}

static int cmp_run(const void *a, const void *b)
{
	const struct ss_report_run *x = a, *y = b;

	if (x->vi != y->vi)
		return x->vi < y->vi ? -1 : 1;
	return x->mi < y->mi ? -1 : x->mi > y->mi;
}

int ss_report_arrange(struct ss_report_results *res, const struct ss_report_names *vorder,
	       bool vonly, const struct ss_report_names *morder, bool monly,
	       struct ss_error *err)
{
	/* the model every figure is told against, unless a list says otherwise */
	static char *traced[] = {"traced"};
	const struct ss_report_names traced_first = {traced, 1};
	size_t kept = 0;

	if (!morder) {
		morder = &traced_first;
		monly = false;
	}
	ss_report_names_free(&res->variants);
	ss_report_names_free(&res->models);
	if (arrange_axis(res, false, vorder, vonly, &res->variants, err) ||
	    arrange_axis(res, true, morder, monly, &res->models, err))
		return -1;
	for (size_t k = 0; k < res->nruns; k++) {
		struct ss_report_run *run = &res->runs[k];
		int vi = ss_report_names_find(&res->variants, run->variant);
		int mi = ss_report_names_find(&res->models, run->model);

		if (vi < 0 || mi < 0) {
			run_free(run, res->ncols);
			res->dropped++;
			continue;
		}
		run->vi = (unsigned)vi;
		run->mi = (unsigned)mi;
		res->runs[kept++] = *run;
	}
	res->nruns = kept;
	if (!kept)
		return ss_errorf(err, "no run matches the listed variants and models");
	ss_sort(res->runs, res->nruns, sizeof(*res->runs), cmp_run);
	return 0;
}

bool ss_report_sparse(const struct ss_report_results *res)
{
	return res->nruns * 2 <= (size_t)res->variants.n * res->models.n;
}

const struct ss_report_run *ss_report_find(const struct ss_report_results *res, unsigned vi,
			     unsigned mi)
{
	for (size_t k = 0; k < res->nruns; k++)
		if (res->runs[k].vi == vi && res->runs[k].mi == mi)
			return &res->runs[k];
	return NULL;
}

/* The baseline variant's run of a model, or NULL. */
static const struct ss_report_run *baseline_run(const struct ss_report_results *res,
					 const char *baseline, unsigned mi)
{
	for (size_t k = 0; k < res->nruns; k++)
		if (res->runs[k].mi == mi && !strcmp(res->runs[k].variant, baseline))
			return &res->runs[k];
	return NULL;
}

int ss_report_write_summary_csv(FILE *fp, const struct ss_report_results *res,
			 const char *baseline)
{
	for (unsigned i = 0; i < res->ncols; i++) {
		if (i)
			fputc(',', fp);
		ss_csv_put(fp, res->header[i]);
	}
	fputs(baseline ? ",overhead_pct\n" : "\n", fp);
	for (size_t k = 0; k < res->nruns; k++) {
		const struct ss_report_run *r = &res->runs[k];
		const struct ss_report_run *b;

		for (unsigned i = 0; i < res->ncols; i++) {
			if (i)
				fputc(',', fp);
			ss_csv_put(fp, r->row[i]);
		}
		if (baseline) {
			b = baseline_run(res, baseline, r->mi);
			if (b && b->s.sim_time_ms > 0)
				fprintf(fp, ",%.2f", 100.0 * (r->s.sim_time_ms - b->s.sim_time_ms) /
							     b->s.sim_time_ms);
			else
				fputc(',', fp);
		}
		fputc('\n', fp);
	}
	return ferror(fp) ? -1 : 0;
}

void ss_report_results_free(struct ss_report_results *res)
{
	for (size_t k = 0; k < res->nruns; k++)
		run_free(&res->runs[k], res->ncols);
	free(res->runs);
	for (unsigned i = 0; res->header && i < res->ncols; i++)
		free(res->header[i]);
	free(res->header);
	ss_report_names_free(&res->variants);
	ss_report_names_free(&res->models);
	memset(res, 0, sizeof(*res));
}
