/* test_advise.c - the advisor's scan and proposal generator
 * (sim/advise/adv_scan.c, adv_gen.c) on a small trace worked by hand for
 * the SMACK board (arm32-3.10: kmalloc-32 is the smallest class, slabs
 * of one page, ARCH_SLAB_MINALIGN 8, a 32-byte cache line). */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "adv_gen.h"
#include "adv_probe.h"
#include "adv_scan.h"
#include "kmalloc.h"
#include "model.h"
#include "test_util.h"

/* 100 live 20-byte rules, 40 12-byte masters of which 10 are freed,
 * 10 + 10 40-byte objects from two sites, and a site of varying sizes. */
static void write_trace(char *path, size_t n)
{
	char *text = malloc(1 << 16);
	size_t len = 0;
	uint64_t id = 0;

	assert_non_null(text);
	len += (size_t)sprintf(text + len, "slabsim-trace 1\nmeta target arm32-3.10\n");
	for (int i = 0; i < 100; i++)
		len += (size_t)sprintf(text + len, "a 0 %llu smk:rule kmalloc 20\n",
				       (unsigned long long)id++);
	for (int i = 0; i < 40; i++)
		len += (size_t)sprintf(text + len, "a 0 %llu smk:master kmalloc 12\n",
				       (unsigned long long)id++);
	for (int i = 0; i < 10; i++)
		len += (size_t)sprintf(text + len, "f 0 %d\n", 100 + i);
	for (int i = 0; i < 10; i++)
		len += (size_t)sprintf(text + len, "a 0 %llu d40 kmalloc 40\na 0 %llu e40 kmalloc 40\n",
				       (unsigned long long)id, (unsigned long long)id + 1),
			id += 2;
	for (int i = 0; i < 30; i++)
		len += (size_t)sprintf(text + len, "a 0 %llu label kmalloc %d\n",
				       (unsigned long long)id++, 5 + i);
	tu_tmp_text(path, n, text);
	free(text);
}

struct gen_fx {
	struct ss_target t;
	struct ss_topology topo;
	struct ss_costs costs;
	struct ss_model_config cfg;
	struct ss_advise_scan scan;
	struct ss_advise_props props;
	char path[TU_PATH_MAX];
};

/* The proposals for the trace on target (a name or a path). */
static void gen_on(struct gen_fx *f, unsigned max, const char *target)
{
	struct ss_advise_gen_in in;
	struct ss_error err;

	memset(f, 0, sizeof(*f));
	f->t = tu_target(target);
	assert_int_equal(ss_topology_flat(&f->topo, f->t.cpus, 1, &err), 0);
	write_trace(f->path, sizeof(f->path));
	if (ss_advise_scan_trace(f->path, ss_kmalloc_max_cache_size(&f->t), &f->scan, &err))
		fail_msg("scan: %s", err.msg);
	f->cfg.target = &f->t;
	f->cfg.topo = &f->topo;
	f->cfg.merge = true;
	f->cfg.tables = f->scan.tables;
	in = (struct ss_advise_gen_in){.scan = &f->scan, .desc = ss_model_find("traced"),
				 .cfg = &f->cfg, .costs = &f->costs, .max_proposals = max};
	if (ss_advise_generate(&in, &f->props, &err))
		fail_msg("generate: %s", err.msg);
}

static void gen(struct gen_fx *f, unsigned max)
{
	gen_on(f, max, "arm32-3.10");
}

static void gen_release(struct gen_fx *f)
{
	ss_advise_props_release(&f->props);
	ss_advise_scan_release(&f->scan);
	ss_topology_release(&f->topo);
	unlink(f->path);
}

static const struct ss_advise_prop *find(const struct gen_fx *f, const char *label,
				   const char *sites)
{
	for (unsigned i = 0; i < f->props.nr; i++)
		if (!strcmp(f->props.p[i].label, label) && !strcmp(f->props.p[i].sites, sites))
			return &f->props.p[i];
	return NULL;
}

static void test_scan(void **state)
{
	struct gen_fx f;
	uint32_t rule, master, label;

	(void)state;
	gen(&f, 100);
	rule = ss_strtab_find(&f.scan.tables->names, "smk:rule");
	master = ss_strtab_find(&f.scan.tables->names, "smk:master");
	label = ss_strtab_find(&f.scan.tables->names, "label");
	assert_int_equal(f.scan.allocs, 100 + 40 + 20 + 30);
	assert_int_equal(f.scan.site[rule].live, 100);
	assert_true(adv_site_fixed(&f.scan.site[rule]));
	assert_int_equal(f.scan.site[master].live, 30);
	assert_int_equal(f.scan.site[master].peak_live, 40);
	assert_false(adv_site_fixed(&f.scan.site[label]));
	/* the labels are 5 to 34 bytes: one of 12, one of 20 */
	assert_int_equal(f.scan.size_live[12], 31);
	assert_int_equal(f.scan.size_peak[12], 40);
	assert_int_equal(f.scan.size_live[20], 101);
	assert_false(f.scan.imported);
	gen_release(&f);
}

