/* md_html.c - markdown to HTML with libcmark, pipe tables beside it
 * (md_html.h). */
#include "md_html.h"

#include <cmark.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void ss_html_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* A target with a scheme or an anchor is left alone. */
static bool relative(const char *url)
{
	return url[0] && url[0] != '#' && url[0] != '/' && !strstr(url, "://") &&
	       strncmp(url, "mailto:", 7);
}

/* Shift headings, prefix relative links and images. */
static int adjust(cmark_node *doc, const struct ss_md_html_opts *o)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	int rc = 0;

	if (!it)
		return -1;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);

		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (t == CMARK_NODE_HEADING) {
			int level = cmark_node_get_heading_level(n) + o->heading_shift;

			cmark_node_set_heading_level(n, level > 6 ? 6 : level);
		} else if ((t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) &&
			   o->link_base && *o->link_base) {
			const char *url = cmark_node_get_url(n);
			size_t len;
			char *full;

			if (!url || !relative(url))
				continue;
			len = strlen(url) + strlen(o->link_base) + 1;
			full = malloc(len);
			if (!full) {
				rc = -1;
				break;
			}
			snprintf(full, len, "%s%s", o->link_base, url);
			cmark_node_set_url(n, full);
			free(full);
		}
	}
	cmark_iter_free(it);
	return rc;
}

/* libcmark's HTML of markdown text: a whole document, or (inline) one
 * table cell without the paragraph around it.  NULL out of memory. */
static char *render(const char *md, size_t len, const struct ss_md_html_opts *o,
		    bool inline_only)
{
	cmark_node *doc = cmark_parse_document(md, len, CMARK_OPT_DEFAULT);
	char *html;
	size_t n;

	if (!doc)
		return NULL;
	if (adjust(doc, o)) {
		cmark_node_free(doc);
		return NULL;
	}
	html = cmark_render_html(doc, CMARK_OPT_DEFAULT);
	cmark_node_free(doc);
	if (!html || !inline_only)
		return html;
	n = strlen(html);
	if (n >= 8 && !strncmp(html, "<p>", 3) && !strcmp(html + n - 5, "</p>\n")) {
		memmove(html, html + 3, n - 8);
		html[n - 8] = '\0';
	}
	return html;
}

/* ---- pipe tables ---------------------------------------------------------- */

/* Trim spaces at both ends, in place. */
static char *trim(char *s, char *end)
{
	while (end > s && end[-1] == ' ')
		end--;
	*end = '\0';
	while (*s == ' ')
		s++;
	return s;
}

/* The cells of a table row: split at '|' not escaped as "\|" (libcmark
 * turns "\|" into '|' in the cell), outer pipes dropped.  Cells point into
 * row, which is modified. */
static unsigned split_row(char *row, char **cell, unsigned max)
{
	unsigned n = 0;
	char *p = row + strspn(row, " "), *start;

	if (*p == '|')
		p++;
	for (start = p;; p++) {
		if (*p == '\\' && p[1] == '|') {
			p++;
			continue;
		}
		if (*p && *p != '|')
			continue;
		if (!*p && !*trim(start, p)) /* after a trailing '|' */
			break;
		{
			bool end = !*p;
			char *c = trim(start, p);

			if (n < max)
				cell[n++] = c;
			if (end)
				break;
		}
		start = p + 1;
	}
	return n;
}

static bool is_separator(const char *line)
{
	bool dash = false;

	for (; *line; line++) {
		if (*line == '-')
			dash = true;
		else if (!strchr("|: ", *line))
			return false;
	}
	return dash;
}

#define MAX_CELLS 64

/* One row of cells; right[] from the separator row. */
static int table_row(FILE *out, char *line, const char *tag, const bool *right,
		     const struct ss_md_html_opts *o)
{
	char *cell[MAX_CELLS];
	unsigned n = split_row(line, cell, MAX_CELLS);

	fputs("<tr>", out);
	for (unsigned i = 0; i < n; i++) {
		char *html = render(cell[i], strlen(cell[i]), o, true);

		if (!html)
			return -1;
		fprintf(out, "<%s%s>%s</%s>", tag, right[i] ? " class=\"r\"" : "", html, tag);
		free(html);
	}
	fputs("</tr>\n", out);
	return 0;
}

/* lines[0..n): a header row, the separator, then the body rows. */
static int table(FILE *out, char **lines, size_t n, const struct ss_md_html_opts *o)
{
	bool right[MAX_CELLS] = {false};
	char *sep[MAX_CELLS];
	unsigned ns = split_row(lines[1], sep, MAX_CELLS);

	for (unsigned i = 0; i < ns; i++)
		right[i] = sep[i][0] && sep[i][strlen(sep[i]) - 1] == ':';
	fputs("<table>\n<thead>\n", out);
	if (table_row(out, lines[0], "th", right, o))
		return -1;
	fputs("</thead>\n<tbody>\n", out);
	for (size_t i = 2; i < n; i++)
		if (table_row(out, lines[i], "td", right, o))
			return -1;
	fputs("</tbody>\n</table>\n", out);
	return 0;
}

