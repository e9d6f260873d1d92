/* test_smack_recipe.c - the per-write allocation recipe of each variant,
 * worked by hand on a 3-rule, 2-label load, and the rule generator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "smack17k/smack_gen.h"
#include "smack17k/smack_label.h"
#include "smack17k/smack_consts.h"
#include "smack17k/smack_recipe.h"
#include "smack17k/smack_rules.h"
#include "test_util.h"
#include "trace.h"

/* ---- reading a trace back ---- */

/* One expected event.  tag names an allocation; a free names the tag of
 * the allocation it frees. */
struct exp {
	char kind;	  /* 'a' 'f' 'w' 'p' */
	const char *name; /* site, work label or phase */
	const char *api;  /* alloc: "kmalloc" or a cache */
	uint64_t value;	  /* alloc: bytes; work: cycles */
	const char *tag;
};

struct got {
	char kind;
	char name[64], api[64];
	uint64_t value, id;
	uint32_t cpu;
};

struct trace {
	struct got *ev;
	size_t nr;
	char meta[8][2][64];
	struct ss_trace_cache cache[4];
	char cache_name[4][32];
	unsigned nr_caches;
};

static void read_trace(const char *path, struct trace *t)
{
	static const char *const keys[] = {"workload", "variant", "rules", "labels",
					   "seed", "source", "system_kib", "target"};
	struct ss_trace_reader *r;
	const struct ss_trace_tables *tb;
	struct ss_event ev;
	struct ss_error err;
	size_t cap = 0;
	int rc;

	memset(t, 0, sizeof(*t));
	assert_int_equal(ss_trace_open(&r, path, &err), 0);
	tb = ss_trace_tables(r);
	while ((rc = ss_trace_next(r, &ev, &err)) == 1) {
		struct got *g;

		if (t->nr == cap) {
			cap = cap ? cap * 2 : 256;
			t->ev = realloc(t->ev, cap * sizeof(*t->ev));
			assert_non_null(t->ev);
		}
		g = &t->ev[t->nr++];
		memset(g, 0, sizeof(*g));
		g->kind = "afwp"[ev.kind];
		g->cpu = ev.cpu;
		g->id = ev.id;
		g->value = ev.value;
		if (ev.kind != SS_EV_FREE)
			snprintf(g->name, sizeof(g->name), "%s", ss_trace_name(tb, ev.site));
		if (ev.kind == SS_EV_ALLOC)
			snprintf(g->api, sizeof(g->api), "%s", ss_trace_cache_name(tb, ev.api));
	}
	if (rc)
		fail_msg("%s", err.msg);
	for (size_t i = 0; i < 8; i++) {
		const char *v = ss_trace_meta(tb, keys[i]);

		snprintf(t->meta[i][0], 64, "%s", keys[i]);
		snprintf(t->meta[i][1], 64, "%s", v ? v : "(none)");
	}
	t->nr_caches = tb->cache_names.nr < 4 ? tb->cache_names.nr : 4;
	for (unsigned i = 0; i < t->nr_caches; i++) {
		t->cache[i] = tb->caches[i];
		snprintf(t->cache_name[i], 32, "%s", ss_trace_cache_name(tb, i));
	}
	ss_trace_close(r);
}

static const char *meta(const struct trace *t, const char *key)
{
	for (size_t i = 0; i < 8; i++)
		if (!strcmp(t->meta[i][0], key))
			return t->meta[i][1];
	return "(none)";
}

/* Compare event by event; check that every free names the live object
 * its tag was given, and return the number of objects still live. */
