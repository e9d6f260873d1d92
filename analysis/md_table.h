/* md_table.h - markdown tables padded to line up in a terminal, for
 * report.md, compare.md and sweep.md.
 *
 * Cells are added row-major, the header row first; `align` has one letter
 * per column, 'l' or 'r'.  A '|' inside a cell is escaped.  Column widths
 * count UTF-8 characters, not bytes.  Used by every report writer.
 */
#ifndef SS_MD_TABLE_H
#define SS_MD_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SS_MDTABLE_MAX_COLS 64

struct ss_md_table {
	char align[SS_MDTABLE_MAX_COLS + 1];
	unsigned ncols;
	char **cells;
	size_t n, cap;
	bool oom;
};

/* align: one 'l' or 'r' per column, at most MDT_MAX_COLS. */
void ss_mdtable_init(struct ss_md_table *t, const char *align);
void ss_mdtable_cell(struct ss_md_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print the table (and a blank line), then free it.  -1 when out of memory
 * or the cells do not fill whole rows. */
int ss_mdtable_print(FILE *fp, struct ss_md_table *t);
void ss_mdtable_free(struct ss_md_table *t);

/* Terminal columns of a UTF-8 string. */
size_t ss_mdtable_width(const char *s);

#define SS_MDTABLE_WRAP 96 /* text columns of prose lines */
/* Print formatted prose wrapped at MDT_WRAP columns: the first line starts
 * with `first`, the others with `cont`; a blank line follows when `para`.
 * A continuation line never starts with a word markdown would read as a
 * list item, quote or heading. */
void ss_mdtable_wrap(FILE *fp, const char *first, const char *cont, bool para,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
