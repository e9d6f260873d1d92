/* latency_table.h - the latency table that report.md (§5) and compare.md
 * (§3) both print: one row per run (variant and model, never pooled: two
 * kernel eras are two rows), with alloc and free p50, p90, p99 and p99.9
 * -- the upper bound of the latency.csv bucket holding the quantile
 * (buckets at most 1/64 wide, base/histogram.h), "≤ N" ns, or "n/a" for a
 * run with no such operations -- and the numbers of allocs and frees. */
#ifndef SS_LATENCY_TABLE_H
#define SS_LATENCY_TABLE_H

#include <stdio.h>

#include "report_runs.h"

/* 0, or -1 when out of memory. */
int ss_report_latency_table(FILE *fp, const struct ss_report_results *res);

#endif
