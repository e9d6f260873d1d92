/* run_settings.h - what each run of a report used, read from the run
 * itself: its kernel.txt (docs/outputs.md: target, era, allocator,
 * config, cpus, topology, costs, trace, initial_state, draw_seed), as
 * `slabsim run` wrote it.  A report's header states these, never what a
 * command line asked for; runs that disagree are named with each value. */
#ifndef SS_RUN_SETTINGS_H
#define SS_RUN_SETTINGS_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "report_runs.h"

#define RS_MAX_KEYS 24

/* One run's kernel.txt as KEY=VALUE pairs (absent file: none). */
struct ss_report_settings {
	unsigned n;
	char *key[RS_MAX_KEYS];
	char *value[RS_MAX_KEYS];
};

/* Read DIR/kernel.txt into *s (a run written before kernel.txt existed
 * has none: *s empty, 0).  A line without '=' is an error naming
 * file:line; -1. */
int ss_report_settings_load(const char *rundir, struct ss_report_settings *s, struct ss_error *err);
/* The value of key, or NULL (also for s NULL). */
const char *ss_report_setting(const struct ss_report_settings *s, const char *key);
void ss_report_settings_free(struct ss_report_settings *s);

/* Every run's settings, in res->runs order, from DIR/runs/V__M/. */
int ss_report_settings_load_all(const char *dir, const struct ss_report_results *res,
			 struct ss_report_settings **out, struct ss_error *err);
void ss_report_settings_free_all(struct ss_report_settings *s, size_t n);

/* "- LABEL: VALUE\n" when every run's value(run) is the same; else
 * "- LABEL: differs between runs: V1 (run, run), V2 (run)\n" with the
 * runs as VARIANT__MODEL.  value() writes into buf (n bytes) and returns
 * false for a run where it is not known (such runs are left out; when no
 * run knows it, nothing is written).  all NULL: no run has settings. */
typedef bool (*ss_report_setting_fn)(const struct ss_report_results *res, size_t k,
			     const struct ss_report_settings *s, char *buf, size_t n);
void ss_report_settings_line(FILE *fp, const char *label, const struct ss_report_results *res,
		      const struct ss_report_settings *all, ss_report_setting_fn value);

/* A summary.csv column of run k, "" when the runs have no such column. */
const char *ss_report_run_column(const struct ss_report_results *res, size_t k, const char *col);

/* The values the headers state (rp_setting_fn):
 *   target    "x86_64-6.18 (kernel era 6.18)" (summary.csv's target, era)
 *   kernel    "slub, options: LIST" and the slub_* boot parameters other
 *             than the kernel's defaults
 *   cpus      "2 (TOPOLOGY; map MAP)" (summary.csv's cpus, kernel.txt's
 *             topology)
 *   costs, initial, draw_seed   kernel.txt's costs, initial_state, draw_seed
 *   traces    the directory of the trace replayed */
bool ss_report_sv_target(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		  char *buf, size_t n);
bool ss_report_sv_kernel(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		  char *buf, size_t n);
bool ss_report_sv_cpus(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		char *buf, size_t n);
bool ss_report_sv_costs(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		 char *buf, size_t n);
bool ss_report_sv_initial(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		   char *buf, size_t n);
bool ss_report_sv_draw_seed(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		     char *buf, size_t n);
bool ss_report_sv_traces(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		  char *buf, size_t n);

#endif
