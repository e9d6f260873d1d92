/* cmd_diff.c - `slabsim diff RUN_A RUN_B`: two runs, cache by cache. */
#include <stdio.h>

#include "commands.h"
#include "opts.h"
#include "run_diff.h"

enum { O_RUNS, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_RUNS] = {NULL, NULL, "RUN", NULL},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void diff_usage(FILE *out);

static const struct ss_opt_set opt_set = {"diff", specs, NR_OPTS, diff_usage};

static void diff_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim diff RUN_A RUN_B\n\n"
		"Compare two run directories (slabsim run --out; reports/W/runs/V__M/):\n"
		"per cache the change from A to B in objects, slabs, footprint (Space) and\n"
		"waste (Space - requested: rounding, alignment, debug, free slots, slab\n"
		"tails), largest footprint change first, then the totals from summary.csv,\n"
		"the peak footprint and the simulated time.  A cache in one run only counts\n"
		"as 0 in the other.  Reads caches.csv and summary.csv of each.\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 bad input file (file:line), 2 bad usage.\n");
}

struct diff_args {
	const char *run[2];
	int n;
};

static int take(void *ctx, int id, const char *v)
{
	struct diff_args *a = ctx;

	(void)id; /* O_RUNS: the only option with a value */
	if (a->n == 2)
		return ss_opt_usage_err(&opt_set, "want two run directories, got a third: '%s'", v);
	a->run[a->n++] = v;
	return 0;
}

int ss_cmd_diff(int argc, char **argv)
{
	struct diff_args a = {{0}, 0};
	struct ss_error err = {{0}};
	int rc = ss_opt_scan(&opt_set, argc, argv, take, &a);

	if (rc)
		return ss_opt_exit(rc);
	if (a.n != 2)
		return ss_opt_exit(ss_opt_usage_err(&opt_set, "want two run directories, RUN_A RUN_B"));
	if (ss_rundiff_diff(stdout, a.run[0], a.run[1], &err)) {
		fprintf(stderr, "slabsim diff: %s\n", err.msg);
		return 1;
	}
	return 0;
}
