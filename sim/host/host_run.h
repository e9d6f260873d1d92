/* host_run.h - `slabsim run --mode host`: replay a trace against real
 * memory on this machine (docs/host-mode.md).
 *
 * The model (the same placement and geometry as a model run) only routes
 * each allocation to its cache; the work is done by a real slab allocator
 * (host_slab.h) on mmap'd pages, one thread per simulated PU pinned to a
 * host PU.  Everything it reports is measured and labelled so.
 */
#ifndef SS_HOST_RUN_H
#define SS_HOST_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "histogram.h"
#include "model.h"
#include "pmu.h"
#include "run.h"

struct ss_host_opts {
	struct ss_run_spec spec; /* as for a model run; topology NULL: this host */
	const char *variant;
	const char *events;   /* NULL: SS_PMU_DEFAULT_EVENTS */
	const char *out;      /* NULL: no files (tests) */
	unsigned window;      /* events per window, 0 = default */
};

/* One replay thread: the PU it simulates and where it ran. */
struct ss_host_thread {
	unsigned pu;	      /* simulated PU */
	unsigned host_os;     /* OS index of the host PU it was bound to */
	int affinity_os;      /* sched_getaffinity(): the one CPU, or -1 */
	unsigned affinity_nr; /* CPUs in that mask */
};

/* Measured figures (ticks of the cycle counter, see host_clock.h). */
struct ss_host_stats {
	unsigned nr_threads;
	struct ss_host_thread *threads;
	struct ss_hist alloc_hist, free_hist; /* ticks per operation */
	uint64_t alloc_ops, free_ops, events, windows;
	uint64_t fast_allocs, refill_allocs, cpu_partial_allocs;
	uint64_t node_partial_allocs, new_slab_allocs;
	uint64_t fast_frees, slow_frees, remote_frees, large_ops, zero_ops;
	uint64_t slabs_mapped, slabs_unmapped, peak_mapped_bytes;
	uint64_t poison_written, poison_checked; /* bytes */
	double alloc_ticks, free_ticks; /* sums */
	double ticks_per_ns, wall_ns;
	struct ss_pmu_set pmu;	/* per event, summed over the threads */
	char topology[256], host[256];
	char *workload, *variant; /* whole, as the trace or --variant gave them */
	char slub_debug[32];
};

/* Run the replay; stats are allocated inside (ss_host_stats_release). */
int ss_host_replay(const struct ss_host_opts *o, struct ss_host_stats *st,
		   struct ss_error *err);
void ss_host_stats_release(struct ss_host_stats *st);

struct hwloc_topology;

/* "CPU model; P packages, N NUMA nodes, C cores, U PUs" of a loaded
 * hwloc topology, JSON-safe. */
void ss_host_describe(char *buf, size_t n, struct hwloc_topology *t);

/* The command: replay, then write measured.json, measured.csv,
 * measured_latency.csv and measured_events.csv into o->out. */
int ss_host_run_cmd(const struct ss_host_opts *o, struct ss_error *err);

#endif
