/* report_capture.c - what a capture's command changed, first (report_capture.h). */
#include "report_capture.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "csv.h"
#include "md_table.h"
#include "report_kernel.h"
#include "report_window.h"
#include "sort.h"

#define TOP_CACHES 8
#define TOP_SITES 10
#define MAX_SIBLINGS 16

double ss_report_capture_page_bytes(const struct ss_report_results *res)
{
	for (size_t k = 0; k < res->nruns; k++) {
		const struct ss_report_summary *s = &res->runs[k].s;
		double b = s->footprint_kib * 1024 - (s->large_bytes > 0 ? s->large_bytes : 0);

		if (s->slab_pages > 0 && b > 0)
			return round(b / s->slab_pages);
	}
	return 4096;
}

static double mib(double kib) { return kib / 1024; }

/* "+1.2 MiB", "-13.0 MiB"; below 1 MiB in KiB. */
static void size_str(char *buf, size_t n, double kib, bool sign)
{
	if (fabs(kib) >= 1024)
		snprintf(buf, n, sign ? "%+.1f MiB" : "%.1f MiB", mib(kib));
	else
		snprintf(buf, n, sign ? "%+.0f KiB" : "%.0f KiB", kib);
}

/* ---- the net change ------------------------------------------------------ */

static void what_was_captured(FILE *fp, const struct ss_capture_meta *m)
{
	char dur[32] = "";

	if (!m->command[0])
		return;
	if (m->duration_us >= 0)
		snprintf(dur, sizeof(dur), ", %.2f s", (double)m->duration_us / 1e6);
	ss_mdtable_wrap(fp, "", "", true, "Captured: `%s` on %s%s%s%s%s (`%s`).", m->command,
		 m->kernel[0] ? m->kernel : "a kernel the meta does not name",
		 m->machine[0] ? " (" : "", m->machine, m->machine[0] ? ")" : "", dur, m->path);
}

/* The capture tool's own processes: said when the meta counts them. */
static void tool_events(FILE *fp, const struct ss_capture_meta *m)
{
	if (m->tool_events < 0)
		return;
	if (m->events > 0)
		ss_mdtable_wrap(fp, "", "", true, "The capture tool's own processes (meta tool_pids: %s) "
			 "made %lld of the capture's %lld events (%.2f%%, meta tool_events; "
			 "docs/capture.md, \"The capture's own events\").",
			 m->tool_pids[0] ? m->tool_pids : "not listed", m->tool_events, m->events,
			 100.0 * (double)m->tool_events / (double)m->events);
	else
		ss_mdtable_wrap(fp, "", "", true, "The capture tool's own processes (meta tool_pids: %s) "
			 "made %lld events (meta tool_events; docs/capture.md).",
			 m->tool_pids[0] ? m->tool_pids : "not listed", m->tool_events);
}

/* "error +3.2%" as report_kernel.h counts it: (model - kernel) / |kernel|. */
static const char *err_words(double kernel, double model, char *buf, size_t n)
{
	if (fabs(model - kernel) < 1)
		snprintf(buf, n, "the kernel's change to the KiB");
	else if (!kernel)
		snprintf(buf, n, "the kernel's change is 0");
	else
		snprintf(buf, n, "error %+.1f%% of the kernel's change", 100 * (model - kernel) / fabs(kernel));
	return buf;
}

