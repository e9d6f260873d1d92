/* csv.h - a small strict CSV reader (and a field writer) for result files.
 *
 * Format (RFC 4180 subset, one record per line):
 *  - the first non-comment line is the header; columns are found by name;
 *  - fields are separated by ','; a field may be double-quoted, with '""'
 *    for a quote inside it; quoted fields cannot span lines;
 *  - a line starting with '#' is a comment (handed to an optional callback);
 *  - every record has exactly as many fields as the header; an empty line,
 *    a stray quote or a NUL byte is an error;
 *  - "\r\n" line ends are accepted; nothing is trimmed.
 * Every error names file:line.
 */
#ifndef SS_CSV_H
#define SS_CSV_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "escape.h"

/* Called for each comment line with the text after '#'; non-zero stops the
 * reader with that error. */
typedef int (*ss_csv_comment_fn)(void *ctx, const char *text,
				 unsigned long line, struct ss_error *err);

struct ss_csv {
	char path[4096];	/* for messages */
	FILE *fp;
	unsigned long line;	/* line number of the current record */
	unsigned long hdr_line; /* line number of the header */
	char *buf;		/* current line; fields point into it */
	size_t cap;
	char **hdr;		/* column names (owned copies) */
	unsigned ncols;
	char **fields;		/* current record, ncols entries */
	ss_csv_comment_fn on_comment;
	void *ctx;
};

/* Open path and read its header.  on_comment may be NULL (comments are
 * skipped).  On error nothing stays open. */
int ss_csv_open(struct ss_csv *c, const char *path,
		ss_csv_comment_fn on_comment, void *ctx, struct ss_error *err);
void ss_csv_close(struct ss_csv *c);

/* Column index of name, or -1. */
int ss_csv_col(const struct ss_csv *c, const char *name);
/* Same, but a missing column is an error naming the header line. */
int ss_csv_need(const struct ss_csv *c, const char *name, unsigned *idx,
		struct ss_error *err);

/* Read the next record: 1 = record, 0 = end of file, -1 = error. */
int ss_csv_next(struct ss_csv *c, struct ss_error *err);

/* Field idx of the current record (idx < ncols). */
const char *ss_csv_get(const struct ss_csv *c, unsigned idx);

/* Field idx as an unsigned decimal integer / a decimal number
 * ([-]digits[.digits], no exponent, no spaces). */
int ss_csv_u64(const struct ss_csv *c, unsigned idx, uint64_t *out,
	       struct ss_error *err);
int ss_csv_num(const struct ss_csv *c, unsigned idx, double *out,
	       struct ss_error *err);

/* Strict decimal parse used by ss_csv_num; 0 on success. */
int ss_parse_decimal(const char *s, double *out);

/* The writer's side, ss_csv_put(): base/escape.h. */

#endif
