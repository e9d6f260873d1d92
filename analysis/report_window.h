/* report_window.h - how much slab memory a capture's run held at the end
 * against what it started with: the command's change of slab memory in
 * the model, beside the kernel's from its before- and after-snapshots.
 *
 * A run that replays from a snapshot (kernel.txt initial_state) starts
 * each of the kernel's caches as the snapshot shows it (slab_prior.h), on
 * the cache's first use: so its start is the snapshot's slab pages, and a
 * cache it never used kept them.  Its change is then, cache by cache, its
 * final slabinfo's pages less the snapshot's (the basis of kernel.csv's
 * model columns).  That holds while every cache starts with its own
 * objects only, in the snapshot's slabs; a placement that moves the
 * kernel's objects of one cache into another (kmalloc-buckets: dentry
 * into kmalloc-192; prior.csv's prior_live above the snapshot's objects),
 * or a geometry of the run's own (prior.csv from_snapshot 0: a what-if's
 * order, a slub_debug layout), repacks the initial state: its start is
 * then the slab pages the model gave the initial
 * state of the caches it used, which its timeline.csv's last initial_kib
 * gives (sim/timeline.h), and its end its slabinfo (the caches it never
 * used are in neither); a run written before that column existed has no
 * such figure, and its change is not known.
 * A run from empty caches (ALLOCATOR=slab, INITIAL=) starts at 0 pages:
 * its change is what it holds at the end, and the frees of objects from
 * before the capture freed nothing in it, so it is comparable only with
 * another run from empty caches. */
#ifndef SS_REPORT_WINDOW_H
#define SS_REPORT_WINDOW_H

#include <stdbool.h>

#include "error.h"

enum ss_report_start {
	SS_REPORT_START_SNAPSHOT, /* the kernel's caches as the snapshot shows them */
	RP_START_EMPTY,	   /* empty caches */
	SS_REPORT_START_REPACKED, /* the snapshot's objects placed the model's way */
	RP_START_UNKNOWN,  /* the run's files could not be read */
};

struct ss_report_window {
	enum ss_report_start start;
	double start_kib;   /* slab pages at the start (REPACKED: !packed_known, not known) */
	double end_kib;	    /* at the end: the run's slabinfo, and the caches it never used */
	double delta_kib;   /* end - start (REPACKED: !packed_known, not known) */
	bool packed_known;  /* REPACKED: start, end and change from timeline.csv */
	double slabinfo_kib; /* the run's slabinfo alone (its footprint less kmalloc_large) */
	char allocator[32], target[64], cpus[16]; /* kernel.txt's, "" when absent */
	char initial[512];  /* the snapshot it started from, "" when empty */
};

/* The kernel's slab pages of a snapshot, in KiB (page_bytes each). */
int ss_report_snapshot_kib(const char *path, const char *file, double page_bytes, double *kib,
		    struct ss_error *err);
/* Run directory run_dir's window: its kernel.txt, slabinfo and prior.csv
 * and the snapshot kernel.txt names.  page_bytes: the target's page.
 * Errors name the file. */
int ss_report_window_of_run(const char *run_dir, double page_bytes, struct ss_report_window *w,
		     struct ss_error *err);
/* "the kernel's caches (SNAPSHOT)", "empty caches", ... */
const char *ss_report_start_name(enum ss_report_start s);

#endif
