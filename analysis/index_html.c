/* index_html.c - index.html and one HTML page per report (index_html.h). */
#include "index_html.h"

#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "csv.h"
#include "md_html.h"
#include "report_runs.h"
#include "sort.h"

/* snprintf into an array; true when it did not fit (the path is then not
 * used: a directory that deep holds no report). */
#define TOO_LONG(buf, ...) (snprintf(buf, sizeof(buf), __VA_ARGS__) >= (int)sizeof(buf))

/* A report of a workload directory: its markdown and its page. */
struct part {
	char sub[300];	/* "", "compare/", "sweep-rules/" */
	const char *md, *page, *kind;
};

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir ending in suffix (files), or starting with prefix
 * (directories, suffix NULL).  -1 out of memory; a missing dir is empty.
 * A name holding ".tmp." is skipped: mk/plot.inc and the atomic writers
 * build NAME.tmp.PID.png beside NAME.png and rename it, so a page listing
 * one would point at a file gone a moment later. */
static int list_dir(const char *dir, const char *prefix, const char *suffix,
		    struct ss_report_names *out)
{
	char path[4400];
	struct dirent *de;
	DIR *d = opendir(dir);
	struct stat st;

	memset(out, 0, sizeof(*out));
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name), s = suffix ? strlen(suffix) : 0;

		if (de->d_name[0] == '.' || strncmp(de->d_name, prefix, strlen(prefix)) ||
		    strstr(de->d_name, ".tmp."))
			continue;
		if (suffix && (n <= s || strcmp(de->d_name + n - s, suffix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || (suffix ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode)))
			continue;
		if (ss_report_names_add(out, de->d_name)) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	if (out->n)
		ss_sort(out->v, out->n, sizeof(*out->v), cmp_str);
	return 0;
}

/* A directory name the pages can link to as is: what `make` names report
 * directories (W, W--name-value with ',' in lists). */