static int net_change(FILE *fp, const struct ss_report_report_in *in, const struct ss_report_window *w0,
		      double page, struct ss_error *err)
{
	const struct ss_report_kernel *k = in->kernel;
	double kb, ka;
	char a[32], b[32], c[32], d[32], e[64];

	if (ss_report_snapshot_kib(k->before, NULL, page, &kb, err) ||
	    ss_report_snapshot_kib(k->after, "slab-after.txt", page, &ka, err))
		return -1;
	size_str(a, sizeof(a), ka - kb, true);
	size_str(b, sizeof(b), kb, false);
	size_str(c, sizeof(c), ka, false);
	if (w0->start != SS_REPORT_START_SNAPSHOT) {
		ss_mdtable_wrap(fp, "", "", true, "**Your command changed slab memory by %s** (kernel: %s "
			 "before, %s after, its before- and after-snapshots' slab pages); model `%s`%s%s%s.",
			 a, b, c, in->res->runs[0].model,
			 w0->start == RP_START_UNKNOWN ? ": its change is not known (its run's files: below)"
						       : " started from ",
			 w0->start == RP_START_UNKNOWN ? "" : ss_report_start_name(w0->start),
			 w0->start == RP_START_UNKNOWN ? "" : ", so its change is no prediction of it (below)");
		return 0;
	}
	size_str(d, sizeof(d), w0->delta_kib, true);
	ss_mdtable_wrap(fp, "", "", true, "**Your command changed slab memory by %s** (kernel: %s before, "
		 "%s after, its before- and after-snapshots' slab pages); **model `%s`: %s**, "
		 "replayed from the before-snapshot (%s; change.png draws it, cache by cache%s).",
		 a, b, c, in->res->runs[0].model, d,
		 err_words(ka - kb, w0->delta_kib, e, sizeof(e)),
		 in->window ? ", and timeline.png each model's over the trace" : "");
	return 0;
}

/* ---- the caches that changed most ---------------------------------------- */

static int64_t pages_delta(uint64_t a, uint64_t b) { return (int64_t)b - (int64_t)a; }

static int by_change(const void *x, const void *y)
{
	const struct ss_report_kernel_row *a = *(const struct ss_report_kernel_row *const *)x;
	const struct ss_report_kernel_row *b = *(const struct ss_report_kernel_row *const *)y;
	int64_t ka = llabs(pages_delta(a->k_pages0, a->k_pages1));
	int64_t kb = llabs(pages_delta(b->k_pages0, b->k_pages1));
	int64_t ma = llabs(ss_report_kernel_model_dpages(a));
	int64_t mb = llabs(ss_report_kernel_model_dpages(b));
	int64_t va = ka > ma ? ka : ma, vb = kb > mb ? kb : mb;

	if (va != vb)
		return va > vb ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int top_caches(FILE *fp, const struct ss_report_kernel *k, double page)
{
	const struct ss_report_kernel_row **v = malloc((k->n + 1) * sizeof(*v));
	struct ss_md_table t;
	size_t n = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < k->n; i++)
		if (k->rows[i].k_pages0 != k->rows[i].k_pages1 ||
		    ss_report_kernel_model_dpages(&k->rows[i]))
			v[n++] = &k->rows[i];
	ss_sort(v, n, sizeof(*v), by_change);
	fprintf(fp, "### The caches that changed most\n\n");
	if (!n) {
		free(v);
		fprintf(fp, "No cache's slab pages changed, in the kernel or the model.\n\n");
		return 0;
	}
	ss_mdtable_wrap(fp, "", "", true, "Slab memory (KiB, slab pages) and objects each cache gained or "
		 "lost from the before- to the after-snapshot, in the kernel and in model `%s`, "
		 "largest first (of %zu that changed; every cache: kernel.csv, and \"The live "
		 "kernel and the simulator\" below).", k->model, n);
	ss_mdtable_init(&t, "lrrrrr");
	ss_mdtable_cell(&t, "cache");
	ss_mdtable_cell(&t, "before KiB");
	ss_mdtable_cell(&t, "kernel Δ KiB");
	ss_mdtable_cell(&t, "model Δ KiB");
	ss_mdtable_cell(&t, "kernel Δobjects");
	ss_mdtable_cell(&t, "model Δobjects");
	for (size_t i = 0; i < n && i < TOP_CACHES; i++) {
		const struct ss_report_kernel_row *r = v[i];

		ss_mdtable_cell(&t, "%s", r->name);
		ss_mdtable_cell(&t, "%.0f", (double)r->k_pages0 * page / 1024);
		ss_mdtable_cell(&t, "%+.0f", (double)pages_delta(r->k_pages0, r->k_pages1) * page / 1024);
		ss_mdtable_cell(&t, "%+.0f", (double)ss_report_kernel_model_dpages(r) * page / 1024);
		ss_mdtable_cell(&t, "%+lld", (long long)ss_report_kernel_delta(r->k_obj0, r->k_obj1));
		ss_mdtable_cell(&t, "%+lld", (long long)ss_report_kernel_model_dobj(r));
	}
	free(v);
	return ss_mdtable_print(fp, &t);
}

