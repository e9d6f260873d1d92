/* csv_put.h - one CSV field as the readers (analysis/csv.h) read it back:
 * for every layer that writes a CSV (a run's sites.csv, the reports'). */
#ifndef SS_CSV_PUT_H
#define SS_CSV_PUT_H

#include <stdio.h>

/* Write one field, quoted when it holds ',', '"', a line break, or would
 * read back as a comment ('#' first). */
void ss_csv_put(FILE *fp, const char *s);

#endif
