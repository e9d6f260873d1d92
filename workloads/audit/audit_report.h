/* audit_report.h - the audit workload's report extras (report_extras.h).
 *
 * report.md gains sections 7-13: the calibration against the seed's 146%,
 * overhead against `off` per model, time per syscall by category (from
 * each run's work.csv, divided by its user_loop events = loop
 * iterations), the allocator's share of the hit beside the seed
 * profile's, the predicted hits of on-sid and on-cached beside the 23%
 * of commit 1b50eed9cac0, the strategies' time, the rules sweep beside
 * lspp.16 and the cost table.  Extra files:
 *
 *   breakdown.dat  per variant (model --compare-model): ns per syscall by
 *                  category, for workloads/audit/breakdown.gp
 *   sweep.dat      rules, measured s, measured / 0 rules, simulated s
 *                  (x AUDIT_SEED_SYSCALLS), simulated / 0 rules, for
 *                  workloads/audit/sweep.gp; runs read from DIR/sweep/rR/
 *   overhead.csv   variant,model,sim_time_ms,off_sim_time_ms,overhead_pct
 */
#ifndef SS_REPORT_AUDIT_H
#define SS_REPORT_AUDIT_H

#include <stdio.h>

#include "report_extras.h"

/* The report extras named in workloads/registry.c: report.md sections and
 * breakdown.dat, sweep.dat, overhead.csv. */
extern const struct ss_report_extra ss_audit_report;

#endif