/* ---- the document ---------------------------------------------------------- */

static bool is_row(const char *line, size_t n)
{
	size_t i = 0;

	while (i < n && line[i] == ' ')
		i++;
	return i < n && line[i] == '|';
}

static bool separator_line(const char *line, size_t n)
{
	char buf[1024];

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, line, n);
	buf[n] = '\0';
	return is_row(line, n) && is_separator(buf);
}

/* Lines of text: start offsets, and one more where a next line would
 * start (past the '\n' of the last line, or as if it had one). */
static size_t *line_starts(const char *text, size_t len, size_t *nl)
{
	size_t *at = malloc((len + 2) * sizeof(*at)), n = 0;

	if (!at)
		return NULL;
	at[n++] = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\n' && i + 1 < len)
			at[n++] = i + 1;
	at[n] = len && text[len - 1] == '\n' ? len : len + 1;
	*nl = n;
	return at;
}

/* Render text outside and inside tables.  A table starts at a row
 * followed by a separator row and runs while lines are rows; the text
 * between tables goes to libcmark whole, so that its lists and paragraphs
 * span lines as CommonMark says. */
static int convert(FILE *out, const char *text, size_t len, const struct ss_md_html_opts *o)
{
	size_t nl, i = 0, seg = 0;
	size_t *at = line_starts(text, len, &nl);
	int rc = -1;

#define LINE_LEN(k) (at[(k) + 1] - 1 - at[k])
	if (!at)
		return -1;
	for (;;) {
		bool tab = i + 1 < nl && is_row(text + at[i], LINE_LEN(i)) &&
			   separator_line(text + at[i + 1], LINE_LEN(i + 1));
		size_t end;
		char **rows = NULL, *copy = NULL;

		if (i < nl && !tab) {
			i++;
			continue;
		}
		if (i > seg) { /* the text before */
			size_t to = i < nl ? at[i] : len;
			char *html = render(text + at[seg], to - at[seg], o, false);

			if (!html)
				goto out;
			fputs(html, out);
			free(html);
		}
		if (i == nl)
			break;
		for (end = i + 2; end < nl && is_row(text + at[end], LINE_LEN(end)); end++)
			;
		/* the table's lines, copied to be split */
		copy = malloc(at[end] - at[i] + 1);
		rows = malloc((end - i) * sizeof(*rows));
		if (copy && rows) {
			/* (the last line may lack its '\n': copy what there is) */
			memcpy(copy, text + at[i], (at[end] < len ? at[end] : len) - at[i]);
			for (size_t k = i; k < end; k++) {
				rows[k - i] = copy + (at[k] - at[i]);
				rows[k - i][LINE_LEN(k)] = '\0';
			}
		}
		if (!copy || !rows || table(out, rows, end - i, o)) {
			free(copy);
			free(rows);
			goto out;
		}
		free(copy);
		free(rows);
		seg = i = end;
	}
#undef LINE_LEN
	rc = ferror(out) ? -1 : 0;
out:
	free(at);
	return rc;
}

int ss_md_html(FILE *out, FILE *in, const struct ss_md_html_opts *o)
{
	char *text = NULL, buf[65536];
	size_t len = 0, n;
	int rc;

	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		char *g = realloc(text, len + n + 1);

		if (!g) {
			free(text);
			return -1;
		}
		text = g;
		memcpy(text + len, buf, n);
		len += n;
	}
	if (ferror(in)) {
		free(text);
		return -1;
	}
	if (!text)
		return 0;
	text[len] = '\0';
	if (o->skip_title && !strncmp(text, "# ", 2)) {
		char *nl = strchr(text, '\n');
		size_t skip = nl ? (size_t)(nl + 1 - text) : len;

		rc = convert(out, text + skip, len - skip, o);
		free(text);
		return rc;
	}
	rc = convert(out, text, len, o);
	free(text);
	return rc;
}

int ss_md_html_file(FILE *out, const char *path, const struct ss_md_html_opts *o,
		 struct ss_error *err)
{
	FILE *in = fopen(path, "r");
	int rc;

	if (!in)
		return ss_errorf(err, "%s: cannot open", path);
	rc = ss_md_html(out, in, o);
	fclose(in);
	return rc ? ss_errorf(err, "%s: read, write or memory error", path) : 0;
}
