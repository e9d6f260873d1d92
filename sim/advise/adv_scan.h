/* adv_scan.h - what `slabsim advise` learns from one pass over the trace
 * before it proposes anything: per allocation site its API, sizes,
 * allocations and live objects (at the end and at most at once), and the
 * live kmalloc objects by requested size.  Memory: O(sites + live
 * objects + KMALLOC_MAX_CACHE_SIZE). */
#ifndef SS_ADV_SCAN_H
#define SS_ADV_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "trace.h"

struct ss_advise_site {
	uint32_t api;		/* API of the first allocation */
	bool mixed_api;		/* the site allocated through several APIs */
	uint64_t allocs, min, max; /* requested bytes, smallest and largest */
	uint64_t live, peak_live;  /* objects live at the end; the most at once */
};

/* One live object of the scan (state only: the replays price them). */
struct ss_advise_obj {
	uint64_t size;	/* requested bytes + 1; 0: not live */
	uint32_t site, api;
};

struct ss_advise_scan {
	struct ss_trace_reader *reader;	     /* open until release: its tables */
	const struct ss_trace_tables *tables; /* name the sites for everyone */
	struct ss_advise_site *site;	/* by trace name index */
	uint32_t nr_site;
	/* kmalloc objects by requested size 1..max_size: live at the end, the
	 * most live at once, and the first site that asked for the size */
	uint64_t *size_live, *size_peak;
	uint32_t *size_site;
	unsigned max_size;
	uint64_t events, allocs;
	bool imported;		/* meta workload import: a real capture */
	struct ss_advise_obj *obj;	/* by object id */
	uint64_t nr_obj;
};

/* Read every event of path.  max_size is the largest kmalloc class (the
 * size histogram's bound).  Trace errors name FILE:LINE. */
int ss_advise_scan_trace(const char *path, unsigned max_size, struct ss_advise_scan *s,
		   struct ss_error *err);
void ss_advise_scan_release(struct ss_advise_scan *s);

/* The site's allocations always ask the same number of bytes. */
static inline bool adv_site_fixed(const struct ss_advise_site *s)
{
	return s->allocs && s->min == s->max && !s->mixed_api;
}

#endif
