/* results.h - the files a run writes into its output directory
 * (docs/outputs.md): summary.csv, summary.json, caches.csv, counters.csv,
 * latency.csv, slabinfo.  Each is written whole or not at all. */
#ifndef SS_RESULTS_H
#define SS_RESULTS_H

#include "replay.h"
#include "totals.h"

struct ss_run_labels {
	const char *workload, *variant, *model, *slub_debug;
	const char *costs; /* cost table used ("default" or a path) */
};

int ss_write_summary(const char *dir, const struct ss_run *run,
		     const struct ss_run_labels *lb, struct ss_error *err);
int ss_write_caches(const char *dir, const struct ss_run *run,
		    struct ss_error *err);
/* sites.csv: per (allocation site, cache) pair, perf kmem stat --caller's
 * figures and the waste of the objects live at the end (account.h). */
int ss_write_sites(const char *dir, const struct ss_run *run,
		   struct ss_error *err);
int ss_write_counters(const char *dir, const struct ss_run *run,
		      struct ss_error *err);
/* locks.csv: per cache and shared resource (list_lock, slab_lock,
 * cmpxchg_double), its uses, the waits and retries they met on the
 * simulated clocks (sim/contention.h), and the time waited and held. */
int ss_write_locks(const char *dir, const struct ss_run *run,
		   struct ss_error *err);
/* functions.csv: calls and inclusive cycles per cache and kernel function
 * (the model's own record, so reports need not price steps again). */
int ss_write_functions(const char *dir, const struct ss_run *run,
		       struct ss_error *err);
int ss_write_latency(const char *dir, const struct ss_run *run,
		     struct ss_error *err);
/* work.csv: simulated time per work label, plus the allocator's own. */
int ss_write_work(const char *dir, const struct ss_run *run,
		  struct ss_error *err);
/* prior.csv: per cache that started from a kernel snapshot, its initial
 * objects still allocated, those prior frees took, and prior frees that
 * found none left (a run with --initial-state). */
int ss_write_prior(const char *dir, const struct ss_run *run, struct ss_error *err);
/* /proc/slabinfo 2.1 of the simulated caches into dir/name. */
int ss_write_slabinfo(const char *dir, const char *name,
		      const struct ss_run *run, struct ss_error *err);

#endif
