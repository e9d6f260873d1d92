/* timeline.h - timeline.csv, a run's footprint over the trace
 * (docs/outputs.md), written while the replay runs: the header, one row
 * per sample (every --sample-every events, and at each phase marker), and
 * for a run with --final-state the settling rule as a phase of its own:
 * its marker row before the rule (where the trace ended, as every
 * marker's row is where the phase before ended) and a row after it.
 *
 *   events,phase,footprint_kib,live_objects,sim_time_ms[,initial_kib]
 *
 * initial_kib only for a run with an initial state (run --initial-state):
 * the slab bytes the snapshot's caches had when the run loaded them, on
 * each cache's first use (reconcile/recon.h ss_recon_initial_bytes).  Its
 * footprint jumps by a cache's slabs when the cache is first touched, so
 * footprint_kib - initial_kib, and not footprint_kib, is what the trace
 * changed; such a run's first row is the one before the first event
 * (nothing loaded, nothing changed).  A run without one keeps the five
 * columns and the rows it always had.
 */
#ifndef SS_TIMELINE_H
#define SS_TIMELINE_H

#include <stdio.h>

#include "replay.h"

/* The phase of the row after the settling rule (sim/settle.h). */
#define SS_TIMELINE_SETTLED "settling rule"

/* The header, and with an initial state the row before the first event. */
void ss_timeline_start(FILE *fp, const struct ss_run *run);
/* The row of the replay's state now, in run->phase. */
void ss_timeline_row(FILE *fp, const struct ss_run *run);
/* The row of the state now in phase SS_TIMELINE_SETTLED (at the run's
 * last event): before the settling rule (sim/settle.h) runs, and after. */
void ss_timeline_settled(FILE *fp, const struct ss_run *run);

#endif