static void test_proposals(void **state)
{
	const struct ss_advise_prop *p;
	struct gen_fx f;

	(void)state;
	gen(&f, 100);
	/* the rule: 32 -> 24 bytes for 100 live objects */
	p = find(&f, "dedicated", "smk:rule");
	assert_non_null(p);
	assert_string_equal(p->current, "kmalloc-32");
	assert_string_equal(p->cache, "smk_rule");
	assert_int_equal(p->object_size, 20);
	assert_int_equal(p->cur_stride, 32);
	assert_int_equal(p->stride, 24);
	assert_true(p->predicted_kib > 100 * 8 / 1024.0 - 1e-9 &&
		    p->predicted_kib < 100 * 8 / 1024.0 + 1e-9);
	assert_string_equal(p->merge_into, "");
	assert_int_equal(p->ov.nr, 1);
	assert_int_equal(p->ov.rule[0].kind, SS_OV_CACHE);
	assert_int_equal(p->ov.rule[0].spec.align, 4);
	assert_null(p->needs);
	/* with SLAB_HWCACHE_ALIGN it is 32 apart again, and 3.10 merges it
	 * back into kmalloc-32: a row of its own, no merged twin */
	p = find(&f, "dedicated+hwcache", "smk:rule");
	assert_non_null(p);
	assert_int_equal(p->stride, 32);
	assert_string_equal(p->merge_into, "kmalloc-32");
	assert_null(find(&f, "merged+hwcache:kmalloc-32", "smk:rule"));
	/* the master: 16 apart either way, one row; 30 live, 40 at most */
	p = find(&f, "dedicated", "smk:master");
	assert_non_null(p);
	assert_true(p->hw_same);
	assert_null(find(&f, "dedicated+hwcache", "smk:master"));
	assert_true(p->predicted_kib > 30 * 16 / 1024.0 - 1e-9 &&
		    p->predicted_kib < 30 * 16 / 1024.0 + 1e-9);
	assert_true(p->score > 40 * 16 / 1024.0 - 1e-9);
	/* the two 40-byte sites: each its own cache, and one shared */
	assert_non_null(find(&f, "dedicated", "d40"));
	p = find(&f, "group", "d40 e40");
	assert_non_null(p);
	assert_int_equal(p->nr_sites, 2);
	assert_string_equal(p->cache, "fixed40");
	assert_int_equal(p->ov.nr, 2);
	assert_string_equal(p->ov.rule[1].cache, "fixed40");
	/* a site of varying sizes gets no dedicated cache */
	assert_null(find(&f, "dedicated", "label"));
	/* KMALLOC_MIN_SIZE 32 here: the set from 8 up is proposed; 96 and
	 * 192 exist already */
	p = find(&f, "classes:min8", "*");
	assert_non_null(p);
	assert_int_equal(p->ov.minalign, 8);
	assert_int_equal(p->ov.classes[0], 8);
	assert_null(find(&f, "classes:+96,192", "*"));
	/* not a capture: no kmem_buckets or random kmalloc proposals */
	for (unsigned i = 0; i < f.props.nr; i++)
		assert_true(f.props.p[i].kind != SS_ADVISE_BUCKETS && f.props.p[i].kind != ADV_RANDOM);
	gen_release(&f);
}

static bool has_class(const struct ss_advise_prop *p, unsigned size)
{
	for (unsigned i = 0; i < p->ov.nr_classes; i++)
		if (p->ov.classes[i] == size)
			return true;
	return false;
}

/* The cache a kmalloc of size bytes from site "label" lands in under p. */
static void probe_kmalloc(struct gen_fx *f, const struct ss_advise_prop *p, uint64_t size,
			  const char *want)
{
	struct ss_advise_req req = {.site = ss_strtab_find(&f->scan.tables->names, "label"),
			      .api = SS_API_KMALLOC, .size = size};
	struct ss_advise_place got;
	struct ss_error err;

	if (ss_advise_probe(ss_model_find("traced"), &f->cfg, &p->ov, &f->costs, &req, 1, &got, &err))
		fail_msg("probe: %s", err.msg);
	assert_string_equal(got.cache, want);
}

