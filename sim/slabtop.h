/* slabtop.h - what `slabsim run` prints on the terminal at the end of a
 * run: slabtop(1)'s header (active / total objects, slabs, caches, size)
 * for the simulated kernel, the peak, then the caches holding the most
 * memory (slabtop's columns) and those wasting the most (bytes no caller
 * asked for: rounding, alignment, debug, free slots, slab tails). */
#ifndef SS_SLABTOP_H
#define SS_SLABTOP_H

#include <stdio.h>

#include "replay.h"
#include "results.h"

/* top: caches in each of the two tables.  0, or -1 when out of memory. */
int ss_print_slabtop(FILE *fp, const struct ss_run *run,
		     const struct ss_run_labels *lb, unsigned top);

#endif
