/* test_import_rules.c - the import's free rules: the table the code walks
 * (reconcile/import/rules.c) is the one docs/import.md and the folder's
 * README.md give, rule by rule, in order, with its counter; the order
 * decides when two rules would apply; the README's index is the folder's.
 * Run from the checkout's root (as make unit does): the documents are
 * read from there. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "test_util.h"
#include "trace.h"

#define MAX_ROWS 32
#define CELL 64

struct doc_rule {
	unsigned nr;
	char name[CELL], counter[CELL];
};

/* s without blanks and backticks around it, into out (CELL bytes); the
 * first `quoted` word when there is one. */
static void cell(const char *s, size_t n, char *out)
{
	const char *q = memchr(s, '`', n), *e;
	size_t k;

	if (q && (e = memchr(q + 1, '`', n - (size_t)(q + 1 - s)))) {
		s = q + 1;
		n = (size_t)(e - s);
	}
	while (n && (*s == ' ' || *s == '`'))
		s++, n--;
	k = strcspn(s, " `");
	if (k > n)
		k = n;
	assert_true(k < CELL);
	memcpy(out, s, k);
	out[k] = '\0';
}

/* The rows "| N | rule | ... | counter |" of the first table after the
 * heading that starts with `heading` in file path. */
static unsigned doc_rules(const char *path, const char *heading, struct doc_rule *r)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	bool in_section = false;
	unsigned n = 0;

	if (!f)
		fail_msg("%s: cannot open (run from the checkout's root, as make unit does)", path);
	while (fgets(line, sizeof(line), f)) {
		const char *c[8];
		unsigned nc = 0;

		if (!strncmp(line, "## ", 3)) {
			if (in_section)
				break;
			in_section = !strncmp(line, heading, strlen(heading));
			continue;
		}
		if (in_section && n && line[0] != '|')
			break; /* the end of the first table */
		if (!in_section || line[0] != '|' || line[1] != ' ' || line[2] < '0' || line[2] > '9')
			continue;
		for (const char *p = line; (p = strchr(p, '|')) && nc < 8; p++)
			c[nc++] = p + 1;
		assert_true(nc >= 4);
		assert_true(n < MAX_ROWS);
		r[n].nr = (unsigned)atoi(c[0]);
		cell(c[1], (size_t)(c[2] - 1 - c[1]), r[n].name);
		/* the counter: the last cell */
		cell(c[nc - 2], (size_t)(c[nc - 1] - 1 - c[nc - 2]), r[n].counter);
		n++;
	}
	fclose(f);
	if (!n)
		fail_msg("%s: no rule table under '%s'", path, heading);
	return n;
}

static void assert_table_is_code(const char *path, const char *heading)
{
	struct doc_rule r[MAX_ROWS];
	unsigned n = doc_rules(path, heading, r), code = 0;

	while (ss_import_free_rule_name(code))
		code++;
	for (unsigned i = 0; i < n; i++) {
		const char *name = ss_import_free_rule_name(i), *counter = ss_import_free_rule_counter(i);

		if (r[i].nr != i + 1 || !name || strcmp(r[i].name, name) || strcmp(r[i].counter, counter))
			fail_msg("%s: row %u says %u %s %s, the code's rule %u is %s %s", path, i + 1,
				 r[i].nr, r[i].name, r[i].counter, i + 1, name ? name : "(none)",
				 counter ? counter : "");
	}
	if (n != code)
		fail_msg("%s: %u rules, the code has %u", path, n, code);
}

static void test_table_in_docs(void **state)
{
	(void)state;
	assert_table_is_code("docs/import.md", "## The free rules");
}

static void test_table_in_readme(void **state)
{
	(void)state;
	assert_table_is_code("reconcile/import/README.md", "## The free rules");
}

/* Every file of reconcile/import/ is in its README.md's index, as
 * `NAME`, and every .c and .h file the index names is in the folder. */
