/* test_override.c - placement override files (allocators/override.c),
 * their routing inside the SLUB model (placement_override.c), and
 * find_mergeable() of each era (allocators/merge.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kmalloc.h"
#include "merge.h"
#include "model.h"
#include "override.h"
#include "test_util.h"
#include "trace_tables.h"

/* ---- the file ---- */

static void test_load(void **state)
{
	char path[TU_PATH_MAX];
	struct ss_overrides ov;
	struct ss_error err;

	(void)state;
	tu_tmp_text(path, sizeof(path),
		    "# a comment, then rules\n"
		    "site smk_set_access:rule cache=smack_rule size=20 align=4\n"
		    "  # indented comment\n"
		    "site f+0x1/0x2 cache=hw size=48 flags=hwcache\n"
		    "site b into=kmalloc-64\n"
		    "site c buckets=c_b\n"
		    "classes 8,16,32,64,96,128,192,256,512,1024,2048,4096,8192 minalign=8\n");
	assert_int_equal(ss_overrides_load(&ov, path, &err), 0);
	assert_int_equal(ov.nr, 4);
	assert_string_equal(ov.rule[0].site, "smk_set_access:rule");
	assert_int_equal(ov.rule[0].kind, SS_OV_CACHE);
	assert_string_equal(ov.rule[0].cache, "smack_rule");
	assert_int_equal(ov.rule[0].spec.object_size, 20);
	assert_int_equal(ov.rule[0].spec.align, 4);
	assert_int_equal(ov.rule[1].spec.flags, SS_CF_HWCACHE);
	assert_int_equal(ov.rule[2].kind, SS_OV_INTO);
	assert_int_equal(ov.rule[3].kind, SS_OV_BUCKETS);
	assert_int_equal(ov.nr_classes, 13);
	assert_int_equal(ov.minalign, 8);
	assert_int_equal(ss_overrides_find(&ov, "b"), 2);
	assert_int_equal(ss_overrides_find(&ov, "nope"), -1);
	ss_overrides_release(&ov);
	unlink(path);
}

/* The file's line, and what is wrong with it. */
static void expect_bad(const char *text, unsigned line, const char *why)
{
	char path[TU_PATH_MAX], want[TU_PATH_MAX + 32];
	struct ss_overrides ov;
	struct ss_error err;

	tu_tmp_text(path, sizeof(path), text);
	assert_int_equal(ss_overrides_load(&ov, path, &err), -1);
	snprintf(want, sizeof(want), "%s:%u: ", path, line);
	if (strncmp(err.msg, want, strlen(want)) || !strstr(err.msg, why))
		fail_msg("'%s': got '%s', want '%s...%s'", text, err.msg, want, why);
	assert_int_equal(ov.nr, 0);
	unlink(path);
}

static void test_bad(void **state)
{
	(void)state;
	expect_bad("site a cache=x size=20\nsite a into=kmalloc-32\n", 2, "site a placed twice");
	expect_bad("site a cache=x size=20\nsite b cache=x size=24\n", 2,
		   "cache x given again with other arguments");
	expect_bad("site a cache=x size=20 align=6\n", 1, "align 6 is not a power of two");
	expect_bad("site a cache=x\n", 1, "size= missing or 0");
	expect_bad("site a into=kmalloc-32 size=8\n", 1, "size=, align= and flags= go with cache=");
	expect_bad("site a cache=x into=y size=8\n", 1, "give one of cache=, into=, buckets=");
	expect_bad("site a size=8\n", 1, "want cache=, into= or buckets=");
	expect_bad("site a cache=x size=8 flags=bogus\n", 1, "bad flags 'bogus'");
	expect_bad("\n\nplace a b\n", 3, "unknown line 'place'");
	expect_bad("classes 8,32,16\n", 1, "16 after 32");
	expect_bad("classes 8,12\n", 1, "12 is not a multiple of 8");
	expect_bad("classes 8,16\nclasses 8,16\n", 2, "classes given twice");
	expect_bad("classes 8,16 minalign=3\n", 1, "minalign 3 is not a power of two");
	expect_bad("site a buckets=a_bucket_set_name_so_long_that_its_caches_would_pass_63_bytes\n", 1,
		   "bad cache name");
}

