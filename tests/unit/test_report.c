/* test_report.c - `slabsim report` on the hand-written fixtures
 * (tests/fixtures/report/README.md): seed checks worked by hand, ordering,
 * plot data, and malformed input leaving no output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "report_plot.h"
#include "report_runs.h"
#include "report_seed.h"
#include "test_util.h"

#define FIXTURE "tests/fixtures/report/smack17k"
#define SEED_TABLE "workloads/smack17k/seed.csv"

/* ---- helpers ------------------------------------------------------------ */

/* A scratch copy of the fixture runs: dir/runs/<v>__<m>/. */
static void workdir(char *dir, size_t cap)
{
	char cmd[256];
	struct stat st;

	if (stat(FIXTURE "/runs", &st))
		fail_msg("run the tests from the repository root (%s missing)",
			 FIXTURE);
	tu_tmp_dir(dir, cap);
	snprintf(cmd, sizeof(cmd), "cp -r %s/runs %s/", FIXTURE, dir);
	assert_int_equal(system(cmd), 0);
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* Replace the first `old` in a file by `new`. */
static void patch_file(const char *path, const char *old, const char *new_)
{
	char *s = slurp(path), *at, *out;

	assert_non_null(s);
	at = strstr(s, old);
	if (!at)
		fail_msg("%s: no '%s'", path, old);
	out = malloc(strlen(s) + strlen(new_) + 1);
	assert_non_null(out);
	memcpy(out, s, (size_t)(at - s));
	strcpy(out + (at - s), new_);
	strcat(out, at + strlen(old));
	tu_write_text(path, out);
	free(out);
	free(s);
}

/* Collapse runs of spaces, so table rows compare without their padding. */
static void squash(char *s)
{
	char *o = s;

	for (char *p = s; *p; p++)
		if (*p != ' ' || o == s || o[-1] != ' ')
			*o++ = *p;
	*o = '\0';
}

static char *report_md(const char *dir)
{
	char path[256];
	char *s;

	snprintf(path, sizeof(path), "%s/report.md", dir);
	s = slurp(path);
	assert_non_null(s);
	squash(s);
	return s;
}

static void assert_has(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("missing: %s", want);
}

static bool exists(const char *dir, const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

/* Run `slabsim report` with the given extra arguments (NULL-terminated). */
static int report(const char *dir, ...)
{
	char *argv[32] = {"report", "--workload", "smack17k", "--dir", (char *)dir};
	int argc = 5;
	va_list ap;
	char *a;

	va_start(ap, dir);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	return ss_cmd_report(argc, argv);
}

/* ---- the checks, by hand ------------------------------------------------ */

static const struct ss_report_seed_row ref = {"ref", "", 1946, 1876, 1988, 1.148};
static const struct ss_report_seed_row memfix = {"memfix", "", 1349, 1272, 1444, 1.140};
static const struct ss_report_seed_row patch2 = {"patch2", "", 1360, 1316, 1448, 1.115};
static const struct ss_report_seed_row patch3 = {"patch3", "", 1206, 1144, 1248, 1.112};

static void test_check_footprint(void **state)
{
	struct ss_report_check c;

	(void)state;
	ss_report_check_footprint(&ref, 1904, &c);
	assert_true(c.diff == -42);
	assert_true(fabs(c.pct - (-42.0 * 100 / 1946)) < 1e-9); /* -2.158% */
	assert_true(c.seed == 1946 && c.lo == 1876 && c.hi == 1988);
	ss_report_check_footprint(&ref, 2238, &c);
	assert_true(c.diff == 292);
	assert_true(fabs(c.pct - 292.0 * 100 / 1946) < 1e-9); /* +15.005% */
}

static void test_check_saving(void **state)
{
	struct ss_report_check c;

	(void)state;
	/* seed: 1946 - 1349 = 597, runs 1876 - 1444 = 432 to 1988 - 1272 = 716 */
	ss_report_check_saving(&ref, &memfix, 1904, 1372, &c);
	assert_true(c.seed == 597 && c.lo == 432 && c.hi == 716);
	assert_true(c.model == 532 && c.diff == -65);
	assert_true(fabs(c.pct + 10.887772) < 1e-5);
	/* a model whose footprint grows */
	ss_report_check_saving(&ref, &memfix, 1000, 1100, &c);
	assert_true(c.model == -100 && c.diff == -697);
}

static void test_explanations(void **state)
{
	struct ss_report_seed seed = {.noise_kib = 25};
	struct ss_report_check c;
	char buf[1024];

	(void)state;
	strcpy(seed.noise_what, "one 5-run mean");
	ss_report_check_footprint(&patch2, 1292, &c);
	ss_report_explain_footprint(&c, &seed, buf, sizeof(buf));
	assert_string_equal(buf,
		"model lower than the seed's mean by 68 KiB (-5.0%); 24 KiB below "
		"the seed's lowest run (range 1316–1448 KiB); the difference is "
		"2.7× the ±25 KiB noise of one 5-run mean.");
	ss_report_check_footprint(&memfix, 1372, &c);
	ss_report_explain_footprint(&c, &seed, buf, sizeof(buf));
	assert_has(buf, "higher than the seed's mean by 23 KiB (+1.7%)");
	assert_has(buf, "within the seed's run-to-run range (1272–1444 KiB)");
	assert_has(buf, "within the ±25 KiB noise of one 5-run mean");
	ss_report_check_footprint(&ref, 2300, &c);
	ss_report_explain_footprint(&c, &seed, buf, sizeof(buf));
	assert_has(buf, "312 KiB above the seed's highest run");
	/* a comparison, never a verdict */
	assert_null(strstr(buf, "tolerance"));

	/* seed 1360 - 1206 = 154 KiB; 35.36 KiB = sqrt(2) x 25: a 22 KiB
	 * miss is within it */
	ss_report_check_saving(&patch2, &patch3, 1292, 1160, &c);
	ss_report_explain_saving(&c, &seed, 132, buf, sizeof(buf));
	assert_has(buf, "model saves 132 KiB, the seed 154 KiB (model 22 KiB less, -14.3%)");
	assert_has(buf, "within the ±35 KiB noise of a difference of two means");
	assert_has(buf, "the author's own estimate is 132 KiB, which the model matches");
	ss_report_explain_saving(&c, &seed, 140, buf, sizeof(buf));
	assert_has(buf, "the model 8 KiB below it");
	assert_has(buf, "within the seed's run-to-run range (68–304 KiB)");
	assert_null(strstr(buf, "tolerance"));

	/* no stated noise: no noise sentence */
	seed.noise_kib = -1;
	ss_report_check_footprint(&ref, 1904, &c);
	ss_report_explain_footprint(&c, &seed, buf, sizeof(buf));
	assert_null(strstr(buf, "noise"));
}

/* ---- histograms ------------------------------------------------------------ */

static void test_quantiles(void **state)
{
	struct ss_report_bucket b[] = {{32, 55}, {64, 30}, {128, 10}, {512, 4}, {2048, 1}};
	struct ss_report_hist h = {b, 5}, empty = {NULL, 0};

	(void)state;
	assert_true(ss_report_hist_total(&h) == 100);
	assert_true(ss_report_hist_quantile(&h, 0.5) == 32);	/* 50th op: cum 55 */
	assert_true(ss_report_hist_quantile(&h, 0.55) == 32);
	assert_true(ss_report_hist_quantile(&h, 0.56) == 64);
	assert_true(ss_report_hist_quantile(&h, 0.99) == 512); /* cum 99 at 512 */
	assert_true(ss_report_hist_quantile(&h, 0.995) == 2048);
	assert_true(isnan(ss_report_hist_quantile(&empty, 0.5)));
}

/* ---- seed table ---------------------------------------------------------- */

static void test_seed_table(void **state)
{
	static const char *const v[] = {"ref", "memfix", "patch2", "patch3", "patch4"};
	static const double avg[] = {1946, 1349, 1360, 1206, 918};
	static const double lo[] = {1876, 1272, 1316, 1144, 876};
	static const double hi[] = {1988, 1444, 1448, 1248, 956};
	static const double t[] = {1.148, 1.140, 1.115, 1.112, 1.086};
	struct ss_error err = {{0}};
	struct ss_report_seed seed;

	(void)state;
	if (ss_report_seed_load(SEED_TABLE, &seed, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(seed.nrows, 5);
	for (int i = 0; i < 5; i++) {
		assert_string_equal(seed.rows[i].variant, v[i]);
		assert_true(seed.rows[i].avg == avg[i]);
		assert_true(seed.rows[i].min == lo[i]);
		assert_true(seed.rows[i].max == hi[i]);
		assert_true(seed.rows[i].time_s == t[i]);
	}
	/* the quoted what_changed keeps its comma */
	assert_has(seed.rows[2].what, "length limit, untimed");
	assert_true(seed.noise_kib == 25);
	assert_string_equal(seed.noise_what, "one 5-run mean (smack.md)");
	assert_int_equal(seed.nsavings, 3);
	assert_string_equal(seed.savings[0].from, "ref");
	assert_string_equal(seed.savings[0].to, "memfix");
	assert_true(seed.savings[0].estimate < 0);
	assert_string_equal(seed.savings[1].to, "patch3");
	assert_true(seed.savings[1].estimate == 132);
	assert_true(seed.savings[2].estimate == 264);
	ss_report_seed_free(&seed);
}

static void seed_error(const char *text, const char *want)
{
	char path[TU_PATH_MAX];
	struct ss_error err = {{0}};
	struct ss_report_seed seed;

	tu_tmp_text(path, sizeof(path), text);
	assert_int_equal(ss_report_seed_load(path, &seed, &err), -1);
	unlink(path);
	if (!strstr(err.msg, want))
		fail_msg("error '%s', want '%s'", err.msg, want);
}

static void test_seed_errors(void **state)
{
	const char *hdr = "variant,what_changed,diff_avg_kib,diff_min_kib,diff_max_kib,time_avg_s\n";
	char text[512];

	(void)state;
	snprintf(text, sizeof(text), "# saving: a\n%sa,x,2,1,3,1\n", hdr);
	seed_error(text, ":1: saving: expected FROM TO [ESTIMATE_KIB]");
	snprintf(text, sizeof(text), "%sa,x,2,1,3,1\n# saving: a b\n", hdr);
	seed_error(text, ":3: saving a -> b names a variant the table does not have");
	snprintf(text, sizeof(text), "# noise_kib: lots\n%sa,x,2,1,3,1\n", hdr);
	seed_error(text, ":1: noise_kib: 'lots' is not a number of KiB");
	snprintf(text, sizeof(text), "%sa,x,2,3,4,1\n", hdr);
	seed_error(text, ":2: need 0 <= diff_min_kib <= diff_avg_kib");
	snprintf(text, sizeof(text), "%sa,x,2,1,3,1\na,y,2,1,3,1\n", hdr);
	seed_error(text, ":3: variant 'a' listed twice");
	snprintf(text, sizeof(text), "%sa,x,2,1,3,1.1.1\n", hdr);
	seed_error(text, ":2: column 'time_avg_s': '1.1.1' is not a number");
	seed_error("variant,diff_avg_kib\n", ":1: missing column 'what_changed'");
	seed_error(hdr, ": no variant rows");
}

/* ---- the report on the fixtures ------------------------------------------ */

static void test_report_seed_section(void **state)
{
	char dir[64], *md;

	(void)state;
	workdir(dir, sizeof(dir));
	assert_int_equal(report(dir, "--seed-table", SEED_TABLE, "--calibration",
				"label_catmap_bytes=20 work_ns=61.5", NULL), 0);
	md = report_md(dir);
	/* by hand: model - seed, and 100 x that / seed */
	assert_has(md, "| ref | 1946 | 1876–1988 | 1904 | -42 | -2.2% |\n");
	assert_has(md, "| memfix | 1349 | 1272–1444 | 1372 | +23 | +1.7% |\n");
	assert_has(md, "| patch2 | 1360 | 1316–1448 | 1292 | -68 | -5.0% |\n");
	assert_has(md, "| patch3 | 1206 | 1144–1248 | 1160 | -46 | -3.8% |\n");
	assert_has(md, "| patch4 | 918 | 876–956 | 896 | -22 | -2.4% |\n");
	assert_has(md, "- patch2: model lower than the seed's mean by 68 KiB (-5.0%); 24 KiB below");
	/* savings: (1904-1372) vs (1946-1349), (1292-1160) vs 154, (1160-896) vs 288 */
	assert_has(md, "| ref → memfix | 597 | 432–716 | 532 | -65 | -10.9% |\n");
	assert_has(md, "| patch2 → patch3 | 154 | 68–304 | 132 | -22 | -14.3% |\n");
	assert_has(md, "| patch3 → patch4 | 288 | 188–372 | 264 | -24 | -8.3% |\n");
	/* seed time beside sim time; deltas from the row above */
	assert_has(md, "| patch2 | 1.115 | -25 | 1071.400 | -26.7 |");
	assert_has(md, "| label_catmap_bytes | 20 | fitted | docs/cost-model.md |");
	assert_has(md, "| work_ns | 61.5 | fitted | docs/cost-model.md |");
	/* seed order for variants, traced first then sorted models, n/a for
	 * the missing run */
	assert_has(md, "| variant | seed | traced | kmem_cache | traced+FZPU |\n"
		       "| ------- | ---: | -----: | ---------: | ----------: |\n"
		       "| ref | 1946 | 1904 | 1236 | 11928 |\n"
		       "| memfix | 1349 | 1372 | 968 | 8152 |\n"
		       "| patch2 | 1360 | 1292 | 888 | n/a |\n");
	/* sections numbered as written: the seed's is 2 */
	assert_has(md, "## 2. Seed vs simulator");
	assert_has(md, "## 3. Fitted and inferred parameters");
	/* where the bytes go: 822.3 / 1904 KiB of rounding = 43.2% */
	assert_has(md, "| ref | traced | end | 849.6 | 822.3 | 0.0 | 0.0 | 231.4 | 0.8 | 1904.0 | 1904 | 43.2 |");
	/* runs without caches.csv and sites.csv (older ones): said so */
	assert_has(md, "No run has a caches.csv");
	/* latency per run, never pooled: ref/traced's 154500 allocs are
	 * 84975 at <= 32 ns, cum 131325 at 64, 146775 at 128, 152955 at 512,
	 * all at 2048: p50 = 32 (rank 77250), p90 = 128 (139050), p99 = 512
	 * (152955), p99.9 = 2048 (154346); its 102000 frees 61200 at 32, cum
	 * 91800 at 64, 100980 at 256, all at 1024 */
	assert_has(md, "| ref | traced | ≤ 32 | ≤ 128 | ≤ 512 | ≤ 2048 | ≤ 32 | ≤ 64 | ≤ 256 | ≤ 1024 | 154500 | 102000 |");
	/* runs from before the contention columns (2 CPUs): n/a */
	assert_has(md, "| ref | traced | 2 | 88.5 | n/a | n/a | n/a | n/a | n/a | n/a |");
	assert_null(strstr(md, "Every run here had one CPU"));
	free(md);
	tu_remove_tree(dir);
}

/* A model far from the seed: the report states each difference and
 * passes or fails nothing (a seed figure is a check, not a target). */
static void test_report_misses(void **state)
{
	char dir[64], *md;

	(void)state;
	workdir(dir, sizeof(dir));
	assert_int_equal(report(dir, "--seed-table", SEED_TABLE, "--compare-model",
				"kmem_cache", NULL), 0);
	md = report_md(dir);
	assert_has(md, "| ref | 1946 | 1876–1988 | 1236 | -710 | -36.5% |\n");
	assert_has(md, "| patch3 | 1206 | 1144–1248 | 888 | -318 | -26.4% |\n");
	assert_has(md, "| patch4 | 918 | 876–956 | 888 | -30 | -3.3% |\n");
	assert_has(md, "| patch2 → patch3 | 154 | 68–304 | 0 | -154 | -100.0% |\n");
	assert_null(strstr(md, "Verdict"));
	assert_null(strstr(md, "FAIL"));
	assert_null(strstr(md, "| pass |"));
	assert_null(strstr(md, "tolerance"));
	free(md);
	tu_remove_tree(dir);
}

/* A change of simulated time is taken from sim_time_ns when the runs have
 * it: sim_time_ms is rounded to 1 us, which made smack17k's patch3 and
 * patch4 changes (a few us) rounding steps. */
static void test_report_delta_unrounded(void **state)
{
	char dir[64], path[128], cmd[512], *s, *md;

	(void)state;
	workdir(dir, sizeof(dir));
	/* every run gets the column (sim_time_ms x 10^6), patch3 a value
	 * 412 ns off its rounded sim_time_ms */
	snprintf(cmd, sizeof(cmd), "for f in %s/runs/*/summary.csv; do "
		 "awk -F, 'NR == 1 {print $0 \",sim_time_ns\"} NR == 2 "
		 "{printf \"%%s,%%.1f\\n\", $0, $23 * 1e6}' $f > $f.new && mv $f.new $f; done",
		 dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/runs/patch3__traced/summary.csv", dir);
	patch_file(path, ",1069900000.0\n", ",1069900412.0\n");
	assert_int_equal(report(dir, "--seed-table", SEED_TABLE, NULL), 0);
	snprintf(path, sizeof(path), "%s/figures.csv", dir);
	s = slurp(path);
	assert_non_null(s);
	/* (1069900412 - 1071400000) ns, not 1069.900 - 1071.400 ms */
	assert_has(s, "delta_ms:patch3,ms,-1.499588,");
	free(s);
	md = report_md(dir);
	assert_has(md, "| patch3 | ");
	assert_has(md, "| 1069.900 | -1.5 |"); /* %+.4g of -1.499588 */
	free(md);
	tu_remove_tree(dir);
}

/* figures.csv: the seed-compared times (model traced) and their changes;
 * --sensitivity gives each its interval and top steps; --alt-runs the seed
 * table again for another set of runs. */
static void test_report_figures_sensitivity(void **state)
{
	char dir[64], path[128], alt[128], cmd[320], *s, *md;

	(void)state;
	workdir(dir, sizeof(dir));
	assert_int_equal(report(dir, "--seed-table", SEED_TABLE, NULL), 0);
	snprintf(path, sizeof(path), "%s/figures.csv", dir);
	s = slurp(path);
	assert_non_null(s);
	assert_has(s, "figure,unit,value,what\n");
	/* patch2 1071.4 ms, memfix 1098.1 ms (the fixture's sim_time_ms) */
	assert_has(s, "delta_ms:patch2,ms,-26.700000,");
	assert_has(s, "sim_ms:patch2,ms,1071.400000,");
	free(s);
	md = report_md(dir);
	assert_has(md, "No sensitivity.csv beside this report");
	free(md);
	snprintf(path, sizeof(path), "%s/sens.csv", dir);
	tu_write_text(path,
		      "figure,step,low,high,figure_at_low,figure_at_high,figure_base\n"
		      "sim_ms:patch2,alloc_fastpath,15,30,1070,1073,1071.4\n"
		      "sim_ms:patch2,clock_mhz,1000,1700,1080,1065,1071.4\n"
		      "sim_ms:patch2,set_track,200,2000,1071.4,1071.4,1071.4\n"
		      "sim_ms:patch2,all,,,1060,1090,1071.4\n");
	snprintf(alt, sizeof(alt), "%s/alt", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp -r %s/runs %s/", alt, FIXTURE, alt);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(report(dir, "--seed-table", SEED_TABLE, "--sensitivity", path,
				"--alt-runs", alt, NULL), 0);
	md = report_md(dir);
	/* the interval: the corners; the steps by swing, set_track (0) left out */
	assert_has(md, "| sim_ms:patch2 (ms) | 1071 | 1060–1090 | clock_mhz 1000–1700 (1080–1065); "
		       "alloc_fastpath 15–30 (1070–1073) |");
	assert_has(md, "| delta_ms:patch2 (ms) | -26.7 | n/a | not in sensitivity.csv |");
	assert_has(md, "### The seed's table under target ");
	free(md);
	/* a malformed sensitivity.csv is an error naming its line */
	tu_write_text(path, "figure,step,low,high,figure_at_low,figure_at_high,figure_base\n"
			    "x,y,1,2,a,3,4\n");
	assert_int_equal(report(dir, "--seed-table", SEED_TABLE, "--sensitivity", path, NULL), 1);
	tu_remove_tree(dir);
}

static void test_order_and_filter(void **state)
{
	char dir[64], path[128], *s;

	(void)state;
	workdir(dir, sizeof(dir));
	/* no seed table: sorted variants; --models picks and orders models */
	assert_int_equal(report(dir, "--models", "traced+FZPU traced", NULL), 0);
	s = report_md(dir);
	assert_null(strstr(s, "Seed vs simulator"));
	/* numbered as written: no seed section, so these are 2 */
	assert_has(s, "## 2. Fitted and inferred parameters");
	/* no fitted constant, but the runs' target declares its inferred
	 * parameters (allocators/targets/arm32-3.10.target) */
	assert_has(s, "| arm32-3.10: cache_line | 32 | inferred | the seed's own savings");
	assert_null(strstr(s, "| fitted |"));
	assert_has(s, "| variant | traced+FZPU | traced |\n"
		      "| ------- | ----------: | -----: |\n"
		      "| memfix | 8152 | 1372 |\n"
		      "| patch2 | n/a | 1292 |\n"
		      "| patch3 | 7532 | 1160 |\n"
		      "| patch4 | 6996 | 896 |\n"
		      "| ref | 11928 | 1904 |\n");
	assert_has(s, "Left out: 5 run directories");
	free(s);
	/* summary.csv: one header, then the 9 kept rows in that order */
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	s = slurp(path);
	assert_non_null(s);
	assert_true(!strncmp(s, "workload,variant,model,", 23));
	assert_has(s, "\nsmack17k,memfix,traced+FZPU,FZPU,");
	assert_true(strstr(s, "\nsmack17k,memfix,traced,") > strstr(s, "\nsmack17k,memfix,traced+FZPU,"));
	assert_true(strstr(s, "\nsmack17k,ref,traced,") > strstr(s, "\nsmack17k,patch4,traced,"));
	assert_null(strstr(s, "kmem_cache"));
	{
		int lines = 0;

		for (char *p = s; *p; p++)
			lines += *p == '\n';
		assert_int_equal(lines, 10);
	}
	free(s);
	/* --variants keeps a listed variant without runs as n/a */
	assert_int_equal(report(dir, "--variants", "patch4 ref nosuch", "--models",
				"traced", NULL), 0);
	s = report_md(dir);
	assert_has(s, "| variant | traced |\n| ------- | -----: |\n"
		      "| patch4 | 896 |\n| ref | 1904 |\n| nosuch | n/a |\n");
	free(s);
	tu_remove_tree(dir);
}

/* A run killed by SIGKILL or a crash leaves its staging directory
 * (runs/V__M.tmp.PID, half written): the report leaves it out instead of
 * failing on its missing summary.csv. */
static void test_staging_dir_skipped(void **state)
{
	char dir[64], path[128], *s;

	(void)state;
	workdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/runs/ref__traced.tmp.4242", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(report(dir, "--models", "traced", NULL), 0);
	s = report_md(dir);
	assert_null(strstr(s, ".tmp."));
	assert_has(s, "| ref | 1904 |");
	free(s);
	tu_remove_tree(dir);
}

static void test_plot_data(void **state)
{
	char dir[64], path[128], *s;

	(void)state;
	workdir(dir, sizeof(dir));
	assert_int_equal(report(dir, "--seed-table", SEED_TABLE, "--plot-data-only", NULL), 0);
	assert_false(exists(dir, "report.md"));
	assert_false(exists(dir, "summary.csv"));
	snprintf(path, sizeof(path), "%s/waste.dat", dir);
	s = slurp(path);
	assert_non_null(s);
	/* 870000 B / 1024 = 849.609 KiB ...; traced is model 0 (first), so
	 * ref's pairs of bars start the axis: x 0, 2, 4, centre (2 * 3 - 1) / 2 */
	assert_has(s, "\nref kmem_cache end ");
	assert_has(s, "\nref traced end 849.609 822.266 0.000 0.000 231.375 0.750 1904.000 0 0 0 0 0 2.5\n");
	/* the fixture has no peak columns: NaN at the peak */
	assert_has(s, "\nref traced peak NaN NaN NaN NaN NaN NaN NaN 0 0 0 1 1 2.5\n");
	/* patch2 ran two models: its cluster is one pair narrower, and its
	 * slot among traced+FZPU's runs skips it */
	assert_has(s, "\npatch4 traced+FZPU end 583.984 25.391 ");
	assert_has(s, " 6996.000 4 2 3 0 ");
	assert_null(strstr(s, "patch2 traced+FZPU"));
	free(s);
	snprintf(path, sizeof(path), "%s/latency.dat", dir);
	s = slurp(path);
	assert_non_null(s);
	/* panels (model, op), traced first then the models sorted, 5
	 * variants but 4 for traced+FZPU (no patch2 run); curves from block 2 on */
	assert_has(s, "\nmodel op first_block blocks name\n0 0 2 5 \"traced\"\n"
		      "0 1 7 5 \"traced\"\n1 0 12 5 \"kmem_cache\"\n1 1 17 5 \"kmem_cache\"\n"
		      "2 0 22 4 \"traced+FZPU\"\n2 1 26 4 \"traced+FZPU\"\n");
	/* curves in seed variant order: ref is block 2 of traced alloc */
	assert_has(s, "\n2 0 0 0 \"ref\"\n3 0 1 0 \"memfix\"\n");
	assert_null(strstr(s, "\"patch2 traced+FZPU\""));
	/* ref/traced allocs: 1 - CDF below each bucket, 154500 in all:
	 * 1, 1 - 84975/154500 = 0.45, 0.15, 0.05, 0.01 */
	assert_has(s, "\n\n\n\"ref traced\" ref traced alloc\n32 1 84975\n64 0.45 46350\n"
		      "128 0.15 15450\n512 0.05 6180\n2048 0.01 1545\n2048 0 0\n\n");
	/* block order: panel after panel */
	assert_true(strstr(s, "\"patch4 traced\" patch4 traced free") <
		    strstr(s, "\"ref kmem_cache\" ref kmem_cache alloc"));
	free(s);
	tu_remove_tree(dir);
}

/* Malformed inputs: exit 1, the error names file:line, nothing written. */
static void expect_bad_input(const char *dir, const char *want)
{
	char runs[128];
	struct ss_error err = {{0}};
	struct ss_report_results res;

	assert_int_equal(report(dir, "--seed-table", SEED_TABLE, NULL), 1);
	assert_false(exists(dir, "report.md"));
	assert_false(exists(dir, "summary.csv"));
	assert_false(exists(dir, "waste.dat"));
	assert_false(exists(dir, "latency.dat"));
	snprintf(runs, sizeof(runs), "%s", dir);
	assert_int_equal(ss_report_load_results(runs, "smack17k", &res, &err), -1);
	ss_report_results_free(&res);
	if (!strstr(err.msg, want))
		fail_msg("error '%s', want '%s'", err.msg, want);
}

static void test_malformed(void **state)
{
	char dir[64], path[160], cmd[320];

	(void)state;
	workdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/runs/ref__traced/summary.csv", dir);
	patch_file(path, ",1904,", ",19x04,");
	expect_bad_input(dir, "ref__traced/summary.csv:2: column 'footprint_kib': '19x04' is not a number");
	patch_file(path, ",19x04,", ",1908,");
	expect_bad_input(dir, "ref__traced/summary.csv:2: footprint_kib 1908.000 KiB != sum of the six parts 1904.000 KiB");
	patch_file(path, ",1908,", ",1904,");
	patch_file(path, ",ref,traced,", ",memfix,traced,");
	expect_bad_input(dir, "ref__traced/summary.csv:2: variant 'memfix' does not match the run directory's 'ref'");
	patch_file(path, ",memfix,traced,", ",ref,traced,");
	patch_file(path, ",88.5\n", "\n");
	expect_bad_input(dir, "ref__traced/summary.csv:2: 31 fields, header has 32");
	patch_file(path, ",256\n", ",256,88.5\n");
	assert_int_equal(report(dir, NULL), 0); /* repaired */

	/* A failed report removes the previous outputs, so the old report.md
	 * cannot pass for this one, and leaves no temporary files. */
	assert_true(exists(dir, "report.md"));
	snprintf(path, sizeof(path), "%s/runs/patch3__traced/latency.csv", dir);
	patch_file(path, "alloc,128,", "alloc,64,");
	assert_int_equal(report(dir, "--seed-table", SEED_TABLE, NULL), 1);
	assert_false(exists(dir, "report.md"));
	assert_false(exists(dir, "figures.csv"));
	snprintf(cmd, sizeof(cmd), "ls %s | grep -q tmp", dir);
	assert_int_not_equal(system(cmd), 0);
	expect_bad_input(dir, "patch3__traced/latency.csv:4: alloc bucket ns 64 is not above the previous one");
	patch_file(path, "alloc,64,6950", "malloc,128,6950");
	expect_bad_input(dir, "patch3__traced/latency.csv:4: op 'malloc' is not alloc or free");
	tu_remove_tree(dir);

	/* a seed table error is bad input too */
	workdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/seed.csv", dir);
	tu_write_text(path, "variant,what_changed,diff_avg_kib,diff_min_kib,diff_max_kib,time_avg_s\nref,x,1,2,3\n");
	assert_int_equal(report(dir, "--seed-table", path, NULL), 1);
	assert_false(exists(dir, "report.md"));
	tu_remove_tree(dir);
}

#define PEAK_COLS "peak_footprint_kib,peak_requested_bytes,peak_padding_bytes," \
	"peak_rounding_bytes,peak_align_bytes,peak_debug_bytes,peak_free_slot_bytes," \
	"peak_slab_tail_bytes,peak_event"

/* kmalloc-32: 32768 objects of 16.4 bytes asked for, 32 given; smack_rule:
 * 20-byte objects in a 24-byte stride.  space = requested + rounding +
 * align + debug + free slots + lpadd. */
#define CACHES_CSV \
	"name,object_size,slab_size,objs_per_slab,order,objects,total_objects,slabs," \
	"partial_slabs,cpu_slabs,space_bytes,loss_bytes,lalig_bytes,lpadd_bytes," \
	"efficiency_pct,debug,requested_bytes,rounding_bytes,align_bytes,debug_bytes," \
	"free_slot_bytes\n" \
	"kmalloc-32,32,32,128,0,32768,32768,256,0,1,1048576,0,0,0,100.00,-,536576,512000,0,0,0\n" \
	"smack_rule,20,24,170,0,2048,2040,12,0,1,49152,8192,8192,0,83.33,-,40960,0,8192,0,0\n"
#define SITES_CSV \
	"site,cache,allocs,frees,requested_bytes,allocated_bytes,frag_pct,cross_cpu_frees," \
	"live_objects,peak_live_objects,live_requested_bytes,rounding_bytes,align_bytes," \
	"debug_bytes\n" \
	"smk_set_access,kmalloc-32,40000,7232,655360,1280000,48.80,0,32768,32768,536576,512000,0,0\n" \
	"smk_rule,smack_rule,2048,0,40960,40960,0.00,0,2048,2048,40960,0,8192,0\n"

/* A fixture copy in dir with only ref__traced's run; its summary.csv's
 * path in path. */
static void only_ref_traced(char *dir, size_t dn, char *path, size_t pn)
{
	char cmd[320];

	workdir(dir, dn);
	snprintf(cmd, sizeof(cmd), "rm -rf %s/runs/[mp]* %s/runs/*+FZPU %s/runs/ref__kmem_cache",
		 dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, pn, "%s/runs/ref__traced/summary.csv", dir);
}

/* A run with the contention columns and a locks.csv: how much it waited,
 * which share of its allocator time (1.749 of 6.996 ms = 25.0%), and the
 * two locks waited for most, largest first. */
static void test_contention_table(void **state)
{
	char dir[64], path[160], *md;

	(void)state;
	only_ref_traced(dir, sizeof(dir), path, sizeof(path));
	patch_file(path, ",fastpath_pct\n", ",fastpath_pct,lock_wait_ms,lock_waits,"
		   "cmpxchg_retries,remote_line_transfers\n");
	patch_file(path, ",88.5\n", ",88.5,1.749,120,7,9000\n");
	snprintf(path, sizeof(path), "%s/runs/ref__traced/locks.csv", dir);
	tu_write_text(path, "cache,resource,uses,waits,retries,wait_ms,hold_ms\n"
			    "kmalloc-32,list_lock,900,20,0,0.249000,1.000000\n"
			    "kmalloc-32,cmpxchg_double,5000,0,7,0.000000,0.000000\n"
			    "smack_rule,list_lock,800,90,0,1.200000,2.000000\n"
			    "smack_rule,slab_lock,100,10,0,0.300000,0.100000\n");
	assert_int_equal(report(dir, NULL), 0);
	md = report_md(dir);
	assert_has(md, "| ref | traced | 2 | 88.5 | 1.749 | 25.0 | 120 | 7 | 9000 | "
		       "smack_rule list_lock 1.200, smack_rule slab_lock 0.300 |");
	free(md);
	/* a malformed locks.csv is an error naming it */
	tu_write_text(path, "cache,resource,uses,waits,retries,wait_ms,hold_ms\n"
			    "kmalloc-32,list_lock,900,20,0,-1,1\n");
	assert_int_equal(report(dir, NULL), 1);
	tu_remove_tree(dir);
}

/* Section 1 states what each run used, read from its kernel.txt and
 * summary.csv; runs that disagree are named with each value; a capture's
 * own target (--capture-target) is said to be it, or the runs a what-if. */
static void test_settings_from_runs(void **state)
{
	char dir[64], path[200], *md;

	(void)state;
	workdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/runs/ref__traced/kernel.txt", dir);
	tu_write_text(path, "target=arm32-3.10\nera=3.10\nallocator=slab\nconfig=CONFIG_KFENCE=y\n"
			    "cpus=2\ntopology=flat: 2 PUs\ncosts=my.costs\ntrace=ref.trace\n");
	snprintf(path, sizeof(path), "%s/runs/ref__kmem_cache/kernel.txt", dir);
	tu_write_text(path, "target=arm32-3.10\nera=3.10\nallocator=slab\nconfig=CONFIG_KFENCE=y\n"
			    "cpus=8\ntopology=flat: 8 PUs\ncosts=my.costs\ntrace=ref.trace\n"
			    "initial_state=before.txt\n");
	assert_int_equal(report(dir, "--variants", "ref", "--models", "traced kmem_cache", NULL), 0);
	md = report_md(dir);
	assert_has(md, "- Kernel: slab, options: CONFIG_KFENCE=y\n");
	assert_has(md, "- Cost table: my.costs\n");
	/* the fixture's summary.csv says 2 CPUs for both: the topology differs */
	assert_has(md, "- CPUs: differs between runs: 2 (flat: 2 PUs) (ref__traced); "
		       "2 (flat: 8 PUs) (ref__kmem_cache)\n");
	assert_has(md, "- Initial state: before.txt\n");
	free(md);
	/* a capture's own target, and a what-if on another */
	snprintf(path, sizeof(path), "%s/pick.txt", dir);
	tu_write_text(path, "target=arm32-3.10\nconfig=\nwhy=its kernel 3.10.1: the rule\n");
	assert_int_equal(report(dir, "--variants", "ref", "--models", "traced", "--capture-target",
				path, NULL), 0);
	md = report_md(dir);
	assert_has(md, "- Target chosen from the capture: its kernel 3.10.1: the rule\n");
	free(md);
	tu_write_text(path, "target=x86_64-6.18\nconfig=\nwhy=its kernel 6.18.2: the rule\n");
	assert_int_equal(report(dir, "--variants", "ref", "--models", "traced", "--capture-target",
				path, NULL), 0);
	md = report_md(dir);
	assert_has(md, "- The capture's own target would be x86_64-6.18 (its kernel 6.18.2: the rule); "
		       "these runs are a what-if on another\n");
	free(md);
	/* model names as the registry spells them */
	assert_int_equal(report(dir, "--variants", "ref", "--models", "kmem-cache", NULL), 0);
	md = report_md(dir);
	assert_has(md, "- Models (slub_debug): kmem_cache (-)");
	free(md);
	tu_remove_tree(dir);
}

static void test_optional_columns(void **state)
{
	char dir[64], path[160], *md;

	(void)state;
	only_ref_traced(dir, sizeof(dir), path, sizeof(path));
	patch_file(path, ",fastpath_pct\n", ",fastpath_pct,rules,labels\n");
	patch_file(path, ",88.5\n", ",88.5,17000,500\n");
	assert_int_equal(report(dir, "--command", "make sim WORKLOAD=smack17k SEED=7", NULL), 0);
	md = report_md(dir);
	assert_has(md, "- Command: `make sim WORKLOAD=smack17k SEED=7`");
	assert_has(md, "- Target: arm32-3.10 (kernel era 3.10)\n");
	assert_has(md, "- CPUs: 2\n");
	assert_has(md, "- Rules loaded: 17000\n- Labels: 500\n");
	assert_has(md, "- Runs: 1 (1 variants × 1 models)");
	free(md);

	/* the peak columns: a second row in "Where the bytes go", checked
	 * like the end (the six parts add up to the peak footprint) */
	patch_file(path, ",rules,labels\n", ",rules,labels," PEAK_COLS "\n");
	patch_file(path, ",17000,500\n", ",17000,500,2000,900000,860000,850000,10000,0,286000,2000,1234\n");
	assert_int_equal(report(dir, NULL), 0);
	md = report_md(dir);
	assert_has(md, "| ref | traced | peak, event 1234 | 878.9 | 830.1 | 9.8 | 0.0 | 279.3 | 2.0 | 2000.0 | 2000 | 42.0 |");
	assert_has(md, "At the peak (the most slab memory held at once):");
	free(md);
	patch_file(path, ",286000,2000,1234\n", ",286000,2001,1234\n");
	assert_int_equal(report(dir, NULL), 0); /* within half a KiB */
	patch_file(path, ",286000,2001,1234\n", ",296000,2001,1234\n");
	assert_int_equal(report(dir, NULL), 1);
	patch_file(path, ",296000,2001,1234\n", ",286000,2000,1234\n");
	patch_file(path, ",17000,500,2000,", ",17000,500,1000,");
	assert_int_equal(report(dir, NULL), 1); /* peak below the end */
	patch_file(path, ",17000,500,1000,", ",17000,500,2000,");

	/* caches.csv and sites.csv: ranked by waste, rounding included */
	snprintf(path, sizeof(path), "%s/runs/ref__traced/caches.csv", dir);
	tu_write_text(path, CACHES_CSV);
	snprintf(path, sizeof(path), "%s/runs/ref__traced/sites.csv", dir);
	tu_write_text(path, SITES_CSV);
	assert_int_equal(report(dir, NULL), 0);
	md = report_md(dir);
	/* kmalloc-32: no slabinfo Loss, 500 KiB of rounding: ranked first */
	assert_has(md, "| ref | traced | kmalloc-32 | 32768 | 32 | 524.0 | 500.0 | 0.0 | 0.0 | 0.0 | 0.0 | 500.0 | 49 | 0.0 |\n"
		       "| ref | traced | smack_rule | 2048 | 20 | 40.0 | 0.0 | 8.0 | 0.0 | 0.0 | 0.0 | 8.0 | 17 | 8.0 |");
	assert_has(md, "| ref | traced | smk_set_access | kmalloc-32 | 32768 (32768) | 40000 | 524.0 | 500.0 | 0.0 | 0.0 | 500.0 | 48.8 |");
	free(md);
	snprintf(path, sizeof(path), "%s/runs/ref__traced/sites.csv", dir);
	patch_file(path, "smk_set_access,kmalloc-32,40000,7232,", "smk_set_access,kmalloc-32,40000,7231,");
	assert_int_equal(report(dir, NULL), 1); /* live is not allocs - frees */
	tu_remove_tree(dir);
}

static void test_bad_options(void **state)
{
	char dir[64];

	(void)state;
	workdir(dir, sizeof(dir));
	assert_int_equal(report(dir, "--bogus", NULL), 2);
	assert_int_equal(report(dir, "--variants", "a a", NULL), 2);
	assert_int_equal(report(dir, "--variants", "a/b", NULL), 2);
	assert_int_equal(report(dir, "--models", "", NULL), 2);
	assert_int_equal(report(dir, "--calibration", "x=1 y", NULL), 2);
	assert_int_equal(report(dir, "--calibration", "=1", NULL), 2);
	assert_int_equal(report(dir, "--seed-table", NULL), 2);
	{
		char *argv[] = {"report", "--dir", dir, NULL};

		assert_int_equal(ss_cmd_report(3, argv), 2);
	}
	{
		char *argv[] = {"report", "--workload", "a b", "--dir", dir, NULL};

		assert_int_equal(ss_cmd_report(5, argv), 2);
	}
	assert_false(exists(dir, "report.md"));
	/* --name=value works too; a workload the rows do not name is bad input */
	{
		char opt[96];
		char *argv[] = {"report", "--workload=other", opt, NULL};

		snprintf(opt, sizeof(opt), "--dir=%s", dir);
		assert_int_equal(ss_cmd_report(3, argv), 1);
	}
	assert_false(exists(dir, "report.md"));
	tu_remove_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_footprint),
		cmocka_unit_test(test_check_saving),
		cmocka_unit_test(test_explanations),
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_seed_table),
		cmocka_unit_test(test_seed_errors),
		cmocka_unit_test(test_report_seed_section),
		cmocka_unit_test(test_report_delta_unrounded),
		cmocka_unit_test(test_report_misses),
		cmocka_unit_test(test_report_figures_sensitivity),
		cmocka_unit_test(test_order_and_filter),
		cmocka_unit_test(test_staging_dir_skipped),
		cmocka_unit_test(test_plot_data),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_optional_columns),
		cmocka_unit_test(test_settings_from_runs),
		cmocka_unit_test(test_contention_table),
		cmocka_unit_test(test_bad_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
