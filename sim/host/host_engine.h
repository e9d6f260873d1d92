/* host_engine.h - the inside of host mode: the main thread routes events
 * into per-PU queues (host_run.c), one pinned worker per PU executes its
 * queue (host_worker.c), a barrier closes each window.
 *
 * A window ends after `window` events, at a phase marker, or just before
 * an event that touches an object another PU touched in the same window
 * (a cross-CPU free): inside a window the PUs share no object, so running
 * each PU's events in trace order on its own thread keeps every
 * allocation before its free.
 */
#ifndef SS_HOST_ENGINE_H
#define SS_HOST_ENGINE_H

#include <hwloc.h>
#include <pthread.h>
#include <stdatomic.h>

#include "host_run.h"
#include "host_slab.h"
#include "topology.h"

enum ss_host_obj_state { HO_FREE, HO_SLAB, HO_LARGE, HO_ZERO };

/* An object as the workers see it: written by the thread that allocates
 * it, read by the thread that frees it (same window and thread, or a
 * later window). */
struct ss_host_obj {
	void *ptr;
	struct ss_hostslab_slab *slab;
	uint64_t size;	   /* main thread: requested bytes */
	uint32_t win;	   /* main thread: last window that touched it */
	uint16_t alloc_pu; /* main thread */
	uint16_t touch_pu; /* main thread: PU of the last touch */
	uint8_t state;	   /* main thread: enum host_obj_state */
};

enum ss_host_op_kind { HQ_ALLOC, HQ_FREE };

struct ss_host_op {
	uint64_t id;
	uint64_t bytes;	   /* mapping length of a large object */
	uint32_t cache;
	uint8_t kind;	   /* enum host_op_kind */
	uint8_t state;	   /* enum host_obj_state of the object */
	uint8_t remote;	   /* free on another PU than the allocation */
};

struct ss_host_engine;

struct ss_host_worker {
	pthread_t thread;
	struct ss_host_engine *e;
	unsigned pu;
	hwloc_obj_t host_pu;
	struct ss_host_op *q;
	size_t nq, capq;
	struct ss_hostslab_ctx ctx;
	struct ss_hist alloc_hist, free_hist;
	double alloc_ticks, free_ticks;
	uint64_t allocs, frees, remote_frees, large_ops, zero_ops;
	struct ss_pmu_thread pmu;
	struct ss_host_thread info;
	char failed[160]; /* first error on this thread */
};

struct ss_host_engine {
	const struct ss_topology *topo;
	hwloc_topology_t host;
	struct ss_pmu_set *pmu;
	unsigned page_size; /* target PAGE_SIZE */
	struct ss_hostslab_cache **caches;
	unsigned nr_caches, cap_caches;
	struct ss_host_obj *objs;
	uint64_t nr_objs;
	struct ss_host_worker *w;
	unsigned nr_workers;
	pthread_barrier_t start, end;
	int done;
	_Atomic int64_t mapped_bytes, peak_bytes;
	/* --max-memory on what the workers map: slabs (mapped_bytes) plus
	 * kmalloc_large mappings (large_bytes); the main thread checks the
	 * model's figure first, with the trace line (host_run.c) */
	int64_t max_bytes;
	_Atomic int64_t large_bytes;
};

/* Start one pinned worker per PU; they wait at e->start. */
int ss_host_workers_start(struct ss_host_engine *e, struct ss_error *err);
/* Run one window (every queue) and wait for it; -1 if a worker failed. */
int ss_host_window(struct ss_host_engine *e, struct ss_error *err);
/* Release the workers, join them, read their counters. */
void ss_host_workers_stop(struct ss_host_engine *e);

/* host_report.c: the measured files. */
int ss_host_write_results(const char *dir, const struct ss_host_opts *o,
		       const struct ss_host_stats *st, struct ss_error *err);

#endif
