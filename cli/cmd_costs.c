/* cmd_costs.c - `slabsim costs`: list the estimated steps of a cost table
 * with their ranges, or write a table with some of them moved to an end
 * of their range (what `make sensitivity` replays; mk/sensitivity.mk). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "commands.h"
#include "costs.h"
#include "opts.h"
#include "target.h"

#define MAX_SET 64

enum { O_COSTS, O_TARGET, O_LIST, O_SET, O_ALL, O_CLOCK, O_OUTPUT, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_COSTS] = {"costs", NULL, "FILE", "a cost table over the defaults (as `run --costs`)"},
	[O_TARGET] = {"target", NULL, "T", "the target whose clock_mhz and clock_mhz_range\n"
		"--list and --clock-mhz use"},
	[O_LIST] = {"list", NULL, NULL, "print NAME VALUE LOW HIGH KIND, one line per step\n"
		"with a range (KIND cost), then the clock (KIND clock)\n"
		"if the target gives its range"},
	[O_SET] = {"set", NULL, "STEP=END", "that step at END of its range, low or high;\n"
		"repeatable"},
	[O_ALL] = {"all", NULL, "END", "every step with a range at END, low or high"},
	[O_CLOCK] = {"clock-mhz", NULL, "MHZ", "every price scaled by the target's clock_mhz / MHZ:\n"
		"the allocator's cycles take as long as at MHZ while\n"
		"the workloads' fitted work keeps its time"},
	[O_OUTPUT] = {"output", "-o", "FILE", "the cost table to write"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

struct costs_opts {
	const char *costs, *target, *all, *clock, *out;
	const char *set[MAX_SET];
	unsigned nset;
	bool list;
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"costs", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim costs [--costs FILE] [--target T] --list\n"
		"       slabsim costs [--costs FILE] [--target T] [--set STEP=END]...\n"
		"                     [--all END] [--clock-mhz MHZ] -o FILE\n\n"
		"The cost table is allocators/costs/default.costs, then --costs on top;\n"
		"a step's range is its LOW HIGH columns (docs/cost-model.md).  The\n"
		"written table lists every step with its price, no ranges.\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 bad input file (file:line) or write error, 2 bad usage.\n");
}

static int take(void *ctx, int id, const char *v)
{
	struct costs_opts *o = ctx;

	switch (id) {
	case O_COSTS: o->costs = v; return 0;
	case O_TARGET: o->target = v; return 0;
	case O_LIST: o->list = true; return 0;
	case O_ALL: o->all = v; return 0;
	case O_CLOCK: o->clock = v; return 0;
	case O_OUTPUT: o->out = v; return 0;
	default: /* O_SET */
		if (o->nset == MAX_SET)
			return ss_opt_usage_err(&opt_set, "--set: at most %d", MAX_SET);
		o->set[o->nset++] = v;
		return 0;
	}
}

/* "STEP=low|high" -> step and end (0 low, 1 high); -1 after a message. */
static int parse_set(const struct ss_costs *c, const char *arg, int *step, int *high)
{
	char name[64];
	const char *eq = strchr(arg, '=');

	if (!eq || (size_t)(eq - arg) >= sizeof(name))
		return ss_opt_bad_value(&opt_set, O_SET, arg);
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	*step = ss_step_find(name);
	if (*step < 0)
		return ss_opt_usage_err(&opt_set, "--set: unknown step '%s'", name);
	if (!ss_costs_ranged(c, *step))
		return ss_opt_usage_err(&opt_set, "--set: step '%s' has no range", name);
	if (strcmp(eq + 1, "low") && strcmp(eq + 1, "high"))
		return ss_opt_bad_value(&opt_set, O_SET, arg);
	*high = !strcmp(eq + 1, "high");
	return 0;
}

