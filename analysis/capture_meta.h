/* capture_meta.h - what a `make capture` meta file says about the trace's
 * limits (scripts/capture.sh writes it): events lost, and the tasks that
 * ran while no tracepoint fired for them (scripts/capture-untraced.sh),
 * whose slab objects are in the kernel's snapshots and in no trace.
 *
 * The file is "slabsim-capture 1" and then KEY=VALUE lines; keys this
 * reader does not use are skipped, so older and newer captures read. */
#ifndef SS_CAPTURE_META_H
#define SS_CAPTURE_META_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

struct ss_capture_meta {
	char path[512];
	/* untraced_tasks: -1 when the capture did not check (made before the
	 * check, or on a kernel without sched_switch) */
	long long untraced_tasks;
	double untraced_cpu_ms;
	char untraced_list[1024];	/* "TID/COMM@TGID:MS ...", may be cut */
	uint64_t untraced_sched_lost;	/* sched_switch events lost */
	bool lossy;
	char lossy_reason[512];
	/* kmem_events lists mm_page_free: the trace says which kernel
	 * slabs died (docs/import.md); false for a capture without it */
	bool page_frees;
	/* scripts/capture-orphans.sh: -1 where the meta does not say (made
	 * before make capture did) */
	int subreaper;			/* CMD ran under slabsim reap: 1, 0 */
	long long orphans_reaped;	/* CMD's orphans reaped by slabsim reap */
	long long orphans_left;		/* orphans still running after its grace */
	long long init_zombies_before;	/* init's, unreaped at the snapshot */
	/* what was captured, for the report's first lines ("" / -1 where
	 * the meta does not say) */
	char name[128], command[1024], kernel[128], machine[64];
	long long duration_us, events;
	/* the capture tool's own processes in the tracing window (tool_pids)
	 * and their events (tool_events; -1: the meta does not say, made
	 * before make capture counted them: docs/capture.md) */
	char tool_pids[512];
	long long tool_events;
};

/* Read `path`.  A line that is neither the header nor KEY=VALUE, or a
 * figure that is not one, is an error naming FILE:LINE. */
int ss_capture_meta_load(struct ss_capture_meta *m, const char *path, struct ss_error *err);

#endif
