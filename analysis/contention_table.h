/* contention_table.h - how long the runs waited for locks and where, on
 * the simulated clocks (docs/cost-model.md, Contention): one row per run
 * in report.md (§5) and compare.md (§3), from summary.csv's lock_wait_ms,
 * lock_waits, cmpxchg_retries, remote_line_transfers and the run's
 * locks.csv (the caches and locks waited for most). */
#ifndef SS_CONTENTION_TABLE_H
#define SS_CONTENTION_TABLE_H

#include <stdio.h>

#include "report_runs.h"

/* The table (per run: CPUs, fast path share, time waited for locks and
 * its share of the allocator time, waits, cmpxchg retries, cache-line
 * transfers, the two locks waited for most), then a line saying so when
 * every run had one CPU.  0, or -1 when out of memory. */
int ss_report_contention_table(FILE *fp, const struct ss_report_results *res);

#endif
