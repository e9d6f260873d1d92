/* cmd_report.c - `slabsim report`: combine a workload's runs into
 * summary.csv, waste.dat, latency.dat and report.md (docs/outputs.md):
 * parse the options, then analysis/report_build.h reads and writes. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "models_opt.h"
#include "names_opt.h"
#include "opts.h"
#include "parse.h"
#include "report_build.h"
#include "report_reprice.h"
#include "report_targets.h"
#include "workload.h"

#define MAX_CALIB SS_REPORT_MAX_CALIB
#define MAX_ALT SS_REPORT_MAX_ALT

struct report_opts {
	struct ss_report_request rq; /* what the report is */
	struct ss_report_reprice reprice; /* --reprice, --reprice-dir, --reprice-check */
	char default_command[512];
};

enum { O_WORKLOAD, O_DIR, O_SEED, O_VARIANTS, O_MODELS, O_CALIB, O_COMMAND,
       O_COMPARE_MODEL, O_BASELINE, O_ALT, O_SENS, O_KBEFORE, O_KAFTER, O_CMETA,
       O_KFILL, O_CTARGET, O_REPRICE, O_REPRICE_DIR, O_REPRICE_CHECK, O_WINDOW, O_ERA_BASE,
       O_PLOT_DATA_ONLY, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_WORKLOAD] = {"workload", NULL, "W", "the workload every summary row must name"},
	[O_DIR] = {"dir", NULL, "DIR", "the workload's report directory"},
	[O_SEED] = {"seed-table", NULL, "FILE",
		"seed measurements to check the model against\n"
		"(workloads/W.seed.csv); adds report section 2"},
	[O_VARIANTS] = {"variants", NULL, "LIST",
		"variant order; runs of other variants are left out\n"
		"(default: seed table order, then sorted)"},
	[O_MODELS] = {"models", NULL, "LIST",
		"model order; runs of other models are left out\n"
		"(default: sorted)"},
	[O_CALIB] = {"calibration", NULL, "STR",
		"fitted constants NAME=VALUE, listed in section 3"},
	[O_COMMAND] = {"command", NULL, "STR",
		"the make command shown in section 1\n"
		"(default: make sim WORKLOAD=W)"},
	[O_COMPARE_MODEL] = {"compare-model", NULL, "M",
		"the model checked against the seed and the live kernel\n"
		"(default: the first model, traced unless --models\n"
		"lists another first)"},
	[O_BASELINE] = {"baseline", NULL, "VARIANT",
		"add summary.csv column overhead_pct: sim_time_ms\n"
		"against VARIANT's run of the same model, in %"},
	[O_ALT] = {"alt-runs", NULL, "DIR",
		"the seed table again for the runs in DIR/runs/ (the\n"
		"same variants on another target); repeatable, at most "
		SS_OPT_STR(MAX_ALT)},
	[O_SENS] = {"sensitivity", NULL, "FILE",
		"sensitivity.csv of `make sensitivity`: every headline\n"
		"figure with its interval and top three steps"},
	[O_KBEFORE] = {"kernel-before", NULL, "SNAPSHOT",
		"the kernel's caches before the capture (with\n"
		"--kernel-after)"},
	[O_KAFTER] = {"kernel-after", NULL, "SNAPSHOT",
		"the kernel's caches after it: adds the section \"The live\n"
		"kernel and the simulator\" for the compare model's run of\n"
		"the first variant, and kernel.csv"},
	[O_CMETA] = {"capture-meta", NULL, "FILE",
		"the capture's meta (make capture): the section says which\n"
		"tasks ran with no tracepoint and what events were lost"},
	[O_KFILL] = {"kernel-fill-after", NULL, "FILE",
		"the capture's slab-fill file read after --kernel-after\n"
		"(slab-fill-after.txt): kernel.csv and the notes give the\n"
		"CPU slabs' free slots at the end, which `objects` counts\n"
		"as in use, on both sides"},
	[O_CTARGET] = {"capture-target", NULL, "FILE",
		"what `slabsim pick-target` said of the capture the runs\n"
		"replay (target=, why=): section 1 says whether the runs'\n"
		"target (their summary.csv) is the capture's own"},
	[O_REPRICE] = {"reprice", NULL, "SETTINGS",
		"make sensitivity's cost settings (DIR/SETTING/costs under\n"
		"--reprice-dir) whose figures are priced from the runs in\n"
		"--dir (which ran under --dir's costs) instead of replayed:\n"
		"each writes only its figures.csv (exit 4: the runs' times\n"
		"are not their counts priced; docs/cost-model.md)"},
	[O_REPRICE_DIR] = {"reprice-dir", NULL, "DIR", "the settings' directory of --reprice"},
	[O_REPRICE_CHECK] = {"reprice-check", NULL, "SETTINGS",
		"settings replayed in full whose figures.csv the prices must\n"
		"give before any is written (exit 4 if not)"},
	[O_WINDOW] = {"window", NULL, NULL,
		"the runs replay a capture: plot what its window changed,\n"
		"timeline.dat and phases.dat (each run's slab memory since\n"
		"its start), not waste.dat (the whole machine's bytes;\n"
		"an older waste.dat/.png/.svg in DIR is removed)"},
	[O_ERA_BASE] = {"era-base", NULL, "DIR",
		"the same runs under 6.18's rules (DIR/runs/, the runs'\n"
		"7.x target with era 6.18): adds the section \"What SLUB\n"
		"7.x changes\" (docs/sheaves.md)"},
	[O_PLOT_DATA_ONLY] = {"plot-data-only", NULL, NULL,
		"write only the plot data (waste.dat, latency.dat,\n"
		"title.gp and the workload's own)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"report", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim report --workload W --dir DIR [--seed-table FILE]\n"
		"                      [--variants \"V1 V2 ...\"] [--models \"M1 M2 ...\"]\n"
		"                      [--calibration \"NAME=VALUE ...\"]... [--command \"make ...\"]\n"
		"                      [--compare-model M] [--baseline VARIANT] [--alt-runs DIR]...\n"
		"                      [--sensitivity FILE] [--plot-data-only]\n"
		"                      [--kernel-before SNAPSHOT --kernel-after SNAPSHOT\n"
		"                       [--capture-meta FILE] [--kernel-fill-after FILE]]\n"
		"                      [--capture-target FILE] [--window] [--era-base DIR]\n"
		"                      [--reprice-dir DIR --reprice \"SETTING ...\"\n"
		"                       [--reprice-check \"SETTING ...\"]]\n\n"
		"Reads DIR/runs/<variant>__<model>/{summary,latency}.csv and writes\n"
		"DIR/summary.csv, DIR/waste.dat, DIR/latency.dat, DIR/title.gp (the plots'\n"
		"title), DIR/figures.csv (the headline figures) and DIR/report.md (only\n"
		"the plot data with --plot-data-only); with --kernel-after, DIR/kernel.csv\n"
		"and DIR/change.dat too; with --window, DIR/timeline.dat and DIR/phases.dat\n"
		"instead of DIR/waste.dat.  All or nothing.  Section 1 states\n"
		"the settings each run used, read from its kernel.txt and summary.csv\n"
		"(runs that disagree are named with each value).  Target\n"
		"parameters declared inferred in the runs' target files are listed in\n"
		"the section \"Fitted and inferred parameters\".\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 bad input file (file:line) or write error, 2 bad usage,\n"
		     "4 --reprice: the runs' times are not their counts priced.\n");
}

