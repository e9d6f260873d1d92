/* md_html.h - the reports' markdown as HTML: report.html, compare.html,
 * sweep.html and the cards of index.html.
 *
 * CommonMark is rendered by libcmark (Debian libcmark-dev).  CommonMark has
 * no tables and the reports are mostly tables, so pipe tables (a header
 * row, a separator row whose ':' marks right alignment, then rows; "\|" is
 * a '|' inside a cell) become an HTML <table> first, each cell's text
 * rendered by libcmark as inline markdown; the rest of the document is
 * libcmark's, raw HTML in it escaped.  Headings are shifted down by
 * `heading_shift` levels (at most h6) and relative link and image targets
 * prefixed with `link_base` (the report's directory as seen from the page
 * showing it).
 */
#ifndef SS_MD_HTML_H
#define SS_MD_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

struct ss_md_html_opts {
	int heading_shift;	/* "#" becomes <h(1 + shift)>, at most h6 */
	const char *link_base;	/* "" or "dir/" */
	bool skip_title;	/* leave out a first line "# TITLE" (a page
				 * that shows the title above the plots) */
};

/* Convert everything read from in.  0, or -1 on a read or write error or
 * out of memory. */
int ss_md_html(FILE *out, FILE *in, const struct ss_md_html_opts *o);
/* The same from a file; errors name it. */
int ss_md_html_file(FILE *out, const char *path, const struct ss_md_html_opts *o,
		 struct ss_error *err);

/* Write s with &, <, > and " escaped. */
void ss_html_escape(FILE *out, const char *s);

#endif
