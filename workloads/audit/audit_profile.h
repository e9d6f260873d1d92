/* audit_profile.h - the seed's two profiles and the cycle costs derived
 * from them.
 *
 * The seed prints readprofile output for the audit-off and audit-on runs:
 * samples per kernel function at ~250 samples per second of system time,
 * so samples are proportional to time.  Each audit function of the on run
 * is attributed to a work label (with a share when one function serves
 * several, e.g. _raw_read_lock); a label's cycles per event are
 *
 *     samples per event x seconds per sample x clock / seed syscalls
 *
 * (x AUDIT_PROFILE_SCALE_PERMILLE / 1000 for the audit labels), where
 * "per event" divides by the events of one seed syscall (two conversions
 * per access(2) in 2.6.16).  Rule scanning comes from the lspp.16 sweep
 * instead: its least-squares slope through the origin, seconds per rule
 * over the same loop.  docs/workloads/audit.md shows every number.
 */
#ifndef SS_AUDIT_PROFILE_H
#define SS_AUDIT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "audit_labels.h"

/* One function of the seed's profiles: samples in each run (0 = not in
 * that run's listing, which stops at 245 / 274 samples). */
struct ss_audit_prof_fn {
	const char *name;
	unsigned off, on;
};
const struct ss_audit_prof_fn *ss_audit_profile(size_t *n);

/* The lspp.16 sweep (reference/audit.md): rules and measured seconds. */
struct ss_audit_lspp16_point {
	unsigned rules;
	unsigned seconds;
};
const struct ss_audit_lspp16_point *ss_audit_lspp16(size_t *n);

/* Seconds of system time per profile sample, each run. */
double ss_audit_off_sample_s(void);
double ss_audit_on_sample_s(void);

/* Samples per event attributed to a label (0 for labels that do not come
 * from the profile).  syscall_base: the off run minus its allocator. */
double ss_audit_label_samples(enum ss_audit_label l);
/* Whether AUDIT_PROFILE_SCALE_PERMILLE applies to the label. */
bool ss_audit_label_scaled(enum ss_audit_label l);

/* The seed's loop length implied by AUDIT_VSNPRINTF_NS (58.99 M). */
double ss_audit_implied_seed_syscalls(void);
/* lspp.16: seconds per rule, least squares through the origin of
 * (rules, seconds - seconds at 0 rules). */
double ss_audit_lspp16_seconds_per_rule(void);
/* The seed's rule count implied by audit_filter_syscall's samples and the
 * lspp.16 slope, rounded (3.85 -> 4). */
unsigned ss_audit_implied_rules(void);

/* The seed's own split of the hit (on - off samples) by category, plus
 * one slot for what no label claims (memcmp, functions below the cut-off,
 * noise in the path walk).  Allocator = kfree + __kmalloc +
 * kmem_cache_alloc + kmem_cache_free, on - off. */
#define AUDIT_PROFILE_UNATTRIBUTED AUDIT_NR_CATEGORIES
void ss_audit_profile_hit_split(double samples[AUDIT_NR_CATEGORIES + 1]);

/* Cycles per event of every label, for a profile scale. */
struct ss_audit_costs {
	uint64_t cycles[AUDIT_NR_LABELS]; /* fixed per-event labels */
	uint64_t rule_cycles;	 /* audit_rule_scan, per rule */
	unsigned scale_permille;
};
void ss_audit_costs_derive(struct ss_audit_costs *c, unsigned scale_permille);

/* samples x sample period x clock / seed syscalls, in cycles (unrounded). */
double ss_audit_samples_to_cycles(double samples, double sample_s);

#endif
