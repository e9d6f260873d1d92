/* test_report_kernel.c - the figures of "The live kernel and the
 * simulator" (analysis/report_kernel.c): signed changes, errors against
 * the kernel's change, which caches are held to the bounds and whether
 * they are within them, and kernel.csv from real files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "report_kernel.h"
#include "test_util.h"

static void test_figures(void **state)
{
	struct ss_report_kernel_row r = {.k_obj0 = 10000, .k_obj1 = 8000, .m_obj1 = 8150,
				  .k_slab0 = 500, .k_slab1 = 400, .m_slab1 = 410};
	(void)state;

	/* changes are signed: a cache that shrank is negative, never wrapped */
	assert_int_equal(ss_report_kernel_delta(10000, 8000), -2000);
	assert_int_equal(ss_report_kernel_delta(8000, 10000), 2000);
	assert_int_equal(ss_report_kernel_delta(0, 0), 0);
	/* model -1850 against kernel -2000: 7.5% short of the change */
	assert_true(fabs(ss_report_kernel_err_pct(-2000, -1850) - 7.5) < 1e-9);
	assert_true(fabs(ss_report_kernel_err_pct(2000, 2300) - 15.0) < 1e-9);
	assert_true(isnan(ss_report_kernel_err_pct(0, 5)));
	assert_true(ss_report_kernel_row_held(&r));
	assert_true(ss_report_kernel_row_ok(&r)); /* -7.5% objects, -10% slabs */
	r.m_slab1 = 420; /* -80 slabs against -100: -20% */
	assert_false(ss_report_kernel_row_ok(&r));
	/* slabs that did not move on either side are right; moving when the
	 * kernel's did not is not */
	r.k_slab1 = r.m_slab1 = 500;
	assert_true(ss_report_kernel_row_ok(&r));
	r.m_slab1 = 501;
	assert_false(ss_report_kernel_row_ok(&r));
	/* below the threshold a cache is not held to the bounds */
	r.k_obj1 = r.k_obj0 + SS_REPORT_KERNEL_MIN_DELTA - 1;
	assert_false(ss_report_kernel_row_held(&r));
	r.k_obj1 = r.k_obj0 - SS_REPORT_KERNEL_MIN_DELTA;
	assert_true(ss_report_kernel_row_held(&r));
}

/* A test's snapshot paths and run directory, named after tag. */
struct kfiles {
	char before[TU_PATH_MAX], after[TU_PATH_MAX], run[TU_PATH_MAX];
};

static void kfiles_init(struct kfiles *kf, const char *tag)
{
	char name[64];

	snprintf(name, sizeof(name), "%s-before", tag);
	tu_path(kf->before, sizeof(kf->before), name);
	snprintf(name, sizeof(name), "%s-after", tag);
	tu_path(kf->after, sizeof(kf->after), name);
	snprintf(name, sizeof(name), "%s-run", tag);
	tu_path(kf->run, sizeof(kf->run), name);
	mkdir(kf->run, 0755);
}

/* The section, and kernel.csv after it when csv_too, as one string (the
 * caller frees it). */
static char *written(const struct ss_report_kernel *k, bool csv_too)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(ss_report_kernel_write_md(fp, k), 0);
	if (csv_too)
		assert_int_equal(ss_report_kernel_write_csv(fp, k), 0);
	fclose(fp);
	return buf;
}

