/* prior_counts.h - how many prior frees (`u` events) each kernel slab of
 * a raw-pointer capture takes over the whole trace.
 *
 * A prior free names the kernel slab its object was in (slab=K, dense
 * per cache: docs/trace-format.md), not how full that slab was: the
 * snapshot gives only each cache's totals.  The n frees the trace makes
 * from kernel slab K say it held at least n objects from before the
 * trace, so the replay maps K onto one of its own initial slabs that
 * holds at least n (slab_prior.h).  Counted by a pass over the trace
 * before the replay (sim/run.c); memory is one entry per kernel slab
 * the trace frees from.
 */
#ifndef SS_PRIOR_COUNTS_H
#define SS_PRIOR_COUNTS_H

#include <stdint.h>

#include "error.h"
#include "trace.h"

struct ss_prior_count {
	uint64_t slab;	   /* K + 1; 0 = empty slot */
	uint64_t value;	   /* the event's size (kmalloc class), 0 for a cache */
	uint32_t api, gfp; /* the event's cache (or SS_API_KMALLOC) and flags */
	uint32_t n;	   /* prior frees of that kernel slab */
};

struct ss_prior_counts {
	struct ss_prior_count *e;
	uint64_t cap, nr;
};

/* Count the prior frees with a slab of every kernel slab in the trace at
 * path (any format).  -1 with err on a bad trace or out of memory. */
int ss_prior_counts_scan(const char *path, struct ss_prior_counts *pc, struct ss_error *err);
/* Add one prior free (ev->kind SS_EV_FREE_PRIOR with ev->id = K + 1). */
int ss_prior_counts_add(struct ss_prior_counts *pc, const struct ss_event *ev);
/* The frees counted for ev's kernel slab; 0 when none or pc is NULL. */
uint32_t ss_prior_counts_get(const struct ss_prior_counts *pc, const struct ss_event *ev);
void ss_prior_counts_release(struct ss_prior_counts *pc);

#endif