/* ---- the call sites --------------------------------------------------------- */

/* The bytes of a site's objects live at the end (object_size each). */
static double live_bytes(const struct ss_compare_site *s)
{
	return (double)s->live_requested + (double)s->rounding_bytes;
}

static bool initial_row(const struct ss_compare_site *s) { return s->site[0] == '('; }

static int by_live(const void *x, const void *y)
{
	const struct ss_compare_site *a = *(const struct ss_compare_site *const *)x;
	const struct ss_compare_site *b = *(const struct ss_compare_site *const *)y;
	double la = live_bytes(a), lb = live_bytes(b);

	if (la != lb)
		return la > lb ? -1 : 1;
	if (a->allocated != b->allocated)
		return a->allocated > b->allocated ? -1 : 1;
	return strcmp(a->site, b->site) ? strcmp(a->site, b->site) : strcmp(a->cache, b->cache);
}

static int by_allocated(const void *x, const void *y)
{
	const struct ss_compare_site *a = *(const struct ss_compare_site *const *)x;
	const struct ss_compare_site *b = *(const struct ss_compare_site *const *)y;

	if (a->allocated != b->allocated)
		return a->allocated > b->allocated ? -1 : 1;
	return by_live(x, y);
}

static void site_row(struct ss_md_table *t, const struct ss_compare_site *s)
{
	double freed = (double)s->allocated - live_bytes(s);

	ss_mdtable_cell(t, "%s", s->site);
	ss_mdtable_cell(t, "%s", s->cache);
	ss_mdtable_cell(t, "%llu", (unsigned long long)s->allocs);
	ss_mdtable_cell(t, "%llu", (unsigned long long)s->frees);
	ss_mdtable_cell(t, "%.1f", (double)s->allocated / 1024);
	ss_mdtable_cell(t, "%.1f", (double)s->requested / 1024);
	ss_mdtable_cell(t, "%.1f", (freed > 0 ? freed : 0) / 1024);
	ss_mdtable_cell(t, "%llu (%llu)", (unsigned long long)s->live_objects,
		 (unsigned long long)s->peak_live);
	ss_mdtable_cell(t, "%.1f", live_bytes(s) / 1024);
	if (s->allocated)
		ss_mdtable_cell(t, "%.1f", 100.0 - 100.0 * (double)s->requested / (double)s->allocated);
	else
		ss_mdtable_cell(t, "n/a");
}

static void site_head(struct ss_md_table *t)
{
	ss_mdtable_init(t, "llrrrrrrrr");
	ss_mdtable_cell(t, "site");
	ss_mdtable_cell(t, "cache");
	ss_mdtable_cell(t, "allocs");
	ss_mdtable_cell(t, "frees");
	ss_mdtable_cell(t, "allocated KiB");
	ss_mdtable_cell(t, "requested KiB");
	ss_mdtable_cell(t, "freed KiB");
	ss_mdtable_cell(t, "live (peak)");
	ss_mdtable_cell(t, "live KiB");
	ss_mdtable_cell(t, "waste %%");
}