static void test_load_and_csv(void **state)
{
	struct kfiles kf;
	char f[TU_PATH_MAX + 32];
	struct ss_report_kernel k;
	struct ss_error err;
	FILE *fp;
	char line[1024], *buf;
	(void)state;

	kfiles_init(&kf, "lc");
	tu_write_text(kf.before, "slabinfo - version: 2.1\n"
			      "dentry 146829 147672 192 21 1 : tunables 0 0 0 : slabdata 7032 7032 0\n"
			      "filp 900 924 192 21 1 : tunables 0 0 0 : slabdata 44 44 0\n");
	tu_write_text(kf.after, "slabinfo - version: 2.1\n"
			     "dentry 19000 20006 192 21 1 : tunables 0 0 0 : slabdata 953 953 0\n"
			     "filp 910 924 192 21 1 : tunables 0 0 0 : slabdata 44 44 0\n");
	snprintf(f, sizeof(f), "%s/slabinfo", kf.run);
	tu_write_text(f, "slabinfo - version: 2.1\n"
			 "dentry 18000 19005 192 21 1 : tunables 0 0 0 : slabdata 905 905 0\n");
	snprintf(f, sizeof(f), "%s/settled.csv", kf.run);
	tu_write_text(f, "cache,site,objects\ndentry,d_alloc+0x1,7\n");
	/* 42 dentries freed that no event allocated (import, meta
	 * untraced_allocs): a note, and kernel.csv's last column */
	snprintf(f, sizeof(f), "%s/prior.csv", kf.run);
	tu_write_text(f, "cache,from_snapshot,prior_live,prior_freed,prior_missing,"
			 "kslabs_seen_freed,untraced_allocs\ndentry,1,100,5,0,0,42\n");
	assert_int_equal(ss_report_kernel_load(&k, kf.before, kf.after, kf.run, "traced", &err), 0);
	assert_int_equal(k.settled, 7);
	assert_int_equal(k.rows[0].untraced_allocs, 42);
	assert_int_equal(k.rows[0].prior_freed, 5);
	assert_string_equal(k.rows[0].name, "dentry"); /* largest change first */
	assert_int_equal(k.rows[0].settled, 7);
	/* filp: not in the replay, it kept its initial state */
	assert_string_equal(k.rows[1].name, "filp");
	assert_false(k.rows[1].in_model);
	assert_int_equal(k.rows[1].m_obj1, 900);
	tu_path(f, sizeof(f), "kernel.csv");
	fp = fopen(f, "w+");
	assert_non_null(fp);
	assert_int_equal(ss_report_kernel_write_csv(fp, &k), 0);
	rewind(fp);
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_non_null(fgets(line, sizeof(line), fp));
	/* dentry: -127829 in the kernel, -128829 in the model: -0.78% */
	assert_non_null(strstr(line, "dentry,146829,19000,18000,-127829,-128829,-0.78,"));
	assert_non_null(strstr(line, ",42,0,0,0,0,0,0,0,0,0,0,,,,0\n")); /* (no CPU slab columns in its prior.csv, no sheaves) */
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_non_null(strstr(line, "filp,900,910,900,10,0,-100.00,44,44,44,0,0,,0,0,0,"));
	fclose(fp);
	buf = written(&k, false);
	assert_non_null(strstr(buf, "42 freed that no event allocated (the kernel may hold more)"));
	free(buf);
	ss_report_kernel_free(&k);
	/* a missing run slabinfo names the file */
	assert_int_equal(ss_report_kernel_load(&k, kf.before, kf.after, "/nonexistent", "traced", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/slabinfo"));
}

/* A /proc/slabinfo 2.1 file at path: the header, then rows. */
static void slabinfo_file(const char *path, const char *rows)
{
	char text[1024];

	snprintf(text, sizeof(text), "slabinfo - version: 2.1\n%s", rows);
	tu_write_text(path, text);
}

/* The CPU slabs' free slots after (a slab-fill file read after the
 * after-snapshot, and prior.csv cpu_free_end): `objects` counts them as
 * in use, so a miss of a few hundred kmalloc-16 objects can be what the
 * CPU freelists held at the end; the note and kernel.csv give the change
 * of the objects really in use. */
static void test_cpu_free_after(void **state)
{
	struct kfiles kf;
	char f[TU_PATH_MAX + 32], fill[TU_PATH_MAX], *buf;
	struct ss_report_kernel k;
	struct ss_error err;
	(void)state;

	kfiles_init(&kf, "cfa");
	slabinfo_file(kf.before, "kmalloc-16 10000 10240 16 256 1 : tunables 0 0 0 : slabdata 40 40 0\n");
	slabinfo_file(kf.after, "kmalloc-16 7700 8192 16 256 1 : tunables 0 0 0 : slabdata 32 32 0\n");
	snprintf(f, sizeof(f), "%s/slabinfo", kf.run);
	slabinfo_file(f, "kmalloc-16 7950 8192 16 256 1 : tunables 0 0 0 : slabdata 32 32 0\n");
	snprintf(f, sizeof(f), "%s/prior.csv", kf.run);
	tu_write_text(f, "cache,from_snapshot,prior_live,prior_freed,prior_missing,kslabs_seen_freed,"
			 "untraced_allocs,cpu_free_estimated,cpu_free_measured,cpu_free_end\n"
			 "kmalloc-16,1,100,5,0,0,0,0,100,400\n");
	/* CPU 0: 100 on its freelist, 6 free on its partial slab; CPU 1: 56 */
	tu_path(fill, sizeof(fill), "cfa-fill-after");
	tu_write_text(fill, "slabsim-slabfill 2 nodes=1 cpus=2\n"
			    "cache=kmalloc-16\n"
			    "n 0 ffffea0000000040 ffff888000001000 200 256\n"
			    "c 0 ffffea0000000080 0 256 256 100\n"
			    "p 0 ffffea00000000c0 ffff888000003000 250 256\n"
			    "c 1 ffffea0000000100 0 256 256 56\n");
	assert_int_equal(ss_report_kernel_load(&k, kf.before, kf.after, kf.run, "traced", &err), 0);
	/* -2050 against -2300: +10.9%, a miss in `objects` */
	assert_false(ss_report_kernel_row_within(&k.rows[0]));
	buf = written(&k, true);
	assert_null(strstr(buf, "after, the CPU slabs had")); /* no file read yet */
	assert_non_null(strstr(buf, ",0,,400,,0\n")); /* (the kernel's unknown: empty) */
	free(buf);
	assert_int_equal(ss_report_kernel_load_fill_after(&k, fill, &err), 0);
	assert_true(k.rows[0].k_cpu_free1_known);
	assert_int_equal(k.rows[0].k_cpu_free1, 162);
	/* in use: kernel -2300 - (162 - 100) = -2362, model -2050 - (400 -
	 * 100) = -2350: +0.5% */
	buf = written(&k, true);
	assert_non_null(strstr(buf, "after, the CPU slabs had 162 free slots in the kernel and 400 "
				    "in the model, counted in `objects` as in use: the objects in "
				    "use changed by -2362 and -2350 (+0.5%)"));
	assert_non_null(strstr(buf, ",0,162,400,0.51,0\n"));
	free(buf);
	ss_report_kernel_free(&k);
	/* a CPU freelist walk that failed: that cache's figure unknown */
	tu_write_text(fill, "slabsim-slabfill 2 nodes=1 cpus=2\n"
			    "cache=kmalloc-16\n"
			    "c 0 ffffea0000000080 0 256 256 -\n");
	assert_int_equal(ss_report_kernel_load(&k, kf.before, kf.after, kf.run, "traced", &err), 0);
	assert_int_equal(ss_report_kernel_load_fill_after(&k, fill, &err), 0);
	assert_false(k.rows[0].k_cpu_free1_known);
	buf = written(&k, true);
	assert_null(strstr(buf, "after, the CPU slabs had"));
	free(buf);
	/* a bad line: refused, naming file and line */
	tu_write_text(fill, "slabsim-slabfill 2 nodes=1 cpus=2\ncache=kmalloc-16\nc 0 zz\n");
	assert_int_equal(ss_report_kernel_load_fill_after(&k, fill, &err), -1);
	assert_non_null(strstr(err.msg, "cfa-fill-after:3"));
	ss_report_kernel_free(&k);
}

/* A held cache that misses, not settled: the note gives the free slots
 * its initial state put on CPU slabs (prior.csv), which `objects` counts
 * as in use on both sides; kernel.csv carries both counts. */
static void test_cpu_free_note(void **state)
{
	static const char dentry0[] = "dentry 146829 147672 192 21 1 : tunables 0 0 0 : slabdata 7032 7032 0\n";
	static const char dentry1[] = "dentry 19000 20006 192 21 1 : tunables 0 0 0 : slabdata 953 953 0\n";
	struct kfiles kf;
	char f[TU_PATH_MAX + 32], *buf;
	struct ss_report_kernel k;
	struct ss_error err;
	(void)state;

	kfiles_init(&kf, "cf");
	slabinfo_file(kf.before, dentry0);
	slabinfo_file(kf.after, dentry1);
	snprintf(f, sizeof(f), "%s/slabinfo", kf.run);
	slabinfo_file(f, "dentry 5000 5019 192 21 1 : tunables 0 0 0 : slabdata 239 239 0\n");
	snprintf(f, sizeof(f), "%s/prior.csv", kf.run);
	tu_write_text(f, "cache,from_snapshot,prior_live,prior_freed,prior_missing,kslabs_seen_freed,"
			 "untraced_allocs,cpu_free_estimated,cpu_free_measured\n"
			 "dentry,1,100,5,0,0,0,30,12\n");
	assert_int_equal(ss_report_kernel_load(&k, kf.before, kf.after, kf.run, "traced", &err), 0);
	assert_true(ss_report_kernel_row_held(&k.rows[0]));
	assert_false(ss_report_kernel_row_within(&k.rows[0]));
	buf = written(&k, true);
	assert_non_null(strstr(buf, "CPU slabs started with 30 free slots by SLUB's half-full "
				    "estimate and 12 measured"));
	assert_non_null(strstr(buf, ",0,30,12,0,0,0,0,0,0,0,0,,,,0\n"));
	assert_null(strstr(buf, "frees that took initial objects")); /* no untraced_allocs */
	free(buf);
	ss_report_kernel_free(&k);
	/* with tasks that allocated unseen (untraced_allocs): the objects'
	 * change had the 5 frees of initial objects been of theirs,
	 * -141,829 + 5 */
	snprintf(f, sizeof(f), "%s/prior.csv", kf.run);
	tu_write_text(f, "cache,from_snapshot,prior_live,prior_freed,prior_missing,kslabs_seen_freed,"
			 "untraced_allocs,cpu_free_estimated,cpu_free_measured\n"
			 "dentry,1,100,5,0,0,42,30,12\n");
	assert_int_equal(ss_report_kernel_load(&k, kf.before, kf.after, kf.run, "traced", &err), 0);
	buf = written(&k, true);
	assert_non_null(strstr(buf, "42 freed that no event allocated (the kernel may hold more); "
				    "if the 5 frees that took initial objects were of objects such "
				    "tasks allocated, the model's change would be -141824"));
	free(buf);
	ss_report_kernel_free(&k);
	/* within: no such note */
	snprintf(f, sizeof(f), "%s/slabinfo", kf.run);
	slabinfo_file(f, dentry1);
	assert_int_equal(ss_report_kernel_load(&k, kf.before, kf.after, kf.run, "traced", &err), 0);
	assert_true(ss_report_kernel_row_within(&k.rows[0]));
	buf = written(&k, false);
	assert_null(strstr(buf, "CPU slabs started"));
	assert_null(strstr(buf, "frees that took initial objects")); /* within */
	free(buf);
	ss_report_kernel_free(&k);
}

/* prior.csv at path: head (its columns, ending in a newline) with cols
 * added, then row; and the run loaded with it. */
static int load_prior(struct ss_report_kernel *k, const struct kfiles *kf, const char *path,
		      const char *head, const char *cols, const char *row, struct ss_error *err)
{
	char text[1024];

	snprintf(text, sizeof(text), "%.*s%s\n%s", (int)strlen(head) - 1, head, cols, row);
	tu_write_text(path, text);
	return ss_report_kernel_load(k, kf->before, kf->after, kf->run, "traced", err);
}

/* A held cache whose slabs miss and whose objects do not: the note says
 * what the trace tells of the kernel slabs its frees of initial objects
 * came from (prior.csv), not the CPU slabs' free slots, which move the
 * objects; kernel.csv carries the four counts.  A count of whole slabs
 * above the slabs freed from cannot be and is refused. */
static void test_kslab_note(void **state)
{
	static const char dentry0[] = "dentry 146829 147672 192 21 1 : tunables 0 0 0 : slabdata 7032 7032 0\n";
	static const char dentry1[] = "dentry 19000 20006 192 21 1 : tunables 0 0 0 : slabdata 953 953 0\n";
	static const char head[] = "cache,from_snapshot,prior_live,prior_freed,prior_missing,"
				   "kslabs_seen_freed,untraced_allocs,cpu_free_estimated,"
				   "cpu_free_measured,kslabs_freed_from,kslabs_whole,"
				   "prior_slabs_not_full,prior_slabs_freed\n";
	struct kfiles kf;
	char f[TU_PATH_MAX + 32], *buf;
	struct ss_report_kernel k;
	struct ss_error err;
	(void)state;

	kfiles_init(&kf, "ks");
	slabinfo_file(kf.before, dentry0);
	slabinfo_file(kf.after, dentry1);
	snprintf(f, sizeof(f), "%s/slabinfo", kf.run);
	/* objects -127,329 against -127,829 (within); slabs -5,032 against
	 * -6,079 (+17.2%: a miss) */
	slabinfo_file(f, "dentry 19500 42000 192 21 1 : tunables 0 0 0 : slabdata 2000 2000 0\n");
	snprintf(f, sizeof(f), "%s/prior.csv", kf.run);
	assert_int_equal(load_prior(&k, &kf, f, head, "",
				    "dentry,1,100,127000,0,0,0,30,12,6500,5000,700,5032\n", &err), 0);
	assert_true(ss_report_kernel_row_objects_ok(&k.rows[0]));
	assert_false(ss_report_kernel_row_slabs_ok(&k.rows[0]));
	buf = written(&k, true);
	assert_non_null(strstr(buf, "the trace freed initial objects from 6500 of the kernel's "
				    "slabs, 5000 of which held a whole slab; how full the other 1500 "
				    "were the snapshot does not say (700 slabs started partial): the "
				    "model freed 5032 of its initial slabs"));
	assert_null(strstr(buf, "CPU slabs started"));
	assert_non_null(strstr(buf, ",0,30,12,0,6500,5000,700,5032,0,0,0,,,,0\n"));
	free(buf);
	ss_report_kernel_free(&k);
	assert_int_equal(load_prior(&k, &kf, f, head, "",
				    "dentry,1,100,127000,0,0,0,30,12,10,11,700,5032\n", &err), -1);
	assert_non_null(strstr(err.msg, "prior.csv:2: kslabs_whole 11 is more than kslabs_freed_from 10"));
	ss_report_kernel_free(&k);
	/* a run that took initial objects with their kernel slab's pages
	 * (prior_freed_unseen, a later column) says how many */
	assert_int_equal(load_prior(&k, &kf, f, head, ",prior_freed_unseen",
				    "dentry,1,100,127000,0,0,0,30,12,6500,5000,700,5032,41\n", &err), 0);
	buf = written(&k, true);
	assert_non_null(strstr(buf, "41 initial objects left with their kernel slab's pages (no free event)"));
	free(buf);
	ss_report_kernel_free(&k);
	/* with the kernel's own list (slab-fill): the slabs it listed are
	 * known, not among those the snapshot says nothing of, and the frees
	 * beyond what they held are named; kernel.csv carries both */
	assert_int_equal(load_prior(&k, &kf, f, head, ",prior_freed_unseen,kslabs_listed,"
				    "prior_listed_unseen",
				    "dentry,1,100,127000,0,0,0,30,12,6500,5000,700,5032,0,1200,281\n", &err), 0);
	buf = written(&k, true);
	assert_non_null(strstr(buf, "5000 of which held a whole slab and 1200 of which were on the node "
				    "partial list, their fill measured (slab-fill); the other 300 were "
				    "full or CPU slabs when the list was read"));
	assert_non_null(strstr(buf, "281 frees of listed kernel slabs beyond the objects they held "
				    "when listed (all but one, where the slab outlived them): "
				    "allocated there with no event, dropped"));
	assert_non_null(strstr(buf, ",0,30,12,0,6500,5000,700,5032,1200,281,0,,,,0\n"));
	free(buf);
	ss_report_kernel_free(&k);
	/* the CPU slabs listed too (slab-fill 2): the others were full */
	assert_int_equal(load_prior(&k, &kf, f, head,
				    ",prior_freed_unseen,kslabs_listed,prior_listed_unseen,cpu_slabs_listed",
				    "dentry,1,100,127000,0,0,0,30,12,6500,5000,700,5032,0,1200,281,14\n", &err), 0);
	buf = written(&k, true);
	assert_non_null(strstr(buf, "1200 of which were on the node partial list or a CPU's, their "
				    "fill measured (slab-fill); the other 300 were full when the lists "
				    "were read (700 slabs started partial)"));
	assert_null(strstr(buf, "a CPU slab's fill no file shows"));
	assert_non_null(strstr(buf, ",0,30,12,0,6500,5000,700,5032,1200,281,14,,,,0\n"));
	free(buf);
	ss_report_kernel_free(&k);
	/* more listed than freed from cannot be */
	assert_int_equal(load_prior(&k, &kf, f, head, ",prior_freed_unseen,kslabs_listed,"
				    "prior_listed_unseen",
				    "dentry,1,100,127000,0,0,0,30,12,10,0,700,5032,0,11,0\n", &err), -1);
	assert_non_null(strstr(err.msg, "prior.csv:2: kslabs_listed 11 is more than kslabs_freed_from 10"));
	ss_report_kernel_free(&k);
}

/* A cache the settling rule released objects of is fitted to the
 * after-snapshot: never counted within, counted apart, and the figure
 * without settling comes from the replay's slabinfo.unsettled. */
static void test_settled_not_within(void **state)
{
	struct kfiles kf;
	char f[TU_PATH_MAX + 32];
	struct ss_report_kernel k;
	struct ss_error err;
	char *buf;
	(void)state;

	kfiles_init(&kf, "st");
	/* dentry +2000, maple_node +3000, filp +2000 in the kernel */
	tu_write_text(kf.before, "slabinfo - version: 2.1\n"
			      "dentry 10000 10500 192 21 1 : tunables 0 0 0 : slabdata 500 500 0\n"
			      "maple_node 4000 4096 256 32 2 : tunables 0 0 0 : slabdata 128 128 0\n"
			      "filp 900 924 192 21 1 : tunables 0 0 0 : slabdata 44 44 0\n");
	tu_write_text(kf.after, "slabinfo - version: 2.1\n"
			     "dentry 12000 12600 192 21 1 : tunables 0 0 0 : slabdata 600 600 0\n"
			     "maple_node 7000 7168 256 32 2 : tunables 0 0 0 : slabdata 224 224 0\n"
			     "filp 2900 2940 192 21 1 : tunables 0 0 0 : slabdata 140 140 0\n");
	/* after settling: dentry and maple_node exactly the kernel's, filp
	 * 30% short; before settling dentry was within, maple_node not */
	snprintf(f, sizeof(f), "%s/slabinfo", kf.run);
	tu_write_text(f, "slabinfo - version: 2.1\n"
			 "dentry 12000 12600 192 21 1 : tunables 0 0 0 : slabdata 600 600 0\n"
			 "maple_node 7000 7168 256 32 2 : tunables 0 0 0 : slabdata 224 224 0\n"
			 "filp 2300 2310 192 21 1 : tunables 0 0 0 : slabdata 110 110 0\n");
	snprintf(f, sizeof(f), "%s/slabinfo.unsettled", kf.run);
	tu_write_text(f, "slabinfo - version: 2.1\n"
			 "dentry 12100 12600 192 21 1 : tunables 0 0 0 : slabdata 600 600 0\n"
			 "maple_node 9000 9216 256 32 2 : tunables 0 0 0 : slabdata 288 288 0\n"
			 "filp 2300 2310 192 21 1 : tunables 0 0 0 : slabdata 110 110 0\n");
	snprintf(f, sizeof(f), "%s/settled.csv", kf.run);
	tu_write_text(f, "cache,site,objects\ndentry,d_alloc+0x1,100\n"
			 "maple_node,mas_alloc_nodes+0x2,2000\n");
	assert_int_equal(ss_report_kernel_load(&k, kf.before, kf.after, kf.run, "traced", &err), 0);
	assert_true(k.unsettled);
	for (size_t i = 0; i < k.n; i++) {
		const struct ss_report_kernel_row *r = &k.rows[i];

		assert_true(ss_report_kernel_row_held(r));
		if (!strcmp(r->name, "filp")) {
			assert_false(ss_report_kernel_row_within(r));
			assert_false(ss_report_kernel_row_ok_unsettled(r));
			continue;
		}
		/* the settled figures match the kernel exactly: fitted */
		assert_true(ss_report_kernel_row_ok(r));
		assert_false(ss_report_kernel_row_within(r));
		assert_int_equal(ss_report_kernel_row_ok_unsettled(r), !strcmp(r->name, "dentry"));
	}
	buf = written(&k, true);
	assert_non_null(strstr(buf, "0 of 1 within ±10% (objects) and ±15% (slabs) of the kernel's "
				    "change (predictions only: 2 more held caches were settled"));
	assert_non_null(strstr(buf, "Without settling (`slabinfo.unsettled`, the replay before the "
				    "rule): 1 of 3."));
	assert_non_null(strstr(buf, "| settled |"));
	assert_non_null(strstr(buf, "2000 settled (before: +5000, +66.7%)"));
	/* kernel.csv: held 1, within 0, settled 2000, unsettled figures */
	assert_non_null(strstr(buf, "\nmaple_node,4000,7000,7000,3000,3000,0.00,128,224,224,96,96,"
				    "0.00,1,0,1,0,0,2000,9000,288,0,0,0,0,0,0,0,0,0,0,0,0,,,,0\n"));
	assert_non_null(strstr(buf, "\ndentry,10000,12000,12000,2000,2000,0.00,500,600,600,100,100,"
				    "0.00,1,0,1,0,0,100,12100,600,1,0,0,0,0,0,0,0,0,0,0,0,,,,0\n"));
	free(buf);
	ss_report_kernel_free(&k);
}

/* The report of kf's snapshots with meta file `meta` holding `text`
 * (the caller frees it). */
static char *written_with_meta(const struct kfiles *kf, const char *meta, const char *text)
{
	struct ss_report_kernel k;
	struct ss_error err;
	char *buf;

	tu_write_text(meta, text);
	assert_int_equal(ss_report_kernel_load(&k, kf->before, kf->after, kf->run, "traced", &err), 0);
	assert_int_equal(ss_report_kernel_load_meta(&k, meta, &err), 0);
	buf = written(&k, false);
	ss_report_kernel_free(&k);
	return buf;
}

/* The capture's meta: which tasks no tracepoint saw, in the section;
 * bad values and lines name FILE:LINE; an old capture says it did not
 * check. */
static void test_capture_meta(void **state)
{
	struct kfiles kf;
	char f[TU_PATH_MAX + 32];
	char meta[TU_PATH_MAX];
	struct ss_report_kernel k;
	struct ss_capture_meta m;
	struct ss_error err;
	char *buf;
	(void)state;

	kfiles_init(&kf, "cm");
	tu_path(meta, sizeof(meta), "meta");
	tu_write_text(kf.before, "slabinfo - version: 2.1\n"
			      "dentry 10000 10500 192 21 1 : tunables 0 0 0 : slabdata 500 500 0\n");
	tu_write_text(kf.after, "slabinfo - version: 2.1\n"
			     "dentry 13000 13020 192 21 1 : tunables 0 0 0 : slabdata 620 620 0\n");
	snprintf(f, sizeof(f), "%s/slabinfo", kf.run);
	tu_write_text(f, "slabinfo - version: 2.1\n"
			 "dentry 10100 10500 192 21 1 : tunables 0 0 0 : slabdata 500 500 0\n");
	tu_write_text(meta, "slabsim-capture 1\nname=x\ncommand=a=b\nlossy=no\nlossy_reason=\n"
			    "untraced_tasks=2\nuntraced_cpu_ms=183.5\n"
			    "untraced_task_list=76/tokio-rt-worker@1:150.2 69/tokio-rt-worker@1:33.3\n"
			    "untraced_sched_lost=0\n"
			    "kmem_events=kmalloc kfree kmem_cache_alloc kmem_cache_free mm_page_free\n");
	assert_int_equal(ss_report_kernel_load(&k, kf.before, kf.after, kf.run, "traced", &err), 0);
	assert_int_equal(ss_report_kernel_load_meta(&k, meta, &err), 0);
	buf = written(&k, false);
	assert_non_null(strstr(buf, "It recorded page frees (kmem:mm_page_free)"));
	assert_non_null(strstr(buf, "### What the trace cannot show\n\n2 tasks ran 183.5 ms during "
				    "the capture with no tracepoint firing for them (TID/name@PID:ms: "
				    "76/tokio-rt-worker@1:150.2 69/tokio-rt-worker@1:33.3;"));
	assert_null(strstr(buf, "sched_switch events were lost"));
	assert_null(strstr(buf, "lost kmem events"));
	/* no orphan keys: an older capture, whose orphans init reaped */
	assert_non_null(strstr(buf, "CMD did not run under `slabsim reap`"));
	free(buf);
	ss_report_kernel_free(&k);
	/* the orphans' reaper, as capture-orphans.sh writes it */
	buf = written_with_meta(&kf, meta, "slabsim-capture 1\ninit_zombies_before=7\n"
					   "init_zombies_wait_ms=10000\nsubreaper=yes\n"
					   "orphans_reaped=1003\norphans_left=1\n");
	assert_int_equal(ss_capture_meta_load(&m, meta, &err), 0);
	assert_int_equal(m.subreaper, 1);
	assert_int_equal(m.orphans_reaped, 1003);
	assert_int_equal(m.orphans_left, 1);
	assert_int_equal(m.init_zombies_before, 7);
	assert_non_null(strstr(buf, "the 1003 processes it orphaned were reaped there, traced"));
	assert_non_null(strstr(buf, "1 orphaned process of CMD's was still running after it ended: "
				    "init reaps it"));
	assert_non_null(strstr(buf, "init still had 7 zombies to reap at the before-snapshot"));
	assert_null(strstr(buf, "did not run under"));
	free(buf);
	/* nothing orphaned, nothing left: no sentence */
	buf = written_with_meta(&kf, meta, "slabsim-capture 1\ninit_zombies_before=0\n"
					   "subreaper=yes\norphans_reaped=0\norphans_left=0\n");
	assert_null(strstr(buf, "orphaned"));
	assert_null(strstr(buf, "zombies"));
	free(buf);
	/* without mm_page_free among the events: said so */
	buf = written_with_meta(&kf, meta, "slabsim-capture 1\nkmem_events=kmalloc kfree "
					   "kmem_cache_alloc kmem_cache_free\n");
	assert_non_null(strstr(buf, "It did not record page frees"));
	free(buf);

	/* an older capture: no check made, said so */
	tu_write_text(meta, "slabsim-capture 1\nlossy=yes\nlossy_reason=ring buffer lost 5 events;\n");
	assert_int_equal(ss_capture_meta_load(&m, meta, &err), 0);
	assert_int_equal(m.untraced_tasks, -1);
	assert_int_equal(m.subreaper, -1);
	assert_int_equal(m.orphans_left, -1);
	assert_false(m.page_frees);
	assert_true(m.lossy);
	assert_string_equal(m.lossy_reason, "ring buffer lost 5 events;");

	/* bad input names the file and line */
	tu_write_text(meta, "slabsim-capture 1\nname=x\nuntraced_tasks=-3\n");
	assert_int_equal(ss_capture_meta_load(&m, meta, &err), -1);
	assert_non_null(strstr(err.msg, ":3: bad untraced_tasks value '-3'"));
	tu_write_text(meta, "slabsim-capture 1\nsubreaper=maybe\n");
	assert_int_equal(ss_capture_meta_load(&m, meta, &err), -1);
	assert_non_null(strstr(err.msg, ":2: bad subreaper value 'maybe'"));
	tu_write_text(meta, "slabsim-capture 1\norphans_left=-1\n");
	assert_int_equal(ss_capture_meta_load(&m, meta, &err), -1);
	assert_non_null(strstr(err.msg, ":2: bad orphans_left value '-1'"));
	tu_write_text(meta, "slabsim-capture 1\nuntraced_cpu_ms=nan\n");
	assert_int_equal(ss_capture_meta_load(&m, meta, &err), -1);
	assert_non_null(strstr(err.msg, ":2: bad untraced_cpu_ms"));
	tu_write_text(meta, "slabsim-capture 1\njust words\n");
	assert_int_equal(ss_capture_meta_load(&m, meta, &err), -1);
	assert_non_null(strstr(err.msg, ":2: not KEY=VALUE"));
	assert_int_equal(ss_capture_meta_load(&m, "/nonexistent/meta", &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/meta"));
}

/* The note "sheaves (N) not modelled": shown where the kernel's cache
 * had sheaves and the run gave it none; a 6.18 run names its sheaf
 * caches in kernel.txt's config, a 7.x SLUB run gives every cache its
 * own (calculate_sheaf_capacity()), a 7.x SLUB_TINY run none. */
static void test_sheaves_note(void **state)
{
	static const char *const kernel_txt[] = {
		"era=6.18\nallocator=slub\nconfig=CONFIG_MEMCG=y\n",
		"era=6.18\nallocator=slub\nconfig=sheaf_capacity.dentry=60\n",
		"era=7.2\nallocator=slub\nconfig=CONFIG_MEMCG=y\n",
		"era=7.2\nallocator=slub-tiny\nconfig=\n",
	};
	static const bool modelled[] = {false, true, true, false};
	struct kfiles kf;
	char f[TU_PATH_MAX + 32], note[256];
	struct ss_report_kernel k;
	struct ss_error err;
	(void)state;

	kfiles_init(&kf, "sn");
	tu_write_text(kf.before, "slabsim-slab 1 phase=before time=1.0 kernel=7.2.13\n"
				 "cache=dentry name=dentry aliases=0 align=8 object_size=192 "
				 "objects=2100 objs_per_slab=21 order=0 sheaf_capacity=60 "
				 "slab_size=192 slabs=100 total_objects=2100\n");
	tu_write_text(kf.after, "slabsim-slab 1 phase=after time=2.0 kernel=7.2.13\n"
				"cache=dentry name=dentry aliases=0 align=8 object_size=192 "
				"objects=4200 objs_per_slab=21 order=0 sheaf_capacity=60 "
				"slab_size=192 slabs=200 total_objects=4200\n");
	snprintf(f, sizeof(f), "%s/slabinfo", kf.run);
	slabinfo_file(f, "dentry 4200 4200 192 21 1 : tunables 0 0 0 : slabdata 200 200 0\n");
	for (unsigned i = 0; i < sizeof(modelled) / sizeof(modelled[0]); i++) {
		snprintf(f, sizeof(f), "%s/kernel.txt", kf.run);
		tu_write_text(f, kernel_txt[i]);
		assert_int_equal(ss_report_kernel_load(&k, kf.before, kf.after, kf.run, "traced", &err), 0);
		assert_int_equal(k.rows[0].sheaf_capacity, 60);
		assert_int_equal(k.rows[0].sheaves_modelled, modelled[i]);
		ss_report_kernel_note(&k.rows[0], note, sizeof(note));
		assert_true((strstr(note, "sheaves (60) not modelled") == NULL) == modelled[i]);
		ss_report_kernel_free(&k);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_load_and_csv),
		cmocka_unit_test(test_cpu_free_note),
		cmocka_unit_test(test_cpu_free_after),
		cmocka_unit_test(test_kslab_note),
		cmocka_unit_test(test_settled_not_within),
		cmocka_unit_test(test_capture_meta),
		cmocka_unit_test(test_sheaves_note),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
