/* test_slab_oracle.c - reading /sys/kernel/slab and /proc/slabinfo copies
 * (tests/data/slab, see its README) and comparing them with the model. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "geometry.h"
#include "slab_oracle.h"
#include "target.h"
#include "test_util.h"

/* tests/data/slab/<rel> (test_util.h) */
static void data_path(const char *rel, char *buf, size_t n)
{
	tu_data_path("slab", rel, buf, n);
}

static struct ss_target load(const char *name, unsigned cpus)
{
	struct ss_target t = tu_target(name);

	t.cpus = cpus;
	return t;
}

static const struct ss_oracle_cache *find(const struct ss_oracle *o,
					  const char *name)
{
	for (size_t i = 0; i < o->nr; i++)
		if (!strcmp(o->caches[i].name, name))
			return &o->caches[i];
	fail_msg("cache %s not read", name);
	return NULL;
}

static void test_read_saved_sysfs(void **state)
{
	char dir[PATH_MAX];
	struct ss_oracle o;
	struct ss_error err;
	const struct ss_oracle_cache *c;

	(void)state;
	data_path("sys-kernel-slab", dir, sizeof(dir));
	assert_int_equal(ss_oracle_read_sysfs(dir, &o, &err), 0);
	assert_int_equal(o.nr, 16);
	for (size_t i = 1; i < o.nr; i++)
		assert_true(strcmp(o.caches[i - 1].name, o.caches[i].name) < 0);
	c = find(&o, "anon_vma");
	assert_int_equal(c->object_size, 96);
	assert_int_equal(c->slab_size, 104);
	assert_true(c->rcu);
	assert_true(c->ctor);
	assert_false(c->hwcache);
	assert_false(c->kmalloc);
	assert_int_equal(c->debug, 0);
	c = find(&o, "kmalloc-96");
	assert_true(c->kmalloc);
	assert_int_equal(c->align, 32);
	assert_true(c->have_cpu_partial);
	assert_int_equal(c->cpu_partial, 120);
	c = find(&o, "dma-kmalloc-1k");
	assert_true(c->kmalloc);
	c = find(&o, ":A-0000128");
	assert_true(c->hwcache);
	assert_false(c->kmalloc);
	ss_oracle_release(&o);
}

/* The saved caches all match the model with the machine's 2 CPUs, except
 * vm_area_struct, created with an explicit freeptr_offset. */
static void test_check_saved_sysfs(void **state)
{
	char dir[PATH_MAX];
	struct ss_oracle o;
	struct ss_error err;
	struct ss_target t = load("x86_64-6.x", 2);
	unsigned match = 0, freeptr = 0, mismatch8 = 0;

	(void)state;
	data_path("sys-kernel-slab", dir, sizeof(dir));
	assert_int_equal(ss_oracle_read_sysfs(dir, &o, &err), 0);
	for (size_t i = 0; i < o.nr; i++) {
		struct ss_oracle_result r;

		assert_int_equal(ss_oracle_check(&t, &o.caches[i], &r, &err), 0);
		if (r.verdict == SS_VERDICT_MATCH)
			match++;
		else if (r.verdict == SS_VERDICT_FREEPTR) {
			freeptr++;
			assert_string_equal(o.caches[i].name, "vm_area_struct");
			assert_int_equal(r.model.size, 256); /* 192 + 8 -> 256 */
		} else {
			fail_msg("%s: %s", o.caches[i].name, r.reason);
		}
	}
	assert_int_equal(match, 15);
	assert_int_equal(freeptr, 1);
	/* with 8 CPUs (min_objects 20) orders differ: the check can fail */
	t.cpus = 8;
	for (size_t i = 0; i < o.nr; i++) {
		struct ss_oracle_result r;

		assert_int_equal(ss_oracle_check(&t, &o.caches[i], &r, &err), 0);
		if (r.verdict == SS_VERDICT_MISMATCH)
			mismatch8++;
	}
	assert_true(mismatch8 >= 3);
	ss_oracle_release(&o);
}

static void put(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX + NAME_MAX + 2];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	tu_write_text(path, text);
}

/* A synthetic debug cache (no cache on the validation machine had
 * slub_debug on): slub.md's FZPU kmalloc-64 worked example, 8 CPUs. */