static bool dir_name_ok(const char *s)
{
	if (!*s || strlen(s) > 200)
		return false;
	for (; *s; s++)
		if (!strchr("._+,=-", *s) && !(('a' <= *s && *s <= 'z') ||
		    ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9')))
			return false;
	return true;
}

/* Write a page that was built in memory, unless the file already holds
 * exactly that: `make index` after a what-if leaves every other report's
 * page (and its time) alone. */
static int put_page(const char *path, const char *buf, size_t n,
		    struct ss_error *err)
{
	FILE *old = fopen(path, "r");
	struct ss_atomic_file f;
	bool same = false;

	if (old) {
		char chunk[65536];
		size_t got, at = 0;

		same = true;
		while (same && (got = fread(chunk, 1, sizeof(chunk), old)) > 0) {
			same = at + got <= n && !memcmp(chunk, buf + at, got);
			at += got;
		}
		same = same && at == n && !ferror(old);
		fclose(old);
	}
	if (same)
		return 0;
	if (ss_atomic_open(&f, path, err))
		return -1;
	fwrite(buf, 1, n, f.fp);
	return ss_atomic_commit(&f, err);
}

/* A page being written: in memory until put_page(). */
struct page {
	FILE *fp;
	char *buf;
	size_t n;
};

static int page_open(struct page *pg, struct ss_error *err)
{
	pg->buf = NULL;
	pg->n = 0;
	pg->fp = open_memstream(&pg->buf, &pg->n);
	return pg->fp ? 0 : ss_errorf(err, "out of memory");
}

/* Close and write it (ok) or drop it. */
static int page_close(struct page *pg, const char *path, bool ok,
		      struct ss_error *err)
{
	int bad = ferror(pg->fp);
	int rc = -1;

	if (fclose(pg->fp) || bad)
		ok = ok && !ss_errorf(err, "out of memory");
	if (ok)
		rc = put_page(path, pg->buf, pg->n, err);
	free(pg->buf);
	return rc;
}

static const char *const style =
	"<style>\n"
	"body { font-family: system-ui, sans-serif; max-width: 1250px; margin: 1em auto; padding: 0 1em; line-height: 1.4; color: #222; }\n"
	"table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }\n"
	"th, td { border: 1px solid #ccc; padding: 0.15em 0.5em; text-align: left; }\n"
	"th.r, td.r { text-align: right; font-variant-numeric: tabular-nums; }\n"
	"thead { background: #f0f0f0; }\n"
	"code, pre { background: #f6f6f6; }\n"
	"nav { font-size: 0.9em; margin-bottom: 1em; }\n"
	"figure { display: inline-block; width: 49%; margin: 0 0 1em; vertical-align: top; }\n"
	"figure img { width: 100%; height: auto; border: 1px solid #ddd; }\n"
	"figcaption { font-size: 0.85em; color: #444; }\n"
	"section { border-top: 2px solid #888; margin-top: 1.5em; }\n"
	".cards { display: flex; flex-wrap: wrap; gap: 1em; }\n"
	".card { flex: 1 1 560px; border: 1px solid #ccc; border-radius: 6px; padding: 0.5em 1em; background: #fafafa; }\n"
	".card h3 { margin: 0.3em 0; }\n"
	".headline { font-size: 0.95em; }\n"
	".headline p { margin: 0.2em 0; }\n"
	".thumbs figure { width: 32%; margin: 0 0.5% 0.5em 0; }\n"
	".files { font-size: 0.85em; }\n"
	"</style>\n";

static void head(FILE *fp, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", fp);
	ss_html_escape(fp, title);
	fprintf(fp, "</title>\n%s</head>\n<body>\n", style);
}

/* <a href="BASE NAME">TEXT</a> */
static void a_href(FILE *fp, const char *base, const char *name, const char *text)
{
	fputs("<a href=\"", fp);
	ss_html_escape(fp, base);
	ss_html_escape(fp, name);
	fputs("\">", fp);
	ss_html_escape(fp, text);
	fputs("</a>", fp);
}

/* All of fp into *text (NUL-terminated, *len bytes); 0 or -1. */
static int read_all(FILE *fp, char **text, size_t *len)
{
	size_t cap = 8192, n;
	char *b = malloc(cap), *nb;

	*len = 0;
	while (b && (n = fread(b + *len, 1, cap - *len - 1, fp)) > 0) {
		*len += n;
		if (cap - *len - 1 == 0) {
			if (!(nb = realloc(b, cap *= 2))) {
				free(b);
				return -1;
			}
			b = nb;
		}
	}
	if (!b || ferror(fp)) {
		free(b);
		return -1;
	}
	b[*len] = '\0';
	*text = b;
	return 0;
}

/* Markdown text[0..len) as HTML. */
static int md_part(FILE *out, const char *text, size_t len, const struct ss_md_html_opts *o)
{
	FILE *in;
	int rc;

	if (!len)
		return 0;
	if (!(in = fmemopen((void *)text, len, "r")))
		return -1;
	rc = ss_md_html(out, in, o);
	fclose(in);
	return rc;
}

/* Every PNG of dir as a figure (href base `base`), linking its SVG twin. */
static int figures(FILE *fp, const char *dir, const char *base, const char *cls)
{
	struct ss_report_names png;
	char svg[4800], name[300];

	if (list_dir(dir, "", ".png", &png))
		return -1;
	if (png.n)
		fprintf(fp, "<div class=\"%s\">\n", cls);
	for (unsigned i = 0; i < png.n; i++) {
		fputs("<figure><a href=\"", fp);
		ss_html_escape(fp, base);
		ss_html_escape(fp, png.v[i]);
		fputs("\"><img src=\"", fp);
		ss_html_escape(fp, base);
		ss_html_escape(fp, png.v[i]);
		fputs("\" alt=\"", fp);
		ss_html_escape(fp, png.v[i]);
		fputs("\" width=\"1200\" height=\"700\" loading=\"lazy\"></a>\n<figcaption>", fp);
		a_href(fp, base, png.v[i], png.v[i]);
		snprintf(svg, sizeof(svg), "%s/%.*s.svg", dir, (int)strlen(png.v[i]) - 4, png.v[i]);
		snprintf(name, sizeof(name), "%.*s.svg", (int)strlen(png.v[i]) - 4, png.v[i]);
		if (is_file(svg)) {
			fputs(" (", fp);
			a_href(fp, base, name, "SVG");
			fputs(")", fp);
		}
		fputs("</figcaption></figure>\n", fp);
	}
	if (png.n)
		fputs("</div>\n", fp);
	ss_report_names_free(&png);
	return 0;
}

/* The markdown's first heading, without "# ". */
static void md_title(const char *path, char *buf, size_t n)
{
	FILE *fp = fopen(path, "r");
	char line[512];

	snprintf(buf, n, "%s", path);
	while (fp && fgets(line, sizeof(line), fp))
		if (!strncmp(line, "# ", 2)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, n, "%s", line + 2);
			break;
		}
	if (fp)
		fclose(fp);
}

/* ---- a report's own page ------------------------------------------------- */

/* The markdown up to its first numbered section ("## 1. "): what the
 * report answers first; then the plots; then the rest.  Without such a
 * section, the plots first. */
static int lead_figures_rest(FILE *out, const char *md, const char *dir,
			     const struct ss_md_html_opts *o, struct ss_error *err)
{
	FILE *in = fopen(md, "r");
	char *text = NULL, *cut;
	size_t len = 0;
	int rc = -1;

	if (!in)
		return ss_errorf(err, "%s: cannot open", md);
	if (read_all(in, &text, &len)) {
		fclose(in);
		return ss_errorf(err, "%s: read error or out of memory", md);
	}
	fclose(in);
	cut = !strncmp(text, "## 1. ", 6) ? text : strstr(text, "\n## 1. ");
	if (!cut) {
		rc = figures(out, dir, "", "plots") || md_part(out, text, len, o) ? -1 : 0;
	} else {
		size_t head_len = (size_t)(cut - text) + (cut != text);

		rc = md_part(out, text, head_len, o) || figures(out, dir, "", "plots") ||
		     md_part(out, text + head_len, len - head_len, o) ? -1 : 0;
	}
	free(text);
	if (rc && !err->msg[0])
		ss_errorf(err, "%s: write or memory error", md);
	return rc;
}

static int part_page(const char *root, const char *w, const struct part *p,
		     struct ss_error *err)
{
	char dir[4400], path[4600], md[4600], title[512], up[64] = "../";
	struct ss_md_html_opts o = {.heading_shift = 0, .link_base = "", .skip_title = true};
	struct page pg;
	bool ok;

	if (TOO_LONG(dir, "%s/%s/%s", root, w, p->sub) || TOO_LONG(md, "%s%s", dir, p->md) ||
	    TOO_LONG(path, "%s%s", dir, p->page))
		return ss_errorf(err, "%s/%s: path too long", root, w);
	md_title(md, title, sizeof(title));
	if (p->sub[0]) /* one level more: compare/, sweep-P/ */
		strcat(up, "../");
	if (page_open(&pg, err))
		return -1;
	head(pg.fp, title);
	fputs("<nav>", pg.fp);
	a_href(pg.fp, up, "index.html", "all reports");
	fputs(" · ", pg.fp);
	a_href(pg.fp, "", p->md, p->md);
	fputs("</nav>\n<h1>", pg.fp);
	ss_html_escape(pg.fp, title);
	fputs("</h1>\n", pg.fp);
	ok = !lead_figures_rest(pg.fp, md, dir, &o, err);
	if (!ok && !err->msg[0])
		ss_errorf(err, "out of memory");
	fputs("</body>\n</html>\n", pg.fp);
	return page_close(&pg, path, ok, err);
}

/* ---- the cards of index.html --------------------------------------------- */

/* "20 runs; footprint 1004-12172 KiB at the end, at most 12172 KiB at the
 * peak" from a report directory's summary.csv. */
static void footprint_line(const char *dir, char *buf, size_t n)
{
	char path[4400];
	struct ss_csv c;
	struct ss_error err = {{0}};
	double lo = INFINITY, hi = -INFINITY, peak = -INFINITY, v;
	int fc, pc;
	unsigned rows = 0;

	buf[0] = '\0';
	if (TOO_LONG(path, "%s/summary.csv", dir) || !is_file(path) ||
	    ss_csv_open(&c, path, NULL, NULL, &err))
		return;
	fc = ss_csv_col(&c, "footprint_kib");
	pc = ss_csv_col(&c, "peak_footprint_kib");
	while (fc >= 0 && ss_csv_next(&c, &err) == 1) {
		if (ss_csv_num(&c, (unsigned)fc, &v, &err))
			break;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		if (pc >= 0 && !ss_csv_num(&c, (unsigned)pc, &v, &err))
			peak = v > peak ? v : peak;
		rows++;
	}
	ss_csv_close(&c);
	if (!rows)
		return;
	snprintf(buf, n, "%u run%s: footprint %.0f–%.0f KiB at the end of the trace", rows,
		 rows == 1 ? "" : "s", lo, hi);
	if (peak > -INFINITY)
		snprintf(buf + strlen(buf), n - strlen(buf), ", at most %.0f KiB at the peak", peak);
}

/* The lines of the markdown that state its result: a seed verdict, a
 * pass/fail in bold, the baseline or the parameter (at most max). */
static unsigned key_lines(const char *path, char lines[][640], unsigned max)
{
	FILE *fp = fopen(path, "r");
	char line[640];
	unsigned n = 0;

	while (fp && n < max && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "Verdict:", 8) || !strncmp(line, "- Baseline:", 11) ||
		    !strncmp(line, "- Parameter:", 12) || !strncmp(line, "**", 2) ||
		    strstr(line, "**pass**") || strstr(line, "**FAIL**"))
			snprintf(lines[n++], sizeof(lines[0]), "%s", line + (line[0] == '-' ? 2 : 0));
	}
	if (fp)
		fclose(fp);
	return n;
}