/* The objects from before the capture its frees took, in a sentence. */
static void initial_line(FILE *fp, const struct ss_compare_sites *ss)
{
	uint64_t frees = 0, caches = 0;
	double freed = 0;
	const struct ss_compare_site *top[3] = {NULL, NULL, NULL};

	for (size_t i = 0; i < ss->n; i++) {
		const struct ss_compare_site *s = &ss->s[i];
		double f = (double)s->allocated - live_bytes(s);

		if (!initial_row(s) || !s->frees)
			continue;
		frees += s->frees;
		freed += f > 0 ? f : 0;
		caches++;
		for (int j = 0; j < 3; j++)
			if (!top[j] || s->frees > top[j]->frees) {
				memmove(&top[j + 1], &top[j], (size_t)(2 - j) * sizeof(top[0]));
				top[j] = s;
				break;
			}
	}
	if (!frees)
		return;
	ss_mdtable_wrap(fp, "", "", true, "Apart from these: the window freed %llu objects allocated "
		 "before the capture (%.1f KiB, sites.csv's \"(initial state)\" rows, %llu caches; "
		 "most in %s (%llu)%s%s%s%s).", (unsigned long long)frees, freed / 1024,
		 (unsigned long long)caches, top[0]->cache, (unsigned long long)top[0]->frees,
		 top[1] ? ", " : "", top[1] ? top[1]->cache : "", top[2] ? ", " : "",
		 top[2] ? top[2]->cache : "");
}

static int top_sites(FILE *fp, const struct ss_report_report_in *in)
{
	const struct ss_compare_sites *ss = in->waste ? in->waste[0].ss : NULL;
	const struct ss_compare_site **v;
	struct ss_md_table t;
	size_t n = 0, shown = 0;

	if (!ss)
		return 0;
	if (!(v = malloc((ss->n + 1) * sizeof(*v))))
		return -1;
	for (size_t i = 0; i < ss->n; i++)
		if (!initial_row(&ss->s[i]))
			v[n++] = &ss->s[i];
	fprintf(fp, "### The call sites that changed most\n\n");
	ss_mdtable_wrap(fp, "", "", true, "Model `%s`, the sites whose objects allocated in the window are "
		 "still live at the end, most bytes first, as `perf kmem --caller stat` gives them "
		 "(sites.csv): allocated and requested over the window, freed = allocated − live, "
		 "live objects at the end (the most at once), live KiB = their object size, waste %% "
		 "= 100 − requested × 100 / allocated.", in->res->runs[0].model);
	ss_sort(v, n, sizeof(*v), by_live);
	site_head(&t);
	for (size_t i = 0; i < n && i < TOP_SITES && live_bytes(v[i]) > 0; i++, shown++)
		site_row(&t, v[i]);
	if (shown && ss_mdtable_print(fp, &t)) {
		free(v);
		return -1;
	}
	if (!shown) {
		ss_mdtable_free(&t);
		fprintf(fp, "No object allocated in the window is live at the end.\n\n");
	}
	/* the sites that churned most: freed all or most of what they took */
	ss_sort(v, n, sizeof(*v), by_allocated);
	site_head(&t);
	shown = 0;
	for (size_t i = 0; i < n && shown < 3; i++)
		if ((double)v[i]->allocated > 2 * live_bytes(v[i]) && v[i]->allocated) {
			site_row(&t, v[i]);
			shown++;
		}
	if (shown) {
		fprintf(fp, "The sites that allocated most in the window and freed most of it "
			    "(the peak's makers):\n\n");
		if (ss_mdtable_print(fp, &t)) {
			free(v);
			return -1;
		}
	} else {
		ss_mdtable_free(&t);
	}
	free(v);
	initial_line(fp, ss);
	return 0;
}

/* ---- every run beside the first --------------------------------------------- */

struct wrow {
	char label[192];
	struct ss_report_window w;
	bool ok;
	char why[1100];	/* !ok: what could not be read */
};

/* The report directory's name up to its what-if suffix ("NAME--..."). */
static void root_name(const char *dir, char *buf, size_t n)
{
	const char *base = strrchr(dir, '/');
	const char *dd;

	base = base ? base + 1 : dir;
	snprintf(buf, n, "%s", base);
	if ((dd = strstr(buf, "--")))
		buf[dd - buf] = '\0';
}

/* A run of this report's own model with the same figures: which run of
 * the report run (model m) repeats. */
