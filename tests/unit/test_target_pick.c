/* test_target_pick.c - the default target of a capture: the era from its
 * kernel's version, the family from its machine, the options from its
 * snapshot (allocators/target_pick.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "slabsnap.h"
#include "target_pick.h"
#include "test_util.h"

/* A before-snapshot of kernel `kernel` holding the caches of `body`
 * (lines "cache=... name=..."): loaded into *s. */
static void snap_of(struct ss_snap *s, const char *kernel, const char *body)
{
	char path[TU_PATH_MAX], text[4096];
	struct ss_error err;

	snprintf(text, sizeof(text), "slabsim-slab 1 phase=before time=1.0 kernel=%s\n%s", kernel, body);
	tu_tmp_text(path, sizeof(path), text);
	assert_int_equal(ss_snap_load(s, path, &err), 0);
	unlink(path);
}

/* One cache line: name, its sheaf capacity. */
#define CACHE(name, sheaf)                                                                 \
	"cache=" name " name=" name " aliases=0 align=8 object_size=64 objects=64 "        \
	"objs_per_slab=64 order=0 sheaf_capacity=" #sheaf " slab_size=64 slabs=1 "         \
	"total_objects=64\n"

static const char sheaves_618[] = CACHE("maple_node", 32) CACHE("vm_area_struct", 32)
	CACHE("kmalloc-cg-64", 0) CACHE("memdup_user-64", 0) CACHE("kmalloc-64", 0);

static void pick(const char *kernel, const char *machine, const struct ss_snap *s,
		 struct ss_target_pick *p)
{
	struct ss_error err;

	assert_int_equal(ss_target_pick(kernel, machine, s, 0, "x86_64-6.x", p, &err), 0);
}

static void test_release_era(void **state)
{
	(void)state;
	assert_int_equal(ss_kernel_release_era("6.18.44-fc-v1300"), 618);
	assert_int_equal(ss_kernel_release_era("6.1"), 601);
	assert_int_equal(ss_kernel_release_era("6.12-rc3"), 612);
	assert_int_equal(ss_kernel_release_era("3.10.0-1160.el7.x86_64"), 310);
	assert_int_equal(ss_kernel_release_era("2.6.32-431.el6"), 232);
	assert_int_equal(ss_kernel_release_era("4.19.0+"), 419);
	assert_int_equal(ss_kernel_release_era(""), -1);
	assert_int_equal(ss_kernel_release_era("linux"), -1);
	assert_int_equal(ss_kernel_release_era(NULL), -1);
}

/* The era: the newest target of the family not after the kernel. */
static void test_era_from_version(void **state)
{
	struct ss_target_pick p;
	struct ss_error err;

	(void)state;
	pick("6.18.44-fc-v1300", "x86_64", NULL, &p);
	assert_string_equal(p.target, "x86_64-6.18");
	assert_non_null(strstr(p.why, "6.18.44-fc-v1300"));
	pick("6.12.9", "x86_64", NULL, &p);
	assert_string_equal(p.target, "x86_64-6.x"); /* era 6.11 */
	pick("6.6.30", "x86_64", NULL, &p);
	assert_string_equal(p.target, "x86_64-6.1");
	pick("4.19.0", "x86_64", NULL, &p);
	assert_string_equal(p.target, "x86_64-4.6");
	pick("4.5.7", "x86_64", NULL, &p);
	assert_string_equal(p.target, "x86_64-4.5");
	/* older than every SLUB target of the family: the oldest; the SLAB
	 * target x86_64-2.6.16 is never a capture's (no /sys/kernel/slab) */
	pick("3.10.0-1160.el7", "x86_64", NULL, &p);
	assert_string_equal(p.target, "x86_64-4.5");
	assert_non_null(strstr(p.why, "oldest"));
	pick("2.6.32-431", "x86_64", NULL, &p);
	assert_string_equal(p.target, "x86_64-4.5");
	/* 7.x's SLUB (sheaves for every cache) is replayed on its own era */
	pick("7.2.13", "x86_64", NULL, &p);
	assert_string_equal(p.target, "x86_64-7.2");
	assert_null(strstr(p.why, "is nearer, but"));
	/* SLAB ended at 6.7: a what-if of it on a 7.2 capture, the newest
	 * SLAB target, the nearer one named with the reason */
	assert_int_equal(ss_target_pick("7.2.13", "x86_64", NULL, 1u << SS_ALLOCATOR_SLAB,
					"x86_64-6.x", &p, &err), 0);
	assert_string_equal(p.target, "x86_64-6.1");
	assert_non_null(strstr(p.why, "is nearer, but"));
}