/* A line of markdown as HTML, through the page's renderer. */
static int md_line(FILE *fp, const char *text, const char *base)
{
	struct ss_md_html_opts o = {.heading_shift = 0, .link_base = base};
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!in)
		return -1;
	rc = ss_md_html(fp, in, &o);
	fclose(in);
	return rc;
}

/* The files of a report directory worth a link: its markdown, page and CSV. */
static int file_links(FILE *fp, const char *dir, const char *base, const struct part *p)
{
	struct ss_report_names csv;

	fputs("<p class=\"files\">", fp);
	a_href(fp, base, p->page, "page");
	fputs(" · ", fp);
	a_href(fp, base, p->md, p->md);
	if (list_dir(dir, "", ".csv", &csv))
		return -1;
	for (unsigned i = 0; i < csv.n; i++) {
		fputs(" · ", fp);
		a_href(fp, base, csv.v[i], csv.v[i]);
	}
	ss_report_names_free(&csv);
	fputs("</p>\n", fp);
	return 0;
}

static void card_id(FILE *fp, const char *w, const struct part *p)
{
	ss_html_escape(fp, w);
	fputc('-', fp);
	ss_html_escape(fp, p->kind);
	if (!strncmp(p->sub, "sweep-", 6))
		fprintf(fp, "-%.*s", (int)strlen(p->sub) - 7, p->sub + 6);
}

