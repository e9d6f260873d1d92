/* report_runs.h - loading a workload's per-run results for the report.
 *
 * A run directory DIR/runs/<variant>__<model>/ holds summary.csv (one data
 * row), latency.csv (op,ns,count histogram) and caches.csv (not read here);
 * docs/outputs.md defines every column.  The loader checks each file
 * strictly (file:line on any error), checks that the row names the same
 * workload, variant and model as its directory, and checks the byte
 * identity of the footprint.  rp_arrange() then fixes the order of
 * variants and models every output uses.
 */
#ifndef SS_REPORT_RUNS_H
#define SS_REPORT_RUNS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

#define RP_NAME_MAX 64 /* longest variant or model name + 1 */

enum rp_op { RP_OP_ALLOC, RP_OP_FREE, RP_NR_OPS };

/* One latency.csv row: count operations took at most ns. */
struct rp_bucket {
	double ns;
	uint64_t count;
};

/* A latency histogram, buckets in increasing ns. */
struct rp_hist {
	struct rp_bucket *b;
	size_t n;
};

/* The numeric columns of summary.csv the report uses (same names). */
struct rp_summary {
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
};

/* A run's simulated time in ms from sim_time_ns when it has it (a
 * difference of two runs then keeps its sub-microsecond part), else
 * from sim_time_ms. */
double rp_sim_ms(const struct rp_summary *s);

/* One locks.csv row: a shared resource of one cache. */
struct rp_lock {
	char name[2 * RP_NAME_MAX + 2]; /* "cache resource" */
	double uses, waits, retries, wait_ms, hold_ms;
};

struct rp_run {
	char variant[RP_NAME_MAX];
	char model[RP_NAME_MAX];
	char **row;		/* summary.csv fields, in header order */
	struct rp_summary s;
	struct rp_hist lat[RP_NR_OPS];
	struct rp_lock *locks;	/* locks.csv, when the run has one */
	size_t nlocks;
	unsigned vi, mi;	/* indexes into rp_results variants / models */
};

/* A list of names (variant or model order). */
struct rp_names {
	char **v;
	unsigned n;
};

struct rp_results {
	char **header;		/* summary.csv header, identical in every run */
	unsigned ncols;
	struct rp_run *runs;	/* after rp_arrange: variant-major, then model */
	size_t nruns;
	struct rp_names variants; /* after rp_arrange: the output order */
	struct rp_names models;
	size_t dropped;		/* runs rp_arrange left out (not listed) */
};

/* Indexes into struct rp_summary's byte parts, in plotting order. */
enum rp_part {
	RP_REQUESTED, RP_ROUNDING, RP_ALIGN, RP_DEBUG, RP_FREE_SLOT,
	RP_SLAB_TAIL, RP_NR_PARTS
};
extern const char *const rp_part_names[RP_NR_PARTS];
double rp_part_bytes(const struct rp_summary *s, enum rp_part p);

/* Read every DIR/runs/<v>__<m>/{summary,latency}.csv (directory names in
 * sorted order).  No runs at all is an error. */
int rp_load_results(const char *dir, const char *workload,
		    struct rp_results *res, struct ss_error *err);
/* Parse one run's files (exposed for tests).  vdir is the directory name
 * "<variant>__<model>". */
int rp_load_run(const char *rundir, const char *vdir, const char *workload,
		struct rp_results *res, struct rp_run *run,
		struct ss_error *err);
/* Read a latency.csv into run->lat. */
int rp_load_latency(const char *path, struct rp_run *run, struct ss_error *err);
/* Read a locks.csv into run->locks (analysis/contention_table.c). */
int rp_load_locks(const char *path, struct rp_run *run, struct ss_error *err);

/* Fix the output order.  Variants: `order` first (when `only`, runs of
 * other variants are dropped and every listed name is kept even without
 * runs; otherwise listed names without runs are skipped and the other
 * variants follow in sorted order).  The same for models.  NULL order =
 * sorted. */
int rp_arrange(struct rp_results *res, const struct rp_names *vorder,
	       bool vonly, const struct rp_names *morder, bool monly,
	       struct ss_error *err);

/* The run of (variant index, model index), or NULL. */
const struct rp_run *rp_find(const struct rp_results *res, unsigned vi,
			     unsigned mi);
/* Index of name in a list, or -1. */
int rp_names_find(const struct rp_names *l, const char *name);
/* Append a copy; 0 or -1 (out of memory). */
int rp_names_add(struct rp_names *l, const char *name);
void rp_names_free(struct rp_names *l);
/* Names are [A-Za-z0-9._+-]+ and shorter than RP_NAME_MAX. */
bool rp_name_ok(const char *s);

/* The combined summary.csv: the header, then every run's row. */
/* baseline != NULL adds a last column overhead_pct: each run's
 * sim_time_ms over that of the baseline variant's run of the same model,
 * in percent (empty where the model has no baseline run). */
int rp_write_summary_csv(FILE *fp, const struct rp_results *res,
			 const char *baseline);

void rp_results_free(struct rp_results *res);

#endif