/* A board whose KMALLOC_MIN_SIZE is 128 (ARCH_DMA_MINALIGN 128, as on
 * arm64 before 6.5): no kmalloc-96, no kmalloc-192. */
static const char dma128_target[] =
	"name = dma128\nptr_size = 8\npage_size = 4096\ncache_line = 128\n"
	"dma_minalign = 128\nslab_minalign = 8\ncpus = 2\nnodes = 1\nera = 6.1\n";

/* The class sets on targets that lack classes: kmalloc-96 and -192 back
 * where KMALLOC_MIN_SIZE 128 leaves both out, kmalloc-96 alone where it is
 * 64 (arm32-3.10-v7), and classes where the sizes cluster (x86_64-6.x
 * lacks 24 and 40: the rule's 20 bytes, the 40-byte pair). */
static void test_class_sets(void **state)
{
	char path[TU_PATH_MAX];
	const struct ss_advise_prop *p;
	struct gen_fx f;

	(void)state;
	tu_tmp_text(path, sizeof(path), dma128_target);
	gen_on(&f, 100, path);
	p = find(&f, "classes:+96,192", "*");
	assert_non_null(p);
	assert_true(has_class(p, 96) && has_class(p, 128) && has_class(p, 192));
	assert_string_equal(p->current, "kmalloc-128");
	probe_kmalloc(&f, p, 90, "kmalloc-96");
	probe_kmalloc(&f, p, 150, "kmalloc-192");
	assert_null(find(&f, "classes:+96", "*"));
	assert_non_null(find(&f, "classes:min8", "*"));
	gen_release(&f);
	unlink(path);

	gen_on(&f, 100, "arm32-3.10-v7");
	p = find(&f, "classes:+96", "*");
	assert_non_null(p);
	assert_int_equal(p->object_size, 96);
	assert_string_equal(p->cache, "kmalloc-96");
	assert_true(has_class(p, 96) && has_class(p, 192));
	probe_kmalloc(&f, p, 90, "kmalloc-96");
	assert_null(find(&f, "classes:+96,192", "*"));
	assert_null(find(&f, "classes:+192", "*"));
	gen_release(&f);

	gen_on(&f, 100, "x86_64-6.x");
	assert_null(find(&f, "classes:min8", "*"));
	assert_null(find(&f, "classes:+96", "*"));
	p = find(&f, "classes:+24", "*");
	assert_non_null(p);
	assert_int_equal(p->object_size, 24);
	assert_string_equal(p->cache, "kmalloc-24");
	assert_string_equal(p->current, "kmalloc-32");
	assert_true(has_class(p, 24) && has_class(p, 8) && has_class(p, 32));
	/* at least the 100 rules, 32 -> 24 bytes */
	assert_true(p->predicted_kib >= 100 * 8 / 1024.0 - 1e-9);
	probe_kmalloc(&f, p, 20, "kmalloc-24");
	p = find(&f, "classes:+40", "*");
	assert_non_null(p);
	probe_kmalloc(&f, p, 40, "kmalloc-40");
	gen_release(&f);
}

/* Past the budget proposals are dropped, the best by score kept. */
static void test_budget(void **state)
{
	struct gen_fx f;
	unsigned sites = 0;

	(void)state;
	gen(&f, 1);
	for (unsigned i = 0; i < f.props.nr; i++)
		if (f.props.p[i].kind == SS_ADVISE_DEDICATED || f.props.p[i].kind == ADV_GROUP ||
		    f.props.p[i].kind == SS_ADVISE_MERGED) {
			sites++;
			assert_string_equal(f.props.p[i].sites, "smk:rule"); /* 100 x 8 bytes */
		}
	assert_int_equal(sites, 1);
	assert_true(f.props.dropped >= 4);
	assert_true(f.props.dropped_kib > 30 * 16 / 1024.0 - 1e-9);
	assert_non_null(find(&f, "classes:min8", "*")); /* not budgeted */
	gen_release(&f);
}

static void test_cache_name(void **state)
{
	char buf[64];

	(void)state;
	ss_advise_cache_name("smk_set_access:rule", buf, sizeof(buf));
	assert_string_equal(buf, "smk_set_access_rule");
	ss_advise_cache_name("ext4_find_extent+0x30c/0x350", buf, sizeof(buf));
	assert_string_equal(buf, "ext4_find_extent");
	ss_advise_cache_name("+0x10/0x20", buf, sizeof(buf));
	assert_string_equal(buf, "c");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_proposals),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_class_sets),
		cmocka_unit_test(test_cache_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
