/* cmd_kernel_table.c - `slabsim kernel-table REPORT...`: the held caches
 * of several captures' reports against the live kernel, in one table
 * (analysis/kernel_table.h; make check-captures). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "atomic_file.h"
#include "commands.h"
#include "kernel_table.h"
#include "opts.h"

enum { O_REPORTS, O_OUT, O_DRAWS, O_COMMAND, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_REPORTS] = {NULL, NULL, "REPORT", NULL},
	[O_OUT] = {"out", "-o", "DIR", "where kernel-table.md and kernel-table.csv go\n"
				       "(created if missing; default reports/kernel-table)"},
	[O_DRAWS] = {"draws", NULL, "N",
		"each REPORT also has REPORT.draw1 .. REPORT.drawN, the same\n"
		"capture replayed with run --draw-seed 1 .. N: per held cache,\n"
		"how many draws are within and the range of its errors"},
	[O_COMMAND] = {"command", NULL, "STR", "the command shown in kernel-table.md"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"kernel-table", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim kernel-table [--out DIR] [--draws N] [--command STR] REPORT...\n\n"
		"Reads REPORT/kernel.csv of each capture's report (make sim TRACE=CAPTURE:\n"
		"the live kernel beside the simulator, docs/own-trace.md) and writes, all or\n"
		"nothing, DIR/kernel-table.md -- how many held caches (objects changed by\n"
		"1500 or more in the kernel) are within ±10%% (objects) and ±15%% (slabs) of\n"
		"the kernel's change, a line per capture, the misses with what the model\n"
		"leaves out, every held cache -- and DIR/kernel-table.csv, a row per held\n"
		"cache.  A kernel.csv whose changes or verdicts are not what its figures\n"
		"give is refused (file:line).  make check-captures runs make sim for each\n"
		"capture, then this.\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 bad input file (file:line) or write error, 2 bad usage.\n");
}

struct kt_args {
	const char **reports;
	int n;
	const char *out, *command;
	unsigned draws;
};

static int take(void *ctx, int id, const char *v)
{
	struct kt_args *a = ctx;

	switch (id) {
	case O_REPORTS:
		a->reports[a->n++] = v;
		return 0;
	case O_OUT:
		a->out = v;
		return *v ? 0 : SS_OPT_BAD_VALUE;
	case O_DRAWS:
		return ss_opt_uint(&opt_set, id, v, 0, 1000, &a->draws);
	case O_COMMAND:
		a->command = v;
		return 0;
	default:
		return 0;
	}
}

/* One output, written whole to its temporary file (not yet renamed). */
static int write_file(const char *dir, const char *name, bool md, const struct ss_ktable_table *t,
		      const char *command, struct ss_atomic_file *f, struct ss_error *err)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (ss_atomic_open(f, path, err))
		return -1;
	if (md ? ss_ktable_write_md(f->fp, t, command) : ss_ktable_write_csv(f->fp, t)) {
		ss_atomic_abort(f);
		return ss_errorf(err, "%s: write failed (out of memory or I/O error)", path);
	}
	return 0;
}

/* Both files, renamed once both are written; a failed second rename
 * takes the first one's file away again. */
static int write_both(const struct kt_args *a, const struct ss_ktable_table *t, struct ss_error *err)
{
	struct ss_atomic_file md, csv;
	char path[4200];

	if (ss_mkdirs(a->out, err))
		return -1;
	if (write_file(a->out, "kernel-table.md", true, t, a->command, &md, err))
		return -1;
	if (write_file(a->out, "kernel-table.csv", false, t, NULL, &csv, err)) {
		ss_atomic_abort(&md);
		return -1;
	}
	if (ss_atomic_commit(&csv, err)) {
		ss_atomic_abort(&md);
		return -1;
	}
	if (ss_atomic_commit(&md, err)) {
		snprintf(path, sizeof(path), "%s/kernel-table.csv", a->out);
		ss_remove_stale(path);
		return -1;
	}
	return 0;
}

int ss_cmd_kernel_table(int argc, char **argv)
{
	struct kt_args a = {.out = "reports/kernel-table"};
	struct ss_ktable_table t = {0};
	struct ss_error err = {{0}};
	int rc;

	if (!(a.reports = calloc((size_t)argc + 1, sizeof(*a.reports)))) {
		fprintf(stderr, "slabsim kernel-table: out of memory\n");
		return 1;
	}
	rc = ss_opt_scan(&opt_set, argc, argv, take, &a);
	if (!rc && !a.n)
		rc = ss_opt_usage_err(&opt_set, "want one report directory or more");
	if (rc) {
		free(a.reports);
		return ss_opt_exit(rc);
	}
	t.draws = a.draws;
	for (int i = 0; i < a.n && !rc; i++)
		rc = ss_ktable_add_report(&t, a.reports[i], &err);
	if (!rc)
		rc = write_both(&a, &t, &err);
	if (rc) {
		/* an earlier table must not pass for this one */
		char path[4200];

		fprintf(stderr, "slabsim kernel-table: %s\n", err.msg);
		snprintf(path, sizeof(path), "%s/kernel-table.md", a.out);
		ss_remove_stale(path);
		snprintf(path, sizeof(path), "%s/kernel-table.csv", a.out);
		ss_remove_stale(path);
	}
	ss_ktable_free(&t);
	free(a.reports);
	return rc ? 1 : 0;
}