/* The family from the machine; a documented machine before one with
 * inferred parameters (arm32-3.10's cache line is fitted to a seed). */
static void test_family(void **state)
{
	struct ss_target_pick p;

	(void)state;
	pick("3.10.108", "armv7l", NULL, &p);
	assert_string_equal(p.target, "arm32-3.10-v7");
	pick("6.6.1", "armv7l", NULL, &p);
	assert_string_equal(p.target, "arm32-6.6");
	pick("6.18.1", "armv7l", NULL, &p);
	assert_string_equal(p.target, "arm32-6.6");
	/* 7.2: Debian's armmp build, not the SMACK board's inferred lines */
	pick("7.2.13+deb14-armmp", "armv7l", NULL, &p);
	assert_string_equal(p.target, "arm32-7.2-armmp");
	/* no targets of its own: x86_64's, and said so */
	pick("6.18.1", "aarch64", NULL, &p);
	assert_string_equal(p.target, "x86_64-6.18");
	assert_non_null(strstr(p.why, "aarch64 has no targets of its own"));
}

/* Without a version: the snapshot's own kernel=, else its sheaf caches,
 * else the default. */
static void test_without_meta(void **state)
{
	struct ss_target_pick p;
	struct ss_snap s;

	(void)state;
	snap_of(&s, "6.12.1", CACHE("kmalloc-64", 0));
	pick(NULL, NULL, &s, &p);
	assert_string_equal(p.target, "x86_64-6.x");
	ss_snap_release(&s);
	snap_of(&s, "", sheaves_618);
	pick("", "", &s, &p);
	assert_string_equal(p.target, "x86_64-6.18");
	assert_non_null(strstr(p.why, "no kernel version"));
	ss_snap_release(&s);
	pick(NULL, NULL, NULL, &p);
	assert_string_equal(p.target, "x86_64-6.x");
	assert_non_null(strstr(p.why, "default"));
}

/* The options the snapshot shows over the target file's. */
static void test_options(void **state)
{
	struct ss_target_pick p;
	struct ss_snap s;

	(void)state;
	/* 6.18 as x86_64-6.18 has it: nothing to add */
	snap_of(&s, "6.18.44", sheaves_618);
	pick("6.18.44", "x86_64", &s, &p);
	assert_string_equal(p.target, "x86_64-6.18");
	assert_string_equal(p.config, "");
	assert_non_null(strstr(p.why, "maple_node (32)"));
	ss_snap_release(&s);
	/* another capacity, no kmem_buckets */
	snap_of(&s, "6.18.2", CACHE("maple_node", 16) CACHE("kmalloc-64", 0));
	pick("6.18.2", "x86_64", &s, &p);
	assert_string_equal(p.config, "CONFIG_MEMCG=n,CONFIG_SLAB_BUCKETS=n,sheaf_capacity.maple_node=16");
	ss_snap_release(&s);
	/* random kmalloc caches on a 6.12 kernel (x86_64-6.x has them off) */
	snap_of(&s, "6.12.1", CACHE("kmalloc-rnd-01-64", 0) CACHE("kmalloc-64", 0));
	pick("6.12.1", "x86_64", &s, &p);
	assert_string_equal(p.target, "x86_64-6.x");
	assert_string_equal(p.config, "CONFIG_RANDOM_KMALLOC_CACHES=y");
	ss_snap_release(&s);
	/* an era without the option: nothing said of it */
	snap_of(&s, "6.1.50", CACHE("kmalloc-64", 0));
	pick("6.1.50", "x86_64", &s, &p);
	assert_string_equal(p.target, "x86_64-6.1");
	assert_string_equal(p.config, "");
	ss_snap_release(&s);
	/* 7.x: every cache has sheaves; a capacity its 64-byte stride gives
	 * (60, calculate_sheaf_capacity()) is no option, a larger one is the
	 * cache's request */
	snap_of(&s, "7.2.13", CACHE("kmalloc-cg-64", 60) CACHE("memdup_user-64", 60)
		CACHE("kmalloc-64", 60) CACHE("big_sheaf", 90));
	pick("7.2.13", "x86_64", &s, &p);
	assert_string_equal(p.target, "x86_64-7.2");
	assert_string_equal(p.config, "sheaf_capacity.big_sheaf=90");
	assert_non_null(strstr(p.why, "sheaf caches big_sheaf (90)"));
	assert_null(strstr(p.why, "kmalloc-64 (60)"));
	ss_snap_release(&s);
}

