/* test_import_cpuslab.c - the free slots of each CPU's first slab, from
 * raw pointers (reconcile/import/cpuslab.c): allocations until the
 * CPU takes another slab, less every free into the slab by then (before
 * its first allocation too, and from any CPU); a lower bound when it
 * never leaves; caches with sheaves, large orders and hashed pointers
 * left out; items in cache and CPU order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "import/import_rules.h"
#include "test_util.h"

static const char snapshot[] =
	"slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=3 aliases=0\n"
	"cache=extent_status name=extent_status object_size=40 align=8 objs_per_slab=102 order=0 slab_size=40 "
	"objects=900,N0=900 slabs=10,N0=10 total_objects=1020,N0=1020\n"
	"cache=maple_node name=maple_node object_size=256 align=8 objs_per_slab=16 order=0 slab_size=256 sheaf_capacity=32 "
	"objects=16,N0=16 slabs=1,N0=1 total_objects=16,N0=16\n"
	"cache=kmalloc-8k name=kmalloc-8k object_size=8192 align=8 objs_per_slab=4 order=5 slab_size=8192 "
	"objects=4,N0=4 slabs=1,N0=1 total_objects=4,N0=4\n";

#define S1 0xffff888100001000ull /* three order-0 slabs */
#define S2 0xffff888100002000ull
#define S3 0xffff888100003000ull

static void test_first_slab(void **state)
{
	char path[TU_PATH_MAX], meta[256];
	struct ss_snap snap;
	struct ss_error err;
	struct ss_import_cpuslab cs = {0};
	const struct ss_snap_cache *es, *mn, *big;
	(void)state;

	tu_path(path, sizeof(path), "snap.txt");
	tu_write_text(path, snapshot);
	assert_int_equal(ss_snap_load(&snap, path, &err), 0);
	es = ss_snap_find(&snap, "extent_status");
	mn = ss_snap_find(&snap, "maple_node");
	big = ss_snap_find(&snap, "kmalloc-8k");

	/* CPU 1: a free into S1 before its first allocation, 5 allocations
	 * from S1, one more free into it from CPU 0, then S2: 5 - 2 = 3 */
	assert_int_equal(ss_import_cpuslab_free(&cs, S1 + 40), 0);
	for (int i = 0; i < 5; i++)
		assert_int_equal(ss_import_cpuslab_alloc(&cs, &snap, es, 1, S1 + 40 * i), 0);
	assert_int_equal(ss_import_cpuslab_free(&cs, S1 + 80), 0);
	assert_int_equal(ss_import_cpuslab_alloc(&cs, &snap, es, 1, S2), 0);
	/* later allocations and frees change nothing for CPU 1 */
	assert_int_equal(ss_import_cpuslab_free(&cs, S1), 0);
	assert_int_equal(ss_import_cpuslab_alloc(&cs, &snap, es, 1, S1 + 120), 0);
	/* CPU 0 never leaves S3: 4 allocations, 1 free: at least 3 */
	for (int i = 0; i < 4; i++)
		assert_int_equal(ss_import_cpuslab_alloc(&cs, &snap, es, 0, S3 + 40 * i), 0);
	assert_int_equal(ss_import_cpuslab_free(&cs, S3), 0);
	/* sheaves, orders above SS_CPUSLAB_MAX_ORDER and hashed pointers:
	 * nothing to say */
	assert_int_equal(ss_import_cpuslab_alloc(&cs, &snap, mn, 0, S2 + 256), 0);
	assert_int_equal(ss_import_cpuslab_alloc(&cs, &snap, big, 0, S2 + 8192), 0);
	assert_int_equal(ss_import_cpuslab_alloc(&cs, &snap, es, 0, 0x1234abcdull), 0);
	assert_int_equal(ss_import_cpuslab_meta(&cs, &snap, meta, sizeof(meta)), 0);
	assert_string_equal(meta, "extent_status:0:3+ extent_status:1:3");
	/* a buffer too small keeps whole items only */
	assert_int_equal(ss_import_cpuslab_meta(&cs, &snap, meta, 24), 0);
	assert_string_equal(meta, "extent_status:0:3+");
	ss_import_cpuslab_release(&cs);
	ss_snap_release(&snap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_slab),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
