/* test_import_stride.c - the stride rule of the import
 * (reconcile/import/stride.c): raw-pointer kfree()s of objects from
 * before the capture, at a site that freed nothing the capture saw
 * allocated, placed by their offsets in their slabs and, among the
 * kmalloc types, in the one whose caches hold the most of the site's
 * slabs, then the one under which the capture's not seeing them is
 * likeliest, then the most slabs the capture did not see holding other
 * objects. */
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

/* kmalloc-96 has 10 slabs, kmalloc-rcl-96 40: the 96-byte frees go to
 * rcl-96 -- unless the capture saw 35 of rcl's slabs hold other objects
 * (RCL_SEEN), which leaves plain kmalloc-96 the most room. */
static const char snapshot[] =
	"slabinfo - version: 2.1\n"
	"kmalloc-96 420 420 96 42 1 : tunables 0 0 0 : slabdata 10 10 0\n"
	"kmalloc-rcl-96 1680 1680 96 42 1 : tunables 0 0 0 : slabdata 40 40 0\n"
	"kmalloc-192 420 420 192 21 1 : tunables 0 0 0 : slabdata 20 20 0\n"
	"kmalloc-128 320 320 128 32 1 : tunables 0 0 0 : slabdata 10 10 0\n";

#define SLAB(n) (0xffff888100000000ull + (uint64_t)(n) * 4096)

static void kfree(FILE *f, const char *site, uint64_t ptr)
{
	fprintf(f, " sh-1 [000] ..... 1.0: kfree: call_site=%s+0x10/0x20 ptr=%llx\n", site,
		(unsigned long long)ptr);
}

/* A kmalloc event: bytes_alloc `size`, plain GFP_KERNEL or reclaimable
 * (a dentry name's GFP_KERNEL_ACCOUNT | __GFP_RECLAIMABLE). */
static void kmalloc_at(FILE *f, const char *site, uint64_t ptr, unsigned size, bool rcl)
{
	fprintf(f, " sh-1 [000] ..... 1.0: kmalloc: call_site=%s+0x1/0x2 ptr=%llx bytes_req=%u "
		   "bytes_alloc=%u gfp_flags=%s node=-1 accounted=%s\n", site,
		(unsigned long long)ptr, size - 2, size,
		rcl ? "GFP_KERNEL_ACCOUNT|__GFP_RECLAIMABLE" : "GFP_KERNEL", rcl ? "true" : "false");
}

/* Writes the capture; rcl_seen slabs of rcl-96 allocated (and kept) in
 * it before the frees. */
static void write_capture(FILE *f, int rcl_seen)
{
	static const unsigned slots96[] = {0, 1, 3, 5, 6, 9, 10, 41};

	for (int i = 0; i < rcl_seen; i++)
		fprintf(f, " sh-1 [000] ..... 1.0: kmalloc: call_site=__d_alloc+0x170/0x230 "
			   "ptr=%llx bytes_req=66 bytes_alloc=96 "
			   "gfp_flags=GFP_KERNEL_ACCOUNT|__GFP_RECLAIMABLE node=-1 accounted=true\n",
			(unsigned long long)SLAB(100 + i));
	/* names: 8 frees in slab 1, 6 in slab 2, at multiples of 96 */
	for (unsigned i = 0; i < 8; i++)
		kfree(f, "__d_free_external", SLAB(1) + 96 * slots96[i]);
	for (unsigned i = 0; i < 6; i++)
		kfree(f, "__d_free_external", SLAB(2) + 96 * slots96[i]);
	/* 192-byte objects at even and odd slots: 192, never 96 */
	for (unsigned i = 0; i < 6; i++)
		kfree(f, "other_free", SLAB(3) + 192 * (2 * i + 1));
	/* too few to tell */
	for (unsigned i = 0; i < 3; i++)
		kfree(f, "rare_free", SLAB(4) + 128 * i);
	/* one pointer in no slot of any class */
	for (unsigned i = 0; i < 5; i++)
		kfree(f, "odd_free", SLAB(5) + 128 * i);
	kfree(f, "odd_free", SLAB(5) + 100);
}

/* Import the capture f holds (closed here) with snapshot snap_text;
 * "CACHE:SIZE:GFP " per prior free in seen (CACHE "kmalloc" or the
 * declared cache's name). */
