/* strict.h - strict readers of every output format, for the round-trip
 * fuzz target (fuzz_roundtrip.c) and the e2e checks (check_outputs.c).
 *
 *   CSV       analysis/csv.h's reader (RFC 4180 quoting, every row the
 *             header's field count), plus: no field that reads as a
 *             wrapped unsigned (an integer of 2^62 or more, or -0) and no
 *             empty header name.
 *   JSON      RFC 8259: one value, strings with valid escapes and UTF-8,
 *             no control bytes, numbers in JSON's grammar, no duplicate
 *             keys in an object, no integer of 2^62 or more.
 *   slabinfo  /proc/slabinfo 2.1 as slabinfo_show() prints it: the two
 *             header lines, then per cache a name without blanks and the
 *             13 numbers with their ": tunables" and ": slabdata" marks.
 *
 * Each returns 0, or -1 with why ("FILE:LINE: reason").
 */
#ifndef SS_STRICT_H
#define SS_STRICT_H

#include <stddef.h>

int strict_csv(const char *path, char *why, size_t n);
int strict_json(const char *path, char *why, size_t n);
int strict_slabinfo(const char *path, char *why, size_t n);
/* Every file in dir by its name: *.csv, *.json, slabinfo*; others are
 * skipped.  *checked counts the files checked. */
int strict_dir(const char *dir, unsigned *checked, char *why, size_t n);

/* The JSON string value of top-level key in the object of path, unescaped,
 * into out: 0, or -1 if absent or not a string. */
int strict_json_string(const char *path, const char *key, char *out, size_t n);

#endif
