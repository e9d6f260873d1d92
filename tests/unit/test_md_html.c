/* test_md_html.c - the markdown of the reports as HTML (libcmark, pipe
 * tables): every construct the reports use, checked against hand-written
 * HTML. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "md_html.h"

static char *convert(const char *md, int shift, const char *base)
{
	struct ss_md_html_opts o = {.heading_shift = shift, .link_base = base};
	FILE *in = fmemopen((void *)md, strlen(md), "r");
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);

	assert_non_null(in);
	assert_non_null(fp);
	assert_int_equal(ss_md_html(fp, in, &o), 0);
	fclose(in);
	fclose(fp);
	return out;
}

/* CommonMark by libcmark, pipe tables beside it, headings shifted and
 * relative links prefixed. */
static void test_blocks(void **state)
{
	char *html = convert("# Title\n"
			     "\n"
			     "Some *text* with `a<b` and **bold** and [link](file.png) and [abs](http://x/y)\n"
			     "and [anchor](#sec).\n"
			     "\n"
			     "- item one\n"
			     "  - nested a\n"
			     "- item two\n"
			     "\n"
			     "| a | b \\| c |\n"
			     "| --- | ---: |\n"
			     "| `x<y` | **1** |\n"
			     "| [p](w.png) | 2 |\n"
			     "after the table\n"
			     "\n"
			     "```\n"
			     "<x> & y\n"
			     "```\n"
			     "###### Deep\n",
			     1, "W/");

	(void)state;
	assert_non_null(strstr(html, "<h2>Title</h2>\n"));
	assert_non_null(strstr(html, "<p>Some <em>text</em> with <code>a&lt;b</code> and "
				     "<strong>bold</strong> and <a href=\"W/file.png\">link</a> and "
				     "<a href=\"http://x/y\">abs</a>\nand <a href=\"#sec\">anchor</a>.</p>\n"));
	assert_non_null(strstr(html, "<li>item one\n<ul>\n<li>nested a</li>\n</ul>\n</li>\n<li>item two</li>"));
	assert_non_null(strstr(html,
		"<table>\n<thead>\n<tr><th>a</th><th class=\"r\">b | c</th></tr>\n</thead>\n"
		"<tbody>\n<tr><td><code>x&lt;y</code></td><td class=\"r\"><strong>1</strong></td></tr>\n"
		"<tr><td><a href=\"W/w.png\">p</a></td><td class=\"r\">2</td></tr>\n"
		"</tbody>\n</table>\n<p>after the table</p>\n"));
	assert_non_null(strstr(html, "<pre><code>&lt;x&gt; &amp; y\n</code></pre>\n"));
	assert_non_null(strstr(html, "<h6>Deep</h6>\n")); /* h6 + 1 stays h6 */
	free(html);
}

/* Whatever the input, no raw HTML gets through and tags close: rows
 * without a separator are text, an unclosed ** and fence stay text and
 * code. */
static void test_odd_input(void **state)
{
	char *html = convert("| only | row |\n"
			     "| two | rows |\n"
			     "\n"
			     "text **bold <script>x</script>\n"
			     "\n"
			     "```\nopen fence\n",
			     3, "");

	(void)state;
	assert_null(strstr(html, "<table>"));
	assert_non_null(strstr(html, "<p>| only | row |\n| two | rows |</p>\n"));
	assert_null(strstr(html, "<script>"));
	assert_non_null(strstr(html, "<pre><code>open fence\n</code></pre>\n"));
	free(html);
}

/* A table at the very end, without a final newline. */
static void test_table_last(void **state)
{
	char *html = convert("| a |\n|:-|\n| b |", 0, "");

	(void)state;
	assert_string_equal(html, "<table>\n<thead>\n<tr><th>a</th></tr>\n</thead>\n"
				  "<tbody>\n<tr><td>b</td></tr>\n</tbody>\n</table>\n");
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_odd_input),
		cmocka_unit_test(test_table_last),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
