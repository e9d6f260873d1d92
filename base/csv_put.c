/* csv_put.c - one CSV field (csv_put.h). */
#include "csv_put.h"

#include <string.h>

void ss_csv_put(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\r\n") && s[0] != '#') {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}
