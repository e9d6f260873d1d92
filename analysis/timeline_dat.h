/* timeline_dat.h - the data of a timeline plot (analysis/cmp_timeline.gp):
 * `slabsim compare`'s timeline.dat and phases.dat, and a capture's report's
 * (`slabsim report --window`), from each run's timeline.csv.
 *
 * timeline.dat: one gnuplot block per (variant, model), variant-major
 * (block index = variant index * models + model index), each opening
 * with a "VARIANT MODEL" header line, then one row per timeline.csv row:
 *   events kib live_objects sim_time_ms
 * kib = footprint_kib - initial_kib: the slab memory the trace added (or,
 * below 0, freed) since the run's start (sim/timeline.h).  A run from an
 * initial state loads each of the kernel's caches on its first use, so
 * its footprint jumps there and starts at the machine's size; this does
 * not.  A run without an initial state starts empty: kib is its
 * footprint.  A missing run is one row of NaN.
 *
 * phases.dat: one block per variant (block index = variant index), rows
 *   variant events "phase"
 * the phase markers of the variant's first run (every model replays the
 * same trace), events = events replayed before the phase's first event;
 * a variant without markers or runs is one row "variant NaN \"\"".
 */
#ifndef SS_TIMELINE_DAT_H
#define SS_TIMELINE_DAT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare_runs.h"
#include "report_runs.h"

/* timeline.dat's and phases.dat's header comments, naming the command
 * that wrote them. */
void ss_timeline_dat_head(FILE *fp, const char *by);
void ss_phases_dat_head(FILE *fp, const char *by);

/* One run's block: read dir/runs/VARIANT__MODEL/timeline.csv into *tl (its
 * phases, peak and last row), each row written to fp as it is read.  run
 * NULL: the placeholder block of a missing run, named variant and model.
 * 0, or -1 with err naming the file and line. */
int ss_timeline_dat_block(FILE *fp, const char *dir, const struct ss_report_run *run,
			  const char *variant, const char *model, struct ss_compare_timeline *tl,
			  struct ss_error *err);

/* One variant's block of phases.dat: tl's markers (NULL: none). */
void ss_phases_dat_block(FILE *fp, const char *variant, const struct ss_compare_timeline *tl);

/* The title.gp line that makes cmp_timeline.gp label its y axis as the
 * change since the start (`change = 1`), when `change`: some run started
 * from an initial state.  0, or -1 on a write error. */
int ss_timeline_dat_title(FILE *fp, bool change);

#endif