/* What ss_overrides_write writes, ss_overrides_load reads back the same. */
static void test_roundtrip(void **state)
{
	struct ss_cache_spec spec = {.object_size = 20, .align = 4, .flags = SS_CF_HWCACHE};
	unsigned cls[] = {32, 64, 96, 8192};
	struct ss_overrides a = {0}, b;
	char path[TU_PATH_MAX];
	struct ss_error err;
	FILE *fp;

	(void)state;
	assert_int_equal(ss_overrides_add(&a, "s1", SS_OV_CACHE, "c1", &spec, &err), 0);
	assert_int_equal(ss_overrides_add(&a, "s2", SS_OV_INTO, "kmalloc-32", NULL, &err), 0);
	assert_int_equal(ss_overrides_add(&a, "s3", SS_OV_BUCKETS, "b3", NULL, &err), 0);
	assert_int_equal(ss_overrides_add(&a, "s3", SS_OV_INTO, "x", NULL, &err), -1);
	assert_int_equal(ss_overrides_set_classes(&a, cls, 4, 0, &err), 0);
	tu_tmp_text(path, sizeof(path), "");
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(ss_overrides_write(&a, fp), 0);
	fclose(fp);
	assert_int_equal(ss_overrides_load(&b, path, &err), 0);
	assert_int_equal(b.nr, 3);
	assert_string_equal(b.rule[0].site, "s1");
	assert_int_equal(b.rule[0].spec.object_size, 20);
	assert_int_equal(b.rule[0].spec.align, 4);
	assert_int_equal(b.rule[0].spec.flags, SS_CF_HWCACHE);
	assert_string_equal(b.rule[1].cache, "kmalloc-32");
	assert_int_equal(b.rule[2].kind, SS_OV_BUCKETS);
	assert_int_equal(b.nr_classes, 4);
	assert_int_equal(b.classes[2], 96);
	ss_overrides_release(&a);
	ss_overrides_release(&b);
	unlink(path);
}

/* ---- routing in the SLUB model ---- */

struct fixture {
	struct ss_target t;
	struct ss_topology topo;
	struct ss_trace_tables tb;
	const struct ss_model_desc *desc;
	struct ss_model *m;
	struct ss_costs costs;
	uint64_t next_id;
};

static void fx_init(struct fixture *f, const char *target, const struct ss_overrides *ov)
{
	struct ss_model_config cfg = {0};
	struct ss_error err;

	memset(f, 0, sizeof(*f));
	f->t = tu_target(target);
	assert_int_equal(ss_topology_flat(&f->topo, 1, 1, &err), 0);
	f->t.cpus = 1;
	assert_int_equal(ss_trace_tables_init(&f->tb), 0);
	assert_true(ss_trace_tables_add_cache(&f->tb, "declared", 64, 8, 0) > 0);
	f->desc = ss_model_find("traced");
	cfg.target = &f->t;
	cfg.topo = &f->topo;
	cfg.tables = &f->tb;
	/* no merging: the model's own merging of the declared cache into a
	 * kmalloc class (traced replays of synthetic traces) is not tested here */
	cfg.merge = false;
	cfg.overrides = ov;
	if (f->desc->ops->create(&f->m, &cfg, f->desc->policy, &err))
		fail_msg("create: %s", err.msg);
}

static void fx_release(struct fixture *f)
{
	f->desc->ops->destroy(f->m);
	ss_trace_tables_release(&f->tb);
	ss_topology_release(&f->topo);
}

/* kmalloc(size) at site: the cache's name and stride, or -1 with err. */
static int place(struct fixture *f, const char *site, uint64_t size, char *name,
		 unsigned *stride, struct ss_error *err)
{
	uint32_t s = ss_strtab_intern(&f->tb.names, site);
	struct ss_event ev = {.kind = SS_EV_ALLOC, .id = f->next_id++, .site = s,
			      .api = SS_API_KMALLOC, .value = size};
	struct ss_obj obj = {.size = size, .site = s};
	struct ss_op op = {.cost = f->costs.cycles};
	struct ss_cache_report r;

	if (f->desc->ops->alloc(f->m, &ev, &obj, &op, err))
		return -1;
	f->desc->ops->cache_report(f->m, obj.cache, &r);
	strcpy(name, r.name);
	*stride = r.slab_size;
	return 0;
}

