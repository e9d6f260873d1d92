/* escape.h - one text field into CSV or JSON, so that any name a trace,
 * an option or a capture can carry (commas, quotes, backslashes, '#')
 * reads back as the same one field.
 *
 *   ss_csv_put   RFC 4180: quoted when the field holds ',', '"', '\r',
 *                '\n' or would read as a comment ('#' first); '"' doubled.
 *                analysis/csv.h reads it back.  (Names with a newline are
 *                refused at the input: the reader is line based.)
 *   ss_json_put  a JSON string (RFC 8259): quotes added, '"' and '\\'
 *                escaped, control bytes as \u00XX; other bytes as they are
 *                (meta values are checked to be UTF-8 where they enter).
 */
#ifndef SS_ESCAPE_H
#define SS_ESCAPE_H

#include <stdio.h>

void ss_csv_put(FILE *fp, const char *s);
void ss_json_put(FILE *fp, const char *s);

/* 1 when s is valid UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * at most U+10FFFF), so JSON that carries it raw is valid JSON. */
int ss_utf8_valid(const char *s);
/* 1 when s may label results: non-empty, valid UTF-8, no control byte
 * (tab included, it separates fields), no leading space.  What a trace's
 * meta values, --variant and the like must be, so every output writes
 * and reads them back unchanged (docs/bad-input.md). */
int ss_label_ok(const char *s);

#endif
