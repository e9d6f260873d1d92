/* index_html.h - the HTML side of the reports (`slabsim index`,
 * docs/outputs.md "The index"):
 *
 *   REPORTS/index.html      the landing page: contents, then one card per
 *                           report (its headline figures, its plots as
 *                           thumbnails, links to its page, markdown, CSV,
 *                           PNG and SVG files), a section per workload
 *                           directory (what-ifs W--name-value included), and
 *                           a card for reports/topology/ when it has a plot
 *   W/report.html           one page per report, beside its markdown:
 *   W/compare/compare.html  the plots, then the markdown rendered by
 *   W/sweep-P/sweep.html    libcmark (md_html.h)
 *
 * Every link is relative, so the pages work from disk (file://) and when
 * reports/ is copied elsewhere.  Every file is written atomically.
 */
#ifndef SS_INDEX_HTML_H
#define SS_INDEX_HTML_H

#include "error.h"

/* Write every page under root.  0, or -1 with err. */
int ss_index_write_all(const char *root, struct ss_error *err);

#endif
