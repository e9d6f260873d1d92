/* report_era.h - report.md's section on what SLUB 7.x changes: runs on a
 * target of era 7.0 or later beside the same runs under 6.18's rules on
 * the same machine and options (`slabsim report --era-base DIR`; make
 * makes DIR for a 7.x TARGET: mk/runs.inc, workloads/hackbench).  Every
 * sentence is generated from the figures it states.
 */
#ifndef SS_REPORT_ERA_H
#define SS_REPORT_ERA_H

#include <stdio.h>

#include "report_md.h"

/* The section, when in->era_base is set: the footprint (end, peak), the
 * allocator's time and fast path of every run against its 6.18 twin, then
 * for each variant of the compare model the caches whose slab memory
 * moved most, with the objects 7.x held in sheaves and barns at the end
 * and its refills, flushes and failed barn puts.  A run with no twin is
 * named.  0, or -1 with err (a run directory's file that cannot be read). */
int ss_report_era_write_md(FILE *fp, const struct ss_report_report_in *in, struct ss_error *err);

#endif