static void make_debug_tree(char *root, size_t n)
{
	char dir[PATH_MAX];
	static const char *const files[][2] = {
		{"object_size", "64\n"}, {"slab_size", "256\n"},
		{"order", "1\n"},	 {"objs_per_slab", "32\n"},
		{"align", "64\n"},	 {"hwcache_align", "0\n"},
		{"poison", "1\n"},	 {"red_zone", "1\n"},
		{"store_user", "1\n"},	 {"sanity_checks", "1\n"},
		{"trace", "0\n"},	 {"destroy_by_rcu", "0\n"},
		{"ctor", ""},		 {"min_partial", "5\n"},
		{"cpu_partial", "0\n"},
	};

	tu_tmp_dir(root, n);
	snprintf(dir, sizeof(dir), "%s/kmalloc-64", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put(dir, files[i][0], files[i][1]);
}

static void test_debug_cache_and_alias(void **state)
{
	char root[64], link[128], dir[128];
	struct ss_oracle o;
	struct ss_error err;
	struct ss_oracle_result r;
	struct ss_target t = load("x86_64-6.x", 8);

	(void)state;
	make_debug_tree(root, sizeof(root));
	/* an alias is a symlink: skipped */
	snprintf(link, sizeof(link), "%s/some-alias", root);
	assert_int_equal(symlink("kmalloc-64", link), 0);
	assert_int_equal(ss_oracle_read_sysfs(root, &o, &err), 0);
	assert_int_equal(o.nr, 1);
	assert_int_equal(o.caches[0].debug, SS_DBG_ALL);
	assert_int_equal(ss_oracle_check(&t, &o.caches[0], &r, &err), 0);
	if (r.verdict != SS_VERDICT_MATCH)
		fail_msg("%s", r.reason);
	/* without the orig_size word and left pad (4.5) it would not match */
	t.era = 405;
	assert_int_equal(ss_oracle_check(&t, &o.caches[0], &r, &err), 0);
	assert_int_equal(r.verdict, SS_VERDICT_MISMATCH);
	assert_non_null(strstr(r.reason, "slab_size"));
	ss_oracle_release(&o);

	/* a missing required attribute is an error naming the file */
	snprintf(dir, sizeof(dir), "%s/kmalloc-64/red_zone", root);
	assert_int_equal(unlink(dir), 0);
	assert_int_equal(ss_oracle_read_sysfs(root, &o, &err), -1);
	assert_non_null(strstr(err.msg, "kmalloc-64/red_zone: missing"));
	tu_remove_tree(root);
}

/* One cache directory of a synthetic 7.x /sys/kernel/slab: the files
 * sysfs has in 7.2 (cpu_partial_show() prints 0, slabs_cpu_partial "0(0)"
 * and cpu_slabs "0": still there, unused). */
static void put_cache(const char *root, const char *name, unsigned size, unsigned slab_size,
		      unsigned order, unsigned objs, unsigned align, bool hw, bool rcu,
		      const char *ctor, unsigned debug, unsigned sheaf)
{
	char dir[PATH_MAX], v[32];

	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	assert_int_equal(mkdir(dir, 0755), 0);
#define PUTU(f, x) (snprintf(v, sizeof(v), "%u\n", (unsigned)(x)), put(dir, f, v))
	PUTU("object_size", size);
	PUTU("slab_size", slab_size);
	PUTU("order", order);
	PUTU("objs_per_slab", objs);
	PUTU("align", align);
	PUTU("hwcache_align", hw);
	PUTU("destroy_by_rcu", rcu);
	PUTU("poison", !!(debug & SS_DBG_P));
	PUTU("red_zone", !!(debug & SS_DBG_Z));
	PUTU("store_user", !!(debug & SS_DBG_U));
	PUTU("sanity_checks", !!(debug & SS_DBG_F));
	PUTU("trace", 0);
	PUTU("min_partial", 5);
	PUTU("cpu_partial", 0);
	PUTU("sheaf_capacity", sheaf);
#undef PUTU
	put(dir, "ctor", ctor);
	put(dir, "cpu_slabs", "0\n");
	put(dir, "slabs_cpu_partial", "0(0)\n");
}

/* A 7.2 machine with 2 CPUs as the 7.2 rules lay it out (mm/slub.c
 * calculate_sizes(), calculate_sheaf_capacity()): kmalloc-64 sheaf 60;
 * maple_node (256, asks 32) 32; vm_area_struct (192, RCU, explicit
 * freeptr_offset, asks 32) 60; a 96-byte constructor cache with a
 * freeptr_offset, its pointer inside (7.0); kmem_cache_node without
 * sheaves (SLAB_NO_SHEAVES); an FZPU kmalloc-64 without (debug). */
static void make_72_tree(char *root, size_t n)
{
	tu_tmp_dir(root, n);
	put_cache(root, "kmalloc-64", 64, 64, 0, 64, 64, false, false, "", 0, 60);
	put_cache(root, "maple_node", 256, 256, 0, 16, 256, false, false, "", 0, 32);
	put_cache(root, "vm_area_struct", 192, 192, 0, 21, 64, true, true, "", 0, 60);
	put_cache(root, "ctor_fp", 96, 96, 0, 42, 8, false, false, "init_once+0x0/0x20\n", 0, 60);
	put_cache(root, "kmem_cache_node", 64, 64, 0, 64, 64, true, false, "", 0, 0);
	put_cache(root, "kmalloc-rcl-64", 64, 256, 0, 16, 64, false, false, "", SS_DBG_ALL, 0);
}

static void test_sysfs_72(void **state)
{
	char root[64];
	struct ss_oracle o;
	struct ss_error err;
	struct ss_target t = load("x86_64-7.2", 2);
	struct ss_target t618 = load("x86_64-6.18", 2);
	unsigned sheaf_mismatch618 = 0;

	(void)state;
	make_72_tree(root, sizeof(root));
	assert_int_equal(ss_oracle_read_sysfs(root, &o, &err), 0);
	assert_int_equal(o.nr, 6);
	for (size_t i = 0; i < o.nr; i++) {
		const struct ss_oracle_cache *c = &o.caches[i];
		struct ss_oracle_result r;

		assert_true(c->have_sheaf_capacity);
		assert_int_equal(ss_oracle_check(&t, c, &r, &err), 0);
		if (!strcmp(c->name, "vm_area_struct") || !strcmp(c->name, "ctor_fp")) {
			assert_int_equal(r.verdict, SS_VERDICT_FREEPTR);
			if (!strcmp(c->name, "ctor_fp"))
				assert_non_null(strstr(r.reason, "7.0+, constructor"));
		} else if (r.verdict != SS_VERDICT_MATCH) {
			fail_msg("%s: %s", c->name, r.reason);
		}
		if (r.sheaf_capacity != c->sheaf_capacity)
			fail_msg("%s: sheaf model %u kernel %u", c->name, r.sheaf_capacity,
				 c->sheaf_capacity);
		/* the 6.18 rules: a ctor takes the pointer out; sheaves only
		 * where the target asks */
		assert_int_equal(ss_oracle_check(&t618, c, &r, &err), 0);
		if (!strcmp(c->name, "ctor_fp"))
			assert_int_equal(r.verdict, SS_VERDICT_MISMATCH);
		sheaf_mismatch618 += r.sheaf_capacity != c->sheaf_capacity;
	}
	/* kmalloc-64, vm_area_struct (32 asked, 60 in 7.2), ctor_fp */
	assert_int_equal(sheaf_mismatch618, 3);
	ss_oracle_release(&o);
	tu_remove_tree(root);
	assert_true(ss_sheaf_none_named("kmem_cache"));
	assert_true(ss_sheaf_none_named("kmemleak_object"));
	assert_true(ss_sheaf_none_named("debug_objects_cache"));
	assert_false(ss_sheaf_none_named("kmem_cache_node_x"));
}

static void test_bad_sysfs(void **state)
{
	char root[64], dir[128];
	struct ss_oracle o;
	struct ss_error err;

	(void)state;
	assert_int_equal(ss_oracle_read_sysfs("/nonexistent-slab", &o, &err), -1);
	make_debug_tree(root, sizeof(root));
	snprintf(dir, sizeof(dir), "%s/kmalloc-64", root);
	put(dir, "order", "x1\n");
	assert_int_equal(ss_oracle_read_sysfs(root, &o, &err), -1);
	assert_non_null(strstr(err.msg, "kmalloc-64/order: bad number"));
	put(dir, "order", "1\n");
	put(dir, "poison", "2\n");
	assert_int_equal(ss_oracle_read_sysfs(root, &o, &err), -1);
	assert_non_null(strstr(err.msg, "poison"));
	tu_remove_tree(root);
}

static void test_slabinfo_saved(void **state)
{
	char path[PATH_MAX];
	struct ss_slabinfo_line *l;
	struct ss_target t = load("x86_64-6.x", 2);
	struct ss_error err;
	size_t n, bad = 0;

	(void)state;
	data_path("proc-slabinfo-6.18.txt", path, sizeof(path));
	assert_int_equal(ss_slabinfo_read(path, &l, &n, &err), 0);
	assert_int_equal(n, 232);
	for (size_t i = 0; i < n; i++) {
		char reason[160];
		int order;
		unsigned objs;

		if (ss_slabinfo_check(&t, &l[i], &order, &objs, reason,
				      sizeof(reason)) != SS_VERDICT_MATCH)
			fail_msg("%s: %s", l[i].name, reason);
	}
	t.cpus = 64;
	for (size_t i = 0; i < n; i++) {
		char reason[160];
		int order;
		unsigned objs;

		bad += ss_slabinfo_check(&t, &l[i], &order, &objs, reason,
					 sizeof(reason)) != SS_VERDICT_MATCH;
	}
	assert_true(bad > 0);
	free(l);
}

static void test_slabinfo_lines(void **state)
{
	static const char head[] = "slabinfo - version: 2.1\n# name ...\n";
	char path[64], text[512], reason[160];
	struct ss_slabinfo_line *l;
	struct ss_target t = load("x86_64-6.x", 2);
	struct ss_error err;
	size_t n;
	int order;
	unsigned objs;

	(void)state;
	snprintf(text, sizeof(text), "%s%s", head,
		 "a 0 0 256 16 1 : tunables 0 0 0 : slabdata 0 0 0\n"
		 "b 0 0 256 15 1 : tunables 0 0 0 : slabdata 0 0 0\n"
		 "c 0 0 256 32 2 : tunables 0 0 0 : slabdata 0 0 0\n"
		 "d 0 0 260 15 1 : tunables 0 0 0 : slabdata 0 0 0\n"
		 "e 0 0 256 16 3 : tunables 0 0 0 : slabdata 0 0 0\n");
	tu_tmp_text(path, sizeof(path), text);
	assert_int_equal(ss_slabinfo_read(path, &l, &n, &err), 0);
	assert_int_equal(n, 5);
	assert_int_equal(ss_slabinfo_check(&t, &l[0], &order, &objs, reason, 160),
			 SS_VERDICT_MATCH);
	assert_int_equal(order, 0);
	assert_int_equal(objs, 16);
	/* objperslab inconsistent with the order */
	assert_int_equal(ss_slabinfo_check(&t, &l[1], &order, &objs, reason, 160),
			 SS_VERDICT_MISMATCH);
	assert_non_null(strstr(reason, "objperslab"));
	/* consistent, but not the order calculate_order() picks */
	assert_int_equal(ss_slabinfo_check(&t, &l[2], &order, &objs, reason, 160),
			 SS_VERDICT_MISMATCH);
	assert_non_null(strstr(reason, "order: model 0, kernel 1"));
	assert_int_equal(ss_slabinfo_check(&t, &l[3], &order, &objs, reason, 160),
			 SS_VERDICT_MISMATCH);
	assert_non_null(strstr(reason, "multiple"));
	assert_int_equal(ss_slabinfo_check(&t, &l[4], &order, &objs, reason, 160),
			 SS_VERDICT_MISMATCH);
	assert_non_null(strstr(reason, "power of two"));
	free(l);
	unlink(path);

	/* malformed input names file:line */
	snprintf(text, sizeof(text), "%sa 0 0 x 16 1\n", head);
	tu_tmp_text(path, sizeof(path), text);
	assert_int_equal(ss_slabinfo_read(path, &l, &n, &err), -1);
	snprintf(text, sizeof(text), "%s:3: bad number 'x'", path);
	assert_non_null(strstr(err.msg, text));
	unlink(path);
	tu_tmp_text(path, sizeof(path), "slabinfo - version: 1.1\n");
	assert_int_equal(ss_slabinfo_read(path, &l, &n, &err), -1);
	snprintf(text, sizeof(text), "%s:1:", path);
	assert_non_null(strstr(err.msg, text));
	unlink(path);
	snprintf(text, sizeof(text), "%sa 0 0 64\n", head);
	tu_tmp_text(path, sizeof(path), text);
	assert_int_equal(ss_slabinfo_read(path, &l, &n, &err), -1);
	unlink(path);
}

static void test_cpulist(void **state)
{
	unsigned n;

	(void)state;
	assert_int_equal(ss_parse_cpulist("0-1\n", &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ss_parse_cpulist("0", &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ss_parse_cpulist("0-3,6,8-9", &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(ss_parse_cpulist("", &n), -1);
	assert_int_equal(ss_parse_cpulist("3-1", &n), -1);
	assert_int_equal(ss_parse_cpulist("a", &n), -1);
	assert_int_equal(ss_parse_cpulist("1-", &n), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_saved_sysfs),
		cmocka_unit_test(test_check_saved_sysfs),
		cmocka_unit_test(test_debug_cache_and_alias),
		cmocka_unit_test(test_sysfs_72),
		cmocka_unit_test(test_bad_sysfs),
		cmocka_unit_test(test_slabinfo_saved),
		cmocka_unit_test(test_slabinfo_lines),
		cmocka_unit_test(test_cpulist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