static void expect_place(struct fixture *f, const char *site, uint64_t size,
			 const char *cache, unsigned stride)
{
	char name[64];
	unsigned got;
	struct ss_error err;

	if (place(f, site, size, name, &got, &err))
		fail_msg("%s(%llu): %s", site, (unsigned long long)size, err.msg);
	if (strcmp(name, cache) || got != stride)
		fail_msg("%s(%llu): %s stride %u, want %s stride %u", site,
			 (unsigned long long)size, name, got, cache, stride);
}

static void test_route(void **state)
{
	struct ss_cache_spec rule = {.object_size = 20, .align = 4};
	struct ss_overrides ov = {0};
	struct fixture f;
	struct ss_error err;
	char name[64];
	unsigned stride;

	(void)state;
	assert_int_equal(ss_overrides_add(&ov, "rule", SS_OV_CACHE, "smack_rule", &rule, &err), 0);
	assert_int_equal(ss_overrides_add(&ov, "into", SS_OV_INTO, "kmalloc-64", NULL, &err), 0);
	assert_int_equal(ss_overrides_add(&ov, "decl", SS_OV_INTO, "declared", NULL, &err), 0);
	assert_int_equal(ss_overrides_add(&ov, "bk", SS_OV_BUCKETS, "bk", NULL, &err), 0);
	assert_int_equal(ss_overrides_add(&ov, "nowhere", SS_OV_INTO, "no_cache", NULL, &err), 0);
	fx_init(&f, "arm32-3.10", &ov);
	/* KMEM_CACHE(smack_rule): 20 bytes, align 4 -> ARCH_SLAB_MINALIGN 8 -> 24 */
	expect_place(&f, "rule", 20, "smack_rule", 24);
	expect_place(&f, "rule", 16, "smack_rule", 24);
	expect_place(&f, "into", 12, "kmalloc-64", 64);
	expect_place(&f, "decl", 40, "declared", 64);
	expect_place(&f, "bk", 100, "bk-128", 128);
	expect_place(&f, "bk", 20, "bk-32", 32);
	expect_place(&f, "other", 20, "kmalloc-32", 32); /* no rule: traced */
	assert_int_equal(place(&f, "rule", 21, name, &stride, &err), -1);
	assert_non_null(strstr(err.msg, "site rule asks 21 bytes, more than cache smack_rule holds (20)"));
	assert_int_equal(place(&f, "into", 65, name, &stride, &err), -1);
	assert_non_null(strstr(err.msg, "more than kmalloc-64 holds"));
	assert_int_equal(place(&f, "nowhere", 8, name, &stride, &err), -1);
	assert_non_null(strstr(err.msg, "into=no_cache: no kmalloc class of arm32-3.10"));
	fx_release(&f);
	ss_overrides_release(&ov);
}

static void test_classes(void **state)
{
	unsigned min8[] = {8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192};
	unsigned add24[] = {24, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192};
	struct ss_overrides ov = {0};
	struct ss_model *m;
	struct fixture f;
	struct ss_error err;

	(void)state;
	/* KMALLOC_MIN_SIZE 8 on the arm board: a 12-byte kmalloc in 16 bytes */
	assert_int_equal(ss_overrides_set_classes(&ov, min8, 13, 8, &err), 0);
	fx_init(&f, "arm32-3.10", &ov);
	expect_place(&f, "x", 12, "kmalloc-16", 16);
	expect_place(&f, "x", 5, "kmalloc-8", 8);
	expect_place(&f, "x", 90, "kmalloc-96", 96);
	fx_release(&f);
	ss_overrides_release(&ov);
	/* a kmalloc-24 where ARCH_KMALLOC_MINALIGN stays 32 is 32 bytes apart */
	memset(&ov, 0, sizeof(ov));
	assert_int_equal(ss_overrides_set_classes(&ov, add24, 12, 0, &err), 0);
	fx_init(&f, "arm32-3.10", &ov);
	expect_place(&f, "x", 20, "kmalloc-24", 32);
	expect_place(&f, "x", 30, "kmalloc-32", 32);
	fx_release(&f);
	/* ... and on x86_64 6.x, 24 bytes apart; the set must end at 8k */
	fx_init(&f, "x86_64-6.x", NULL);
	fx_release(&f);
	ss_overrides_release(&ov);
	{
		unsigned short_set[] = {8, 16, 24, 32, 4096};
		struct ss_model_config cfg = {0};

		memset(&ov, 0, sizeof(ov));
		assert_int_equal(ss_overrides_set_classes(&ov, short_set, 5, 0, &err), 0);
		fx_init(&f, "x86_64-6.x", NULL);
		cfg.target = &f.t;
		cfg.topo = &f.topo;
		cfg.tables = &f.tb;
		cfg.overrides = &ov;
		assert_int_equal(f.desc->ops->create(&m, &cfg, f.desc->policy, &err), -1);
		assert_non_null(strstr(err.msg, "classes end at 4096; on x86_64-6.x they must end at KMALLOC_MAX_CACHE_SIZE, 8192"));
		fx_release(&f);
		ss_overrides_release(&ov);
	}
}