static int card(FILE *fp, const char *root, const char *w, const struct part *p)
{
	char dir[4400], base[600], path[4600], title[512], fl[256], key[2][640];
	unsigned nk;

	if (TOO_LONG(dir, "%s/%s/%s", root, w, p->sub) || TOO_LONG(base, "%s/%s", w, p->sub) ||
	    TOO_LONG(path, "%s%s", dir, p->md))
		return -1;
	md_title(path, title, sizeof(title));
	fputs("<article class=\"card\" id=\"", fp);
	card_id(fp, w, p);
	fputs("\">\n<h3>", fp);
	a_href(fp, base, p->page, title);
	fputs("</h3>\n<div class=\"headline\">\n", fp);
	if (!strcmp(p->kind, "report")) {
		footprint_line(dir, fl, sizeof(fl));
		if (fl[0])
			fprintf(fp, "<p>%s</p>\n", fl);
	}
	nk = key_lines(path, key, 2);
	for (unsigned i = 0; i < nk; i++)
		if (md_line(fp, key[i], base))
			return -1;
	fputs("</div>\n", fp);
	if (figures(fp, dir, base, "thumbs") || file_links(fp, dir, base, p))
		return -1;
	fputs("</article>\n", fp);
	return 0;
}

/* ---- the workload directories ---------------------------------------------- */

