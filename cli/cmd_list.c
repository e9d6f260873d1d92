/* cmd_list.c - `slabsim list targets|models|workloads|steps`: the names
 * other commands accept, one per line with what each is. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "model.h"
#include "opts.h"
#include "steps.h"
#include "target.h"
#include "workload.h"

enum { O_WHAT, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_WHAT] = {NULL, NULL, "WHAT", NULL},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void list_usage(FILE *out);

static const struct ss_opt_set opt_set = {"list", specs, NR_OPTS, list_usage};

static void list_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim list targets|models|workloads|steps\n\n"
		"Print the names the other commands accept, one per line with what it is:\n"
		"  targets    run/geometry --target (allocators/targets/NAME.target): kernel\n"
		"             era, CPUs, page size, clock\n"
		"  models     run --model (append +LETTERS for slub_debug)\n"
		"  workloads  gen WORKLOAD, make sim WORKLOAD=...\n"
		"  steps      the cost-table steps and the unit each is priced in\n"
		"             (allocators/costs/default.costs, docs/cost-model.md)\n\n");
	ss_opt_help(out, &opt_set);
}

static int list_targets(void)
{
	char names[512], *save = NULL;
	struct ss_target t;
	struct ss_error err = {{0}};

	ss_target_names(names, sizeof(names));
	if (!names[0]) {
		fprintf(stderr, "slabsim list: no allocators/targets/*.target found "
				"(set SLABSIM_HOME to the slabsim source tree)\n");
		return 1;
	}
	for (char *n = strtok_r(names, " ", &save); n; n = strtok_r(NULL, " ", &save)) {
		char era[16];

		if (ss_target_load(n, &t, &err)) {
			fprintf(stderr, "slabsim list: %s\n", err.msg);
			return 1;
		}
		ss_era_str(t.era, era, sizeof(era));
		printf("%-12s kernel %s, %u CPU%s, %u-byte pages, %u-byte pointers, %u MHz\n",
		       n, era, t.cpus, t.cpus == 1 ? "" : "s", t.page_size, t.ptr_size,
		       t.clock_mhz);
	}
	return 0;
}

static const char *const kinds = "targets, models, workloads, steps";

int ss_cmd_list(int argc, char **argv)
{
	const char *val[NR_OPTS] = {0};
	int rc = ss_opt_scan(&opt_set, argc, argv, ss_opt_keep, val);
	const char *what = val[O_WHAT];

	if (rc)
		return ss_opt_exit(rc);
	if (!what)
		return ss_opt_exit(ss_opt_usage_err(&opt_set, "list what? one of: %s", kinds));
	if (!strcmp(what, "targets"))
		return list_targets();
	if (!strcmp(what, "models")) {
		for (unsigned i = 0; i < ss_model_count(); i++)
			printf("%-16s %s\n", ss_model_at(i)->name, ss_model_at(i)->summary);
		return 0;
	}
	if (!strcmp(what, "workloads")) {
		size_t n;
		const struct ss_workload *w = ss_workloads(&n);

		for (size_t i = 0; i < n; i++)
			printf("%-12s %s\n", w[i].name, w[i].summary);
		return 0;
	}
	if (!strcmp(what, "steps")) {
		for (int s = 0; s < SS_NR_STEPS; s++)
			printf("%-28s %s\n", ss_step_name((enum ss_step)s),
			       ss_step_unit((enum ss_step)s));
		return 0;
	}
	return ss_opt_exit(ss_opt_usage_err(&opt_set, "unknown list '%s'; one of: %s", what,
					    kinds));
}