static size_t check_events(const struct trace *t, const struct exp *e,
			   size_t nr, uint32_t cpu)
{
	uint64_t tag_id[256];
	const char *tag_of[256];
	int live[256] = {0};
	size_t nr_tags = 0, nr_live = 0;

	if (t->nr != nr)
		fail_msg("trace has %zu events, expected %zu", t->nr, nr);
	for (size_t i = 0; i < nr; i++) {
		const struct got *g = &t->ev[i];

		if (g->kind != e[i].kind)
			fail_msg("event %zu: kind %c, expected %c (%s)", i, g->kind,
				 e[i].kind, e[i].name ? e[i].name : e[i].tag);
		if (g->kind != 'p')
			assert_int_equal(g->cpu, cpu);
		if (g->kind == 'a' || g->kind == 'w' || g->kind == 'p')
			if (strcmp(g->name, e[i].name))
				fail_msg("event %zu: '%s', expected '%s'", i, g->name, e[i].name);
		if ((g->kind == 'a' || g->kind == 'w') && g->value != e[i].value)
			fail_msg("event %zu (%s): value %llu, expected %llu", i,
				 g->name, (unsigned long long)g->value,
				 (unsigned long long)e[i].value);
		if (g->kind == 'a') {
			if (strcmp(g->api, e[i].api))
				fail_msg("event %zu (%s): api %s, expected %s", i,
					 g->name, g->api, e[i].api);
			for (size_t k = 0; k < nr_tags; k++)
				if (live[k] && tag_id[k] == g->id)
					fail_msg("event %zu: id %llu is still live", i,
						 (unsigned long long)g->id);
			assert_true(nr_tags < 256);
			tag_of[nr_tags] = e[i].tag;
			tag_id[nr_tags] = g->id;
			live[nr_tags++] = 1;
			nr_live++;
		}
		if (g->kind == 'f') {
			size_t k;

			for (k = 0; k < nr_tags; k++)
				if (live[k] && tag_of[k] && !strcmp(tag_of[k], e[i].tag))
					break;
			if (k == nr_tags)
				fail_msg("event %zu: no live allocation tagged %s", i, e[i].tag);
			if (tag_id[k] != g->id)
				fail_msg("event %zu: frees id %llu, expected %llu (%s)", i,
					 (unsigned long long)g->id,
					 (unsigned long long)tag_id[k], e[i].tag);
			live[k] = 0;
			nr_live--;
		}
	}
	return nr_live;
}

/* ---- the 3-rule, 2-label load ----
 *
 *   System User rwx     smackctl writes "System User rwx--" : 17 bytes
 *   User System r       "User System r----"                 : 17 bytes
 *   System User rw      "System User rw---" (same pair)     : 17 bytes
 *
 * Labels: "System" kzalloc(7), "User" kzalloc(5).  smack_known_list at
 * boot holds @ "" _ * ^ ? (6).  Write 1: System is new -> 6 compares,
 * then User is new -> 7 (System is at the head now).  Write 2: User is
 * the head -> 1, System second -> 2.  Write 3: System 2, User 1.
 * smk_set_access: System's list empty (0), User's empty (0), then
 * System's list holds (System, User) at its head -> 1 compare, found.
 * Costs used: write 1000, label compare 30, rule compare 8, sscanf 30 per
 * byte (17 * 30 = 510); system 1 KiB -> four 256-byte objects.
 */

static const char three_rules[] =
	"System User rwx\nUser System r\nSystem User rw\n";

#define SYS_ALLOCS                                               \
	{'p', "system", NULL, 0, NULL},                          \
	{'a', "system:other", "system-other", 256, "s1"},        \
	{'a', "system:other", "system-other", 256, "s2"},        \
	{'a', "system:other", "system-other", 256, "s3"},        \
	{'a', "system:other", "system-other", 256, "s4"},        \
	{'p', "load", NULL, 0, NULL}

