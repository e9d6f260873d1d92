/* csv_put.h - the one CSV field writer, for every layer that writes CSV
 * (the reader is analysis/csv.h). */
#ifndef SS_CSV_PUT_H
#define SS_CSV_PUT_H

#include <stdio.h>

/* Write one field, quoted when it holds ',', '"', a line break, or would
 * read back as a comment ('#' first). */
void ss_csv_put(FILE *fp, const char *s);

#endif