/* ---- find_mergeable() of the era ---- */

static int merge_into(const struct ss_target *t, const struct ss_trace_tables *tb,
		      unsigned size, unsigned align, unsigned flags, char *name)
{
	struct ss_cache_spec spec = {.object_size = size, .align = align, .flags = flags};
	struct ss_merge_cand *c;
	unsigned n;
	struct ss_error err;
	int i;

	assert_int_equal(ss_merge_boot_candidates(t, tb, &c, &n, &err), 0);
	i = ss_merge_find(t, &spec, c, n);
	strcpy(name, i < 0 ? "-" : c[i].name);
	free(c);
	return i;
}

static void test_merge(void **state)
{
	struct ss_target arm = tu_target("arm32-3.10"), x45 = tu_target("x86_64-4.5");
	struct ss_target x6 = tu_target("x86_64-6.x");
	struct ss_trace_tables tb;
	char name[64];

	(void)state;
	assert_int_equal(ss_trace_tables_init(&tb), 0);
	/* smack_rule, 24 bytes apart: kmalloc-32 is 8 bytes more, a pointer
	 * is 4: no alias (the 2013 patch's cache stayed its own) */
	merge_into(&arm, &tb, 20, 4, 0, name);
	assert_string_equal(name, "-");
	/* with SLAB_HWCACHE_ALIGN on a 32-byte line it is 32 apart: an alias
	 * of kmalloc-32 in 3.10, where kmalloc classes merge */
	merge_into(&arm, &tb, 20, 4, SS_CF_HWCACHE, name);
	assert_string_equal(name, "kmalloc-32");
	merge_into(&x45, &tb, 60, 8, 0, name);
	assert_string_equal(name, "kmalloc-64");
	/* from 4.16 kmalloc classes carry a usersize: never an alias */
	merge_into(&x6, &tb, 60, 8, 0, name);
	assert_string_equal(name, "-");
	/* declared caches: RCU ones are never aliases; the walk is newest
	 * first in 3.10 and oldest first from 4.2 */
	assert_true(ss_trace_tables_add_cache(&tb, "rcu64", 64, 8, SS_CF_RCU) > 0);
	merge_into(&x6, &tb, 60, 8, 0, name);
	assert_string_equal(name, "-");
	assert_true(ss_trace_tables_add_cache(&tb, "old64", 64, 8, 0) > 0);
	assert_true(ss_trace_tables_add_cache(&tb, "new64", 64, 8, 0) > 0);
	merge_into(&x6, &tb, 60, 8, 0, name);
	assert_string_equal(name, "old64");
	merge_into(&arm, &tb, 60, 4, 0, name);
	assert_string_equal(name, "new64");
	merge_into(&x45, &tb, 60, 8, 0, name);
	assert_string_equal(name, "kmalloc-64"); /* the oldest of all */
	/* a constructor or RCU on the new cache: no alias at all */
	merge_into(&x6, &tb, 60, 8, SS_CF_CTOR, name);
	assert_string_equal(name, "-");
	ss_trace_tables_release(&tb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_route),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
