/* audit_recipe.h - what one loop iteration costs under each variant: the
 * allocations, frees and work events of a stat/access/open(+close) on a
 * 2.6.16 SELinux MLS kernel (reference/audit.md's table).
 *
 * One path syscall, in order ("a" alloc, "f" free, "w" work; kmalloc
 * unless a cache is named; L = ss_audit_context_len() of the file's context):
 *
 *   w user_loop                       (once per iteration)
 *   w audit_rule_scan  rules x rule   (on: entry + exit lists)
 *   w syscall_base
 *   a getname  names_cache 4096
 *   w audit_name, w pwd_ref           (on: audit_getname, __audit_inode)
 *   lookup:
 *     off          -
 *     on-sid       w sid_copy                          (2.6.17)
 *     on-2.6.16    w audit_inode_ctx; conversion; a ctx L (kept);
 *                  conversion                          (audit_inode_context)
 *     on-cached    the same with cached conversions    (5.6 sidtab cache)
 *     on-ctxcache  on-2.6.16 with every context string from a declared
 *                  cache audit_ctx of the longest L
 *   open: a get_empty_filp filp, a file_alloc_security 24
 *   off: f names (putname)
 *   records (on, when the iteration emits): SYSCALL, CWD, PATH
 *   on: w audit_exit, w audit_task_lock, f ctx, f names (audit_free_names)
 *   open: close(2): rules, syscall_base x 1/4, f security blob, filp
 *         queued for RCU; on: audit_exit, audit_task_lock
 *
 * A conversion (security_sid_to_context via selinux_getsecurity):
 *   w getsecurity, w policy_rdlock, w sidtab_search,
 *   a context_struct_to_string L, w ctx_format, w mls_format,
 *   w mls_bits (2 passes x walk bits x AUDIT_MLS_BIT_CYCLES), f
 * A cached conversion (5.6): getsecurity, rdlock, sidtab, then on the
 *   first use of the SID the conversion above plus a persistent cache
 *   entry (44 + L), else a kmemdup L, w str_copy, w str_cache_lru, f.
 * With more than one CPU, each shared line (policy_rwlock, the cwd's
 * refcount, the string cache's lock) adds w lock_bounce.
 *
 * A record: a skbuff_head_cache object and its kmalloc data, formatting
 * work, queued for kauditd, which frees it on the next CPU when the
 * backlog reaches AUDIT_BACKLOG_LIMIT or at an RCU tick.  SYSCALL adds
 * exe= (d_path buffer PATH_MAX + 11, freed at once) and subj= (the task
 * context, converted as selinux_getprocattr does); CWD a d_path buffer;
 * PATH obj= (on-sid converts, on-cached copies from the cache, on-2.6.16
 * prints the stored string).
 */
#ifndef SS_AUDIT_RECIPE_H
#define SS_AUDIT_RECIPE_H

#include <stdbool.h>
#include <stdint.h>

#include "audit_context.h"
#include "audit_profile.h"
#include "error.h"
#include "trace.h"

enum ss_audit_variant {
	AUDIT_OFF,	   /* audit disabled */
	AUDIT_ON_2616,	   /* 2.6.16: context strings per lookup */
	AUDIT_ON_SID,	   /* 2.6.17 fix 1b50eed9cac0: the SID only */
	AUDIT_ON_CACHED,   /* 2.6.16 path, strings from the 5.6 sidtab cache */
	AUDIT_ON_CTXCACHE, /* 2.6.16 with a dedicated cache for the strings */
	AUDIT_NR_VARIANTS,
};

enum ss_audit_kind { AUDIT_STAT, AUDIT_ACCESS, AUDIT_OPEN, AUDIT_NR_KINDS };

const char *ss_audit_variant_name(enum ss_audit_variant v);
int ss_audit_variant_parse(const char *s, enum ss_audit_variant *out);
const char *ss_audit_kind_name(enum ss_audit_kind k);
int ss_audit_kind_parse(const char *s, enum ss_audit_kind *out);

#define AUDIT_MAX_CONTEXTS 64

/* The estimates of audit_consts.h (no published figure) that `gen audit
 * --estimate NAME=V` may move; the defaults are the #defines. */
struct ss_audit_estimates {
	uint64_t mls_bit, sid_copy, copy_start, copy_bytes_per_cycle;
	uint64_t str_cache_lru, line_bounce, log_format, d_path, log_end;
	uint64_t kauditd_skb, rcu_grace_us;
};
#define AUDIT_NR_ESTIMATES 11

struct ss_audit_params {
	enum ss_audit_variant variant;
	uint64_t syscalls;		   /* loop iterations */
	unsigned mix[AUDIT_NR_KINDS];	   /* weights */
	unsigned rules;
	unsigned record_pct;		   /* iterations that emit records */
	unsigned cpus;
	unsigned files;
	struct ss_audit_context ctx[AUDIT_MAX_CONTEXTS]; /* file contexts */
	unsigned nctx;
	struct ss_audit_context task;	   /* the loop's own context (subj=) */
	unsigned scale_permille;	   /* AUDIT_PROFILE_SCALE_PERMILLE */
	struct ss_audit_estimates est;
};

/* The emitter's state: ids, per-CPU clocks and queues. */
struct audit_cpu;
struct ss_audit_emitter {
	struct ss_trace_writer *w;
	const struct ss_audit_params *p;
	struct ss_audit_costs costs;
	struct ss_idpool ids;
	struct audit_cpu *cpu;
	uint64_t *skbs;		/* kauditd's queue: skb, data, origin cpu */
	size_t nskbs, cap_skbs;
	bool sid_cached[AUDIT_MAX_CONTEXTS + 1]; /* last slot: the task */
	uint32_t api_names, api_filp, api_skb, api_ctx;
	uint64_t grace_cycles;
};

/* Costs from p->scale_permille; declares the caches the variant uses. */
int ss_audit_emitter_init(struct ss_audit_emitter *e, struct ss_trace_writer *w,
		       const struct ss_audit_params *p, struct ss_error *err);
/* One loop iteration of kind k on file f and cpu c. */
int ss_audit_emit_iteration(struct ss_audit_emitter *e, enum ss_audit_kind k,
			 unsigned f, unsigned c, bool records,
			 struct ss_error *err);
/* Pending RCU and kauditd frees, at the end of the run. */
int ss_audit_emit_finish(struct ss_audit_emitter *e, struct ss_error *err);
void ss_audit_emitter_release(struct ss_audit_emitter *e);

/* The longest context string of the configuration (audit_ctx's size). */
unsigned ss_audit_max_context_len(const struct ss_audit_params *p);

#endif