/* "NAME=VALUE NAME=VALUE" -> o->calib. */
static int parse_calib(struct report_opts *o, const char *arg)
{
	char buf[4096], *tok[MAX_CALIB + 1];
	int n;

	if (strlen(arg) >= sizeof(buf))
		goto bad;
	n = ss_split(strcpy(buf, arg), tok, MAX_CALIB);
	if (n < 0 || o->rq.ncalib + (unsigned)n > MAX_CALIB)
		goto bad;
	for (int i = 0; i < n; i++) {
		struct ss_report_calib *c = &o->rq.calib[o->rq.ncalib];
		char *eq = strchr(tok[i], '=');

		if (!eq || eq == tok[i] || !eq[1] ||
		    (size_t)(eq - tok[i]) >= sizeof(c->name) ||
		    strlen(eq + 1) >= sizeof(c->value)) {
			return ss_opt_usage_err(&opt_set, "--calibration: '%s' is not NAME=VALUE",
						tok[i]);
		}
		*eq = '\0';
		strcpy(c->name, tok[i]);
		strcpy(c->value, eq + 1);
		o->rq.ncalib++;
	}
	return 0;
bad:
	return ss_opt_usage_err(&opt_set, "--calibration: too long or more than %d constants",
				MAX_CALIB);
}

/* --calibration repeats, each adding its constants; every other value
 * must not be empty. */