static const struct exp ref_events[] = {
	SYS_ALLOCS,
	/* write 1: System User rwx */
	{'w', "write_syscall", NULL, 1000, NULL},
	{'a', "smk_write_rules_list:data", "kmalloc", 18, "d1"},
	{'a', "smk_write_rules_list:rule", "kmalloc", 16, "leak1"},
	{'a', "smk_parse_long_rule:subject", "kmalloc", 18, "b1s"},
	{'a', "smk_parse_long_rule:object", "kmalloc", 17, "b1o"},
	{'a', "smk_parse_long_rule:access1", "kmalloc", 17, "b1a"},
	{'a', "smk_parse_long_rule:access2", "kmalloc", 17, "b1b"},
	{'w', "sscanf", NULL, 510, NULL},
	{'a', "smk_parse_smack:label", "kmalloc", 7, "System"},
	{'w', "smk_find_entry", NULL, 6 * 30, NULL},
	{'a', "smk_import_entry:smack_known", "kmalloc", 72, "kSystem"},
	{'a', "smk_netlbl_mls:catmap", "kmalloc", 48, "cSystem"},
	{'a', "smk_parse_smack:label", "kmalloc", 5, "User"},
	{'w', "smk_find_entry", NULL, 7 * 30, NULL},
	{'a', "smk_import_entry:smack_known", "kmalloc", 72, "kUser"},
	{'a', "smk_netlbl_mls:catmap", "kmalloc", 48, "cUser"},
	{'f', NULL, NULL, 0, "b1b"},
	{'f', NULL, NULL, 0, "b1a"},
	{'f', NULL, NULL, 0, "b1o"},
	{'f', NULL, NULL, 0, "b1s"},
	{'w', "smk_set_access", NULL, 0, NULL},
	{'a', "smk_set_access:rule", "kmalloc", 20, "rSU"},
	{'a', "smk_set_access:master", "kmalloc", 12, "mSU"},
	{'f', NULL, NULL, 0, "d1"},
	/* write 2: User System r */
	{'w', "write_syscall", NULL, 1000, NULL},
	{'a', "smk_write_rules_list:data", "kmalloc", 18, "d2"},
	{'a', "smk_write_rules_list:rule", "kmalloc", 16, "leak2"},
	{'a', "smk_parse_long_rule:subject", "kmalloc", 18, "b2s"},
	{'a', "smk_parse_long_rule:object", "kmalloc", 17, "b2o"},
	{'a', "smk_parse_long_rule:access1", "kmalloc", 17, "b2a"},
	{'a', "smk_parse_long_rule:access2", "kmalloc", 17, "b2b"},
	{'w', "sscanf", NULL, 510, NULL},
	{'a', "smk_parse_smack:label", "kmalloc", 5, "tmp2u"},
	{'w', "smk_find_entry", NULL, 1 * 30, NULL},
	{'f', NULL, NULL, 0, "tmp2u"},
	{'a', "smk_parse_smack:label", "kmalloc", 7, "tmp2s"},
	{'w', "smk_find_entry", NULL, 2 * 30, NULL},
	{'f', NULL, NULL, 0, "tmp2s"},
	{'f', NULL, NULL, 0, "b2b"},
	{'f', NULL, NULL, 0, "b2a"},
	{'f', NULL, NULL, 0, "b2o"},
	{'f', NULL, NULL, 0, "b2s"},
	{'w', "smk_set_access", NULL, 0, NULL},
	{'a', "smk_set_access:rule", "kmalloc", 20, "rUS"},
	{'a', "smk_set_access:master", "kmalloc", 12, "mUS"},
	{'f', NULL, NULL, 0, "d2"},
	/* write 3: System User rw -- existing pair, no rule allocated */
	{'w', "write_syscall", NULL, 1000, NULL},
	{'a', "smk_write_rules_list:data", "kmalloc", 18, "d3"},
	{'a', "smk_write_rules_list:rule", "kmalloc", 16, "leak3"},
	{'a', "smk_parse_long_rule:subject", "kmalloc", 18, "b3s"},
	{'a', "smk_parse_long_rule:object", "kmalloc", 17, "b3o"},
	{'a', "smk_parse_long_rule:access1", "kmalloc", 17, "b3a"},
	{'a', "smk_parse_long_rule:access2", "kmalloc", 17, "b3b"},
	{'w', "sscanf", NULL, 510, NULL},
	{'a', "smk_parse_smack:label", "kmalloc", 7, "tmp3s"},
	{'w', "smk_find_entry", NULL, 2 * 30, NULL},
	{'f', NULL, NULL, 0, "tmp3s"},
	{'a', "smk_parse_smack:label", "kmalloc", 5, "tmp3u"},
	{'w', "smk_find_entry", NULL, 1 * 30, NULL},
	{'f', NULL, NULL, 0, "tmp3u"},
	{'f', NULL, NULL, 0, "b3b"},
	{'f', NULL, NULL, 0, "b3a"},
	{'f', NULL, NULL, 0, "b3o"},
	{'f', NULL, NULL, 0, "b3s"},
	{'w', "smk_set_access", NULL, 1 * 8, NULL},
	{'f', NULL, NULL, 0, "d3"},
};

/* patch2 (and patch3/4 with other apis): no parsed-rule kzalloc, no
 * sscanf buffers, no sscanf time. */
