/* compare_runs.h - what `slabsim compare` reads beyond report_runs.h: each
 * run's timeline.csv (footprint over the trace) and caches.csv (slabinfo
 * per cache), docs/outputs.md.
 *
 * A timeline is streamed: every row is handed to a callback (which writes
 * the plot data) while the few figures the report needs are kept: the
 * sampled peak, the last row, and the phase markers.  Memory stays with
 * the number of phases, not the trace's length.
 */
#ifndef SS_COMPARE_RUNS_H
#define SS_COMPARE_RUNS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

/* One timeline.csv row.  initial_kib: the initial state's slabs the run
 * has loaded so far (0 for a run without one, whose timeline.csv has no
 * such column); footprint_kib - initial_kib is what the trace changed
 * since the run's start (sim/timeline.h). */
struct ss_compare_point {
	double events, footprint_kib, live_objects, sim_time_ms, initial_kib;
};

/* A phase marker: the first row of a new phase, taken before the phase's
 * first event.  end_kib is the footprint when the phase ended: the next
 * marker's row, or the last row. */
struct ss_compare_phase {
	char *name;
	double events;
	double end_kib;
};

struct ss_compare_timeline {
	struct ss_compare_phase *ph;
	size_t nph;
	struct ss_compare_point peak;	/* the row with the largest footprint (first) */
	struct ss_compare_point last;
	size_t rows;
	bool initial;		/* the file has initial_kib (--initial-state) */
};

/* Called for each row; non-zero stops the reader (a write error). */
typedef int (*ss_compare_row_fn)(void *ctx, const struct ss_compare_point *pt);

/* The change since the run's start at pt: footprint less the initial
 * state loaded so far (KiB). */
static inline double cmp_point_change(const struct ss_compare_point *pt)
{
	return pt->footprint_kib - pt->initial_kib;
}

/* Read path (a run's timeline.csv): strict, events must not decrease.
 * A phase marker is a row whose phase differs from the row before; the
 * replay's initial phase "start" (before any marker) is not one. */
int ss_compare_read_timeline(const char *path, ss_compare_row_fn row, void *ctx,
		      struct ss_compare_timeline *tl, struct ss_error *err);
void ss_compare_timeline_free(struct ss_compare_timeline *tl);

/* One caches.csv row, with the columns slabinfo shows and the bytes of
 * summary.csv's decomposition.  waste = space - requested: everything
 * the slabs hold that no caller asked for (rounding, alignment, debug,
 * free slots, slab tails), where slabinfo's Loss leaves rounding out. */
struct ss_compare_cache {
	char **row;		/* every field, in the file's column order */
	const char *name, *debug;
	uint64_t object_size, objs_per_slab, order, objects;
	uint64_t slabs, partial_slabs, cpu_slabs, space_bytes, loss_bytes;
	uint64_t lpadd_bytes, requested_bytes, align_bytes, debug_bytes;
	uint64_t free_slot_bytes;
	int64_t rounding_bytes; /* signed: a merged cache can hold requests
				 * larger than its objects (issue 13) */
	int64_t waste_bytes;
};

struct ss_compare_caches {
	char **header;		/* caches.csv column names */
	unsigned ncols;
	struct ss_compare_cache *c;
	size_t n;
};

/* Read a run's caches.csv and sort it by waste descending, then name
 * (case-insensitive); caches without slabs are dropped, as slabinfo skips
 * them. */
int ss_compare_read_caches(const char *path, struct ss_compare_caches *cc,
		    struct ss_error *err);
void ss_compare_caches_free(struct ss_compare_caches *cc);

/* slabinfo's integer percentages: %Fr = partial slabs × 100 / slabs,
 * %Ef = objects × object_size × 100 / space (100 for a cache without
 * slabs). */
unsigned ss_compare_partial_pct(const struct ss_compare_cache *c);
unsigned ss_compare_efficiency_pct(const struct ss_compare_cache *c);

/* One sites.csv row: an allocation site and the cache it allocated from,
 * with the waste of its objects live at the end (rounding + align + debug). */
struct ss_compare_site {
	char *site, *cache;
	uint64_t allocs, frees, live_objects, peak_live, live_requested;
	uint64_t requested, allocated, cross_cpu, align_bytes, debug_bytes;
	int64_t rounding_bytes, waste_bytes;
};

struct ss_compare_sites {
	struct ss_compare_site *s;
	size_t n;
};

/* Read a run's sites.csv, sorted by waste descending, then site and cache
 * name. */
int ss_compare_read_sites(const char *path, struct ss_compare_sites *ss, struct ss_error *err);
void ss_compare_sites_free(struct ss_compare_sites *ss);

#endif
