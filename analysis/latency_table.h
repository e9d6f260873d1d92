/* latency_table.h - the pooled latency table that report.md (§5) and
 * compare.md (§3) both print: one row per latency series (a model's runs
 * on one kernel target pooled, rp_lat_series), with alloc and free p50 and p99 -- the upper bound of
 * the latency.csv bucket holding the percentile, "≤ N" ns, or "n/a" for a
 * model with no such operations -- and the numbers of allocs and frees. */
#ifndef SS_LATENCY_TABLE_H
#define SS_LATENCY_TABLE_H

#include <stdio.h>

#include "report_runs.h"

/* 0, or -1 when out of memory. */
int rp_latency_table(FILE *fp, const struct rp_results *res);

#endif
