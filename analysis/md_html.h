/* md_html.h - the markdown of slabsim's reports as HTML, for index.html.
 *
 * Only what report.md, compare.md and sweep.md use: ATX headings (# to
 * ######, shifted down by `heading_shift` levels), paragraphs, lists
 * ("- ", "* " or "1. " items; two spaces of indent per nesting level;
 * indented lines continue an item), pipe tables (header row, then a
 * separator row whose ':' marks right alignment), ``` code fences, and
 * inline `code`, **bold** and [text](url).  Relative link targets are
 * prefixed with `link_base` (the report's directory as seen from the HTML
 * file).  Everything else is text, escaped.  Tags are always balanced.
 */
#ifndef SS_MD_HTML_H
#define SS_MD_HTML_H

#include <stdio.h>

#include "error.h"

struct md_html_opts {
	int heading_shift;	/* "#" becomes <h(1 + shift)>, at most h6 */
	const char *link_base;	/* "" or "dir/" */
};

/* Convert everything read from in.  0, or -1 on a read or write error. */
int md_html(FILE *out, FILE *in, const struct md_html_opts *o);
/* The same from a file; errors name it. */
int md_html_file(FILE *out, const char *path, const struct md_html_opts *o,
		 struct ss_error *err);

/* Write s with &, <, > and " escaped. */
void html_escape(FILE *out, const char *s);

#endif
