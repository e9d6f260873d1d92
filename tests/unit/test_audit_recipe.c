/* test_audit_recipe.c - the per-iteration recipe of each audit variant:
 * event counts, sites, sizes and work cycles, read back from a generated
 * trace and checked against reference/audit.md's table by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "audit/audit_gen.h"
#include "audit/audit_labels.h"
#include "test_util.h"
#include "trace.h"

#define MAX_ALLOCS 4096

/* What a trace did, by site and by label. */
struct tally {
	struct {
		char site[64], api[64];
		uint64_t size;
	} a[MAX_ALLOCS];
	unsigned nallocs, nfrees;
	uint64_t events[AUDIT_NR_LABELS], cycles[AUDIT_NR_LABELS];
	uint32_t max_cpu;
	char variant[32];
};

static void tally_event(struct tally *t, const struct ss_trace_tables *tb,
			const struct ss_event *ev)
{
	int l;

	if (ev->cpu > t->max_cpu)
		t->max_cpu = ev->cpu;
	switch (ev->kind) {
	case SS_EV_ALLOC:
		assert_true(t->nallocs < MAX_ALLOCS);
		snprintf(t->a[t->nallocs].site, 64, "%s", ss_trace_name(tb, ev->site));
		snprintf(t->a[t->nallocs].api, 64, "%s", ss_trace_cache_name(tb, ev->api));
		t->a[t->nallocs++].size = ev->value;
		break;
	case SS_EV_FREE:
		t->nfrees++;
		break;
	case SS_EV_WORK:
		l = ss_audit_label_find(ss_trace_name(tb, ev->site));
		assert_true(l >= 0);
		t->events[l]++;
		t->cycles[l] += ev->value;
		break;
	default:
		break;
	}
}

