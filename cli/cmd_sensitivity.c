/* cmd_sensitivity.c - `slabsim sensitivity`: gather the settings `make
 * sensitivity` replayed into sensitivity.csv and tornado.dat
 * (sensitivity_data.h; mk/sensitivity.mk). */
#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
#include "commands.h"
#include "opts.h"
#include "sensitivity_data.h"

enum { O_DIR, O_OUTPUT, O_TORNADO, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_DIR] = {"dir", NULL, "DIR", "the settings' directory (params, base/, NAME-low/, ...)"},
	[O_OUTPUT] = {"output", "-o", "CSV", "sensitivity.csv to write"},
	[O_TORNADO] = {"tornado", NULL, "DAT", "tornado.dat to write (analysis/tornado.gp)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"sensitivity", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim sensitivity --dir DIR -o CSV --tornado DAT\n\n"
		"Reads DIR/params (NAME VALUE LOW HIGH KIND per line), DIR/base/figures.csv,\n"
		"DIR/NAME-low/ and DIR/NAME-high/figures.csv for each, and the corners\n"
		"DIR/all-low/ and DIR/all-high/; writes CSV (figure, step, low, high,\n"
		"figure_at_low, figure_at_high, figure_base) and DAT, both or neither.\n"
		"docs/cost-model.md, \"Sensitivity\".\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 bad input file or write error, 2 bad usage.\n");
}

static int write_both(const char *csv, const char *dat,
		      const struct ss_report_sensitivity *s, const struct ss_report_figures *base,
		      struct ss_error *err)
{
	struct ss_atomic_file a, b;

	if (ss_atomic_open(&a, csv, err))
		return -1;
	if (ss_atomic_open(&b, dat, err)) {
		ss_atomic_abort(&a);
		return -1;
	}
	if (ss_report_write_sensitivity_csv(a.fp, s) || ss_report_write_tornado_dat(b.fp, s, base)) {
		ss_atomic_abort(&a);
		ss_atomic_abort(&b);
		return ss_errorf(err, "%s: write failed", csv);
	}
	if (ss_atomic_commit(&a, err)) {
		ss_atomic_abort(&b);
		return -1;
	}
	return ss_atomic_commit(&b, err);
}

int ss_cmd_sensitivity(int argc, char **argv)
{
	const char *val[NR_OPTS] = {0};
	struct ss_report_sensitivity s;
	struct ss_report_figures base;
	struct ss_error err = {{0}};
	int rc = ss_opt_scan(&opt_set, argc, argv, ss_opt_keep, val);

	if (rc)
		return ss_opt_exit(rc);
	if (!val[O_DIR] || !val[O_OUTPUT] || !val[O_TORNADO] || !*val[O_DIR])
		return ss_opt_exit(ss_opt_usage_err(&opt_set, "--dir, -o and --tornado are required"));
	if (ss_report_sens_gather(val[O_DIR], &s, &base, &err)) {
		fprintf(stderr, "slabsim sensitivity: %s\n", err.msg);
		return 1;
	}
	rc = write_both(val[O_OUTPUT], val[O_TORNADO], &s, &base, &err);
	if (rc)
		fprintf(stderr, "slabsim sensitivity: %s\n", err.msg);
	ss_report_sensitivity_free(&s);
	ss_report_figures_free(&base);
	return rc ? 1 : 0;
}