static void import_file(FILE *f, const char *snap_text, struct ss_import_totals *t,
			char *seen, size_t n)
{
	char in[256], out[256], snap[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;

	fclose(f);
	tu_path(in, sizeof(in), "stride.ftrace");
	tu_path(out, sizeof(out), "stride.trace");
	tu_path(snap, sizeof(snap), "stride.slabinfo");
	tu_write_text(snap, snap_text);
	o.input = in;
	o.output = out;
	o.snapshot = snap;
	if (ss_import(&o, t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ss_trace_open(&r, out, &err), 0);
	seen[0] = '\0';
	while (ss_trace_next(r, &ev, &err) == 1)
		if (ev.kind == SS_EV_FREE_PRIOR)
			snprintf(seen + strlen(seen), n - strlen(seen), "%s:%llu:%u ",
				 ev.api == SS_API_KMALLOC ? "kmalloc" :
				 ss_trace_cache_name(ss_trace_tables(r), ev.api),
				 (unsigned long long)ev.value, ev.gfp);
	ss_trace_close(r);
}

/* The capture file to write, opened. */
static FILE *capture_file(void)
{
	char in[256];
	FILE *f;

	tu_path(in, sizeof(in), "stride.ftrace");
	f = fopen(in, "w");
	assert_non_null(f);
	return f;
}

static void import(int rcl_seen, struct ss_import_totals *t, char *seen, size_t n)
{
	FILE *f = capture_file();

	write_capture(f, rcl_seen);
	import_file(f, snapshot, t, seen, n);
}

static void test_stride_classes(void **state)
{
	struct ss_import_totals t;
	char seen[1024], want[1024] = "";
	(void)state;

	import(0, &t, seen, sizeof(seen));
	for (int i = 0; i < 14; i++)
		strcat(want, "kmalloc:96:2 "); /* SS_GFP_RECLAIMABLE */
	for (int i = 0; i < 6; i++)
		strcat(want, "kmalloc:192:0 ");
	assert_string_equal(seen, want);
	assert_int_equal(t.stride_frees, 20);
	assert_int_equal(t.stride_slabs, 3);
	/* rare_free (3 pointers) and odd_free (an offset of 100) stay unknown */
	assert_int_equal(t.prior_unattributed, 9);
	assert_int_equal(t.prior_frees, 20);
}

static void test_stride_room(void **state)
{
	struct ss_import_totals t;
	char seen[1024], want[1024] = "";
	(void)state;

	/* 35 of rcl-96's 40 slabs seen: 5 left, kmalloc-96 has 10 */
	import(35, &t, seen, sizeof(seen));
	for (int i = 0; i < 14; i++)
		strcat(want, "kmalloc:96:0 ");
	for (int i = 0; i < 6; i++)
		strcat(want, "kmalloc:192:0 ");
	assert_string_equal(seen, want);
	assert_int_equal(t.stride_frees, 20);
}

/* Six 96-byte dentry names freed in each of slabs 1 .. n, and a string
 * of n times `what` (one per free) for the expected prior frees. */
static void free_names96(FILE *f, unsigned n)
{
	for (unsigned k = 1; k <= n; k++)
		for (unsigned i = 0; i < 6; i++)
			kfree(f, "__d_free_external", SLAB(k) + 96 * (5 * i + k));
}

static void repeat(char *buf, unsigned n, const char *what)
{
	while (n--)
		strcat(buf, what);
}

/* Import f (free_names96(f, 3) and more) with snapshot snap: the 18 names
 * must all go to kmalloc-rcl-96. */
static void assert_names_rcl96(FILE *f, const char *snap)
{
	struct ss_import_totals t;
	char seen[1024], want[1024] = "";

	import_file(f, snap, &t, seen, sizeof(seen));
	repeat(want, 18, "kmalloc:96:2 "); /* SS_GFP_RECLAIMABLE */
	assert_string_equal(seen, want);
	assert_int_equal(t.stride_frees, 18);
}

/* Import f with snapshot snap: n1 prior frees to place p1, then n2 to p2
 * (as import_file() writes them), frees and slabs of them by the stride
 * rule. */
static void assert_two_places(FILE *f, const char *snap, unsigned n1, const char *p1,
			      unsigned n2, const char *p2, uint64_t frees, uint64_t slabs)
{
	struct ss_import_totals t;
	char seen[1024], want[1024] = "";

	import_file(f, snap, &t, seen, sizeof(seen));
	repeat(want, n1, p1);
	repeat(want, n2, p2);
	assert_string_equal(seen, want);
	assert_int_equal(t.stride_frees, frees);
	assert_int_equal(t.stride_slabs, slabs);
}

/* One site, two classes: names of 96 bytes in 3 slabs and of 128 bytes
 * in one.  kmalloc-96 has 2 slabs (too few for the 96s), kmalloc-rcl-96
 * 5; kmalloc-128 has 10, kmalloc-rcl-128 1.  Class by class the 128s would
 * go to kmalloc-128 (more room); the site's family is the one that holds
 * all of its slabs, rcl, for both classes. */
static void test_stride_site_family(void **state)
{
	struct ss_import_totals t;
	char seen[1024], want[1024] = "";
	FILE *f = capture_file();
	(void)state;

	free_names96(f, 3);
	for (unsigned i = 0; i < 6; i++)
		kfree(f, "__d_free_external", SLAB(7) + 128 * (3 * i + 1));
	import_file(f, "slabinfo - version: 2.1\n"
		       "kmalloc-96 84 84 96 42 1 : tunables 0 0 0 : slabdata 2 2 0\n"
		       "kmalloc-rcl-96 210 210 96 42 1 : tunables 0 0 0 : slabdata 5 5 0\n"
		       "kmalloc-128 320 320 128 32 1 : tunables 0 0 0 : slabdata 10 10 0\n"
		       "kmalloc-rcl-128 32 32 128 32 1 : tunables 0 0 0 : slabdata 1 1 0\n",
		    &t, seen, sizeof(seen));
	repeat(want, 18, "kmalloc:96:2 ");
	repeat(want, 6, "kmalloc:128:2 ");
	assert_string_equal(seen, want);
	assert_int_equal(t.stride_frees, 24);
	assert_int_equal(t.stride_slabs, 4);
}

/* Names in 3 slabs; kmalloc-96 has 10 slabs, kmalloc-rcl-96 3.  After the
 * frees the capture allocates a reclaimable name into one of those
 * slabs: the slab lived on (or its pages are another 96-byte slab), so
 * it is rcl's -- and, seen, it does not count against rcl's room. */
static void test_stride_seen_later(void **state)
{
	FILE *f = capture_file();
	(void)state;

	free_names96(f, 3);
	kmalloc_at(f, "__d_alloc", SLAB(2) + 96 * 7, 96, true);
	assert_names_rcl96(f, "slabinfo - version: 2.1\n"
			      "kmalloc-96 420 420 96 42 1 : tunables 0 0 0 : slabdata 10 10 0\n"
			      "kmalloc-rcl-96 126 126 96 42 1 : tunables 0 0 0 : slabdata 3 3 0\n");
}

/* Names in 3 slabs; kmalloc-96 has 30 slabs, kmalloc-rcl-96 5: both can
 * hold the site's 3, and kmalloc-96 has the more room.  But the capture
 * allocated plain 96-byte objects into 12 of kmalloc-96's slabs and none
 * of the site's: had the names been kmalloc-96's, some of their slabs
 * would likely have been seen too (q = 13/32 each), while none of
 * rcl's slabs was seen at all (q = 1/7).  The likelier family is rcl. */
static void test_stride_unseen_busy(void **state)
{
	FILE *f = capture_file();
	(void)state;

	for (unsigned i = 0; i < 12; i++)
		kmalloc_at(f, "g", SLAB(200 + i), 96, false);
	free_names96(f, 3);
	assert_names_rcl96(f, "slabinfo - version: 2.1\n"
			      "kmalloc-96 1260 1260 96 42 1 : tunables 0 0 0 : slabdata 30 30 0\n"
			      "kmalloc-rcl-96 210 210 96 42 1 : tunables 0 0 0 : slabdata 5 5 0\n");
}

/* A site that learned kmalloc-32 (one object the capture saw allocated and
 * freed) frees objects from before the capture in two slabs: six at odd
 * 16-byte slots, where no kmalloc-32 object sits, and six at 32-byte
 * slots.  The first six are kmalloc-16's, the others kmalloc-32's; a
 * seventh, alone in its slab, keeps the learned share. */
static void test_stride_learned_site(void **state)
{
	FILE *f = capture_file();
	(void)state;

	kmalloc_at(f, "ext4_cache_fast_symlink", SLAB(50), 32, false);
	kfree(f, "ext4_free_in_core_inode", SLAB(50));
	for (unsigned i = 0; i < 6; i++)
		kfree(f, "ext4_free_in_core_inode", SLAB(1) + 16 * (2 * i + 1));
	for (unsigned i = 0; i < 6; i++)
		kfree(f, "ext4_free_in_core_inode", SLAB(2) + 32 * (3 * i + 1));
	kfree(f, "ext4_free_in_core_inode", SLAB(3) + 16);
	assert_two_places(f, "slabinfo - version: 2.1\n"
			     "kmalloc-16 2560 2560 16 256 1 : tunables 0 0 0 : slabdata 10 10 0\n"
			     "kmalloc-32 1280 1280 32 128 1 : tunables 0 0 0 : slabdata 10 10 0\n",
			  6, "kmalloc:16:0 ", 7, "kmalloc:32:0 ", 12, 2);
}

/* A kfree's slab owner is what the slab held before the free: after it
 * the pages may be another cache's new slab. */
static void test_owner_before_free(void **state)
{
	struct ss_import_totals t;
	char seen[256];
	FILE *f = capture_file();
	(void)state;

	/* slab 10 held a kmalloc-96 object before the free: kmalloc-96 */
	fprintf(f, " sh-1 [000] ..... 1.0: kmalloc: call_site=f+0x1/0x2 ptr=%llx bytes_req=90 "
		   "bytes_alloc=96 gfp_flags=GFP_KERNEL node=-1 accounted=false\n",
		(unsigned long long)SLAB(10));
	kfree(f, "a_free", SLAB(10) + 3 * 96);
	/* slab 11 is seen only after the free, as a dentry slab: nothing */
	kfree(f, "b_free", SLAB(11) + 2 * 96);
	fprintf(f, " sh-1 [000] ..... 1.0: kmem_cache_alloc: call_site=__d_alloc+0x2d/0x230 "
		   "ptr=%llx bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 "
		   "accounted=true name=dentry\n", (unsigned long long)SLAB(11) + 192);
	import_file(f, "slabinfo - version: 2.1\n"
		       "kmalloc-96 420 420 96 42 1 : tunables 0 0 0 : slabdata 10 10 0\n"
		       "dentry 2100 2100 192 21 1 : tunables 0 0 0 : slabdata 100 100 0\n",
		    &t, seen, sizeof(seen));
	assert_string_equal(seen, "kmalloc:96:0 ");
	assert_int_equal(t.prior_unattributed, 1);
}

/* A kmem_cache_free naming its cache, of an object from before the
 * capture, says what its slab held as an allocation would: the later
 * kfree()s in that slab (kfree_rcu() of the same cache's objects, at
 * kvfree_rcu_list) are that cache's, not kmalloc-128's, whose stride
 * they share (kfree() takes any slab object since 6.4).  Slab 21, named
 * nowhere, is left to the stride rule. */
static void test_owner_named_prior_free(void **state)
{
	FILE *f = capture_file();
	(void)state;

	/* (an allocation elsewhere declares the cache: a slabinfo file has no
	 * object size) */
	fprintf(f, " sh-1 [000] ..... 1.0: kmem_cache_alloc: call_site=inet_bind_bucket_create+0x1/0x2 "
		   "ptr=%llx bytes_req=128 bytes_alloc=128 gfp_flags=GFP_ATOMIC node=-1 "
		   "accounted=false name=eventpoll_epi\n", (unsigned long long)SLAB(30));
	fprintf(f, " sh-1 [000] ..... 1.0: kmem_cache_free: call_site=inet_twsk_bind_unhash+0x1/0x2 "
		   "ptr=%llx name=eventpoll_epi\n", (unsigned long long)SLAB(20) + 128 * 31);
	for (unsigned i = 0; i < 6; i++)
		kfree(f, "kvfree_rcu_list", SLAB(20) + 128 * (2 * i + 1));
	for (unsigned i = 0; i < 6; i++)
		kfree(f, "kvfree_rcu_list", SLAB(21) + 128 * (2 * i + 1));
	assert_two_places(f, "slabinfo - version: 2.1\n"
			     "kmalloc-128 320 320 128 32 1 : tunables 0 0 0 : slabdata 10 10 0\n"
			     "eventpoll_epi 320 320 128 32 1 : tunables 0 0 0 : slabdata 10 10 0\n",
			  7, "eventpoll_epi:0:0 ", 6, "kmalloc:128:0 ", 6, 1);
}

/* Hashed pointers say nothing of slots: the rule stays out. */
static void test_stride_hashed(void **state)
{
	struct ss_import_totals t;
	char seen[256];
	FILE *f = capture_file();
	(void)state;

	for (unsigned i = 0; i < 8; i++)
		kfree(f, "__d_free_external", 0x1000 + 96 * i);
	import_file(f, snapshot, &t, seen, sizeof(seen));
	assert_string_equal(seen, "");
	assert_int_equal(t.stride_frees, 0);
	assert_int_equal(t.prior_unattributed, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stride_classes),
		cmocka_unit_test(test_stride_room),
		cmocka_unit_test(test_stride_site_family),
		cmocka_unit_test(test_stride_seen_later),
		cmocka_unit_test(test_stride_unseen_busy),
		cmocka_unit_test(test_stride_learned_site),
		cmocka_unit_test(test_stride_hashed),
		cmocka_unit_test(test_owner_before_free),
		cmocka_unit_test(test_owner_named_prior_free),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
