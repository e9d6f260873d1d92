/* test_md_html.c - the markdown of the reports as HTML (index.html): every
 * construct the reports use, checked against hand-written HTML. */
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
	struct md_html_opts o = {.heading_shift = shift, .link_base = base};
	FILE *in = fmemopen((void *)md, strlen(md), "r");
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);

	assert_non_null(in);
	assert_non_null(fp);
	assert_int_equal(md_html(fp, in, &o), 0);
	fclose(in);
	fclose(fp);
	return out;
}

static void test_blocks(void **state)
{
	char *html = convert("# Title\n"
			     "\n"
			     "Some *text* with `a<b` and **bold** and [link](file.png) and [abs](http://x/y).\n"
			     "second line\n"
			     "\n"
			     "- item one\n"
			     "  continued\n"
			     "  - nested a\n"
			     "  - nested b\n"
			     "- item two\n"
			     "\n"
			     "| a | b \\| c |\n"
			     "| --- | ---: |\n"
			     "| x | 1 |\n"
			     "\n"
			     "```\n"
			     "<x> & y\n"
			     "```\n"
			     "#### Deep\n"
			     "1. first\n"
			     "2. second\n",
			     1, "W/");

	(void)state;
	assert_string_equal(html,
		"<h2>Title</h2>\n"
		"<p>Some *text* with <code>a&lt;b</code> and <strong>bold</strong> and "
		"<a href=\"W/file.png\">link</a> and <a href=\"http://x/y\">abs</a>. second line</p>\n"
		"<ul>\n<li>item one continued<ul>\n<li>nested a</li>\n<li>nested b</li></ul>\n"
		"</li>\n<li>item two</li></ul>\n"
		"<table>\n<thead>\n<tr><th>a</th><th class=\"r\">b | c</th></tr>\n</thead>\n"
		"<tbody>\n<tr><td>x</td><td class=\"r\">1</td></tr>\n</tbody>\n</table>\n"
		"<pre><code>&lt;x&gt; &amp; y\n</code></pre>\n"
		"<h5>Deep</h5>\n"
		"<ol>\n<li>first</li>\n<li>second</li></ol>\n");
	free(html);
}

/* Whatever the input, tags close: a table without separator, a list that
 * jumps two levels, an unclosed **, a fence never closed. */
static void test_odd_input(void **state)
{
	char *html = convert("| only | row |\n"
			     "| two | rows |\n"
			     "text **bold\n"
			     "      - deep item\n"
			     "###### h6\n"
			     "```\nopen fence\n",
			     3, "");

	(void)state;
	assert_string_equal(html,
		"<table>\n<tbody>\n<tr><td>only</td><td>row</td></tr>\n"
		"<tr><td>two</td><td>rows</td></tr>\n</tbody>\n</table>\n"
		"<p>text **bold</p>\n"
		"<ul>\n<li>deep item</li></ul>\n"
		"<h6>h6</h6>\n"
		"<pre><code>open fence\n</code></pre>\n");
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_odd_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
