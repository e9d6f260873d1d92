/* report_capture.h - the first screen of a capture's report.md: what the
 * command changed.
 *
 *   - the net change of slab memory the command caused: the kernel's,
 *     from its before- and after-snapshots (slab pages), beside the
 *     model's (the report's first model: report_window.h);
 *   - the capture tool's own events, when its meta counts them;
 *   - the caches whose slab memory changed most (kernel and model), and
 *     the call sites whose objects the window left most of, as `perf kmem
 *     --caller stat` lists them (allocated, requested, freed, live, waste),
 *     the objects from before the capture (sites.csv's "(initial state)")
 *     apart;
 *   - every run beside the first with its change and the difference: the
 *     report's models, and the what-if reports of the same capture
 *     (reports/NAME--*), each compared only with a run that started alike.
 */
#ifndef SS_REPORT_CAPTURE_H
#define SS_REPORT_CAPTURE_H

#include <stdio.h>

#include "report_md.h"

/* The section, unnumbered, when in->kernel is set (a capture replayed
 * from its before-snapshot, with its after-snapshot); 0 or -1 (out of
 * memory, a run's files unreadable: err). */
int ss_report_capture_write_lead(FILE *fp, const struct ss_report_report_in *in, struct ss_error *err);

/* change.dat, the plot change.png draws (analysis/change.gp): the
 * kernel's and the first model's change of slab memory over every cache,
 * then the caches that changed most.  0 or -1. */
int ss_report_capture_write_change_dat(FILE *fp, const struct ss_report_report_in *in);

/* The page size of the runs: footprint less kmalloc_large over slab
 * pages (summary.csv), 4096 when a run has no slab page. */
double ss_report_capture_page_bytes(const struct ss_report_results *res);

#endif
