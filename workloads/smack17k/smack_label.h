/* smack_label.h - Smack label rules of the 3.10 kernel.
 *
 * The kernel (security/smack/smack_access.c: smk_parse_smack) does not
 * reject a label with a bad byte: it cuts the label at that byte.  A rule
 * file whose token the kernel would cut is almost certainly a mistake, so
 * the loader is strict (ss_smack_label_check) while
 * ss_smack_parse_label_len reports what the kernel itself would import.
 */
#ifndef SS_SMACK_LABEL_H
#define SS_SMACK_LABEL_H

#include <stddef.h>

/* smk_parse_smack(): length of the label the kernel imports from the
 * n-byte string s (the scan also stops at a NUL).  0 means the kernel
 * rejects it: leading '-', nothing before the first stop byte, or 256
 * bytes or more (SMK_LONGLABEL). */
size_t ss_smack_parse_label_len(const char *s, size_t n);

/* 1 if byte c ends a label: <= ' ', > '~', or one of / " \ ' */
int ss_smack_label_stop_byte(unsigned char c);

/* Strict check of an n-byte token as a label.  0 if the kernel would
 * import exactly these n bytes; otherwise -1 with a reason in why. */
int ss_smack_label_check(const char *s, size_t n, char *why, size_t whylen);

/* The built-in labels present from boot (smack_lsm.c): @ (web), "" (the
 * invalid label, not nameable), _ (floor), * (star), ^ (hat), ? (huh).
 * Returns the 1-based position of s among them on smack_known_list
 * (init_smack_known_list adds them with list_add, so "@" is first), or 0
 * if s is not built in.  "" is never matched: no rule can name it. */
unsigned ss_smack_builtin_pos(const char *s, size_t n);

#endif
