/* md_html.c - report markdown to HTML (md_html.h). */
#include "md_html.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 4	/* list nesting */
#define MAX_CELLS 64	/* table columns */

enum block { B_NONE, B_PARA, B_LIST, B_TABLE, B_CODE };

struct md_state {
	FILE *out;
	const struct md_html_opts *o;
	enum block block;
	char *text;		/* pending paragraph or list item text */
	size_t len, cap;
	bool oom;
	/* lists */
	int depth;		/* open lists */
	bool ordered[MAX_DEPTH + 1];
	/* tables */
	char *header;		/* the first row, until the separator shows */
	int rows;
	char align[MAX_CELLS];
};

void html_escape(FILE *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
}

static void escape_n(FILE *out, const char *s, size_t n)
{
	char buf[512];

	while (n) {
		size_t k = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;

		memcpy(buf, s, k);
		buf[k] = '\0';
		html_escape(out, buf);
		s += k;
		n -= k;
	}
}

/* ---- inline: `code`, **bold**, [text](url) ------------------------------- */

static bool is_relative(const char *url, size_t n)
{
	size_t i = 0;

	if (!n || url[0] == '/' || url[0] == '#')
		return false;
	while (i < n && (isalnum((unsigned char)url[i]) || strchr("+.-", url[i])))
		i++;
	return !(i < n && url[i] == ':'); /* "http:" has a scheme */
}

static void inline_html(struct md_state *st, const char *s);

/* [text](url) at s: the link, and how much of s it took (0: not a link). */
static size_t link_at(struct md_state *st, const char *s)
{
	const char *close = strchr(s, ']'), *end;
	char *text;

	if (!close || close[1] != '(' || !(end = strchr(close + 2, ')')))
		return 0;
	text = strndup(s + 1, (size_t)(close - s - 1));
	if (!text) {
		st->oom = true;
		return 0;
	}
	fputs("<a href=\"", st->out);
	if (is_relative(close + 2, (size_t)(end - close - 2)))
		html_escape(st->out, st->o->link_base);
	escape_n(st->out, close + 2, (size_t)(end - close - 2));
	fputs("\">", st->out);
	inline_html(st, text);
	fputs("</a>", st->out);
	free(text);
	return (size_t)(end - s + 1);
}

static void inline_html(struct md_state *st, const char *s)
{
	bool bold = false;

	while (*s) {
		const char *e;
		size_t took;

		if (*s == '`' && (e = strchr(s + 1, '`'))) {
			fputs("<code>", st->out);
			escape_n(st->out, s + 1, (size_t)(e - s - 1));
			fputs("</code>", st->out);
			s = e + 1;
		} else if (s[0] == '*' && s[1] == '*' && (bold || strstr(s + 2, "**"))) {
			fputs(bold ? "</strong>" : "<strong>", st->out);
			bold = !bold;
			s += 2;
		} else if (*s == '[' && (took = link_at(st, s))) {
			s += took;
		} else if (*s == '\\' && s[1] && strchr("|*`[]\\", s[1])) {
			escape_n(st->out, s + 1, 1);
			s += 2;
		} else {
			escape_n(st->out, s, 1);
			s++;
		}
	}
	if (bold)
		fputs("</strong>", st->out);
}

/* ---- pending text ---------------------------------------------------------- */

static void text_add(struct md_state *st, const char *s)
{
	size_t n = strlen(s), need = st->len + n + 2;

	if (need > st->cap) {
		size_t cap = need * 2;
		char *t = realloc(st->text, cap);

		if (!t) {
			st->oom = true;
			return;
		}
		st->text = t;
		st->cap = cap;
	}
	if (st->len)
		st->text[st->len++] = ' ';
	memcpy(st->text + st->len, s, n + 1);
	st->len += n;
}

static void text_flush(struct md_state *st)
{
	if (st->len)
		inline_html(st, st->text);
	st->len = 0;
}

/* ---- blocks -------------------------------------------------------------------- */

static void end_table(struct md_state *st);

static void close_lists(struct md_state *st, int to_depth)
{
	text_flush(st);
	while (st->depth > to_depth) {
		fputs(st->ordered[st->depth] ? "</li></ol>\n" : "</li></ul>\n", st->out);
		st->depth--;
	}
}

/* Close whatever block is open. */
static void end_block(struct md_state *st)
{
	switch (st->block) {
	case B_PARA:
		text_flush(st);
		fputs("</p>\n", st->out);
		break;
	case B_LIST: close_lists(st, 0); break;
	case B_TABLE: end_table(st); break;
	case B_CODE: fputs("</code></pre>\n", st->out); break;
	case B_NONE: break;
	}
	st->block = B_NONE;
}

static void heading(struct md_state *st, const char *line)
{
	int level = 0, h;

	while (line[level] == '#')
		level++;
	h = level + st->o->heading_shift;
	h = h > 6 ? 6 : h < 1 ? 1 : h;
	line += level;
	while (*line == ' ')
		line++;
	end_block(st);
	fprintf(st->out, "<h%d>", h);
	inline_html(st, line);
	fprintf(st->out, "</h%d>\n", h);
}

/* A list item: 1 + indent / 2 levels deep, "- x", "* x" or "12. x".
 * Returns the text after the marker, or NULL. */
static const char *list_item(const char *line, int *level, bool *ordered)
{
	size_t ind = strspn(line, " "), d;
	const char *p = line + ind;

	*level = 1 + (int)ind / 2;
	if ((p[0] == '-' || p[0] == '*') && p[1] == ' ') {
		*ordered = false;
		return p + 2;
	}
	d = strspn(p, "0123456789");
	if (d && p[d] == '.' && p[d + 1] == ' ') {
		*ordered = true;
		return p + d + 2;
	}
	return NULL;
}

