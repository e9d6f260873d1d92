/* test_compare.c - what `slabsim compare` reads: timelines (phase markers,
 * phase ends, peak) and caches sorted by loss with slabinfo's integer
 * percentages, all against hand-worked values; and the sweep's figure
 * labels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_runs.h"
#include "sweep_data.h"
#include "test_util.h"

static char *write_tmp(const char *text)
{
	static char path[TU_PATH_MAX];

	tu_tmp_text(path, sizeof(path), text);
	return path;
}

/* ---- timeline.csv ------------------------------------------------------------ */

static int rows_seen;
static int count_row(void *ctx, const struct ss_compare_point *pt)
{
	(void)ctx;
	(void)pt;
	rows_seen++;
	return 0;
}

static void test_timeline_phases(void **state)
{
	struct ss_compare_timeline tl;
	struct ss_error err = {{0}};
	char *path = write_tmp("events,phase,footprint_kib,live_objects,sim_time_ms\n"
			       "0,system,0.00,0,0.000\n"
			       "100,load,250.00,1000,0.026\n"
			       "4096,load,300.00,1500,7.000\n"
			       "4196,free,320.00,1600,7.500\n"
			       "8192,free,200.00,800,9.000\n"
			       "8200,free,180.00,700,9.100\n");

	(void)state;
	rows_seen = 0;
	assert_int_equal(ss_compare_read_timeline(path, count_row, NULL, &tl, &err), 0);
	unlink(path);
	assert_int_equal(rows_seen, 6);
	assert_int_equal(tl.rows, 6);
	assert_int_equal(tl.nph, 3);
	/* a marker's row closes the phase before it */
	assert_string_equal(tl.ph[0].name, "system");
	assert_true(tl.ph[0].events == 0 && tl.ph[0].end_kib == 250);
	assert_string_equal(tl.ph[1].name, "load");
	assert_true(tl.ph[1].events == 100 && tl.ph[1].end_kib == 320);
	/* the last phase ends with the last row */
	assert_string_equal(tl.ph[2].name, "free");
	assert_true(tl.ph[2].events == 4196 && tl.ph[2].end_kib == 180);
	assert_true(tl.peak.footprint_kib == 320 && tl.peak.events == 4196);
	assert_true(tl.last.footprint_kib == 180 && tl.last.events == 8200);
	ss_compare_timeline_free(&tl);
}

/* The replay's phase before any marker is "start": no marker. */
static void test_timeline_start(void **state)
{
	struct ss_compare_timeline tl;
	struct ss_error err = {{0}};
	char *path = write_tmp("events,phase,footprint_kib,live_objects,sim_time_ms\n"
			       "4096,start,10.00,5,1.000\n"
			       "5000,load,12.00,6,1.500\n"
			       "6000,load,11.00,6,1.600\n");

	(void)state;
	assert_int_equal(ss_compare_read_timeline(path, NULL, NULL, &tl, &err), 0);
	unlink(path);
	assert_int_equal(tl.nph, 1);
	assert_string_equal(tl.ph[0].name, "load");
	assert_true(tl.ph[0].events == 5000 && tl.ph[0].end_kib == 11);
	assert_true(tl.peak.footprint_kib == 12);
	ss_compare_timeline_free(&tl);
}

static void test_timeline_bad(void **state)
{
	struct ss_compare_timeline tl;
	struct ss_error err = {{0}};
	char *path = write_tmp("events,phase,footprint_kib,live_objects,sim_time_ms\n"
			       "20,a,1.00,1,0.100\n"
			       "10,a,1.00,1,0.100\n");
	char want[TU_PATH_MAX + 64];

	(void)state;
	assert_int_equal(ss_compare_read_timeline(path, NULL, NULL, &tl, &err), -1);
	snprintf(want, sizeof(want), "%s:3: events 10 after 20", path);
	assert_non_null(strstr(err.msg, want));
	unlink(path);
	path = write_tmp("events,phase,footprint_kib,sim_time_ms\n1,a,1,1\n");
	assert_int_equal(ss_compare_read_timeline(path, NULL, NULL, &tl, &err), -1);
	assert_non_null(strstr(err.msg, "missing column 'live_objects'"));
	unlink(path);
	path = write_tmp("events,phase,footprint_kib,live_objects,sim_time_ms\n1,a,x,1,1\n");
	assert_int_equal(ss_compare_read_timeline(path, NULL, NULL, &tl, &err), -1);
	assert_non_null(strstr(err.msg, ":2: column 'footprint_kib'"));
	unlink(path);
}