static void test_readme_lists_every_file(void **state)
{
	const char *dir = "reconcile/import", *readme = "reconcile/import/README.md";
	char text[32768], name[300];
	FILE *f = fopen(readme, "r");
	size_t len;
	DIR *d;
	struct dirent *e;
	(void)state;

	if (!f)
		fail_msg("%s: cannot open (run from the checkout's root, as make unit does)", readme);
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	assert_true(len < sizeof(text) - 1);
	assert_non_null(d = opendir(dir));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md"))
			continue;
		snprintf(name, sizeof(name), "`%s`", e->d_name);
		if (!strstr(text, name))
			fail_msg("%s: %s is not in the index", readme, e->d_name);
	}
	closedir(d);
	for (const char *p = text; (p = strchr(p, '`')); p++) {
		const char *q = strchr(p + 1, '`');
		size_t n = q ? (size_t)(q - p - 1) : 0;
		char path[400];
		FILE *g;

		if (!q)
			break;
		if (n > 2 && n < 200 && !memchr(p + 1, ' ', n) && !memchr(p + 1, '/', n) &&
		    (!memcmp(q - 2, ".c", 2) || !memcmp(q - 2, ".h", 2))) {
			snprintf(path, sizeof(path), "%s/%.*s", dir, (int)n, p + 1);
			if (!(g = fopen(path, "r")))
				fail_msg("%s names %.*s, which is not in %s", readme, (int)n, p + 1, dir);
			fclose(g);
		}
		p = q;
	}
}

/* The frees free rule `name` decided in t: a rule taken out of the table
 * fails the test. */
static uint64_t rule_frees(const struct ss_import_totals *t, const char *name)
{
	uint64_t n = 0;

	if (!ss_import_rule_frees(t, name, &n))
		fail_msg("no free rule %s", name);
	return n;
}

/* A freed slab's obj_exts vector whose own slab the capture saw hold a
 * kmalloc-512 object: rule objext (the CPU's last kmem_cache_free emptied
 * a dentry slab: 21 x 8 = 168 bytes, kmalloc-192) comes before rule
 * slab-owner (the vector's slab held kmalloc-512), so the vector is
 * kmalloc-192's. */