/* Generate p's trace into a temporary file and count it. */
static void run(const struct ss_audit_params *p, struct tally *t)
{
	char path[TU_PATH_MAX];
	struct ss_trace_writer *w;
	struct ss_trace_reader *r;
	struct ss_error err = {{0}};
	struct ss_event ev;
	int rc;

	tu_tmp_text(path, sizeof(path), "");
	memset(t, 0, sizeof(*t));
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	if (ss_audit_emit_trace(w, p, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);
	if (ss_trace_open(&r, path, &err))
		fail_msg("%s", err.msg);
	while ((rc = ss_trace_next(r, &ev, &err)) == 1)
		tally_event(t, ss_trace_tables(r), &ev);
	if (rc < 0)
		fail_msg("%s", err.msg);
	snprintf(t->variant, sizeof(t->variant), "%s", ss_trace_meta(ss_trace_tables(r), "variant"));
	ss_trace_close(r);
	unlink(path);
}

static unsigned allocs(const struct tally *t, const char *site, const char *api,
		       uint64_t size)
{
	unsigned n = 0;

	for (unsigned i = 0; i < t->nallocs; i++)
		n += !strcmp(t->a[i].site, site) && !strcmp(t->a[i].api, api) &&
		     t->a[i].size == size;
	return n;
}

static void params(struct ss_audit_params *p, enum ss_audit_variant v, uint64_t n)
{
	ss_audit_params_defaults(p);
	p->variant = v;
	p->syscalls = n;
	p->scale_permille = 1000; /* the profile's figures unscaled */
}

/* The derived costs at scale 1000 (test_audit_profile.c checks them). */
#define C_USER 77
#define C_BASE 2330
#define C_RULE 70
#define C_FORMAT 571
#define C_MLS 113
#define C_GETSEC 122
#define C_RDLOCK 38
#define C_SIDTAB 48

/* audit off: getname/putname of a names_cache object, nothing else. */
static void test_off(void **state)
{
	struct ss_audit_params p;
	struct tally t;

	(void)state;
	params(&p, AUDIT_OFF, 3);
	run(&p, &t);
	assert_string_equal(t.variant, "off");
	assert_int_equal(t.nallocs, 3);
	assert_int_equal(allocs(&t, "getname", "names_cache", 4096), 3);
	assert_int_equal(t.nfrees, 3);
	assert_int_equal(t.events[AUDIT_L_USER], 3);
	assert_int_equal(t.cycles[AUDIT_L_USER], 3 * C_USER);
	assert_int_equal(t.cycles[AUDIT_L_BASE], 3 * C_BASE);
	for (int l = AUDIT_L_RULES; l < AUDIT_NR_LABELS; l++)
		assert_int_equal(t.events[l], 0);
}

/* 2.6.16, system_u:object_r:etc_t:s0 (L 27, no category bits): three
 * kmalloc(27) per lookup (two conversions and the kept copy), two
 * conversions' work, 4 rules x 70 cycles. */
static void test_on_2616(void **state)
{
	struct ss_audit_params p;
	struct tally t;

	(void)state;
	params(&p, AUDIT_ON_2616, 2);
	run(&p, &t);
	assert_int_equal(allocs(&t, "getname", "names_cache", 4096), 2);
	assert_int_equal(allocs(&t, "context_struct_to_string", "kmalloc", 27), 4);
	assert_int_equal(allocs(&t, "audit_inode_context", "kmalloc", 27), 2);
	assert_int_equal(t.nallocs, 8);
	assert_int_equal(t.nfrees, 8);
	assert_int_equal(t.cycles[AUDIT_L_RULES], 2 * 4 * C_RULE);
	assert_int_equal(t.events[AUDIT_L_FORMAT], 4);
	assert_int_equal(t.cycles[AUDIT_L_FORMAT], 4 * C_FORMAT);
	assert_int_equal(t.cycles[AUDIT_L_MLS], 4 * C_MLS);
	assert_int_equal(t.events[AUDIT_L_MLS_BITS], 0);
	assert_int_equal(t.cycles[AUDIT_L_GETSECURITY], 4 * C_GETSEC);
	assert_int_equal(t.cycles[AUDIT_L_RDLOCK], 4 * C_RDLOCK);
	assert_int_equal(t.cycles[AUDIT_L_SIDTAB], 4 * C_SIDTAB);
	assert_int_equal(t.events[AUDIT_L_INODE_CTX], 2);
	assert_int_equal(t.events[AUDIT_L_EXIT], 2);
	assert_int_equal(t.events[AUDIT_L_TASK_LOCK], 2);
	assert_int_equal(t.events[AUDIT_L_NAME], 2);
	assert_int_equal(t.events[AUDIT_L_PWD_REF], 2);
	assert_int_equal(t.events[AUDIT_L_SID_COPY], 0);
	assert_int_equal(t.events[AUDIT_L_BOUNCE], 0);
}

/* A c0.c1023 range: L 44, 1024 bits a pass, two passes a conversion at
 * AUDIT_MLS_BIT_CYCLES 4 = 8192 cycles per conversion. */
static void test_mls_range(void **state)
{
	struct ss_audit_params p;
	struct ss_error err;
	struct tally t;

	(void)state;
	params(&p, AUDIT_ON_2616, 1);
	assert_int_equal(ss_audit_context_parse("user_u:object_r:user_home_t:s0-s15:c0.c1023",
					     &p.ctx[0], &err), 0);
	run(&p, &t);
	assert_int_equal(allocs(&t, "context_struct_to_string", "kmalloc", 44), 2);
	assert_int_equal(allocs(&t, "audit_inode_context", "kmalloc", 44), 1);
	assert_int_equal(t.events[AUDIT_L_MLS_BITS], 2);
	assert_int_equal(t.cycles[AUDIT_L_MLS_BITS], 2 * 8192);
}

/* The 2.6.17 fix: a SID copy, no string, no allocation but names_cache. */
static void test_on_sid(void **state)
{
	struct ss_audit_params p;
	struct tally t;

	(void)state;
	params(&p, AUDIT_ON_SID, 2);
	run(&p, &t);
	assert_int_equal(t.nallocs, 2);
	assert_int_equal(allocs(&t, "getname", "names_cache", 4096), 2);
	assert_int_equal(t.events[AUDIT_L_SID_COPY], 2);
	assert_int_equal(t.cycles[AUDIT_L_SID_COPY], 2 * 5);
	assert_int_equal(t.events[AUDIT_L_FORMAT] + t.events[AUDIT_L_GETSECURITY] +
			 t.events[AUDIT_L_RDLOCK] + t.events[AUDIT_L_INODE_CTX], 0);
	assert_int_equal(t.cycles[AUDIT_L_RULES], 2 * 4 * C_RULE);
	assert_int_equal(t.events[AUDIT_L_EXIT], 2);
}

/* 5.6 cache: the first conversion formats and caches (44 + 27 = 71, kept
 * for good), the other three are kmemdup(27) + a 25 + 27/16 = 26-cycle
 * copy + the LRU bump. */
static void test_on_cached(void **state)
{
	struct ss_audit_params p;
	struct tally t;

	(void)state;
	params(&p, AUDIT_ON_CACHED, 2);
	run(&p, &t);
	assert_int_equal(allocs(&t, "context_struct_to_string", "kmalloc", 27), 1);
	assert_int_equal(allocs(&t, "sidtab_sid2str_put", "kmalloc", 71), 1);
	assert_int_equal(allocs(&t, "sidtab_sid2str_get", "kmalloc", 27), 3);
	assert_int_equal(allocs(&t, "audit_inode_context", "kmalloc", 27), 2);
	assert_int_equal(t.nallocs, 9);
	assert_int_equal(t.nfrees, 8); /* the cache entry stays */
	assert_int_equal(t.events[AUDIT_L_FORMAT], 1);
	assert_int_equal(t.events[AUDIT_L_STR_COPY], 3);
	assert_int_equal(t.cycles[AUDIT_L_STR_COPY], 3 * 26);
	assert_int_equal(t.cycles[AUDIT_L_CACHE_LRU], 3 * 92);
	assert_int_equal(t.events[AUDIT_L_RDLOCK], 4);
	assert_int_equal(t.events[AUDIT_L_GETSECURITY], 4);
}

/* The what-if: on-2.6.16's strings from cache audit_ctx. */
static void test_on_ctxcache(void **state)
{
	struct ss_audit_params p;
	struct tally t;

	(void)state;
	params(&p, AUDIT_ON_CTXCACHE, 1);
	run(&p, &t);
	assert_int_equal(allocs(&t, "context_struct_to_string", "audit_ctx", 27), 2);
	assert_int_equal(allocs(&t, "audit_inode_context", "audit_ctx", 27), 1);
	assert_int_equal(t.nallocs, 4);
	assert_int_equal(t.events[AUDIT_L_FORMAT], 2);
}

/* open + close: filp and the 24-byte security blob; close frees the blob,
 * the filp waits for RCU (freed at the end here); close scans the rules
 * and costs a quarter of the base, open 1.25 x. */
static void test_open(void **state)
{
	struct ss_audit_params p;
	struct ss_error err;
	struct tally t;

	(void)state;
	params(&p, AUDIT_ON_2616, 1);
	assert_int_equal(ss_audit_mix_parse("open:1", p.mix, &err), 0);
	run(&p, &t);
	assert_int_equal(allocs(&t, "get_empty_filp", "filp", 232), 1);
	assert_int_equal(allocs(&t, "file_alloc_security", "kmalloc", 24), 1);
	assert_int_equal(t.nallocs, 6);
	assert_int_equal(t.nfrees, 6);
	assert_int_equal(t.events[AUDIT_L_RULES], 2);
	assert_int_equal(t.events[AUDIT_L_EXIT], 2);
	assert_int_equal(t.events[AUDIT_L_USER], 1);
	assert_int_equal(t.cycles[AUDIT_L_BASE], (C_BASE * 1250 + 500) / 1000 +
						 (C_BASE * 250 + 500) / 1000);
}

/* Records on on-sid: SYSCALL, CWD, PATH = 3 skbs (232 + 1344 data), two
 * d_path buffers of PATH_MAX + 11, subj= (task context user_u:user_r:
 * user_t:s0, L 24: two conversions + the kmalloc), obj= one conversion. */
static void test_records(void **state)
{
	struct ss_audit_params p;
	struct tally t;

	(void)state;
	params(&p, AUDIT_ON_SID, 1);
	p.record_pct = 100;
	run(&p, &t);
	assert_int_equal(allocs(&t, "audit_log_start:skb", "skbuff_head_cache", 232), 3);
	assert_int_equal(allocs(&t, "alloc_skb:data", "kmalloc", 1344), 3);
	assert_int_equal(allocs(&t, "audit_log_d_path", "kmalloc", 4107), 2);
	assert_int_equal(allocs(&t, "context_struct_to_string", "kmalloc", 24), 2);
	assert_int_equal(allocs(&t, "audit_log_task_context", "kmalloc", 24), 1);
	assert_int_equal(allocs(&t, "context_struct_to_string", "kmalloc", 27), 1);
	assert_int_equal(t.nallocs, 1 + 3 + 3 + 2 + 3 + 1);
	assert_int_equal(t.nfrees, t.nallocs);
	assert_int_equal(t.events[AUDIT_L_RECORD], 3);
	assert_int_equal(t.cycles[AUDIT_L_RECORD], (6 + 1 + 4) * 300 + 3 * 200 + 2 * 300);
	assert_int_equal(t.events[AUDIT_L_KAUDITD], 3);
	/* the subj= conversions go through selinux_getsecurity, obj= not */
	assert_int_equal(t.events[AUDIT_L_GETSECURITY], 2);
	assert_int_equal(t.events[AUDIT_L_FORMAT], 3);
}

/* Two CPUs: iterations alternate; each shared line costs 150 x 1/2. */
static void test_cpus(void **state)
{
	struct ss_audit_params p;
	struct tally t;

	(void)state;
	params(&p, AUDIT_ON_2616, 4);
	p.cpus = 2;
	run(&p, &t);
	assert_int_equal(t.max_cpu, 1);
	/* per iteration: pwd_ref + two policy read locks */
	assert_int_equal(t.events[AUDIT_L_BOUNCE], 4 * 3);
	assert_int_equal(t.cycles[AUDIT_L_BOUNCE], 4 * 3 * 75);
}

/* The mix is exact in every prefix, records by Bresenham. */
static void test_mix_and_records(void **state)
{
	struct ss_audit_mix_state s = {{0}};
	unsigned mix[AUDIT_NR_KINDS], count[AUDIT_NR_KINDS] = {0}, rec = 0;
	struct ss_error err;

	(void)state;
	assert_int_equal(ss_audit_mix_parse("stat:40,access:40,open:20", mix, &err), 0);
	for (int i = 0; i < 100; i++) {
		count[ss_audit_mix_next(&s, mix)]++;
		rec += (unsigned)ss_audit_records_at((unsigned long long)i, 30);
		if (i == 4) {
			assert_int_equal(count[AUDIT_STAT], 2);
			assert_int_equal(count[AUDIT_ACCESS], 2);
			assert_int_equal(count[AUDIT_OPEN], 1);
		}
	}
	assert_int_equal(count[AUDIT_STAT], 40);
	assert_int_equal(count[AUDIT_OPEN], 20);
	assert_int_equal(rec, 30);
	assert_int_equal(ss_audit_mix_parse("stat:1,stat:2", mix, &err), -1);
	assert_int_equal(ss_audit_mix_parse("read:1", mix, &err), -1);
	assert_int_equal(ss_audit_mix_parse("stat:0", mix, &err), -1);
	assert_int_equal(ss_audit_mix_parse("stat", mix, &err), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off),
		cmocka_unit_test(test_on_2616),
		cmocka_unit_test(test_mls_range),
		cmocka_unit_test(test_on_sid),
		cmocka_unit_test(test_on_cached),
		cmocka_unit_test(test_on_ctxcache),
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_mix_and_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