static bool repeats(const struct wrow *own, size_t nown, const char *m, const char *run,
		    double page)
{
	struct ss_report_window w;
	struct ss_error e = {{0}};

	for (size_t k = 0; k < nown; k++)
		if (own[k].ok && !strcmp(own[k].label, m))
			return !ss_report_window_of_run(run, page, &w, &e) &&
			       w.start == own[k].w.start && w.start_kib == own[k].w.start_kib &&
			       w.end_kib == own[k].w.end_kib;
	return false;
}

static bool has_model(const struct wrow *own, size_t nown, const char *m)
{
	for (size_t k = 0; k < nown; k++)
		if (!strcmp(own[k].label, m))
			return true;
	return false;
}

/* The run of report directory d set beside this report's own runs (own,
 * nown): its first (its summary.csv's first row), unless d is a what-if
 * (NAME--...) whose first run repeats a run of this report -- a MODELS=
 * what-if's first model is the default's, run alike -- then its first run
 * of a model this report has not, the one the what-if adds.  The
 * capture's own default (NAME) is always its first run. */
static bool sibling_run(const char *d, const struct wrow *own, size_t nown, double page,
			char *run, size_t n)
{
	const char *base = strrchr(d, '/');
	bool whatif = strstr(base ? base + 1 : d, "--") != NULL;
	char path[4200];
	struct ss_csv c;
	unsigned vc, mc;
	struct ss_error e = {{0}};
	bool found = false;

	snprintf(path, sizeof(path), "%s/summary.csv", d);
	if (ss_csv_open(&c, path, NULL, NULL, &e))
		return false;
	if (!ss_csv_need(&c, "variant", &vc, &e) && !ss_csv_need(&c, "model", &mc, &e)) {
		while (ss_csv_next(&c, &e) == 1) {
			const char *m = ss_csv_get(&c, mc);

			if (!found) {
				snprintf(run, n, "%s/runs/%s__%s", d, ss_csv_get(&c, vc), m);
				found = true;
				if (!whatif || !repeats(own, nown, m, run, page))
					break;
			} else if (!has_model(own, nown, m)) {
				snprintf(run, n, "%s/runs/%s__%s", d, ss_csv_get(&c, vc), m);
				break;
			}
		}
	}
	ss_csv_close(&c);
	return found;
}

/* The model of run directory DIR/runs/VARIANT__MODEL: after the first
 * "__" of its last component (a model's own name may hold '_': kmem_cache). */
static const char *run_model(const char *run)
{
	const char *base = strrchr(run, '/'), *sep;

	base = base ? base + 1 : run;
	sep = strstr(base, "__");
	return sep ? sep + 2 : base;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The other reports of the same capture beside dir: NAME and NAME--*. */
static size_t siblings(const char *dir, char **out, size_t max)
{
	char parent[4096], root[256], self[256];
	const char *slash = strrchr(dir, '/');
	DIR *d;
	struct dirent *e;
	size_t n = 0;

	snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - dir) : 1,
		 slash ? dir : ".");
	snprintf(self, sizeof(self), "%s", slash ? slash + 1 : dir);
	root_name(dir, root, sizeof(root));
	if (!(d = opendir(parent)))
		return 0;
	while ((e = readdir(d)) && n < max) {
		size_t rl = strlen(root);

		if (!strcmp(e->d_name, self) || strncmp(e->d_name, root, rl) ||
		    (e->d_name[rl] && strncmp(e->d_name + rl, "--", 2)))
			continue;
		if (asprintf(&out[n], "%s/%s", parent, e->d_name) < 0)
			break;
		n++;
	}
	closedir(d);
	ss_sort(out, n, sizeof(*out), by_name);
	return n;
}

static void settings_label(char *buf, size_t n, const char *name, const struct ss_report_window *w)
{
	snprintf(buf, n, "%s (%s%s%s, %s CPUs)", name, w->allocator[0] ? w->allocator : "?",
		 w->target[0] ? ", " : "", w->target, w->cpus[0] ? w->cpus : "?");
}

