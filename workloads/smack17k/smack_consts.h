/* smack_consts.h - every number the smack17k workload puts into a trace.
 *
 * Sizes are those of the 2013 seed's board: 32-bit ARM (EABI: 4-byte
 * pointers, u64 aligned to 8), kernel 3.10 (smack/next, June 2013), SMP.
 * The trace carries these target sizes, not the host's.  Each size is
 * derived field by field in docs/workloads/smack17k.md.
 *
 * Cycle figures are estimates or calibration constants; the doc names the
 * source of each.  Only SMACK_WRITE_CYCLES and SMACK_SYSTEM_SLAB_KIB are
 * fitted, once, on the seed's ref row; everything else is fixed up front.
 */
#ifndef SS_SMACK_CONSTS_H
#define SS_SMACK_CONSTS_H

/* ---- 3.10 ARM32 structure sizes (bytes) ---- */

/* struct smack_rule: list_head 8 + smk_subject 4 + smk_object 4 +
 * smk_access 4 (security/smack/smack.h) */
#define SMACK_ARM_SIZEOF_SMACK_RULE 20
/* struct smack_master_list: list_head 8 + smk_rule 4 (smackfs.c) */
#define SMACK_ARM_SIZEOF_MASTER_LIST 12
/* struct smack_parsed_rule: smk_subject 4 + smk_object 4 + smk_access1 4 +
 * smk_access2 4 (smackfs.c) */
#define SMACK_ARM_SIZEOF_PARSED_RULE 16
/* struct smack_known (3.10, before smk_hashed): list 8 + smk_known 4 +
 * smk_secid 4 + netlbl_lsm_secattr 24 (flags, type, domain, cache, then a
 * union of {cat, lvl} and secid) + smk_rules 8 + struct mutex 24 (count 4,
 * wait_lock 4, wait_list 8, owner 4 (SMP), spin_mlock 4
 * (MUTEX_SPIN_ON_OWNER, new in 3.10)) = 72 -> kmalloc-96. */
#define SMACK_ARM_SIZEOF_SMACK_KNOWN 72
/* struct netlbl_lsm_secattr_catmap: startbit u32 4 + pad 4 (u64 aligned to
 * 8 on EABI) + bitmap u64[4] 32 + next 4 + tail pad 4 = 48 -> kmalloc-64.
 * One node covers 256 categories; a Smack label sets at most 23 * 8 = 184
 * (direct) or 32 (mapped secid), so smk_netlbl_mls allocates exactly one. */
#define SMACK_ARM_SIZEOF_CATMAP 48
/* __alignof__ of the structs above on ARM: what KMEM_CACHE() passes. */
#define SMACK_ARM_ALIGNOF 4

/* ---- kernel limits (security/smack/smack.h, smackfs.c) ---- */

/* SMK_LONGLABEL: a label is 1..255 bytes (256 with its NUL). */
#define SMACK_LONGLABEL 256
/* SMK_ACCESSLEN of 3.10 ("rwxat"); libsmack writes exactly this many
 * access characters per rule ('-' for an absent letter). */
#define SMACK_ACCESSLEN 5
/* Longest accepted rule line: two 255-byte labels, two 5-letter access
 * strings and three separators = 2 * 256 + 2 * 5 + 1 = 523, the same as
 * libsmack's LOAD_LEN.  Reconstructed: the exact constant of the seed's
 * patch 1 ("limit a length for a rule string in the long format") is not in
 * the public index; see the doc. */
#define SMACK_RULE_MAXLEN (2 * SMACK_LONGLABEL + 2 * SMACK_ACCESSLEN + 1)
/* Built-in labels on smack_known_list from boot (smack_lsm.c,
 * init_smack_known_list): @ "" _ * ^ ? -- six entries, five nameable. */
#define SMACK_NR_BUILTIN_LABELS 6

/* ---- non-allocator time (cycles) ---- */

/* calibration: fitted on ref Time, see docs.  Fixed cost of one write(2)
 * to /smack/load2 outside the modelled steps (syscall entry/exit, VFS,
 * copy_from_user, mutexes, smackctl's own user time per rule).
 * Fitted once (2026-11-30): model `traced` on arm32-3.10 with this at 0
 * simulated 246.058 ms for ref; (1.148 s - 0.246058 s) x 1400 MHz / 17000
 * writes = 74278 cycles (53 us per write).  Every variant uses it alike. */
#define SMACK_WRITE_CYCLES 74278
/* Estimate: one step of smk_find_entry's walk of smack_known_list: a
 * pointer chase to the next smack_known, a load of smk_known and a strcmp
 * that usually stops at the first or second byte (~20-40 cycles). */
#define SMACK_LABEL_CMP_CYCLES 30
/* Range (make sensitivity): 20 when strcmp stops at the first byte with the
 * list in L1, 40 when it reads two bytes and the next entry is in L2. */
#define SMACK_LABEL_CMP_CYCLES_LOW 20
#define SMACK_LABEL_CMP_CYCLES_HIGH 40
/* Estimate: one step of smk_set_access's walk of the subject's rule list:
 * a pointer chase and one pointer compare (~5-10 cycles). */
#define SMACK_RULE_CMP_CYCLES 8
/* Range: 5 (L1 hit, dual issue) to 10; the comment's own ~5-10. */
#define SMACK_RULE_CMP_CYCLES_LOW 5
#define SMACK_RULE_CMP_CYCLES_HIGH 10
/* Estimate: vsscanf("%s %s %s") per byte of the written rule (ref, memfix):
 * a per-character isspace() test, a store and the loop, ~10 cycles.  Not
 * fitted: the seed's memfix -> patch2 time gain is left as a prediction. */
#define SMACK_SSCANF_CYCLES_PER_BYTE 10
/* Range: 5 (the test, store and branch dual-issued on the A9) to 20 (a
 * _ctype table load and a mispredicted branch at each separator). */
#define SMACK_SSCANF_CYCLES_PER_BYTE_LOW 5
#define SMACK_SSCANF_CYCLES_PER_BYTE_HIGH 20

/* ---- memory outside the modelled recipe ---- */

/* calibration: fitted on ref Diff, see docs (the only memory fit).
 * KiB of slab that smackctl and the rest of the system allocate during the
 * load (file, dentry, task activity), emitted as 256-byte objects of the
 * `system-other` cache.  Fitted once (2026-11-30): model `traced` on
 * arm32-3.10 with this at 0 held 1696 KiB after ref; the seed's ref Diff
 * is 1946 KiB: 1946 - 1696 = 250.  Every variant uses it alike. */
#define SMACK_SYSTEM_SLAB_KIB 250
#define SMACK_SYSTEM_OBJ_SIZE 256
#define SMACK_SYSTEM_OBJ_ALIGN 8

#endif
