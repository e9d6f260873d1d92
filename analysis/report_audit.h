/* report_audit.h - the audit workload's report extras (report_extras.h).
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
 *                  category, for analysis/breakdown.gp
 *   sweep.dat      rules, measured s, measured / 0 rules, simulated s
 *                  (x AUDIT_SEED_SYSCALLS), simulated / 0 rules, for
 *                  analysis/audit_sweep.gp; runs read from DIR/sweep/rR/
 *   overhead.csv   variant,model,sim_time_ms,off_sim_time_ms,overhead_pct
 */
#ifndef SS_REPORT_AUDIT_H
#define SS_REPORT_AUDIT_H

#include <stdio.h>

#include "report_md.h"

int rp_audit_write_md(FILE *fp, const struct rp_report_in *in);
/* k: 0 breakdown.dat, 1 sweep.dat, 2 overhead.csv */
int rp_audit_write_dat(unsigned k, FILE *fp, const struct rp_report_in *in);

#define RP_AUDIT_DAT_NAMES "breakdown.dat", "sweep.dat", "overhead.csv"

#endif
