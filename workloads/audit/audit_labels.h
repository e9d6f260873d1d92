/* audit_labels.h - the work labels the audit workload writes and the
 * categories its report adds them up in.
 *
 * One table (audit_labels.c) shared by the generator and the report: a
 * label's name in the trace and in each run's work.csv, its category, and
 * what one event stands for.  The allocator is not a label: the replay
 * prices allocations itself (work.csv's first row, "allocator").
 */
#ifndef SS_AUDIT_LABELS_H
#define SS_AUDIT_LABELS_H

enum ss_audit_category {
	AUDIT_CAT_BASE,		/* the syscall itself and the user loop */
	AUDIT_CAT_ALLOCATOR,	/* every kmalloc/kfree/kmem_cache_* (replayed) */
	AUDIT_CAT_FORMAT,	/* context strings: formatting, MLS walk, copies */
	AUDIT_CAT_LOCKING,	/* lookup and locking: sidtab, policy lock, refs */
	AUDIT_CAT_RULES,	/* audit_filter_syscall rule scanning */
	AUDIT_CAT_BOOKKEEPING,	/* audit_syscall_exit, audit_getname, ... */
	AUDIT_CAT_RECORDS,	/* emitting records (audit_log_*, kauditd) */
	AUDIT_NR_CATEGORIES,
};

enum ss_audit_label {
	AUDIT_L_USER,		/* user_loop: the loop's user time */
	AUDIT_L_BASE,		/* syscall_base: the syscall without audit */
	AUDIT_L_RULES,		/* audit_rule_scan */
	AUDIT_L_EXIT,		/* audit_exit: audit_syscall_exit */
	AUDIT_L_TASK_LOCK,	/* audit_task_lock: its task_lock() */
	AUDIT_L_NAME,		/* audit_name: audit_getname + __audit_inode */
	AUDIT_L_PWD_REF,	/* pwd_ref: dget/dput of the cwd, fs->lock */
	AUDIT_L_SID_COPY,	/* sid_copy: 2.6.17 selinux_get_inode_sid */
	AUDIT_L_INODE_CTX,	/* audit_inode_ctx: audit_inode_context */
	AUDIT_L_GETSECURITY,	/* getsecurity: the getsecurity call chain */
	AUDIT_L_RDLOCK,		/* policy_rdlock: POLICY_RDLOCK/UNLOCK */
	AUDIT_L_SIDTAB,		/* sidtab_search */
	AUDIT_L_FORMAT,		/* ctx_format: context_struct_to_string+vsnprintf */
	AUDIT_L_MLS,		/* mls_format: mls_* fixed part */
	AUDIT_L_MLS_BITS,	/* mls_bits: per category bit walked */
	AUDIT_L_STR_COPY,	/* str_copy: kmemdup's memcpy (5.6 cache hit) */
	AUDIT_L_CACHE_LRU,	/* str_cache_lru: sidtab_sid2str_put on a hit */
	AUDIT_L_BOUNCE,		/* lock_bounce: shared lines between CPUs */
	AUDIT_L_RECORD,		/* record_format: audit_log_format, d_path, end */
	AUDIT_L_KAUDITD,	/* kauditd_send: one skb to auditd */
	AUDIT_NR_LABELS,
};

const char *ss_audit_label_name(enum ss_audit_label l);
enum ss_audit_category ss_audit_label_category(enum ss_audit_label l);
/* What one event of the label stands for ("per syscall", ...). */
const char *ss_audit_label_unit(enum ss_audit_label l);
/* The label called name, or -1. */
int ss_audit_label_find(const char *name);

const char *ss_audit_category_name(enum ss_audit_category c);

#endif