static int take_report_opt(void *ctx, int id, const char *v)
{
	struct report_opts *o = ctx;

	if (v && !*v && id != O_CALIB)
		return ss_opt_usage_err(&opt_set, "--%s needs a value (%s)",
					specs[id].name, specs[id].arg);
	switch (id) {
	case O_WORKLOAD: o->rq.workload = v; return 0;
	case O_DIR: o->rq.dir = v; return 0;
	case O_SEED: o->rq.seed_path = v; return 0;
	case O_COMMAND: o->rq.command = v; return 0;
	case O_COMPARE_MODEL: o->rq.compare_model = v; return 0;
	case O_BASELINE: o->rq.baseline = v; return 0;
	case O_SENS: o->rq.sens_path = v; return 0;
	case O_ALT:
		if (o->rq.nalt == MAX_ALT)
			return ss_opt_usage_err(&opt_set, "--alt-runs: at most %d", MAX_ALT);
		o->rq.alt[o->rq.nalt++] = v;
		return 0;
	case O_KBEFORE: o->rq.kernel_before = v; return 0;
	case O_KAFTER: o->rq.kernel_after = v; return 0;
	case O_CMETA: o->rq.ss_capture_meta = v; return 0;
	case O_KFILL: o->rq.kernel_fill_after = v; return 0;
	case O_CTARGET: o->rq.capture_target = v; return 0;
	case O_REPRICE: o->reprice.settings = v; return 0;
	case O_REPRICE_DIR: o->reprice.dir = v; return 0;
	case O_REPRICE_CHECK: o->reprice.checks = v; return 0;
	case O_WINDOW: o->rq.window = true; return 0;
	case O_ERA_BASE: o->rq.era_base = v; return 0;
	case O_VARIANTS: return ss_names_opt_parse(&opt_set, id, v, &o->rq.variants);
	case O_MODELS: return ss_models_opt_parse(&opt_set, id, v, &o->rq.models);
	case O_CALIB: return parse_calib(o, v);
	default: o->rq.plot_data_only = true; return 0; /* O_PLOT_DATA_ONLY */
	}
}

/* 0 ok, else ss_opt_scan()'s SS_OPT_HELP or -1. */
static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	int rc;

	if ((rc = ss_opt_scan(&opt_set, argc, argv, take_report_opt, o)))
		return rc;
	if (!o->rq.workload || !o->rq.dir)
		return ss_opt_usage_err(&opt_set, "--workload and --dir are required");
	if (!ss_report_name_ok(o->rq.workload))
		return ss_opt_usage_err(&opt_set, "--workload: '%s' is not [A-Za-z0-9._+-]+",
					o->rq.workload);
	if (!o->rq.kernel_before != !o->rq.kernel_after)
		return ss_opt_usage_err(&opt_set, "--kernel-before and --kernel-after go together");
	if (o->rq.ss_capture_meta && !o->rq.kernel_after)
		return ss_opt_usage_err(&opt_set, "--capture-meta needs --kernel-after");
	if (o->rq.kernel_fill_after && !o->rq.kernel_after)
		return ss_opt_usage_err(&opt_set, "--kernel-fill-after needs --kernel-after");
	if (!o->reprice.dir != !(o->reprice.settings || o->reprice.checks))
		return ss_opt_usage_err(&opt_set, "--reprice-dir goes with --reprice or --reprice-check");
	if (!o->rq.command) {
		snprintf(o->default_command, sizeof(o->default_command),
			 "make sim WORKLOAD=%s", o->rq.workload);
		o->rq.command = o->default_command;
	}
	return 0;
}

/* --reprice: the exit code (REPRICE_NOT_PRICEABLE: 4). */
static int reprice(const struct report_opts *o, struct ss_report *r)
{
	struct ss_error err = {{0}};

	switch (ss_report_reprice(&o->reprice, ss_report_input(r), ss_report_runs(r),
			       ss_report_collect_figures, &err)) {
	case REPRICE_DONE:
		return 0;
	case REPRICE_NOT_PRICEABLE:
		fprintf(stderr, "slabsim report: not priced: %s\n", err.msg);
		return 4;
	default:
		fprintf(stderr, "slabsim report: %s\n", err.msg);
		return 1;
	}
}

/* Read everything, then write everything: exit code 0 or 1 (4: not
 * priced). */
static int run_report(struct report_opts *o)
{
	const struct ss_workload *wl = ss_workload_find(o->rq.workload);
	struct ss_error err = {{0}};
	struct ss_report *r;
	int rc = 1;

	o->rq.extra = wl ? wl->report : NULL;
	o->rq.inferred = ss_report_find_inferred;
	o->rq.figures_only = o->reprice.dir != NULL;
	r = ss_report_load(&o->rq, &err);
	if (r && o->reprice.dir) {
		rc = reprice(o, r);
	} else if (r && !ss_report_write(r, &err)) {
		rc = 0;
	} else {
		fprintf(stderr, "slabsim report: %s\n", err.msg);
		ss_report_remove_outputs(&o->rq);
	}
	ss_report_free(r);
	return rc;
}

int ss_cmd_report(int argc, char **argv)
{
	struct report_opts *o = calloc(1, sizeof(*o));
	int r;

	if (!o) {
		fprintf(stderr, "slabsim report: out of memory\n");
		return 1;
	}
	r = parse_opts(argc, argv, o);
	r = r ? ss_opt_exit(r) : run_report(o);
	ss_report_names_free(&o->rq.variants);
	ss_report_names_free(&o->rq.models);
	free(o);
	return r;
}
