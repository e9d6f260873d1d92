/* cmd_index.c - `slabsim index`: reports/index.html, one page linking and
 * showing every workload's report, comparison and sweeps, readable from
 * disk in a browser (relative links only; docs/outputs.md). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "commands.h"
#include "md_html.h"
#include "opts.h"
#include "report_runs.h"

enum { O_DIR, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_DIR] = {"dir", NULL, "REPORTS", "the reports directory (default reports)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"index", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim index [--dir REPORTS]\n\n"
		"Writes REPORTS/index.html (default reports/): a section per workload\n"
		"directory REPORTS/W/ that has report.md, compare/compare.md or a\n"
		"sweep-PARAM/sweep.md; each shows the directory's PNG plots (linking their\n"
		"SVG) and its markdown rendered as HTML.  Links are relative, so the page\n"
		"opens from disk.\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 write error, 2 bad usage.\n");
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir that end in suffix (or are directories starting
 * with prefix, when suffix is NULL). */
static int list_dir(const char *dir, const char *prefix, const char *suffix,
		    struct rp_names *out)
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

		if (de->d_name[0] == '.' || strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (suffix && (n <= s || strcmp(de->d_name + n - s, suffix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || (suffix ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode)))
			continue;
		if (rp_names_add(out, de->d_name)) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
	return 0;
}

static const char *const page_head =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<title>slabsim reports</title>\n<style>\n"
	"body { font-family: system-ui, sans-serif; max-width: 1250px; margin: 1em auto; padding: 0 1em; line-height: 1.4; }\n"
	"table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }\n"
	"th, td { border: 1px solid #ccc; padding: 0.15em 0.5em; text-align: left; }\n"
	"th.r, td.r { text-align: right; font-variant-numeric: tabular-nums; }\n"
	"thead { background: #f0f0f0; }\n"
	"code, pre { background: #f6f6f6; }\n"
	"figure { display: inline-block; width: 49%; margin: 0 0 1em; vertical-align: top; }\n"
	"figure img { width: 100%; height: auto; border: 1px solid #ddd; }\n"
	"figcaption { font-size: 0.85em; color: #444; }\n"
	"section { border-top: 2px solid #888; margin-top: 2em; }\n"
	"</style>\n</head>\n<body>\n";

/* Every PNG of dir (href base `base`), linking its SVG twin. */
static int plots(FILE *fp, const char *dir, const char *base)
{
	struct rp_names png;
	char svg[4800];

	if (list_dir(dir, "", ".png", &png))
		return -1;
	if (png.n)
		fputs("<div class=\"plots\">\n", fp);
	for (unsigned i = 0; i < png.n; i++) {
		size_t n = strlen(png.v[i]) - 4;

		/* the same path with .svg for .png */
		snprintf(svg, sizeof(svg), "%s/%s", dir, png.v[i]);
		memcpy(svg + strlen(svg) - 4, ".svg", 4);
		fputs("<figure><a href=\"", fp);
		html_escape(fp, base);
		html_escape(fp, png.v[i]);
		fputs("\"><img src=\"", fp);
		html_escape(fp, base);
		html_escape(fp, png.v[i]);
		fputs("\" alt=\"", fp);
		html_escape(fp, base);
		html_escape(fp, png.v[i]);
		fputs("\" width=\"1200\" height=\"700\" loading=\"lazy\"></a>\n<figcaption>", fp);
		html_escape(fp, png.v[i]);
		if (is_file(svg)) {
			char name[300];

			snprintf(name, sizeof(name), "%.*s.svg", (int)n, png.v[i]);
			fputs(" (<a href=\"", fp);
			html_escape(fp, base);
			html_escape(fp, name); /* a file name may hold '"' or '<' */
			fputs("\">SVG</a>)", fp);
		}
		fputs("</figcaption></figure>\n", fp);
	}
	if (png.n)
		fputs("</div>\n", fp);
	rp_names_free(&png);
	return 0;
}

/* One part of a workload: its markdown file's link, plots and text.
 * sub = "" (the report), "compare/" or "sweep-rules/". */
static int part(FILE *fp, const char *root, const char *w, const char *sub,
		const char *md, struct ss_error *err)
{
	char dir[4400], base[600], path[4600];
	struct md_html_opts o = {.heading_shift = 2, .link_base = base};

	snprintf(dir, sizeof(dir), "%s/%s/%s", root, w, sub);
	snprintf(base, sizeof(base), "%s/%s", w, sub);
	snprintf(path, sizeof(path), "%s/%s", dir, md);
	if (!is_file(path))
		return 0;
	fputs("<p class=\"files\">Markdown: <a href=\"", fp);
	html_escape(fp, base);
	html_escape(fp, md);
	fputs("\">", fp);
	html_escape(fp, base);
	html_escape(fp, md);
	fputs("</a></p>\n", fp);
	if (plots(fp, dir, base))
		return ss_errorf(err, "out of memory");
	return md_html_file(fp, path, &o, err);
}

static int workload(FILE *fp, const char *root, const char *w,
		    struct ss_error *err)
{
	char dir[4400], sub[600];
	struct rp_names sweeps;

	fputs("<section id=\"", fp);
	html_escape(fp, w);
	fputs("\">\n<h2>", fp);
	html_escape(fp, w);
	fputs("</h2>\n", fp);
	if (part(fp, root, w, "", "report.md", err) ||
	    part(fp, root, w, "compare/", "compare.md", err))
		return -1;
	snprintf(dir, sizeof(dir), "%s/%s", root, w);
	if (list_dir(dir, "sweep-", NULL, &sweeps))
		return ss_errorf(err, "out of memory");
	for (unsigned i = 0; i < sweeps.n; i++) {
		snprintf(sub, sizeof(sub), "%s/", sweeps.v[i]);
		if (part(fp, root, w, sub, "sweep.md", err)) {
			rp_names_free(&sweeps);
			return -1;
		}
	}
	rp_names_free(&sweeps);
	fputs("</section>\n", fp);
	return 0;
}

/* A workload directory has something to show. */
static bool has_report(const char *root, const char *w)
{
	char path[4400];
	struct rp_names sweeps;
	bool any = false;

	snprintf(path, sizeof(path), "%s/%s/report.md", root, w);
	if (is_file(path))
		return true;
	snprintf(path, sizeof(path), "%s/%s/compare/compare.md", root, w);
	if (is_file(path))
		return true;
	snprintf(path, sizeof(path), "%s/%s", root, w);
	if (list_dir(path, "sweep-", NULL, &sweeps))
		return false;
	for (unsigned i = 0; i < sweeps.n && !any; i++) {
		snprintf(path, sizeof(path), "%s/%s/%s/sweep.md", root, w, sweeps.v[i]);
		any = is_file(path);
	}
	rp_names_free(&sweeps);
	return any;
}

static int write_index(FILE *fp, const char *root, const struct rp_names *wl,
		       struct ss_error *err)
{
	fputs(page_head, fp);
	fputs("<h1>slabsim reports</h1>\n<p>Written by <code>slabsim index</code> from the "
	      "reports beside this page (report.md, compare/compare.md, sweep-*/sweep.md); "
	      "every column and plot is described in docs/outputs.md.  Click a plot for "
	      "its full size; SVG beside it.</p>\n", fp);
	if (!wl->n)
		fputs("<p>No reports yet: run <code>make sim WORKLOAD=W</code>.</p>\n", fp);
	else
		fputs("<ul class=\"toc\">\n", fp);
	for (unsigned i = 0; i < wl->n; i++) {
		fputs("<li><a href=\"#", fp);
		html_escape(fp, wl->v[i]);
		fputs("\">", fp);
		html_escape(fp, wl->v[i]);
		fputs("</a></li>\n", fp);
	}
	if (wl->n)
		fputs("</ul>\n", fp);
	for (unsigned i = 0; i < wl->n; i++)
		if (workload(fp, root, wl->v[i], err))
			return -1;
	fputs("</body>\n</html>\n", fp);
	return ferror(fp) ? ss_errorf(err, "write error") : 0;
}

static int run_index(const char *root)
{
	struct rp_names dirs, wl = {0};
	struct ss_atomic_file f;
	struct ss_error err = {{0}};
	char path[4200];
	int rc = 1;

	if (list_dir(root, "", NULL, &dirs)) {
		fprintf(stderr, "slabsim index: out of memory\n");
		return 1;
	}
	for (unsigned i = 0; i < dirs.n; i++)
		if (rp_name_ok(dirs.v[i]) && has_report(root, dirs.v[i]) &&
		    rp_names_add(&wl, dirs.v[i]))
			goto out;
	snprintf(path, sizeof(path), "%s/index.html", root);
	if (ss_mkdirs(root, &err) || ss_atomic_open(&f, path, &err))
		goto fail;
	if (write_index(f.fp, root, &wl, &err)) {
		ss_atomic_abort(&f);
		goto fail;
	}
	if (ss_atomic_commit(&f, &err))
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "slabsim index: %s\n", err.msg);
out:
	rp_names_free(&dirs);
	rp_names_free(&wl);
	return rc;
}

int cmd_index(int argc, char **argv)
{
	const char *val[NR_OPTS] = {[O_DIR] = "reports"};
	int rc = ss_opt_scan(&opt_set, argc, argv, ss_opt_keep, val);

	if (rc)
		return ss_opt_exit(rc);
	if (!*val[O_DIR])
		return ss_opt_exit(ss_opt_bad_value(&opt_set, O_DIR, val[O_DIR]));
	return run_index(val[O_DIR]);
}