static void list(const struct ss_costs *c, const struct ss_target *t)
{
	for (int s = 0; s < SS_NR_STEPS; s++)
		if (ss_costs_ranged(c, s))
			printf("%s %g %g %g cost\n", ss_step_name(s), c->cycles[s],
			       c->low[s], c->high[s]);
	if (t && t->clock_mhz_low)
		printf("clock_mhz %u %u %u clock\n", t->clock_mhz, t->clock_mhz_low,
		       t->clock_mhz_high);
}

/* The table with the moves applied; -1 after a message (exit 2). */
static int apply(const struct costs_opts *o, struct ss_costs *c,
		 const struct ss_target *t, double *scale)
{
	unsigned mhz = 0;

	for (unsigned i = 0; i < o->nset; i++) {
		int step = 0, high = 0;

		if (parse_set(c, o->set[i], &step, &high))
			return -1;
		c->cycles[step] = high ? c->high[step] : c->low[step];
	}
	if (o->all) {
		if (strcmp(o->all, "low") && strcmp(o->all, "high"))
			return ss_opt_bad_value(&opt_set, O_ALL, o->all);
		for (int s = 0; s < SS_NR_STEPS; s++)
			if (ss_costs_ranged(c, s))
				c->cycles[s] = !strcmp(o->all, "high") ? c->high[s] : c->low[s];
	}
	*scale = 1;
	if (o->clock) {
		if (!t)
			return ss_opt_usage_err(&opt_set, "--clock-mhz needs --target");
		if (ss_opt_uint(&opt_set, O_CLOCK, o->clock, 1, 100000, &mhz))
			return -1;
		*scale = (double)t->clock_mhz / mhz;
	}
	return 0;
}

static int write_table(const struct costs_opts *o, const struct ss_costs *c,
		       double scale, struct ss_error *err)
{
	struct ss_atomic_file f;

	if (ss_atomic_open(&f, o->out, err))
		return -1;
	fprintf(f.fp, "# written by `slabsim costs`: defaults%s%s", o->costs ? " + " : "",
		o->costs ? o->costs : "");
	for (unsigned i = 0; i < o->nset; i++)
		fprintf(f.fp, ", %s", o->set[i]);
	if (o->all)
		fprintf(f.fp, ", every ranged step at its %s end", o->all);
	if (o->clock)
		fprintf(f.fp, ", prices x %.6g (clock %s MHz on %s)", scale, o->clock, o->target);
	fprintf(f.fp, "\n");
	for (int s = 0; s < SS_NR_STEPS; s++)
		if (c->origin[s])
			fprintf(f.fp, "%-24s %.6g\n", ss_step_name(s), c->cycles[s] * scale);
	return ss_atomic_commit(&f, err);
}

int ss_cmd_costs(int argc, char **argv)
{
	struct costs_opts o = {0};
	struct ss_costs *c = calloc(1, sizeof(*c));
	struct ss_target t;
	struct ss_error err = {{0}};
	double scale;
	int rc = ss_opt_scan(&opt_set, argc, argv, take, &o);

	if (!c) {
		fprintf(stderr, "slabsim costs: out of memory\n");
		return 1;
	}
	if (rc) {
		free(c);
		return ss_opt_exit(rc);
	}
	if (o.list == (o.out != NULL)) {
		free(c);
		return ss_opt_exit(ss_opt_usage_err(&opt_set, "give --list or -o FILE (one of them)"));
	}
	if (ss_costs_load(c, o.costs, &err) || (o.target && ss_target_load(o.target, &t, &err))) {
		fprintf(stderr, "slabsim costs: %s\n", err.msg);
		free(c);
		return 1;
	}
	if (o.list) {
		list(c, o.target ? &t : NULL);
		rc = 0;
	} else if (apply(&o, c, o.target ? &t : NULL, &scale)) {
		rc = 2;
	} else if (write_table(&o, c, scale, &err)) {
		fprintf(stderr, "slabsim costs: %s\n", err.msg);
		rc = 1;
	}
	free(c);
	return rc;
}
