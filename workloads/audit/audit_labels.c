/* audit_labels.c - the label table (audit_labels.h). */
#include "audit_labels.h"

#include <string.h>

static const struct {
	const char *name;
	enum ss_audit_category cat;
	const char *unit;
} labels[AUDIT_NR_LABELS] = {
	[AUDIT_L_USER] = {"user_loop", AUDIT_CAT_BASE, "per loop iteration"},
	[AUDIT_L_BASE] = {"syscall_base", AUDIT_CAT_BASE, "per syscall"},
	[AUDIT_L_RULES] = {"audit_rule_scan", AUDIT_CAT_RULES, "per syscall"},
	[AUDIT_L_EXIT] = {"audit_exit", AUDIT_CAT_BOOKKEEPING, "per syscall"},
	[AUDIT_L_TASK_LOCK] = {"audit_task_lock", AUDIT_CAT_LOCKING, "per syscall"},
	[AUDIT_L_NAME] = {"audit_name", AUDIT_CAT_BOOKKEEPING, "per path name"},
	[AUDIT_L_PWD_REF] = {"pwd_ref", AUDIT_CAT_LOCKING, "per path name"},
	[AUDIT_L_SID_COPY] = {"sid_copy", AUDIT_CAT_BOOKKEEPING, "per lookup"},
	[AUDIT_L_INODE_CTX] = {"audit_inode_ctx", AUDIT_CAT_FORMAT, "per lookup"},
	[AUDIT_L_GETSECURITY] = {"getsecurity", AUDIT_CAT_FORMAT, "per conversion"},
	[AUDIT_L_RDLOCK] = {"policy_rdlock", AUDIT_CAT_LOCKING, "per conversion"},
	[AUDIT_L_SIDTAB] = {"sidtab_search", AUDIT_CAT_LOCKING, "per conversion"},
	[AUDIT_L_FORMAT] = {"ctx_format", AUDIT_CAT_FORMAT, "per formatted string"},
	[AUDIT_L_MLS] = {"mls_format", AUDIT_CAT_FORMAT, "per formatted MLS string"},
	[AUDIT_L_MLS_BITS] = {"mls_bits", AUDIT_CAT_FORMAT, "per category bit x 2 passes"},
	[AUDIT_L_STR_COPY] = {"str_copy", AUDIT_CAT_FORMAT, "per cached string copied"},
	[AUDIT_L_CACHE_LRU] = {"str_cache_lru", AUDIT_CAT_LOCKING, "per cache hit"},
	[AUDIT_L_BOUNCE] = {"lock_bounce", AUDIT_CAT_LOCKING, "per shared acquisition"},
	[AUDIT_L_RECORD] = {"record_format", AUDIT_CAT_RECORDS, "per record"},
	[AUDIT_L_KAUDITD] = {"kauditd_send", AUDIT_CAT_RECORDS, "per record sent"},
};

static const char *const categories[AUDIT_NR_CATEGORIES] = {
	[AUDIT_CAT_BASE] = "base",
	[AUDIT_CAT_ALLOCATOR] = "allocator",
	[AUDIT_CAT_FORMAT] = "formatting",
	[AUDIT_CAT_LOCKING] = "lookup_locking",
	[AUDIT_CAT_RULES] = "rule_scan",
	[AUDIT_CAT_BOOKKEEPING] = "bookkeeping",
	[AUDIT_CAT_RECORDS] = "records",
};

const char *ss_audit_label_name(enum ss_audit_label l)
{
	return labels[l].name;
}

enum ss_audit_category ss_audit_label_category(enum ss_audit_label l)
{
	return labels[l].cat;
}

const char *ss_audit_label_unit(enum ss_audit_label l)
{
	return labels[l].unit;
}

int ss_audit_label_find(const char *name)
{
	for (int i = 0; i < AUDIT_NR_LABELS; i++)
		if (!strcmp(labels[i].name, name))
			return i;
	return -1;
}

const char *ss_audit_category_name(enum ss_audit_category c)
{
	return categories[c];
}
