/* parse.h - strict number and token parsing shared by every input reader. */
#ifndef SS_PARSE_H
#define SS_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* Decimal (or 0x hex) unsigned integer, the whole string, <= max.
 * Rejects signs, empty strings, trailing junk and overflow.  0 on success. */
int ss_parse_u64(const char *s, uint64_t max, uint64_t *out);
int ss_parse_uint(const char *s, unsigned max, unsigned *out);
/* Same, with an optional binary unit: 64K, 512M, 64G, 1T (x 2^10 ... 2^40). */
int ss_parse_size(const char *s, uint64_t max, uint64_t *out);

/* A list of "NAME=COUNT" separated by single spaces (a trace's meta
 * untraced_allocs, untraced_frees): NAME non-empty, COUNT as
 * ss_parse_u64 takes it (up to UINT64_MAX; NAME ends at the last '=').
 * NULL when every one is, else the first that is not, *len its length. */
const char *ss_parse_counts_bad(const char *list, size_t *len);
/* NAME's COUNT in such a list (checked with ss_parse_counts_bad first):
 * 1 found, 0 not there. */
int ss_parse_count_of(const char *list, const char *name, uint64_t *count);

/* Split a line in place into whitespace-separated tokens; returns the count
 * (at most max; -1 if there were more). */
int ss_split(char *line, char **tok, int max);
/* The same with quotes and comments, as a shell would read a simple line:
 * blanks separate, '...' and "..." group (no escapes), '#' outside quotes
 * starts a comment.  The number of words, or -1 for an unterminated quote
 * or more than max words. */
int ss_split_words(char *line, char **words, int max);

#endif