/* The row a run is compared with: the baseline (the first) when it
 * started alike, else another that did (from empty caches: a SLUB run). */
static const struct wrow *alike(const struct wrow *r, size_t n, size_t self)
{
	if (r[0].ok && r[0].w.start == r[self].w.start)
		return &r[0];
	for (size_t i = 1; i < n; i++) {
		if (i == self || !r[i].ok || r[i].w.start != r[self].w.start)
			continue;
		if (r[self].w.start == RP_START_EMPTY && strcmp(r[i].w.allocator, "slub"))
			continue;
		return &r[i];
	}
	return NULL;
}

/* Both runs start from the kernel's objects, one of them or both as its
 * model repacks them, with a known start: each change is from its own
 * start, whichever of the two is the baseline (CPUS=8's repacks and the
 * capture's own default does not, and the two compare both ways). */
static bool own_starts(const struct ss_report_window *a, const struct ss_report_window *b)
{
	bool ka = a->start == SS_REPORT_START_SNAPSHOT ||
		  (a->start == SS_REPORT_START_REPACKED && a->packed_known);
	bool kb = b->start == SS_REPORT_START_SNAPSHOT ||
		  (b->start == SS_REPORT_START_REPACKED && b->packed_known);

	return ka && kb && (a->start == SS_REPORT_START_REPACKED ||
			    b->start == SS_REPORT_START_REPACKED);
}

static void diff_cell(struct ss_md_table *t, const struct wrow *r, size_t n, size_t k)
{
	const struct wrow *b = alike(r, n, k);
	char d[32];

	if (!r[k].ok) {
		ss_mdtable_cell(t, "n/a");
	} else if (k == 0) {
		ss_mdtable_cell(t, "(baseline)");
	} else if (r[k].w.start == SS_REPORT_START_REPACKED && !r[k].w.packed_known) {
		size_str(d, sizeof(d), r[k].w.slabinfo_kib - r[0].w.slabinfo_kib, true);
		ss_mdtable_cell(t, "end %s against the baseline's: the whole initial state repacked, "
			    "not the command's change", d);
	} else if (r[0].ok && own_starts(&r[k].w, &r[0].w)) {
		/* each change from its own start: the kernel's objects as the
		 * snapshot or as this model packs them */
		size_str(d, sizeof(d), r[k].w.delta_kib - r[0].w.delta_kib, true);
		ss_mdtable_cell(t, "%s (each from its own start)", d);
	} else if (b) {
		size_str(d, sizeof(d), r[k].w.delta_kib - b->w.delta_kib, true);
		if (b == &r[0])
			ss_mdtable_cell(t, "%s", d);
		else
			ss_mdtable_cell(t, "%s (against %s)", d, b->label);
	} else {
		ss_mdtable_cell(t, "not comparable: the baseline started from %s", ss_report_start_name(r[0].w.start));
	}
}