/* Another allocator than the capture's: the target's era must have it. */
static void test_allocators(void **state)
{
	const unsigned slab = 1u << SS_ALLOCATOR_SLAB, tiny = 1u << SS_ALLOCATOR_SLUB_TINY,
		       slub = 1u << SS_ALLOCATOR_SLUB;
	struct ss_target_pick p;
	struct ss_snap s;
	struct ss_error err;

	(void)state;
	/* SLAB was removed in 6.8: a 6.18 capture replays SLAB on 6.1 */
	snap_of(&s, "6.18.44", sheaves_618);
	assert_int_equal(ss_target_pick("6.18.44", "x86_64", &s, slab, "x86_64-6.x", &p, &err), 0);
	assert_string_equal(p.target, "x86_64-6.1");
	/* memcg is SLAB's too; the sheaves and buckets are SLUB's */
	assert_string_equal(p.config, "CONFIG_MEMCG=y");
	assert_non_null(strstr(p.why, "x86_64-6.18 is nearer, but target x86_64-6.18 (era 6.18): SLAB was removed in 6.8"));
	assert_int_equal(ss_target_pick("6.18.44", "x86_64", &s, slab | slub, "x86_64-6.x", &p, &err), 0);
	assert_string_equal(p.target, "x86_64-6.1");
	/* SLUB_TINY (6.2+) is in 6.18 */
	assert_int_equal(ss_target_pick("6.18.44", "x86_64", &s, tiny, "x86_64-6.x", &p, &err), 0);
	assert_string_equal(p.target, "x86_64-6.18");
	ss_snap_release(&s);
	/* a 4.5 kernel with SLUB_TINY: the oldest target that has it */
	assert_int_equal(ss_target_pick("4.5.1", "x86_64", NULL, tiny, "x86_64-6.x", &p, &err), 0);
	assert_string_equal(p.target, "x86_64-6.x");
	assert_non_null(strstr(p.why, "oldest"));
	/* SLAB and SLUB_TINY together: eras 6.2 .. 6.7, no x86_64 target */
	assert_int_equal(ss_target_pick("6.18.44", "x86_64", NULL, slab | tiny, "x86_64-6.x", &p, &err), -1);
	assert_non_null(strstr(err.msg, "SLUB_TINY and SLAB"));
}

/* The kernel's boot parameters: those a run takes (the slub_* orders,
 * slab_nomerge, init_on_*) go to boot, named in why; slub_debug (a
 * model's letters) is named as not taken. */
static void test_boot(void **state)
{
	struct ss_target_pick p;
	struct ss_error err;
	(void)state;

	pick("6.1.0-50-amd64", "x86_64", NULL, &p);
	assert_int_equal(ss_target_pick_boot("", &p, &err), 0);
	assert_string_equal(p.boot, "");
	assert_int_equal(ss_target_pick_boot("slub_min_order=3 slub_debug=P slab_nomerge "
					     "init_on_free=1 slab_max_order=2", &p, &err), 0);
	assert_string_equal(p.boot, "slub_min_order=3,slab_nomerge=y,init_on_free=1,slab_max_order=2");
	assert_string_equal(p.config, "");
	assert_non_null(strstr(p.why, "; the kernel's boot parameters: slub_min_order=3 slab_nomerge "
				      "init_on_free=1 slab_max_order=2"));
	assert_non_null(strstr(p.why, "; not run options (not taken): slub_debug=P"));
	/* a value the option does not take is not taken either */
	pick("6.1.0-50-amd64", "x86_64", NULL, &p);
	assert_int_equal(ss_target_pick_boot("slub_min_order=x", &p, &err), 0);
	assert_string_equal(p.boot, "");
	assert_non_null(strstr(p.why, "not taken): slub_min_order=x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release_era),
		cmocka_unit_test(test_era_from_version),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_without_meta),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_allocators),
		cmocka_unit_test(test_boot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