static const struct exp patch2_events[] = {
	SYS_ALLOCS,
	{'w', "write_syscall", NULL, 1000, NULL},
	{'a', "smk_write_rules_list:data", "kmalloc", 18, "d1"},
	{'a', "smk_parse_smack:label", "kmalloc", 7, "System"},
	{'w', "smk_find_entry", NULL, 6 * 30, NULL},
	{'a', "smk_import_entry:smack_known", "kmalloc", 72, "kSystem"},
	{'a', "smk_netlbl_mls:catmap", "kmalloc", 48, "cSystem"},
	{'a', "smk_parse_smack:label", "kmalloc", 5, "User"},
	{'w', "smk_find_entry", NULL, 7 * 30, NULL},
	{'a', "smk_import_entry:smack_known", "kmalloc", 72, "kUser"},
	{'a', "smk_netlbl_mls:catmap", "kmalloc", 48, "cUser"},
	{'w', "smk_set_access", NULL, 0, NULL},
	{'a', "smk_set_access:rule", "kmalloc", 20, "rSU"},
	{'a', "smk_set_access:master", "kmalloc", 12, "mSU"},
	{'f', NULL, NULL, 0, "d1"},
	{'w', "write_syscall", NULL, 1000, NULL},
	{'a', "smk_write_rules_list:data", "kmalloc", 18, "d2"},
	{'a', "smk_parse_smack:label", "kmalloc", 5, "tmp2u"},
	{'w', "smk_find_entry", NULL, 1 * 30, NULL},
	{'f', NULL, NULL, 0, "tmp2u"},
	{'a', "smk_parse_smack:label", "kmalloc", 7, "tmp2s"},
	{'w', "smk_find_entry", NULL, 2 * 30, NULL},
	{'f', NULL, NULL, 0, "tmp2s"},
	{'w', "smk_set_access", NULL, 0, NULL},
	{'a', "smk_set_access:rule", "kmalloc", 20, "rUS"},
	{'a', "smk_set_access:master", "kmalloc", 12, "mUS"},
	{'f', NULL, NULL, 0, "d2"},
	{'w', "write_syscall", NULL, 1000, NULL},
	{'a', "smk_write_rules_list:data", "kmalloc", 18, "d3"},
	{'a', "smk_parse_smack:label", "kmalloc", 7, "tmp3s"},
	{'w', "smk_find_entry", NULL, 2 * 30, NULL},
	{'f', NULL, NULL, 0, "tmp3s"},
	{'a', "smk_parse_smack:label", "kmalloc", 5, "tmp3u"},
	{'w', "smk_find_entry", NULL, 1 * 30, NULL},
	{'f', NULL, NULL, 0, "tmp3u"},
	{'w', "smk_set_access", NULL, 1 * 8, NULL},
	{'f', NULL, NULL, 0, "d3"},
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void load_rules(struct ss_smack_ruleset *rs, const char *text)
{
	char path[TU_PATH_MAX];
	struct ss_error err;

	tu_tmp_text(path, sizeof(path), text);
	ss_smack_ruleset_init(rs);
	if (ss_smack_rules_load(rs, path, &err))
		fail_msg("%s", err.msg);
	unlink(path);
}

static void emit_trace(const struct ss_smack_ruleset *rs,
		       const struct ss_smack_recipe *rp, struct trace *t)
{
	char path[TU_PATH_MAX];
	struct ss_trace_writer *w;
	struct ss_error err;

	tu_tmp_text(path, sizeof(path), "");
	assert_int_equal(ss_trace_writer_open(&w, path, &err), 0);
	assert_int_equal(ss_smack_write_meta(w, rs, rp, "seed", "42", &err), 0);
	if (ss_smack_emit(w, rs, rp, &err)) {
		ss_trace_writer_abort(w);
		fail_msg("%s", err.msg);
	}
	assert_int_equal(ss_trace_writer_commit(w, &err), 0);
	read_trace(path, t);
	unlink(path);
}

static void hand_recipe(struct ss_smack_recipe *rp, enum ss_smack_variant v)
{
	ss_smack_recipe_defaults(rp);
	rp->variant = v;
	rp->cpu = 3;
	rp->system_kib = 1;
	rp->write_cycles = 1000;
	rp->label_cmp_cycles = 30;
	rp->rule_cmp_cycles = 8;
	rp->sscanf_byte_cycles = 30;
}

/* Copy of tab with the variant's differences from smack.md applied:
 * drop the leaked parsed rule (memfix on), move rule/master to caches. */
static size_t variant_of(const struct exp *tab, size_t nr, int drop_leak,
			 const char *rule_api, const char *master_api,
			 struct exp *out)
{
	size_t n = 0;

	for (size_t i = 0; i < nr; i++) {
		if (drop_leak && tab[i].kind == 'a' &&
		    !strcmp(tab[i].name, "smk_write_rules_list:rule"))
			continue;
		out[n] = tab[i];
		if (tab[i].kind == 'a' && !strcmp(tab[i].name, "smk_set_access:rule"))
			out[n].api = rule_api;
		if (tab[i].kind == 'a' && !strcmp(tab[i].name, "smk_set_access:master"))
			out[n].api = master_api;
		n++;
	}
	return n;
}

struct variant_case {
	enum ss_smack_variant v;
	const struct exp *tab;
	size_t nr;
	int drop_leak;
	const char *rule_api, *master_api;
	size_t live;	   /* objects never freed, system ones included */
	unsigned nr_caches; /* kmalloc + declared */
};

static void run_variant(const struct variant_case *c)
{
	struct ss_smack_ruleset rs;
	struct ss_smack_recipe rp;
	struct trace t;
	struct exp want[128];
	size_t n;

	load_rules(&rs, three_rules);
	hand_recipe(&rp, c->v);
	emit_trace(&rs, &rp, &t);
	n = variant_of(c->tab, c->nr, c->drop_leak, c->rule_api, c->master_api, want);
	assert_int_equal(check_events(&t, want, n, 3), c->live);
	assert_string_equal(meta(&t, "workload"), "smack17k");
	assert_string_equal(meta(&t, "variant"), ss_smack_variant_name(c->v));
	assert_string_equal(meta(&t, "rules"), "3");
	assert_string_equal(meta(&t, "labels"), "2");
	assert_string_equal(meta(&t, "seed"), "42");
	assert_string_equal(meta(&t, "system_kib"), "1");
	assert_int_equal(t.nr_caches, c->nr_caches);
	free(t.ev);
	ss_smack_ruleset_release(&rs);
}

/* Live at the end: 4 system objects, 2 labels x (string, smack_known,
 * catmap) = 6, 2 pairs x (rule, master) = 4, and in ref the 3 leaked
 * parsed rules. */
static void test_ref(void **state)
{
	struct variant_case c = {SS_SMACK_REF, ref_events, NELEM(ref_events), 0,
				 "kmalloc", "kmalloc", 4 + 6 + 4 + 3, 2};

	(void)state;
	assert_int_equal(NELEM(ref_events), 6 + 24 + 22 + 20);
	run_variant(&c);
}

static void test_memfix(void **state)
{
	struct variant_case c = {SS_SMACK_MEMFIX, ref_events, NELEM(ref_events), 1,
				 "kmalloc", "kmalloc", 4 + 6 + 4, 2};

	(void)state;
	run_variant(&c);
}

static void test_patch2(void **state)
{
	struct variant_case c = {SS_SMACK_PATCH2, patch2_events,
				 NELEM(patch2_events), 0, "kmalloc", "kmalloc",
				 4 + 6 + 4, 2};

	(void)state;
	run_variant(&c);
}

static void test_patch3(void **state)
{
	struct variant_case c = {SS_SMACK_PATCH3, patch2_events,
				 NELEM(patch2_events), 0, "smack_rule", "kmalloc",
				 4 + 6 + 4, 3};
	struct ss_smack_ruleset rs;
	struct ss_smack_recipe rp;
	struct trace t;

	(void)state;
	run_variant(&c);
	/* KMEM_CACHE(smack_rule, 0) on ARM: size 20, __alignof__ 4 */
	load_rules(&rs, three_rules);
	hand_recipe(&rp, SS_SMACK_PATCH3);
	emit_trace(&rs, &rp, &t);
	assert_string_equal(t.cache_name[1], "smack_rule");
	assert_int_equal(t.cache[1].object_size, 20);
	assert_int_equal(t.cache[1].align, 4);
	assert_int_equal(t.cache[1].flags, 0);
	assert_string_equal(t.cache_name[2], "system-other");
	assert_int_equal(t.cache[2].object_size, 256);
	assert_int_equal(t.cache[2].align, 8);
	free(t.ev);
	ss_smack_ruleset_release(&rs);
}

static void test_patch4(void **state)
{
	struct variant_case c = {SS_SMACK_PATCH4, patch2_events,
				 NELEM(patch2_events), 0, "smack_rule",
				 "smack_master_list", 4 + 6 + 4, 4};
	struct ss_smack_ruleset rs;
	struct ss_smack_recipe rp;
	struct trace t;

	(void)state;
	run_variant(&c);
	load_rules(&rs, three_rules);
	hand_recipe(&rp, SS_SMACK_PATCH4);
	emit_trace(&rs, &rp, &t);
	assert_string_equal(t.cache_name[2], "smack_master_list");
	assert_int_equal(t.cache[2].object_size, 12);
	assert_int_equal(t.cache[2].align, 4);
	free(t.ev);
	ss_smack_ruleset_release(&rs);
}

/* Built-in labels: never created, found at their boot position behind
 * the labels the load added.  Each write is "x y a----", 9 bytes, so
 * data is kzalloc(10).  "_ A r": _ is 3rd of 6 (3 compares), A is
 * new (6).  "A ^ w": A at the head (1), ^ behind A and 4 more (1 + 5). */
static void test_builtin_walks(void **state)
{
	static const struct exp want[] = {
		{'p', "system", NULL, 0, NULL},
		{'p', "load", NULL, 0, NULL},
		{'w', "write_syscall", NULL, 1000, NULL},
		{'a', "smk_write_rules_list:data", "kmalloc", 10, "d1"},
		{'a', "smk_parse_smack:label", "kmalloc", 2, "t_"},
		{'w', "smk_find_entry", NULL, 3 * 30, NULL},
		{'f', NULL, NULL, 0, "t_"},
		{'a', "smk_parse_smack:label", "kmalloc", 2, "A"},
		{'w', "smk_find_entry", NULL, 6 * 30, NULL},
		{'a', "smk_import_entry:smack_known", "kmalloc", 72, "kA"},
		{'a', "smk_netlbl_mls:catmap", "kmalloc", 48, "cA"},
		{'w', "smk_set_access", NULL, 0, NULL},
		{'a', "smk_set_access:rule", "kmalloc", 20, "r1"},
		{'a', "smk_set_access:master", "kmalloc", 12, "m1"},
		{'f', NULL, NULL, 0, "d1"},
		{'w', "write_syscall", NULL, 1000, NULL},
		{'a', "smk_write_rules_list:data", "kmalloc", 10, "d2"},
		{'a', "smk_parse_smack:label", "kmalloc", 2, "tA"},
		{'w', "smk_find_entry", NULL, 1 * 30, NULL},
		{'f', NULL, NULL, 0, "tA"},
		{'a', "smk_parse_smack:label", "kmalloc", 2, "t^"},
		{'w', "smk_find_entry", NULL, 6 * 30, NULL},
		{'f', NULL, NULL, 0, "t^"},
		{'w', "smk_set_access", NULL, 0, NULL},
		{'a', "smk_set_access:rule", "kmalloc", 20, "r2"},
		{'a', "smk_set_access:master", "kmalloc", 12, "m2"},
		{'f', NULL, NULL, 0, "d2"},
	};
	struct ss_smack_ruleset rs;
	struct ss_smack_recipe rp;
	struct trace t;

	(void)state;
	load_rules(&rs, "_ A r\nA ^ w\n");
	hand_recipe(&rp, SS_SMACK_PATCH2);
	rp.system_kib = 0;
	emit_trace(&rs, &rp, &t);
	/* live: A's string, smack_known, catmap; 2 rules + 2 masters */
	assert_int_equal(check_events(&t, want, NELEM(want), 3), 7);
	assert_string_equal(meta(&t, "labels"), "1");
	free(t.ev);
	ss_smack_ruleset_release(&rs);
}

/* The defaults are the named constants; variant names round-trip. */
static void test_variants(void **state)
{
	enum ss_smack_variant v;

	(void)state;
	assert_int_equal(ss_smack_variant_parse("ref", &v), 0);
	assert_int_equal(v, SS_SMACK_REF);
	assert_int_equal(ss_smack_variant_parse("patch4", &v), 0);
	assert_int_equal(v, SS_SMACK_PATCH4);
	assert_int_equal(ss_smack_variant_parse("patch1", &v), -1);
	assert_int_equal(ss_smack_variant_parse("REF", &v), -1);
	assert_string_equal(ss_smack_variant_name(SS_SMACK_MEMFIX), "memfix");
}

/* ---- the generator ---- */

static char *gen_text(uint64_t seed, uint32_t rules, uint32_t labels,
		      struct ss_smack_ruleset *rs)
{
	struct ss_smack_gen_params p = {seed, rules, labels};
	struct ss_error err;
	char *buf = NULL;
	size_t n = 0;
	FILE *fp;

	ss_smack_ruleset_init(rs);
	if (ss_smack_generate(&p, rs, &err))
		fail_msg("%s", err.msg);
	fp = open_memstream(&buf, &n);
	assert_non_null(fp);
	assert_int_equal(ss_smack_rules_write(rs, fp, NULL), 0);
	fclose(fp);
	return buf;
}

/* Distinct pairs, subject != object, every label used, labels valid and
 * 4..60 bytes, rules grouped by subject. */
static void check_set(const struct ss_smack_ruleset *rs, uint32_t rules,
		      uint32_t labels)
{
	struct ss_smack_pairmap seen;
	uint8_t *used = calloc(labels, 1), *closed = calloc(labels, 1);

	assert_non_null(used);
	assert_non_null(closed);
	assert_int_equal(rs->nr_rules, rules);
	assert_int_equal(rs->nr_labels, labels);
	assert_int_equal(ss_smack_ruleset_new_labels(rs), labels);
	ss_smack_pairmap_init(&seen);
	for (size_t i = 0; i < rs->nr_rules; i++) {
		const struct ss_smack_rule *r = &rs->rules[i];

		assert_true(r->subject != r->object);
		assert_false(ss_smack_pairmap_get(&seen, r->subject, r->object, NULL));
		assert_int_equal(ss_smack_pairmap_put(&seen, r->subject, r->object, 0), 0);
		assert_true(r->access <= 0x1f);
		used[r->subject] = used[r->object] = 1;
		/* grouped: once a subject's run ends, it never comes back */
		assert_false(closed[r->subject]);
		if (i > 0 && rs->rules[i - 1].subject != r->subject)
			closed[rs->rules[i - 1].subject] = 1;
	}
	for (uint32_t i = 0; i < labels; i++) {
		char why[160];
		const struct ss_smack_label *l = &rs->labels[i];

		assert_true(used[i]);
		assert_in_range(l->len, 4, 60);
		if (ss_smack_label_check(l->name, l->len, why, sizeof(why)))
			fail_msg("label '%s': %s", l->name, why);
		assert_int_equal(l->builtin, 0);
	}
	ss_smack_pairmap_release(&seen);
	free(used);
	free(closed);
}

static void test_gen_deterministic(void **state)
{
	struct ss_smack_ruleset a, b, c;
	char *ta, *tb, *tc;

	(void)state;
	ta = gen_text(7, 300, 40, &a);
	tb = gen_text(7, 300, 40, &b);
	tc = gen_text(8, 300, 40, &c);
	assert_string_equal(ta, tb);
	assert_true(strcmp(ta, tc) != 0);
	check_set(&a, 300, 40);
	check_set(&c, 300, 40);
	/* the platform labels come first and are the most used */
	assert_string_equal(a.labels[0].name, "System");
	assert_string_equal(a.labels[1].name, "User");
	free(ta);
	free(tb);
	free(tc);
	ss_smack_ruleset_release(&a);
	ss_smack_ruleset_release(&b);
	ss_smack_ruleset_release(&c);
}

/* Pinned output: a change to the generator's output must bump
 * SS_SMACK_GEN_NAME (rule files name it) and update this text. */
static void test_gen_golden(void **state)
{
	struct ss_smack_ruleset rs;
	char *t = gen_text(1, 12, 6, &rs);

	(void)state;
	assert_string_equal(SS_SMACK_GEN_NAME, "slabsim-smack-gen/1");
	assert_string_equal(t,
		"User System::Run rwx\n"
		"User System::Shared rwx\n"
		"System::Run User rwx\n"
		"System::Shared System a\n"
		"System::Privileged System -\n"
		"System::Privileged User r\n"
		"System::Privileged System::Run rx\n"
		"System::Log User -\n"
		"System::Log System rx\n"
		"System User rwxat\n"
		"System System::Privileged rwxat\n"
		"System System::Shared r\n");
	free(t);
	ss_smack_ruleset_release(&rs);
}

/* The seed's size: 17000 distinct rules over 500 labels; System in more
 * rules than a typical label (34 on average). */
static void test_gen_default_size(void **state)
{
	struct ss_smack_ruleset rs;
	char *t = gen_text(1, 17000, 500, &rs);
	size_t system = 0;

	(void)state;
	check_set(&rs, 17000, 500);
	for (size_t i = 0; i < rs.nr_rules; i++)
		system += rs.rules[i].subject == 0 || rs.rules[i].object == 0;
	assert_true(system > 300);
	free(t);
	ss_smack_ruleset_release(&rs);
}

/* Edges: the fewest rules that use every label, and every pair. */
static void test_gen_edges(void **state)
{
	struct ss_smack_gen_params p;
	struct ss_smack_ruleset rs;
	struct ss_error err;
	char *t;

	(void)state;
	t = gen_text(3, 1, 2, &rs);	/* one rule, both labels */
	check_set(&rs, 1, 2);
	free(t);
	ss_smack_ruleset_release(&rs);
	t = gen_text(3, 2, 2, &rs);	/* both ordered pairs */
	check_set(&rs, 2, 2);
	free(t);
	ss_smack_ruleset_release(&rs);
	t = gen_text(3, 501, 1001, &rs); /* ceil(1001 / 2) */
	check_set(&rs, 501, 1001);
	free(t);
	ss_smack_ruleset_release(&rs);
	t = gen_text(3, 20 * 19, 20, &rs); /* every pair of 20 labels */
	check_set(&rs, 380, 20);
	free(t);
	ss_smack_ruleset_release(&rs);

	p = (struct ss_smack_gen_params){1, 3, 2};
	assert_int_equal(ss_smack_gen_check(&p, &err), -1);
	assert_non_null(strstr(err.msg, "2 distinct"));
	p = (struct ss_smack_gen_params){1, 500, 1001};
	assert_int_equal(ss_smack_gen_check(&p, &err), -1);
	assert_non_null(strstr(err.msg, "at least 501"));
	p = (struct ss_smack_gen_params){1, 5, 1};
	assert_int_equal(ss_smack_gen_check(&p, &err), -1);
	p = (struct ss_smack_gen_params){1, 501, 1001};
	assert_int_equal(ss_smack_gen_check(&p, &err), 0);
}

/* Whole load, counted another way: in ref every write leaks one parsed
 * rule, every distinct pair keeps two objects, every label three. */
static void test_gen_trace_live(void **state)
{
	struct ss_smack_ruleset rs;
	struct ss_smack_recipe rp;
	struct trace t;
	char *text = gen_text(5, 200, 20, &rs);
	size_t allocs = 0, frees = 0;

	(void)state;
	ss_smack_recipe_defaults(&rp);
	/* the fitted system allocations: 4 objects of 256 B per KiB */
	assert_int_equal(rp.system_kib, SMACK_SYSTEM_SLAB_KIB);
	rp.system_kib = 3;
	emit_trace(&rs, &rp, &t);
	for (size_t i = 0; i < t.nr; i++) {
		allocs += t.ev[i].kind == 'a';
		frees += t.ev[i].kind == 'f';
	}
	allocs -= 3 * 4;
	assert_int_equal(allocs - frees, 200 + 2 * 200 + 3 * 20);
	/* per write: data, leak, 4 buffers, 2 label copies = 8, plus
	 * smack_known + catmap per label and rule + master per pair */
	assert_int_equal(allocs, 200 * 8 + 20 * 2 + 200 * 2);
	free(t.ev);
	free(text);
	ss_smack_ruleset_release(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ref),
		cmocka_unit_test(test_memfix),
		cmocka_unit_test(test_patch2),
		cmocka_unit_test(test_patch3),
		cmocka_unit_test(test_patch4),
		cmocka_unit_test(test_builtin_walks),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_gen_deterministic),
		cmocka_unit_test(test_gen_golden),
		cmocka_unit_test(test_gen_default_size),
		cmocka_unit_test(test_gen_edges),
		cmocka_unit_test(test_gen_trace_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