/* ---- caches.csv --------------------------------------------------------------- */

#define CACHES_HEADER \
	"name,object_size,slab_size,objs_per_slab,order,objects,total_objects,slabs," \
	"partial_slabs,cpu_slabs,space_bytes,loss_bytes,lalig_bytes,lpadd_bytes," \
	"efficiency_pct,debug,requested_bytes,rounding_bytes,align_bytes,debug_bytes," \
	"free_slot_bytes\n"

/* Sorted by waste = space - requested: kmalloc-32's rounding counts,
 * where slabinfo's Loss (768) would rank it below kmalloc-96's. */
static void test_caches_by_waste(void **state)
{
	struct ss_compare_caches cc;
	struct ss_error err = {{0}};
	char *path = write_tmp(CACHES_HEADER
			       "kmalloc-32,32,32,128,0,1000,1024,8,1,1,32768,768,0,0,97.66,-,16000,16000,0,0,768\n"
			       "Zeta,20,24,170,0,170,170,1,0,1,4096,696,680,16,83.01,-,3400,0,680,0,0\n"
			       "alpha,20,24,170,0,170,170,1,0,1,4096,696,680,16,83.01,-,3400,0,680,0,0\n"
			       "empty,64,64,64,0,0,0,0,0,0,0,0,0,0,0.00,-,0,0,0,0,0\n"
			       "kmalloc-96,96,288,14,0,10,14,1,1,0,4096,3136,1920,64,23.43,FZPU,900,60,0,1920,1152\n");

	(void)state;
	assert_int_equal(ss_compare_read_caches(path, &cc, &err), 0);
	unlink(path);
	/* waste descending, ties by name ignoring case; no slabs: left out */
	assert_int_equal(cc.n, 4);
	assert_string_equal(cc.c[0].name, "kmalloc-32");
	assert_int_equal(cc.c[0].waste_bytes, 32768 - 16000);
	assert_int_equal(cc.c[0].rounding_bytes, 16000);
	assert_string_equal(cc.c[1].name, "kmalloc-96");
	assert_string_equal(cc.c[2].name, "alpha");
	assert_string_equal(cc.c[3].name, "Zeta");
	assert_string_equal(cc.c[1].debug, "FZPU");
	/* %Fr = 1 * 100 / 8 = 12; %Ef = 1000 * 32 * 100 / 32768 = 97.6 -> 97 */
	assert_int_equal(ss_compare_partial_pct(&cc.c[0]), 12);
	assert_int_equal(ss_compare_efficiency_pct(&cc.c[0]), 97);
	/* %Fr = 1 * 100 / 1; %Ef = 10 * 96 * 100 / 4096 = 23.4 -> 23 */
	assert_int_equal(ss_compare_partial_pct(&cc.c[1]), 100);
	assert_int_equal(ss_compare_efficiency_pct(&cc.c[1]), 23);
	/* every column kept for top_caches.csv */
	assert_int_equal(cc.ncols, 21);
	assert_string_equal(cc.header[14], "efficiency_pct");
	assert_string_equal(cc.c[3].row[14], "83.01");
	ss_compare_caches_free(&cc);
}

