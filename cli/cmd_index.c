/* cmd_index.c - `slabsim index`: reports/index.html and one HTML page per
 * report, readable from disk in a browser (analysis/index_html.h;
 * docs/outputs.md). */
#include <stdio.h>

#include "commands.h"
#include "index_html.h"
#include "opts.h"

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
		"Writes REPORTS/index.html (default reports/), the landing page: contents,\n"
		"then a section per directory REPORTS/W/ (what-ifs W--name-value too) that\n"
		"has report.md, compare/compare.md or a sweep-PARAM/sweep.md, one card per\n"
		"report with its headline figures, its plots (PNG, linking their SVG) and\n"
		"its files, and a card for REPORTS/topology/ when make topo-plot drew it.\n"
		"Beside each markdown file it writes the report's own page, report.html,\n"
		"compare.html or sweep.html: the plots, then the markdown rendered by\n"
		"libcmark.  Links are relative, so the pages open from disk.\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 write error, 2 bad usage.\n");
}

int ss_cmd_index(int argc, char **argv)
{
	const char *val[NR_OPTS] = {[O_DIR] = "reports"};
	struct ss_error err = {{0}};
	int rc = ss_opt_scan(&opt_set, argc, argv, ss_opt_keep, val);

	if (rc)
		return ss_opt_exit(rc);
	if (!*val[O_DIR])
		return ss_opt_exit(ss_opt_bad_value(&opt_set, O_DIR, val[O_DIR]));
	if (ss_index_write_all(val[O_DIR], &err)) {
		fprintf(stderr, "slabsim index: %s\n", err.msg);
		return 1;
	}
	return 0;
}