/* The reports of root/w, in the order shown: report, comparison, sweeps. */
static int parts_of(const char *root, const char *w, struct part *out, unsigned max,
		    unsigned *n)
{
	char dir[4400], path[4600];
	struct ss_report_names sweeps;

	*n = 0;
	snprintf(dir, sizeof(dir), "%s/%s", root, w);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	if (is_file(path))
		out[(*n)++] = (struct part){"", "report.md", "report.html", "report"};
	snprintf(path, sizeof(path), "%s/compare/compare.md", dir);
	if (is_file(path))
		out[(*n)++] = (struct part){"compare/", "compare.md", "compare.html", "compare"};
	if (list_dir(dir, "sweep-", NULL, &sweeps))
		return -1;
	for (unsigned i = 0; i < sweeps.n && *n < max; i++) {
		snprintf(path, sizeof(path), "%s/%s/sweep.md", dir, sweeps.v[i]);
		if (!is_file(path) || !dir_name_ok(sweeps.v[i]))
			continue;
		out[*n] = (struct part){"", "sweep.md", "sweep.html", "sweep"};
		snprintf(out[*n].sub, sizeof(out[*n].sub), "%s/", sweeps.v[i]);
		(*n)++;
	}
	ss_report_names_free(&sweeps);
	return 0;
}

#define MAX_PARTS 32

static int contents(FILE *fp, const char *root, const struct ss_report_names *wl, bool topo)
{
	struct part p[MAX_PARTS];
	unsigned n;
	char title[512], path[4600];

	fputs("<nav class=\"toc\"><h2>Contents</h2>\n<ul>\n", fp);
	for (unsigned i = 0; i < wl->n; i++) {
		if (parts_of(root, wl->v[i], p, MAX_PARTS, &n))
			return -1;
		fputs("<li><a href=\"#", fp);
		ss_html_escape(fp, wl->v[i]);
		fputs("\">", fp);
		ss_html_escape(fp, wl->v[i]);
		fputs("</a><ul>\n", fp);
		for (unsigned k = 0; k < n; k++) {
			if (TOO_LONG(path, "%s/%s/%s%s", root, wl->v[i], p[k].sub, p[k].md))
				return -1;
			md_title(path, title, sizeof(title));
			fputs("<li><a href=\"#", fp);
			card_id(fp, wl->v[i], &p[k]);
			fputs("\">", fp);
			ss_html_escape(fp, title);
			fputs("</a></li>\n", fp);
		}
		fputs("</ul></li>\n", fp);
	}
	if (topo)
		fputs("<li><a href=\"#topology\">topology: footprint and p99 against topology size</a></li>\n", fp);
	fputs("</ul>\n</nav>\n", fp);
	return 0;
}