static void item(struct md_state *st, int level, bool ordered, const char *text)
{
	if (st->block != B_LIST)
		end_block(st);
	st->block = B_LIST;
	text_flush(st);
	if (level > st->depth + 1)
		level = st->depth + 1;
	if (level > MAX_DEPTH)
		level = MAX_DEPTH;
	if (level < st->depth)
		close_lists(st, level);
	if (level == st->depth && st->ordered[level] != ordered)
		close_lists(st, level - 1);
	if (level == st->depth) {
		fputs("</li>\n", st->out);
	} else {
		fputs(ordered ? "<ol>\n" : "<ul>\n", st->out);
		st->depth = level;
		st->ordered[level] = ordered;
	}
	fputs("<li>", st->out);
	text_add(st, text);
}

/* ---- tables --------------------------------------------------------------------- */

static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ')
		s++;
	while (end > s && end[-1] == ' ')
		*--end = '\0';
	return s;
}

/* Split "| a | b |" in place at unescaped '|', trimming each cell; the
 * empty text after the closing '|' is no cell. */
static int cells(char *row, char **cell)
{
	char *p = row + strspn(row, " ");
	int n = 0;

	if (*p == '|')
		p++;
	while (n < MAX_CELLS) {
		char *start = p;

		while (*p && !(*p == '|' && p[-1] != '\\'))
			p++;
		if (!*p) {
			if (*trim(start))
				cell[n++] = trim(start);
			break;
		}
		*p++ = '\0';
		cell[n++] = trim(start);
	}
	return n;
}

static bool is_separator(char *row)
{
	for (const char *p = row; *p; p++)
		if (!strchr("|:- ", *p))
			return false;
	return strchr(row, '-') != NULL;
}

static void table_row(struct md_state *st, char *row, bool head)
{
	char *cell[MAX_CELLS];
	int n = cells(row, cell);

	fputs("<tr>", st->out);
	for (int i = 0; i < n; i++) {
		const char *tag = head ? "th" : "td";

		if (st->align[i] == 'r')
			fprintf(st->out, "<%s class=\"r\">", tag);
		else
			fprintf(st->out, "<%s>", tag);
		inline_html(st, cell[i]);
		fprintf(st->out, "</%s>", tag);
	}
	fputs("</tr>\n", st->out);
}

static void table_line(struct md_state *st, const char *line)
{
	char *row = strdup(line);

	if (!row) {
		st->oom = true;
		return;
	}
	if (st->block != B_TABLE) {
		end_block(st);
		st->block = B_TABLE;
		st->rows = 0;
		memset(st->align, 0, sizeof(st->align));
		fputs("<table>\n", st->out);
		st->header = row; /* wait for the separator */
		return;
	}
	if (st->header && st->rows == 0 && is_separator(row)) {
		char *cell[MAX_CELLS];
		int n = cells(row, cell);

		for (int i = 0; i < n; i++)
			st->align[i] = cell[i][0] && cell[i][strlen(cell[i]) - 1] == ':' ? 'r' : 'l';
		fputs("<thead>\n", st->out);
		table_row(st, st->header, true);
		fputs("</thead>\n<tbody>\n", st->out);
	} else {
		if (st->header) {
			fputs("<tbody>\n", st->out);
			table_row(st, st->header, false);
		}
		table_row(st, row, false);
	}
	free(st->header);
	st->header = NULL;
	st->rows++;
	free(row);
}

static void end_table(struct md_state *st)
{
	if (st->header) { /* a one-line table */
		fputs("<tbody>\n", st->out);
		table_row(st, st->header, false);
		free(st->header);
		st->header = NULL;
	}
	fputs("</tbody>\n</table>\n", st->out);
}

/* ---- lines ----------------------------------------------------------------------- */

static void line_in(struct md_state *st, const char *line)
{
	const char *text;
	bool ordered;
	int level;

	if (st->block == B_CODE) {
		if (!strncmp(line, "```", 3)) {
			end_block(st);
		} else {
			html_escape(st->out, line);
			fputc('\n', st->out);
		}
		return;
	}
	if (!strncmp(line, "```", 3)) {
		end_block(st);
		st->block = B_CODE;
		fputs("<pre><code>", st->out);
	} else if (!line[strspn(line, " ")]) {
		end_block(st);
	} else if (line[0] == '#') {
		heading(st, line);
	} else if (line[strspn(line, " ")] == '|') {
		table_line(st, line);
	} else if ((text = list_item(line, &level, &ordered))) {
		item(st, level, ordered, text);
	} else if (st->block == B_LIST && line[0] == ' ') {
		text_add(st, line + strspn(line, " "));
	} else {
		if (st->block != B_PARA) {
			end_block(st);
			st->block = B_PARA;
			fputs("<p>", st->out);
		}
		text_add(st, line);
	}
}

int md_html(FILE *out, FILE *in, const struct md_html_opts *o)
{
	struct md_state st = {.out = out, .o = o};
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, in)) >= 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		line_in(&st, line);
	}
	end_block(&st);
	free(line);
	free(st.text);
	free(st.header);
	return st.oom || ferror(in) || ferror(out) ? -1 : 0;
}

int md_html_file(FILE *out, const char *path, const struct md_html_opts *o,
		 struct ss_error *err)
{
	FILE *in = fopen(path, "r");
	int r;

	if (!in)
		return ss_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	r = md_html(out, in, o);
	fclose(in);
	return r ? ss_errorf(err, "%s: read or write error (or out of memory)", path) : 0;
}
