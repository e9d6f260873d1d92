/* md_table.c - aligned markdown tables (md_table.h). */
#include "md_table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void ss_mdtable_init(struct ss_md_table *t, const char *align)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->align, sizeof(t->align), "%s", align);
	t->ncols = (unsigned)strlen(t->align);
}

static int grow(struct ss_md_table *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64;
	char **c;

	if (t->n < t->cap)
		return 0;
	c = realloc(t->cells, cap * sizeof(*c));
	if (!c)
		return -1;
	t->cells = c;
	t->cap = cap;
	return 0;
}

void ss_mdtable_cell(struct ss_md_table *t, const char *fmt, ...)
{
	char raw[512], *cell, *o;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	if (grow(t) || !(cell = malloc(2 * strlen(raw) + 1))) {
		t->oom = true;
		return;
	}
	/* A '|' inside a cell would end it. */
	o = cell;
	for (const char *p = raw; *p; p++) {
		if (*p == '|')
			*o++ = '\\';
		*o++ = *p;
	}
	*o = '\0';
	t->cells[t->n++] = cell;
}

size_t ss_mdtable_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

void ss_mdtable_free(struct ss_md_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->n = t->cap = 0;
}

static void pad(FILE *fp, size_t n)
{
	while (n--)
		fputc(' ', fp);
}

/* The separator under the header row: dashes, ':' for right alignment. */
static void rule(FILE *fp, const struct ss_md_table *t, const size_t *w)
{
	for (size_t k = 0; k < t->ncols; k++) {
		fputs(k ? " " : "| ", fp);
		for (size_t d = 0; d < w[k]; d++)
			fputc(d + 1 == w[k] && t->align[k] == 'r' ? ':' : '-', fp);
		fputs(" |", fp);
	}
	fputc('\n', fp);
}

int ss_mdtable_print(FILE *fp, struct ss_md_table *t)
{
	size_t w[SS_MDTABLE_MAX_COLS] = {0};

	if (t->oom || !t->ncols || t->n % t->ncols) {
		ss_mdtable_free(t);
		return -1;
	}
	for (size_t i = 0; i < t->n; i++) {
		size_t c = i % t->ncols, cw = ss_mdtable_width(t->cells[i]);

		w[c] = cw > w[c] ? cw : w[c];
		w[c] = w[c] < 3 ? 3 : w[c];
	}
	for (size_t i = 0; i < t->n; i++) {
		size_t c = i % t->ncols, gap = w[c] - ss_mdtable_width(t->cells[i]);

		fputs(c ? " " : "| ", fp);
		if (t->align[c] == 'r')
			pad(fp, gap);
		fputs(t->cells[i], fp);
		if (t->align[c] != 'r')
			pad(fp, gap);
		fputs(c + 1 < t->ncols ? " |" : " |\n", fp);
		if (i + 1 == t->ncols)
			rule(fp, t, w);
	}
	fputc('\n', fp);
	ss_mdtable_free(t);
	return 0;
}

/* ---- prose ---- */

/* Words that would turn a continuation line into a list item, quote or
 * heading if a line began with them. */
static bool bad_line_start(const char *w)
{
	size_t d = strspn(w, "0123456789");

	return (strchr("+-*>=", w[0]) && (w[1] == '\0' || w[1] == ' ')) ||
	       w[0] == '#' || (d && (w[d] == '.' || w[d] == ')'));
}

void ss_mdtable_wrap(FILE *fp, const char *first, const char *cont, bool para,
		    const char *fmt, ...)
{
	char text[4096], *save = NULL;
	size_t col = ss_mdtable_width(first);
	bool start = true;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fputs(first, fp);
	for (char *w = strtok_r(text, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		size_t ww = ss_mdtable_width(w);

		if (!start && col + 1 + ww > SS_MDTABLE_WRAP && !bad_line_start(w)) {
			fprintf(fp, "\n%s", cont);
			col = ss_mdtable_width(cont);
			start = true;
		}
		if (!start) {
			fputc(' ', fp);
			col++;
		}
		fputs(w, fp);
		col += ww;
		start = false;
	}
	fputs(para ? "\n\n" : "\n", fp);
}