static int workload_section(FILE *fp, const char *root, const char *w,
			    struct ss_error *err)
{
	struct part p[MAX_PARTS];
	unsigned n;

	if (parts_of(root, w, p, MAX_PARTS, &n))
		return ss_errorf(err, "out of memory");
	fputs("<section id=\"", fp);
	ss_html_escape(fp, w);
	fputs("\">\n<h2>", fp);
	ss_html_escape(fp, w);
	fputs("</h2>\n<div class=\"cards\">\n", fp);
	for (unsigned k = 0; k < n; k++)
		if (card(fp, root, w, &p[k]) || part_page(root, w, &p[k], err))
			return err->msg[0] ? -1 : ss_errorf(err, "out of memory");
	fputs("</div>\n</section>\n", fp);
	return 0;
}

/* reports/topology/ (make topo-plot): its plot, no markdown. */
static int topology_section(FILE *fp, const char *root)
{
	char dir[4400];

	snprintf(dir, sizeof(dir), "%s/topology", root);
	fputs("<section id=\"topology\">\n<h2>topology</h2>\n<div class=\"cards\">\n"
	      "<article class=\"card\">\n<h3>Footprint and p99 against topology size</h3>\n"
	      "<div class=\"headline\"><p><code>make topo-plot</code>: one replay per synthetic "
	      "topology of 1 to 256 PUs (docs/topology.md); data in topology/*.dat.</p></div>\n", fp);
	if (figures(fp, dir, "topology/", "thumbs"))
		return -1;
	fputs("</article>\n</div>\n</section>\n", fp);
	return 0;
}

/* A workload directory has something to show. */
static bool has_report(const char *root, const char *w)
{
	struct part p[MAX_PARTS];
	unsigned n;

	return dir_name_ok(w) && strcmp(w, "topology") &&
	       !parts_of(root, w, p, MAX_PARTS, &n) && n > 0;
}

int ss_index_write_all(const char *root, struct ss_error *err)
{
	struct ss_report_names dirs, wl = {0};
	struct page pg;
	char path[4200];
	bool topo, ok = true;
	int rc = -1;

	if (list_dir(root, "", NULL, &dirs))
		return ss_errorf(err, "out of memory");
	for (unsigned i = 0; i < dirs.n; i++)
		if (has_report(root, dirs.v[i]) && ss_report_names_add(&wl, dirs.v[i])) {
			ss_errorf(err, "out of memory");
			goto out;
		}
	snprintf(path, sizeof(path), "%s/topology/topology.png", root);
	topo = is_file(path);
	snprintf(path, sizeof(path), "%s/index.html", root);
	if (ss_mkdirs(root, err) || page_open(&pg, err))
		goto out;
	head(pg.fp, "slabsim reports");
	fputs("<h1>slabsim reports</h1>\n<p>Written by <code>slabsim index</code> from the "
	      "reports beside this page: a card per report with its headline figures and plots "
	      "(click one for its full size, SVG beside it), its own page with the whole report, "
	      "and its files.  Every column and plot is described in docs/outputs.md; a "
	      "directory <code>W--name-value</code> is a what-if of workload W.</p>\n", pg.fp);
	if (!wl.n && !topo)
		fputs("<p>No reports yet: run <code>make sim WORKLOAD=W</code>.</p>\n", pg.fp);
	else if (contents(pg.fp, root, &wl, topo))
		ok = !ss_errorf(err, "out of memory");
	for (unsigned i = 0; ok && i < wl.n; i++)
		ok = !workload_section(pg.fp, root, wl.v[i], err);
	if (ok && topo && topology_section(pg.fp, root))
		ok = !ss_errorf(err, "out of memory");
	fputs("</body>\n</html>\n", pg.fp);
	rc = page_close(&pg, path, ok, err);
out:
	ss_report_names_free(&dirs);
	ss_report_names_free(&wl);
	return rc;
}
