/* report_runs.h - loading a workload's per-run results for the report.
 *
 * A run directory DIR/runs/<variant>__<model>/ holds summary.csv (one data
 * row), latency.csv (op,ns,count histogram) and caches.csv (not read here);
 * docs/outputs.md defines every column.  The loader checks each file
 * strictly (file:line on any error), checks that the row names the same
 * workload, variant and model as its directory, and checks the byte
 * identity of the footprint.  ss_report_arrange() then fixes the order of
 * variants and models every output uses.
 */
#ifndef SS_REPORT_RUNS_H
#define SS_REPORT_RUNS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

#define SS_REPORT_NAME_MAX 64 /* longest variant or model name + 1 */

enum ss_report_op { SS_REPORT_OP_ALLOC, RP_OP_FREE, SS_REPORT_NR_OPS };

/* One latency.csv row: count operations took at most ns. */
struct ss_report_bucket {
	double ns;
	uint64_t count;
};

/* A latency histogram, buckets in increasing ns. */
struct ss_report_hist {
	struct ss_report_bucket *b;
	size_t n;
};

/* The numeric columns of summary.csv the report uses (same names). */
struct ss_report_summary {
	double cpus, footprint_kib, requested_bytes, allocated_bytes;
	double padding_bytes, rounding_bytes, align_bytes, debug_bytes;
	double free_slot_bytes, slab_tail_bytes, large_bytes, slab_pages;
	double live_objects, caches, alloc_ops, free_ops;
	double sim_time_ms, alloc_time_ms, work_time_ms;
	double p50_ns, p99_ns, alloc_p50_ns, alloc_p99_ns;
	double free_p50_ns, free_p99_ns, fastpath_pct;
	double rules, labels; /* optional columns; < 0 when absent */
	/* contention on the simulated clocks (optional; < 0 when absent) */
	double lock_wait_ms, lock_waits, cmpxchg_retries, remote_line_transfers;
	double sim_time_ns; /* sim_time_ms unrounded (optional; < 0 when absent) */
	/* The footprint at its peak and its parts then (optional as a
	 * group: NaN when a summary.csv predates them). */
	double peak_footprint_kib, peak_requested_bytes, peak_rounding_bytes;
	double peak_align_bytes, peak_debug_bytes, peak_free_slot_bytes;
	double peak_slab_tail_bytes, peak_event;
};

/* A run's simulated time in ms from sim_time_ns when it has it (a
 * difference of two runs then keeps its sub-microsecond part), else
 * from sim_time_ms. */
double ss_report_sim_ms(const struct ss_report_summary *s);

/* One locks.csv row: a shared resource of one cache. */
struct ss_report_lock {
	char name[2 * SS_REPORT_NAME_MAX + 2]; /* "cache resource" */
	double uses, waits, retries, wait_ms, hold_ms;
};

struct ss_report_run {
	char variant[SS_REPORT_NAME_MAX];
	char model[SS_REPORT_NAME_MAX];
	char **row;		/* summary.csv fields, in header order */
	struct ss_report_summary s;
	struct ss_report_hist lat[SS_REPORT_NR_OPS];
	struct ss_report_lock *locks;	/* locks.csv, when the run has one */
	size_t nlocks;
	unsigned vi, mi;	/* indexes into rp_results variants / models */
};

/* A list of names (variant or model order). */
struct ss_report_names {
	char **v;
	unsigned n;
};

struct ss_report_results {
	char **header;		/* summary.csv header, identical in every run */
	unsigned ncols;
	struct ss_report_run *runs;	/* after rp_arrange: variant-major, then model */
	size_t nruns;
	struct ss_report_names variants; /* after rp_arrange: the output order */
	struct ss_report_names models;
	size_t dropped;		/* runs rp_arrange left out (not listed) */
};

/* Indexes into struct rp_summary's byte parts, in plotting order. */
enum ss_report_part {
	SS_REPORT_REQUESTED, RP_ROUNDING, SS_REPORT_ALIGN, RP_DEBUG, SS_REPORT_FREE_SLOT,
	RP_SLAB_TAIL, SS_REPORT_NR_PARTS
};
extern const char *const ss_report_part_names[SS_REPORT_NR_PARTS];
double ss_report_part_bytes(const struct ss_report_summary *s, enum ss_report_part p);
/* The same parts at the peak (NaN when the run has no peak columns). */
double ss_report_peak_part_bytes(const struct ss_report_summary *s, enum ss_report_part p);
bool ss_report_has_peak(const struct ss_report_summary *s);

/* Read every DIR/runs/<v>__<m>/{summary,latency}.csv (directory names in
 * sorted order).  No runs at all is an error. */
int ss_report_load_results(const char *dir, const char *workload,
		    struct ss_report_results *res, struct ss_error *err);
/* Parse one run's files (exposed for tests).  vdir is the directory name
 * "<variant>__<model>". */
int ss_report_load_run(const char *rundir, const char *vdir, const char *workload,
		struct ss_report_results *res, struct ss_report_run *run,
		struct ss_error *err);
/* Read a latency.csv into run->lat. */
int ss_report_load_latency(const char *path, struct ss_report_run *run, struct ss_error *err);
/* Read a locks.csv into run->locks (analysis/contention_table.c). */
int ss_report_load_locks(const char *path, struct ss_report_run *run, struct ss_error *err);

/* Fix the output order.  Variants: `order` first (when `only`, runs of
 * other variants are dropped and every listed name is kept even without
 * runs; otherwise listed names without runs are skipped and the other
 * variants follow in sorted order).  The same for models.  NULL order =
 * sorted, except that a NULL model order puts `traced` first: the
 * baseline of every Δ (compare.md) is the first model. */
int ss_report_arrange(struct ss_report_results *res, const struct ss_report_names *vorder,
	       bool vonly, const struct ss_report_names *morder, bool monly,
	       struct ss_error *err);

/* At least half of the variant × model pairs did not run (hackbench: one
 * model per variant): tables list runs, not a grid of n/a. */
bool ss_report_sparse(const struct ss_report_results *res);

/* The run of (variant index, model index), or NULL. */
const struct ss_report_run *ss_report_find(const struct ss_report_results *res, unsigned vi,
			     unsigned mi);
/* Index of name in a list, or -1. */
int ss_report_names_find(const struct ss_report_names *l, const char *name);
/* Append a copy; 0 or -1 (out of memory). */
int ss_report_names_add(struct ss_report_names *l, const char *name);
void ss_report_names_free(struct ss_report_names *l);
/* Names are [A-Za-z0-9._+-]+ and shorter than RP_NAME_MAX. */
bool ss_report_name_ok(const char *s);

/* The combined summary.csv: the header, then every run's row. */
/* baseline != NULL adds a last column overhead_pct: each run's
 * sim_time_ms over that of the baseline variant's run of the same model,
 * in percent (empty where the model has no baseline run). */
int ss_report_write_summary_csv(FILE *fp, const struct ss_report_results *res,
			 const char *baseline);

void ss_report_results_free(struct ss_report_results *res);

#endif