static void test_objext_before_slab_owner(void **state)
{
	char in[TU_PATH_MAX], out[TU_PATH_MAX], snap[TU_PATH_MAX], got[64] = "";
	struct ss_import_opts o = {.target = "x86_64-6.x", .input = in, .output = out,
				   .snapshot = snap};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	(void)state;

	tu_path(in, sizeof(in), "order.ftrace");
	tu_path(out, sizeof(out), "order.trace");
	tu_path(snap, sizeof(snap), "order.slabinfo");
	tu_write_text(snap, "slabinfo - version: 2.1\n"
			    "dentry 2100 2100 192 21 1 : tunables 0 0 0 : slabdata 100 100 0\n"
			    "kmalloc-192 2100 2100 192 21 1 : tunables 0 0 0 : slabdata 100 100 0\n"
			    "kmalloc-512 800 800 512 8 1 : tunables 0 0 0 : slabdata 100 100 0\n");
#define L(ev) " sh-1 [000] ..... 1.0: " ev "\n"
	tu_write_text(in,
		L("kmalloc: call_site=f+0x1/0x2 ptr=ffff888100005000 bytes_req=500 bytes_alloc=512 gfp_flags=GFP_KERNEL node=-1 accounted=false")
		L("kmem_cache_free: call_site=d_free+0x1/0x2 ptr=ffff888100009000 name=dentry")
		L("kfree: call_site=__free_slab+0x87/0xf0 ptr=ffff888100005200"));
#undef L
	if (ss_import(&o, &t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(rule_frees(&t, "named"), 1);
	assert_int_equal(rule_frees(&t, "objext"), 1);
	assert_int_equal(rule_frees(&t, "slab-owner"), 0);
	assert_int_equal(ss_trace_open(&r, out, &err), 0);
	while (ss_trace_next(r, &ev, &err) == 1)
		if (ev.kind == SS_EV_FREE_PRIOR && ev.api == SS_API_KMALLOC)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%llu ",
				 (unsigned long long)ev.value);
	ss_trace_close(r);
	assert_string_equal(got, "192 ");
}

/* Every rule counts in the totals field it names; the rules after
 * `traced` also in unknown_frees, which they add up to. */
static void test_unknown_frees_add_up(void **state)
{
	char in[TU_PATH_MAX], out[TU_PATH_MAX];
	struct ss_import_opts o = {.target = "x86_64-6.x", .input = in, .output = out};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	uint64_t sum = 0;
	(void)state;

	tu_path(in, sizeof(in), "sum.ftrace");
	tu_path(out, sizeof(out), "sum.trace");
	tu_write_text(in,
		" sh-1 [000] ..... 1.0: kfree: call_site=f+0x1/0x2 ptr=(null)\n"
		" sh-1 [000] ..... 1.0: kmalloc: call_site=f+0x1/0x2 ptr=a0 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL\n"
		" sh-1 [000] ..... 1.0: kfree: call_site=f+0x1/0x2 ptr=a0\n"
		" sh-1 [000] ..... 1.0: kfree: call_site=f+0x1/0x2 ptr=b0\n"
		" sh-1 [000] ..... 1.0: kfree: call_site=g+0x1/0x2 ptr=c0\n"
		" sh-1 [000] ..... 1.0: kfree: call_site=g+0x1/0x2 ptr=c0\n");
	if (ss_import(&o, &t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(rule_frees(&t, "null"), 1);
	assert_int_equal(rule_frees(&t, "traced"), 1);
	assert_int_equal(rule_frees(&t, "site-share"), 1);	 /* b0: f freed a kmalloc-8 */
	assert_int_equal(rule_frees(&t, "again"), 2);		 /* c0, freed twice */
	for (unsigned i = 2; ss_import_free_rule_name(i); i++)
		sum += t.rule_frees[i];
	assert_int_equal(sum, t.unknown_frees);
	assert_int_equal(t.unknown_frees,
			 t.walk_frees + t.untraced_allocs + t.prior_frees + t.prior_unattributed);
}

/* --totals and the summary carry every rule's count, by its name, in the
 * table's order: a CSV column rule_NAME and the summary's "Free rules"
 * line. */
static void test_rule_counts_written(void **state)
{
	char in[TU_PATH_MAX], out[TU_PATH_MAX], csv[TU_PATH_MAX], hdr[2048], row[2048];
	char sum[4096] = "", want[64];
	struct ss_import_opts o = {.target = "x86_64-6.x", .input = in, .output = out};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	FILE *f;
	(void)state;

	tu_path(in, sizeof(in), "csv.ftrace");
	tu_path(out, sizeof(out), "csv.trace");
	tu_path(csv, sizeof(csv), "csv.totals");
	tu_write_text(in,
		" sh-1 [000] ..... 1.0: kfree: call_site=f+0x1/0x2 ptr=(null)\n"
		" sh-1 [000] ..... 1.0: kmalloc: call_site=f+0x1/0x2 ptr=a0 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL\n"
		" sh-1 [000] ..... 1.0: kfree: call_site=f+0x1/0x2 ptr=a0\n"
		" sh-1 [000] ..... 1.0: kfree: call_site=g+0x1/0x2 ptr=c0\n"
		" sh-1 [000] ..... 1.0: kfree: call_site=g+0x1/0x2 ptr=c0\n");
	if (ss_import(&o, &t, &err) || ss_import_write_totals(csv, &t, &err))
		fail_msg("%s", err.msg);
	assert_non_null(f = fopen(csv, "r"));
	assert_non_null(fgets(hdr, sizeof(hdr), f));
	assert_non_null(fgets(row, sizeof(row), f));
	fclose(f);
	/* each rule's column, rule_NAME, holds its count; they are the last
	 * columns, in the table's order */
	{
		char *hcol[128], *rcol[128], *sh = hdr, *sr = row, *c;
		unsigned nh = 0, nr = 0, rules = 0;

		/* strsep: an empty field (tool_events without --tool-pids) is one */
		hdr[strcspn(hdr, "\n")] = row[strcspn(row, "\n")] = '\0';
		while ((c = strsep(&sh, ",")) && nh < 128)
			hcol[nh++] = c;
		while ((c = strsep(&sr, ",")) && nr < 128)
			rcol[nr++] = c;
		assert_int_equal(nh, nr);
		while (ss_import_free_rule_name(rules))
			rules++;
		assert_true(nh > rules);
		for (unsigned i = 0; i < rules; i++) {
			snprintf(want, sizeof(want), "rule_%s", ss_import_free_rule_name(i));
			assert_string_equal(hcol[nh - rules + i], want);
			snprintf(want, sizeof(want), "%llu", (unsigned long long)t.rule_frees[i]);
			assert_string_equal(rcol[nh - rules + i], want);
		}
	}
	assert_non_null(f = fmemopen(sum, sizeof(sum), "w"));
	ss_import_print(f, &t);
	fclose(f);
	assert_non_null(strstr(sum, "Free rules, in order (records each decided): null 1, traced 1, walk 0, "
				    "again 2,"));
}

/* --tool-pids: the kmem events of those tasks, in their own context (the
 * flags column's third letter '.'), are counted -- an interrupt's on them
 * and other tasks' are not -- and replayed like any other. */
static void test_tool_events_counted(void **state)
{
	char in[TU_PATH_MAX], out[TU_PATH_MAX], sum[4096] = "";
	struct ss_import_opts o = {.target = "x86_64-6.x", .input = in, .output = out,
				   .tool_pids = "7, 42 9"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	FILE *f;
	(void)state;

	tu_path(in, sizeof(in), "tool.ftrace");
	tu_path(out, sizeof(out), "tool.trace");
	tu_write_text(in,
		"  zstd-42 [000] ..... 1.0: kmalloc: call_site=f+0x1/0x2 ptr=a0 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL\n"
		"  zstd-42 [000] ..s.. 1.0: kmalloc: call_site=f+0x1/0x2 ptr=b0 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL\n"
		"  sh-420 [001] ..... 1.0: kfree: call_site=f+0x1/0x2 ptr=a0\n"
		"  <...>-9 [001] d..1. 1.0: kfree: call_site=f+0x1/0x2 ptr=b0\n"
		"  slab-fill-7 [000] ..... 1.0: kfree: call_site=f+0x1/0x2 ptr=(null)\n");
	if (ss_import(&o, &t, &err))
		fail_msg("%s", err.msg);
	assert_true(t.tool_counted);
	assert_int_equal(t.tool_events, 3); /* 42's first, 9's, 7's */
	assert_int_equal(t.allocs, 2);	    /* replayed all the same */
	assert_non_null(f = fmemopen(sum, sizeof(sum), "w"));
	ss_import_print(f, &t);
	fclose(f);
	assert_non_null(strstr(sum, "Events of the capture tool's own processes (--tool-pids): 3 of 5 (60.00%)"));

	/* without the option nothing is counted, nor said */
	o.tool_pids = NULL;
	if (ss_import(&o, &t, &err))
		fail_msg("%s", err.msg);
	assert_false(t.tool_counted);
	assert_int_equal(t.tool_events, 0);

	/* a word that is no PID is refused, naming it */
	o.tool_pids = "12 [0-9]*";
	assert_int_equal(ss_import(&o, &t, &err), -1);
	assert_non_null(strstr(err.msg, "--tool-pids: '[0-9]*' is not a PID"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_in_docs),
		cmocka_unit_test(test_table_in_readme),
		cmocka_unit_test(test_readme_lists_every_file),
		cmocka_unit_test(test_objext_before_slab_owner),
		cmocka_unit_test(test_unknown_frees_add_up),
		cmocka_unit_test(test_rule_counts_written),
		cmocka_unit_test(test_tool_events_counted),
	};

	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