static int whatifs(FILE *fp, const struct ss_report_report_in *in, struct wrow *r, size_t n)
{
	struct ss_md_table t;
	bool empty = false, unknown;
	char a[32], b[32];

	fprintf(fp, "### Every run and what-if of this capture\n\n");
	ss_mdtable_wrap(fp, "", "", true, "Slab memory at the start and the end of each run (the report's "
		 "models, then the what-if reports of the same capture beside %s), its change, and "
		 "the difference of its change against the baseline's (the first row's), or against "
		 "the run named when the baseline started otherwise: only runs that started alike "
		 "are compared (from empty caches, the frees of objects from before the capture free "
		 "nothing; the kernel's objects repacked: each change from its own start).", in->dir);
	ss_mdtable_init(&t, "llrrrl");
	ss_mdtable_cell(&t, "run");
	ss_mdtable_cell(&t, "starts from");
	ss_mdtable_cell(&t, "start");
	ss_mdtable_cell(&t, "end");
	ss_mdtable_cell(&t, "change");
	ss_mdtable_cell(&t, "difference");
	for (size_t k = 0; k < n; k++) {
		ss_mdtable_cell(&t, "%s", r[k].label);
		if (!r[k].ok) {
			ss_mdtable_cell(&t, "n/a");
			ss_mdtable_cell(&t, "n/a");
			ss_mdtable_cell(&t, "n/a");
			ss_mdtable_cell(&t, "n/a");
			ss_mdtable_cell(&t, "%s", r[k].why[0] ? r[k].why : "its runs could not be read");
			continue;
		}
		empty |= r[k].w.start == RP_START_EMPTY;
		ss_mdtable_cell(&t, "%s", ss_report_start_name(r[k].w.start));
		size_str(a, sizeof(a), r[k].w.start_kib, false);
		size_str(b, sizeof(b), r[k].w.end_kib, false);
		unknown = r[k].w.start == SS_REPORT_START_REPACKED && !r[k].w.packed_known;
		ss_mdtable_cell(&t, "%s", unknown ? "n/a" : a);
		ss_mdtable_cell(&t, "%s", b);
		size_str(a, sizeof(a), r[k].w.delta_kib, true);
		ss_mdtable_cell(&t, "%s", unknown ? "n/a" : a);
		diff_cell(&t, r, n, k);
	}
	if (ss_mdtable_print(fp, &t))
		return -1;
	if (empty)
		ss_mdtable_wrap(fp, "", "", true, "%s", "A run from empty caches (ALLOCATOR=slab or "
			 "slub-tiny, whose caches the snapshot cannot start, or INITIAL=) is compared "
			 "with a SLUB run from empty caches when there is one (`make sim TRACE=... "
			 "INITIAL=`), never with one from the snapshot.");
	return 0;
}

static int runs_beside(FILE *fp, const struct ss_report_report_in *in, double page,
		       struct ss_report_window *w0)
{
	const struct ss_report_results *res = in->res;
	char *sib[MAX_SIBLINGS];
	size_t ns = siblings(in->dir, sib, MAX_SIBLINGS), n = 0;
	struct wrow *r = calloc(res->nruns + ns + 1, sizeof(*r));
	char path[4400];
	int rc = -1;

	if (!r)
		goto out;
	for (size_t k = 0; k < res->nruns; k++, n++) {
		snprintf(path, sizeof(path), "%s/runs/%s__%s", in->dir, res->runs[k].variant,
			 res->runs[k].model);
		struct ss_error e = {{0}};

		r[n].ok = !ss_report_window_of_run(path, page, &r[n].w, &e);
		snprintf(r[n].why, sizeof(r[n].why), "%s", r[n].ok ? "" : e.msg);
		snprintf(r[n].label, sizeof(r[n].label), "%s", res->runs[k].model);
	}
	*w0 = r[0].w;
	if (!r[0].ok)
		w0->start = RP_START_UNKNOWN;
	for (size_t i = 0; i < ns; i++) {
		struct ss_error e = {{0}};
		const char *base = strrchr(sib[i], '/') + 1;

		if (!sibling_run(sib[i], r, res->nruns, page, path, sizeof(path)))
			continue;
		r[n].ok = !ss_report_window_of_run(path, page, &r[n].w, &e);
		snprintf(r[n].why, sizeof(r[n].why), "%s", r[n].ok ? "" : e.msg);
		settings_label(r[n].label, sizeof(r[n].label), base, &r[n].w);
		if (r[n].ok)
			snprintf(r[n].label + strlen(r[n].label), sizeof(r[n].label) - strlen(r[n].label),
				 ", %s", run_model(path));
		n++;
	}
	rc = fp ? whatifs(fp, in, r, n) : 0;
out:
	for (size_t i = 0; i < ns; i++)
		free(sib[i]);
	free(r);
	return rc;
}

