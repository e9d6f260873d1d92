/* slabpages.h - which page frames held slab pages at one moment: make
 * capture's slab-pages-start.txt, read from /proc/kpageflags (KPF_SLAB,
 * bit 7, set on every page of a slab, head and tail: fs/proc/page.c
 * stable_page_flags(), 6.18) right after tracing began.
 *
 * Why: an object on a page that was no slab page then was allocated
 * after tracing began.  Its free, with no allocation event, is of an
 * object a task no tracepoint reports allocated in the window
 * (docs/import.md), not one from the before-snapshot's population.
 *
 * The file: a header "slabsim-slabpages 1 frames=F slab=S runs=R", then R
 * lines "PFN COUNT" (hex frame, decimal count), in frame order, runs that
 * neither overlap nor touch. */
#ifndef SS_SLABPAGES_H
#define SS_SLABPAGES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

/* KPF_SLAB (include/uapi/linux/kernel-page-flags.h) */
#define SS_KPF_SLAB 7

struct ss_slabpages {
	uint64_t first_pfn, span; /* the bitmap covers [first_pfn, first_pfn + span) */
	uint64_t *bits;
	uint64_t frames, slab_pages, runs; /* as the header says */
};

/* Read a kpageflags file (8 bytes a frame) from fd and write the file
 * above to out; path names errors.  *slab gets the slab pages. */
int ss_slabpages_scan(int fd, const char *path, FILE *out, uint64_t *slab,
		      struct ss_error *err);
/* Load the file; errors name path:line. */
int ss_slabpages_load(struct ss_slabpages *sp, const char *path, struct ss_error *err);
/* Was frame pfn a slab page? */
bool ss_slabpages_has(const struct ss_slabpages *sp, uint64_t pfn);
/* Frames [pfn, pfn + n) are slab pages no more (freed in the window). */
void ss_slabpages_clear(struct ss_slabpages *sp, uint64_t pfn, uint64_t n);
void ss_slabpages_release(struct ss_slabpages *sp);

#endif