static void test_caches_bad(void **state)
{
	struct ss_compare_caches cc;
	struct ss_error err = {{0}};
	char *path = write_tmp(CACHES_HEADER
			       "a,32,32,128,0,10,128,1,2,0,4096,10,0,0,7.81,-,320,0,0,0,3776\n");

	(void)state;
	assert_int_equal(ss_compare_read_caches(path, &cc, &err), -1);
	assert_non_null(strstr(err.msg, ":2: cache a: more partial or CPU slabs than slabs"));
	unlink(path);
	path = write_tmp(CACHES_HEADER "a,32,32,128,0,-1,128,1,0,0,4096,10,0,0,7.81,-,0,0,0,0,0\n");
	assert_int_equal(ss_compare_read_caches(path, &cc, &err), -1);
	assert_non_null(strstr(err.msg, "column 'objects': '-1' is not an unsigned integer"));
	unlink(path);
	/* the parts must add up to the space */
	path = write_tmp(CACHES_HEADER "a,32,32,128,0,10,128,1,0,0,4096,10,0,0,7.81,-,320,0,0,0,3775\n");
	assert_int_equal(ss_compare_read_caches(path, &cc, &err), -1);
	assert_non_null(strstr(err.msg, ":2: cache a: requested + rounding"));
	unlink(path);
}

/* sites.csv: ranked by the waste of the objects live at the end. */
static void test_sites(void **state)
{
	struct ss_compare_sites ss;
	struct ss_error err = {{0}};
	const char *hdr = "site,cache,allocs,frees,requested_bytes,allocated_bytes,frag_pct,"
			  "cross_cpu_frees,live_objects,peak_live_objects,live_requested_bytes,"
			  "rounding_bytes,align_bytes,debug_bytes\n";
	char text[1024];
	char *path;

	(void)state;
	snprintf(text, sizeof(text), "%s"
		 "a,kmalloc-32,10,5,100,320,68.75,1,5,8,50,110,0,0\n"
		 "b,smack_rule,4,0,80,80,0.00,0,4,4,80,0,16,200\n"
		 "c,kmalloc_large,1,1,5000,8192,38.96,0,0,1,0,0,0,0\n", hdr);
	path = write_tmp(text);
	assert_int_equal(ss_compare_read_sites(path, &ss, &err), 0);
	unlink(path);
	assert_int_equal(ss.n, 3);
	assert_string_equal(ss.s[0].site, "b"); /* 216 */
	assert_string_equal(ss.s[1].site, "a"); /* 110 */
	assert_int_equal(ss.s[1].peak_live, 8);
	assert_int_equal(ss.s[1].cross_cpu, 1);
	ss_compare_sites_free(&ss);
	snprintf(text, sizeof(text), "%sa,kmalloc-32,10,11,100,320,68.75,1,0,8,50,110,0,0\n", hdr);
	path = write_tmp(text);
	assert_int_equal(ss_compare_read_sites(path, &ss, &err), -1);
	assert_non_null(strstr(err.msg, ":2: site a: live_objects is not allocs - frees"));
	unlink(path);
}

/* ---- sweep figure labels -------------------------------------------------------- */

static void test_figure_labels(void **state)
{
	char buf[128];

	(void)state;
	ss_sweep_figure_label("footprint_kib", buf, sizeof(buf));
	assert_string_equal(buf, "slab footprint (KiB)");
	ss_sweep_figure_label("free_slot_bytes", buf, sizeof(buf));
	assert_string_equal(buf, "free_slot (bytes)");
	ss_sweep_figure_label("alloc_p99_ns", buf, sizeof(buf));
	assert_string_equal(buf, "alloc_p99 (ns)");
	ss_sweep_figure_label("caches", buf, sizeof(buf));
	assert_string_equal(buf, "caches");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeline_phases),
		cmocka_unit_test(test_timeline_start),
		cmocka_unit_test(test_timeline_bad),
		cmocka_unit_test(test_caches_by_waste),
		cmocka_unit_test(test_caches_bad),
		cmocka_unit_test(test_sites),
		cmocka_unit_test(test_figure_labels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