int ss_report_capture_write_lead(FILE *fp, const struct ss_report_report_in *in, struct ss_error *err)
{
	double page = ss_report_capture_page_bytes(in->res);
	struct ss_report_window w0;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	if (!in->res->nruns)
		return 0;
	/* the table of runs is written after the figures it feeds */
	if (!(mem = open_memstream(&buf, &len)))
		return ss_errorf(err, "out of memory");
	if (runs_beside(mem, in, page, &w0)) {
		fclose(mem);
		free(buf);
		return ss_errorf(err, "out of memory");
	}
	fclose(mem);
	if (in->kernel && in->kernel->has_meta)
		what_was_captured(fp, &in->kernel->meta);
	if (in->kernel && net_change(fp, in, &w0, page, err))
		goto fail;
	if (!in->kernel && w0.start != RP_START_UNKNOWN)
		ss_mdtable_wrap(fp, "", "", true, "**Model `%s` started from %s and changed by %+.1f MiB** "
			 "in the window.  These runs have no kernel snapshot beside them: a replay "
			 "that does not start from the kernel's caches is no prediction of the "
			 "kernel's change (the capture's own report compares the two).",
			 in->res->runs[0].model, ss_report_start_name(w0.start), mib(w0.delta_kib));
	if (in->kernel && in->kernel->has_meta)
		tool_events(fp, &in->kernel->meta);
	fwrite(buf, 1, len, fp);
	if (in->kernel && top_caches(fp, in->kernel, page))
		goto oom;
	if (top_sites(fp, in))
		goto oom;
	free(buf);
	return ferror(fp) ? ss_errorf(err, "write error") : 0;
oom:
	ss_errorf(err, "out of memory");
fail:
	free(buf);
	return -1;
}

int ss_report_capture_write_change_dat(FILE *fp, const struct ss_report_report_in *in)
{
	const struct ss_report_kernel *k = in->kernel;
	double page = ss_report_capture_page_bytes(in->res), kb = 0, ka = 0;
	const struct ss_report_kernel_row **v;
	struct ss_report_window w0 = {.start = RP_START_UNKNOWN};
	struct ss_error err = {{0}};
	char path[4400];
	size_t n = 0;

	fprintf(fp, "# change.dat - what the capture's command changed, KiB of slab pages, after - "
		    "before: the kernel's (its snapshots) and model %s's; slabsim report\n"
		    "# the first row: every cache; then the caches that changed most, largest first\n"
		    "# label kernel_kib model_kib (NaN: not known)\n", k ? k->model : "");
	if (!k)
		return ferror(fp) ? -1 : 0;
	if (in->res->nruns) {
		snprintf(path, sizeof(path), "%s/runs/%s__%s", in->dir, in->res->runs[0].variant,
			 in->res->runs[0].model);
		if (ss_report_window_of_run(path, page, &w0, &err))
			w0.start = RP_START_UNKNOWN;
	}
	if (ss_report_snapshot_kib(k->before, NULL, page, &kb, &err) ||
	    ss_report_snapshot_kib(k->after, "slab-after.txt", page, &ka, &err))
		return -1;
	fprintf(fp, "\"all caches\" %.1f ", ka - kb);
	if (w0.start == SS_REPORT_START_SNAPSHOT)
		fprintf(fp, "%.1f\n", w0.delta_kib);
	else
		fputs("NaN\n", fp);
	if (!(v = malloc((k->n + 1) * sizeof(*v))))
		return -1;
	for (size_t i = 0; i < k->n; i++)
		if (k->rows[i].k_pages0 != k->rows[i].k_pages1 ||
		    ss_report_kernel_model_dpages(&k->rows[i]))
			v[n++] = &k->rows[i];
	ss_sort(v, n, sizeof(*v), by_change);
	for (size_t i = 0; i < n && i < TOP_CACHES; i++)
		fprintf(fp, "\"%s\" %.1f %.1f\n", v[i]->name,
			(double)pages_delta(v[i]->k_pages0, v[i]->k_pages1) * page / 1024,
			(double)ss_report_kernel_model_dpages(v[i]) * page / 1024);
	free(v);
	return ferror(fp) ? -1 : 0;
}
