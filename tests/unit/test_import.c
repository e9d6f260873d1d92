/* test_import.c - `slabsim import`: ftrace/trace-cmd/perf-script lines of
 * both kernel eras, tracefs format files, the pointer map, cache
 * declarations, and a whole import with hand-worked totals. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geometry.h"
#include "import/import_rules.h"
#include "test_util.h"
#include "trace.h"

static int parse(const char *text, struct ss_kmem_rec *rec, const char **why)
{
	static char line[1024];
	struct ss_kmem_labels l;

	ss_kmem_labels_default(&l);
	snprintf(line, sizeof(line), "%s", text);
	return ss_kmem_parse_line(line, &l, rec, why);
}

/* 6.1+ ftrace: hashed pointers, name=, node= and accounted=. */
static void test_line_ftrace_61(void **state)
{
	struct ss_kmem_rec rec;
	const char *why;
	(void)state;

	assert_int_equal(parse("            bash-6387    [001] .....  2184.012056: kmem_cache_alloc: "
			       "call_site=getname_flags.part.0+0x24/0x1f0 ptr=0000000038389422 "
			       "name=names_cache bytes_req=4096 bytes_alloc=4096 gfp_flags=GFP_KERNEL "
			       "node=-1 accounted=false", &rec, &why), SS_KL_EVENT);
	assert_int_equal(rec.event, SS_KE_CACHE_ALLOC);
	assert_int_equal(rec.cpu, 1);
	assert_true(rec.has_cpu);
	assert_true(rec.ptr == 0x38389422);
	assert_int_equal(rec.bytes_req, 4096);
	assert_int_equal(rec.bytes_alloc, 4096);
	assert_string_equal(rec.call_site, "getname_flags.part.0+0x24/0x1f0");
	assert_string_equal(rec.name, "names_cache");

	assert_int_equal(parse(" sched-messaging-6390    [000] .....  2184.014224: kfree: "
			       "call_site=ida_alloc_range+0x39b/0x400 ptr=0000000000000000",
			       &rec, &why), SS_KL_EVENT);
	assert_int_equal(rec.event, SS_KE_KFREE);
	assert_true(rec.ptr == 0);
	assert_null(rec.name);
}

/* Before 6.1: hex call sites, 4 flag columns, no name=, _node events. */
static void test_line_ftrace_old(void **state)
{
	struct ss_kmem_rec rec;
	const char *why;
	(void)state;

	assert_int_equal(parse("init-1 [000] .N.. 0.170000: kmalloc: call_site=c104deff "
			       "ptr=c147dd20 bytes_req=29 bytes_alloc=32 gfp_flags=GFP_KERNEL",
			       &rec, &why), SS_KL_EVENT);
	assert_int_equal(rec.event, SS_KE_KMALLOC);
	assert_int_equal(rec.cpu, 0);
	assert_true(rec.ptr == 0xc147dd20);
	assert_int_equal(rec.bytes_req, 29);
	assert_int_equal(rec.bytes_alloc, 32);
	assert_string_equal(rec.call_site, "c104deff");
	assert_int_equal(parse("kworker/0:1-12 [003] d..1 5.5: kmem_cache_alloc_node: call_site=c1 "
			       "ptr=c2 bytes_req=192 bytes_alloc=192 gfp_flags=GFP_ATOMIC node=0",
			       &rec, &why), SS_KL_EVENT);
	assert_int_equal(rec.event, SS_KE_CACHE_ALLOC);
	assert_int_equal(rec.cpu, 3);
	assert_int_equal(parse("init-1 [000] .... 1.0: kmem_cache_free: call_site=c1 ptr=(null)",
			       &rec, &why), SS_KL_EVENT);
	assert_int_equal(rec.event, SS_KE_CACHE_FREE);
	assert_true(rec.ptr == 0);
}

/* perf script and trace-cmd report prefixes. */
static void test_line_tools(void **state)
{
	struct ss_kmem_rec rec;
	const char *why;
	(void)state;

	assert_int_equal(parse("            perf  7522 [001]  2240.178956: kmem:kmem_cache_alloc: "
			       "call_site=getname_flags.part.0+0x24 ptr=0xffff88810087a000 "
			       "name=names_cache bytes_req=4096 bytes_alloc=4096 gfp_flags=GFP_KERNEL "
			       "node=-1 accounted=false", &rec, &why), SS_KL_EVENT);
	assert_int_equal(rec.event, SS_KE_CACHE_ALLOC);
	assert_int_equal(rec.cpu, 1);
	assert_true(rec.ptr == 0xffff88810087a000ull);
	assert_int_equal(parse("       perf-exec 20206 [000]  2818.943547:            kmem:kfree: "
			       "call_site=ida_alloc_range+0x39b ptr=(nil)", &rec, &why), SS_KL_EVENT);
	assert_true(rec.ptr == 0);
	/* a comm with spaces and a colon before the columns */
	assert_int_equal(parse("  Web Content: x-77  [002]  1.5: kmalloc:     call_site=f+0x1 "
			       "ptr=ffff1 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL", &rec, &why),
			 SS_KL_EVENT);
	assert_int_equal(rec.cpu, 2);
	assert_int_equal(parse("  sched-messaging-6390  [000]  2184.014224: mm_page_alloc: page=0x1",
			       &rec, &why), SS_KL_OTHER);
	assert_int_equal(parse("CPU:1 [LOST 123 EVENTS]", &rec, &why), SS_KL_LOST);
	assert_int_equal(rec.lost, 123);
	assert_int_equal(parse("# entries-in-buffer/entries-written: 38895/50343   #P:2", &rec, &why),
			 SS_KL_HEADER);
	assert_int_equal(rec.lost, 50343 - 38895);
	assert_int_equal(parse("# tracer: nop", &rec, &why), SS_KL_SKIP);
	assert_int_equal(parse("cpus=2", &rec, &why), SS_KL_SKIP);
	assert_int_equal(parse("", &rec, &why), SS_KL_SKIP);
	/* ours, but broken */
	assert_int_equal(parse("a-1 [000] .... 1.0: kmalloc: call_site=f ptr=ff bytes_req=8",
			       &rec, &why), -1);
	assert_non_null(strstr(why, "bytes_alloc"));
	assert_int_equal(parse("a-1 [000] .... 1.0: kfree: call_site=f ptr=xyz", &rec, &why), -1);
	assert_int_equal(parse("a-1 [000] .... 1.0: kmalloc: call_site=f ptr=ff bytes_req=-1 "
			       "bytes_alloc=8", &rec, &why), -1);
}

static const char kmalloc_format[] =
	"name: kmalloc\n"
	"ID: 658\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t bytes_req;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t bytes_alloc;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long gfp_flags;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"call_site=%pS ptr=%p bytes_req=%zu bytes_alloc=%zu gfp_flags=%s node=%d\", "
	"(void *)REC->call_site, REC->ptr, REC->bytes_req, REC->bytes_alloc, "
	"(REC->gfp_flags) ? __print_flags(REC->gfp_flags, \"|\", {( unsigned long)(1), \"A,B\"}, "
	"{ 0, ((void *)0) } ) : \"none\", REC->node\n";

/* A kernel that renamed two labels: found by field name. */
static const char renamed_format[] =
	"name: kmem_cache_alloc\n"
	"ID: 1\n"
	"format:\n"
	"print fmt: \"site=%pS obj=%p cache=%s req=%zu alloc=%zu\", (void *)REC->call_site, "
	"REC->ptr, __get_str(name), REC->bytes_req, REC->bytes_alloc\n";

static void test_format_file(void **state)
{
	struct ss_kmem_labels l;
	struct ss_kmem_rec rec;
	struct ss_error err = {{0}};
	char line[256];
	const char *why;
	(void)state;

	ss_kmem_labels_default(&l);
	assert_int_equal(ss_kmem_labels_parse(&l, "kmalloc/format", kmalloc_format, &err), 0);
	assert_string_equal(l.label[SS_KE_KMALLOC][SS_KF_PTR], "ptr");
	assert_string_equal(l.label[SS_KE_KMALLOC][SS_KF_BYTES_ALLOC], "bytes_alloc");
	assert_string_equal(l.label[SS_KE_KMALLOC][SS_KF_NAME], ""); /* not printed */

	assert_int_equal(ss_kmem_labels_parse(&l, "kca/format", renamed_format, &err), 0);
	assert_string_equal(l.label[SS_KE_CACHE_ALLOC][SS_KF_CALL_SITE], "site");
	assert_string_equal(l.label[SS_KE_CACHE_ALLOC][SS_KF_PTR], "obj");
	assert_string_equal(l.label[SS_KE_CACHE_ALLOC][SS_KF_NAME], "cache");
	assert_string_equal(l.label[SS_KE_CACHE_ALLOC][SS_KF_BYTES_REQ], "req");
	snprintf(line, sizeof(line), "t-1 [002] ..... 1.0: kmem_cache_alloc: site=f+0x1/0x8 obj=00ab "
		 "cache=filp req=184 alloc=192 ptr=ffff");
	assert_int_equal(ss_kmem_parse_line(line, &l, &rec, &why), SS_KL_EVENT);
	assert_true(rec.ptr == 0xab);
	assert_int_equal(rec.bytes_req, 184);
	assert_int_equal(rec.bytes_alloc, 192);
	assert_string_equal(rec.name, "filp");
	assert_string_equal(rec.call_site, "f+0x1/0x8");

	assert_int_equal(ss_kmem_labels_parse(&l, "x", "ID: 1\n", &err), -1);
	assert_non_null(strstr(err.msg, "x: not a tracefs format file"));
	assert_int_equal(ss_kmem_labels_parse(&l, "x", "name: mm_page_alloc\nprint fmt: \"a\"\n", &err), -1);
	assert_non_null(strstr(err.msg, "x:1: event 'mm_page_alloc'"));
	assert_int_equal(ss_kmem_labels_parse(&l, "x", "name: kfree\nprint fmt: \"call_site=%pS\", "
					      "(void *)REC->call_site\n", &err), -1);
	assert_non_null(strstr(err.msg, "x:2: print fmt: no ptr field"));
	assert_int_equal(ss_kmem_labels_parse(&l, "x", "name: kfree\nprint fmt: \"ptr=%p %p\", "
					      "REC->ptr\n", &err), -1);
	assert_non_null(strstr(err.msg, "2 conversions but 1 arguments"));
}

/* Random inserts and removals against a plain array. */
static void test_ptrmap(void **state)
{
	enum { N = 5000 };
	static uint64_t ref[N]; /* ref[i]: id + 1 while pointer i is live */
	struct ss_ptrmap m = {0};
	uint64_t seed = 42, live = 0;
	(void)state;

	memset(ref, 0, sizeof(ref));
	for (int step = 0; step < 200000; step++) {
		uint64_t i, ptr;
		struct ss_ptr_entry *e;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		i = (seed >> 33) % N;
		ptr = 0xffff888100000000ull + i * 64; /* slab-like: shared low bits */
		e = ss_ptrmap_find(&m, ptr);
		assert_int_equal(e != NULL, ref[i] != 0);
		if (e) {
			assert_int_equal(e->id + 1, ref[i]);
			ss_ptrmap_remove(&m, e);
			ref[i] = 0;
			live--;
		} else {
			e = ss_ptrmap_insert(&m, ptr);
			assert_non_null(e);
			e->id = (uint64_t)step;
			ref[i] = (uint64_t)step + 1;
			live++;
		}
		assert_int_equal(m.live, live);
	}
	assert_null(ss_ptrmap_find(&m, 0));
	assert_true(m.peak <= N);
	ss_ptrmap_release(&m);
}

/* kmem_cache_create() arguments from (object_size, stride) on x86_64 6.x,
 * worked by hand from calculate_sizes(): the free pointer sits inside
 * the object unless it is RCU or has a constructor. */
static void test_infer_spec(void **state)
{
	struct ss_target t;
	struct ss_error err;
	unsigned align, flags;
	(void)state;

	assert_int_equal(ss_target_load("x86_64-6.x", &t, &err), 0);
	/* 96 -> 96: nothing to add */
	assert_int_equal(ss_import_infer_spec(&t, 96, 96, &align, &flags), 0);
	assert_int_equal(align, 0);
	assert_int_equal(flags, 0);
	/* 96 -> 104: only a free pointer after the object (anon_vma, RCU) */
	assert_int_equal(ss_import_infer_spec(&t, 96, 104, &align, &flags), 0);
	assert_int_equal(flags, SS_CF_RCU);
	/* 232 -> 256: a 64-byte alignment (skbuff_head_cache is HWCACHE) */
	assert_int_equal(ss_import_infer_spec(&t, 232, 256, &align, &flags), 0);
	assert_int_equal(align, 0);
	assert_int_equal(flags, SS_CF_HWCACHE);
	/* 200 -> 224: no flag does it (HWCACHE gives 256, RCU 208), align 32 does */
	assert_int_equal(ss_import_infer_spec(&t, 200, 224, &align, &flags), 0);
	assert_int_equal(align, 32);
	assert_int_equal(flags, 0);
	/* 100 -> 100 cannot be: strides are multiples of 8 */
	assert_int_equal(ss_import_infer_spec(&t, 100, 100, &align, &flags), -1);
}

static const char sample_old[] =
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 9/12   #P:2\n"
	"  bash-1 [000] .... 10.000001: kmalloc: call_site=c104deff ptr=c147dd20 bytes_req=29 bytes_alloc=32 gfp_flags=GFP_KERNEL\n"
	"  bash-1 [000] .... 10.000002: kmem_cache_alloc: call_site=c1100000 ptr=c2000000 bytes_req=232 bytes_alloc=256 gfp_flags=GFP_KERNEL\n"
	"  bash-1 [001] .... 10.000003: kfree: call_site=c104df00 ptr=c147dd20\n"
	"  bash-1 [001] .... 10.000004: kmem_cache_free: call_site=c1100100 ptr=c3000000\n"
	"  bash-1 [001] .... 10.000005: kfree: call_site=c104df00 ptr=(null)\n"
	"CPU:1 [LOST 3 EVENTS]\n"
	"  bash-1 [000] .... 10.000006: kmem_cache_alloc: call_site=c1100000 ptr=c2000000 bytes_req=232 bytes_alloc=256 gfp_flags=GFP_KERNEL\n"
	"  bash-1 [000] .... 10.000007: kmalloc: call_site=c104deff ptr=c147dd40 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL\n"
	"  bash-1 [000] .... 10.000008: mm_page_alloc: page=0xf pfn=1 order=0\n"
	"  bash-1 [001] .... 10.000009: kmem_cache_free: call_site=c1100100 ptr=c2000000\n"
	"  bash-1 [000] .... 10.000010: kmem_cache_alloc: call_site=c1200000 ptr=c4000000 bytes_req=200 bytes_alloc=224 gfp_flags=GFP_KERNEL\n"
	"  bash-1 [000] .... 10.000011: kmem_cache_free: call_site=c1200100 ptr=c4000000\n";

/* trace_marker lines: "slabsim-phase NAME" is a phase, other messages
 * are other events, a marker without a name is an error. */
static void test_line_marker(void **state)
{
	struct ss_kmem_rec rec;
	const char *why = NULL;
	(void)state;

	assert_int_equal(parse("      capture.sh-31255   [001] ...1.  4221.983017: "
			       "tracing_mark_write: slabsim-phase start", &rec, &why), SS_KL_PHASE);
	assert_string_equal(rec.name, "start");
	assert_int_equal(rec.cpu, 1);
	assert_int_equal(parse("  bash-1 [000] ...1. 1.0: tracing_mark_write: slabsim-phase  "
			       "link step 2 \r", &rec, &why), SS_KL_PHASE);
	assert_string_equal(rec.name, "link step 2");
	assert_int_equal(parse("  bash-1 [000] ...1. 1.0: tracing_mark_write: hello",
			       &rec, &why), SS_KL_OTHER);
	assert_int_equal(parse("  bash-1 [000] ...1. 1.0: tracing_mark_write: slabsim-phases x",
			       &rec, &why), SS_KL_OTHER);
	assert_int_equal(parse("  bash-1 [000] ...1. 1.0: tracing_mark_write: slabsim-phase ",
			       &rec, &why), -1);
	assert_string_equal(why, "slabsim-phase marker without a name");
}

/* Import the ftrace text `text` (written to NAME.ftrace) into NAME.trace
 * (its path in out, n bytes) with target x86_64-6.x; fails the test on an
 * error. */
static void import_text(const char *name, const char *text, struct ss_import_totals *t,
			char *out, size_t n)
{
	char in[256], file[128];
	struct ss_import_opts o = {.target = "x86_64-6.x", .input = in, .output = out};
	struct ss_error err = {{0}};

	snprintf(file, sizeof(file), "%s.ftrace", name);
	tu_path(in, sizeof(in), file);
	snprintf(file, sizeof(file), "%s.trace", name);
	tu_path(out, n, file);
	tu_write_text(in, text);
	if (ss_import(&o, t, &err))
		fail_msg("%s", err.msg);
}

/* The frees free rule `name` decided in t: a rule taken out of the table
 * fails the test. */
static uint64_t rule_frees(const struct ss_import_totals *t, const char *name)
{
	uint64_t n = 0;

	if (!ss_import_rule_frees(t, name, &n))
		fail_msg("no free rule %s", name);
	return n;
}

/* Markers become phase events in place, names cleaned to trace names. */
static void test_import_phases(void **state)
{
	char out[256];
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	char seen[64] = "";
	(void)state;

	import_text("phases",
		    " sh-1 [000] ...1. 1.0: tracing_mark_write: slabsim-phase start\n"
		    " sh-1 [000] ..... 1.1: kmalloc: call_site=f ptr=a0 bytes_req=8 bytes_alloc=8\n"
		    " sh-1 [000] ...1. 1.2: tracing_mark_write: slabsim-phase two words\n"
		    " sh-1 [001] ..... 1.3: kfree: call_site=f ptr=a0\n"
		    " sh-1 [000] ...1. 1.4: tracing_mark_write: not ours\n"
		    " sh-1 [000] ...1. 1.5: tracing_mark_write: slabsim-phase end\n",
		    &t, out, sizeof(out));
	assert_int_equal(t.phases, 3);
	assert_int_equal(t.other_events, 1);
	assert_int_equal(t.events, 2);
	assert_int_equal(ss_trace_open(&r, out, &err), 0);
	while (ss_trace_next(r, &ev, &err) == 1) {
		const char *k = ev.kind == SS_EV_ALLOC ? "a" : ev.kind == SS_EV_FREE ? "f" : "?";

		if (ev.kind == SS_EV_PHASE)
			k = ss_trace_name(ss_trace_tables(r), ev.site);
		strncat(seen, k, sizeof(seen) - strlen(seen) - 2);
		strcat(seen, " ");
	}
	assert_string_equal(seen, "start a two_words f end ");
	ss_trace_close(r);
}

/* The whole import, totals worked by hand:
 *   requested 29 + 232 + 232 + 100 + 200 = 793
 *   allocated 32 + 256 + 256 + 128 + 224 = 896
 *   fragmentation 100 - 100 * 793 / 896 = 11.495536 %
 *   frees matched: c147dd20 (32, cpu 0 -> 1), c2000000 (256, 0 -> 1),
 *   c4000000 (224, 0 -> 0): 3, 512 bytes, 2 across CPUs
 *   c2000000 allocated again while live: 1 (its free was lost)
 *   c3000000 freed unseen at c1100100, whose other free (c2000000) was a
 *   kmalloc-256 object: a prior free of a 256-byte kmalloc object
 *   written: 5 allocations + 3 frees + 1 free for the lost one + 1 prior
 *   free = 10 */
static void test_import_sample(void **state)
{
	char in[256], out[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	const struct ss_trace_tables *tb;
	uint64_t n = 0, max_id = 0;
	(void)state;

	tu_path(in, sizeof(in), "old.ftrace");
	tu_path(out, sizeof(out), "old.trace");
	tu_write_text(in, sample_old);
	o.input = in;
	o.output = out;
	if (ss_import(&o, &t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(t.bytes_req, 793);
	assert_int_equal(t.bytes_alloc, 896);
	assert_true(ss_import_frag_pct(&t) > 11.495535 && ss_import_frag_pct(&t) < 11.495536);
	assert_int_equal(t.allocs, 5);
	assert_int_equal(t.frees, 3);
	assert_int_equal(t.bytes_freed, 512);
	assert_int_equal(t.cross_cpu_frees, 2);
	assert_int_equal(t.unknown_frees, 1);
	assert_int_equal(t.null_frees, 1);
	assert_int_equal(t.realloc_live, 1);
	assert_int_equal(t.lost_events, 3);
	assert_int_equal(t.overwritten, 3);
	assert_int_equal(t.other_events, 1);
	assert_int_equal(t.live_at_end, 1);
	assert_int_equal(t.prior_frees, 1);
	assert_int_equal(t.prior_unattributed, 0);
	assert_int_equal(rule_frees(&t, "null"), 1);
	assert_int_equal(rule_frees(&t, "traced"), 3);
	assert_int_equal(rule_frees(&t, "site-share"), 1);
	assert_int_equal(t.events, 10);
	assert_int_equal(t.max_cpu, 1);
	/* 232/256 is kmalloc-256 on x86_64; 200/224 is no class: a cache */
	assert_int_equal(t.caches, 1);

	assert_int_equal(ss_trace_open(&r, out, &err), 0);
	tb = ss_trace_tables(r);
	while (ss_trace_next(r, &ev, &err) == 1) {
		n++;
		if (ev.id > max_id)
			max_id = ev.id;
	}
	assert_int_equal(n, 10);
	assert_true(max_id <= 2); /* dense: never more than 2 live at once */
	assert_string_equal(ss_trace_cache_name(tb, 1), "cache-224");
	assert_int_equal(tb->caches[1].object_size, 200);
	assert_int_equal(tb->caches[1].align, 32); /* ALIGN(200, 32) = 224 */
	assert_string_equal(ss_trace_meta(tb, "cpus"), "2");
	/* bare addresses name no function: nothing said of vectors */
	assert_null(ss_trace_meta(tb, "slab_vectors"));
	ss_trace_close(r);
}

/* Import in (with snapshot snap) into out, and open out. */
static struct ss_trace_reader *import_open(struct ss_import_opts *o, const char *in, const char *out,
					   const char *snap, struct ss_import_totals *t)
{
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;

	o->input = in;
	o->output = out;
	o->snapshot = snap;
	if (ss_import(o, t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ss_trace_open(&r, out, &err), 0);
	return r;
}

/* Import in (import_open()) and list in seen (n bytes) the class size of
 * each kmalloc prior free, in trace order ("192 512 "). */
static void prior_kmalloc_sizes(struct ss_import_opts *o, const char *in, const char *out,
				const char *snap, struct ss_import_totals *t, char *seen, size_t n)
{
	struct ss_error err = {{0}};
	struct ss_trace_reader *r = import_open(o, in, out, snap, t);
	struct ss_event ev;

	seen[0] = '\0';
	while (ss_trace_next(r, &ev, &err) == 1)
		if (ev.kind == SS_EV_FREE_PRIOR && ev.api == SS_API_KMALLOC)
			snprintf(seen + strlen(seen), n - strlen(seen), "%llu ",
				 (unsigned long long)ev.value);
	ss_trace_close(r);
}

/* A kfree at __free_slab of a vector the capture never saw allocated is
 * the freed slab's obj_exts: its class is the objects per slab (from the
 * snapshot) of the cache the CPU's last kmem_cache_free emptied, times 8
 * (rule objext, rule_objext.c); the site's learned frees (one 168-byte vector) are
 * not where every such free goes. */
static void test_import_objext(void **state)
{
	char in[256], out[256], snap[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	char seen[128];
	(void)state;

	tu_path(in, sizeof(in), "objext.ftrace");
	tu_path(out, sizeof(out), "objext.trace");
	tu_path(snap, sizeof(snap), "objext.slabinfo");
	tu_write_text(snap, "slabinfo - version: 2.1\n"
			    "dentry 21000 21000 192 21 1 : tunables 0 0 0 : slabdata 1000 1000 0\n"
			    "buffer_head 39000 39000 104 39 1 : tunables 0 0 0 : slabdata 1000 1000 0\n"
			    "kmalloc-512 8000 8000 512 8 1 : tunables 0 0 0 : slabdata 1000 1000 0\n"
			    "kmalloc-192 21000 21000 192 21 1 : tunables 0 0 0 : slabdata 1000 1000 0\n");
#define L(cpu, ev) " sh-1 [00" #cpu "] ..... 1.0: " ev "\n"
	tu_write_text(in,
		L(0, "kmalloc: call_site=alloc_slab_obj_exts+0x58/0x110 ptr=a0 bytes_req=168 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false")
		L(0, "kfree: call_site=__free_slab+0x87/0xf0 ptr=a0")
		/* dentry then buffer_head slabs emptied, one per CPU */
		L(1, "kmem_cache_free: call_site=rcu_do_batch+0x1b7/0x530 ptr=b0 name=dentry")
		L(0, "kmem_cache_free: call_site=free_buffer_head+0x21/0x50 ptr=c0 name=buffer_head")
		L(1, "kfree: call_site=__free_slab+0x87/0xf0 ptr=b8")
		L(0, "kfree: call_site=__free_slab+0x87/0xf0 ptr=c8")
		/* after a kfree the slab's cache is unknown: the site's share */
		L(0, "kfree: call_site=kvfree+0x2c/0x40 ptr=d0")
		L(0, "kfree: call_site=__free_slab+0x87/0xf0 ptr=d8"));
#undef L
	prior_kmalloc_sizes(&o, in, out, snap, &t, seen, sizeof(seen));
	/* dentry: 21 x 8 = 168 -> 192; buffer_head: 39 x 8 = 312 -> 512 */
	assert_string_equal(seen, "192 512 192 ");
	assert_int_equal(rule_frees(&t, "objext"), 2);
	assert_int_equal(rule_frees(&t, "site-share"), 1);
	/* the kernel's vector events, counted before the events: one
	 * kmalloc at alloc_slab_obj_exts, four kfrees at __free_slab */
	{
		struct ss_trace_reader *r;
		struct ss_error err;

		assert_int_equal(ss_trace_open(&r, out, &err), 0);
		assert_true(ss_trace_header(r, &err) >= 0);
		assert_non_null(ss_trace_meta(ss_trace_tables(r), "slab_vectors"));
		assert_string_equal(ss_trace_meta(ss_trace_tables(r), "slab_vectors"), "5");
		ss_trace_close(r);
	}
}

/* kmem:mm_page_free lines: hex pfn (4.x on), decimal before, perf
 * script's subsystem prefix; mm_page_free_batched is another event. */
static void test_line_page_free(void **state)
{
	struct ss_kmem_rec rec;
	const char *why;
	(void)state;

	assert_int_equal(parse("  bash-7005    [001] ..... 63693.996696: mm_page_free: page=ffffea00058cf600 "
			       "pfn=0x1633d8 order=2", &rec, &why), SS_KL_PAGE_FREE);
	assert_int_equal(rec.cpu, 1);
	assert_true(rec.pfn == 0x1633d8);
	assert_int_equal(rec.order, 2);
	assert_int_equal(parse("  bash-1 [000] .... 1.0: mm_page_free: page=ffffea0000000040 pfn=1455064 order=0",
			       &rec, &why), SS_KL_PAGE_FREE);
	assert_true(rec.pfn == 1455064);
	assert_int_equal(parse("  bash 1 [000] 1.0: kmem:mm_page_free: page=0xffffea0000000040 pfn=0x10 order=1",
			       &rec, &why), SS_KL_PAGE_FREE);
	assert_true(rec.pfn == 0x10);
	assert_int_equal(parse("  bash-1 [000] .... 1.0: mm_page_free_batched: page=ffffea0000000040 pfn=0x10",
			       &rec, &why), SS_KL_OTHER);
	assert_int_equal(parse("  bash-1 [000] .... 1.0: mm_page_free: page=ffffea0000000040 order=0",
			       &rec, &why), -1);
	assert_int_equal(parse("  bash-1 [000] .... 1.0: mm_page_free: pfn=0xzz order=0", &rec, &why), -1);
}

/* The page free tests' input, trace and snapshot paths (256 bytes each),
 * the snapshot written: dentry, 21 objects per order-0 slab. */
static void page_free_files(const char *stem, char *in, char *out, char *snap)
{
	char name[64];

	snprintf(name, sizeof(name), "%s.ftrace", stem);
	tu_path(in, 256, name);
	snprintf(name, sizeof(name), "%s.trace", stem);
	tu_path(out, 256, name);
	snprintf(name, sizeof(name), "%s.slabinfo", stem);
	tu_path(snap, 256, name);
	tu_write_text(snap, "slabinfo - version: 2.1\n"
			    "dentry 21000 21000 192 21 1 : tunables 0 0 0 : slabdata 1000 1000 0\n");
}

/* Does the import's summary (ss_import_print) of t say needle? */
static bool summary_says(const struct ss_import_totals *t, const char *needle)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	bool says;

	assert_non_null(mem);
	ss_import_print(mem, t);
	fclose(mem);
	says = strstr(text, needle) != NULL;
	free(text);
	return says;
}

/* Page frees with raw pointers (pagefree.c): the direct map's
 * base is what pairs of a free and a page free right after it on the CPU
 * agree on (three here; a pair whose difference is no multiple of 1 GiB
 * is not a candidate); a page free at a slab prior frees named is that
 * slab's `d` event, once, with the prior frees' cache; other page frees
 * are only counted.  Without enough pairs there is no base and no `d`. */
static void test_import_page_frees(void **state)
{
	char in[256], out[256], snap[256], seen[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	const char *base;
	(void)state;

	page_free_files("pagefree", in, out, snap);
#define F(cpu, ptr) " sh-1 [00" #cpu "] ..... 1.0: kmem_cache_free: call_site=d_free+0x1/0x2 ptr=" ptr " name=dentry\n"
#define P(cpu, pfn) " sh-1 [00" #cpu "] ..... 1.0: mm_page_free: page=ffffea0000000000 pfn=" pfn " order=0\n"
	/* pass 2: pass 0's input with a loss in it */
	for (int pass = 0; pass < 3; pass++) {
		FILE *fp;

		tu_write_text(in,
			/* an allocation says dentry's sizes */
			" sh-1 [001] ..... 1.0: kmem_cache_alloc: call_site=d_alloc+0x1/0x2 ptr=ffff888100009000 "
			"bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false name=dentry\n"
			F(0, "ffff888100001040") P(0, "0x100001")
			F(1, "ffff888100002080") F(1, "ffff888100002000") P(1, "0x100002")
			/* a free that did not empty its slab, and a page of the page cache */
			F(0, "ffff888100005040") P(0, "0x4242")
			/* a slab freed from, not seen dying */
			F(1, "ffff888100006040")
			/* a page no prior free named */
			P(1, "0x100007"));
		if (pass != 1) { /* the third pair: only the first input has it */
			fp = fopen(in, "a");
			assert_non_null(fp);
			fputs(F(0, "ffff888100003000") P(0, "0x100003")
			      /* the first slab's page again: a slab of another life */
			      P(1, "0x100001"), fp);
			if (pass == 2)
				fputs("CPU:1 [LOST 3 EVENTS]\n", fp);
			fclose(fp);
		}
		r = import_open(&o, in, out, snap, &t);
		seen[0] = '\0';
		while (ss_trace_next(r, &ev, &err) == 1)
			if (ev.kind == SS_EV_SLAB_FREED || ev.kind == SS_EV_FREE_PRIOR)
				snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s%llu@%u ",
					 ev.kind == SS_EV_SLAB_FREED ? "d" : "u",
					 (unsigned long long)ev.id - 1, ev.cpu);
		/* (after the events) the base, with which a kernel slab with
		 * no `d` line did not die: prior_counts.h outlived; not where
		 * events were lost (a page free may be among them) */
		base = ss_trace_meta(ss_trace_tables(r), "page_base");
		if (!pass)
			assert_string_equal(base ? base : "(none)", "0xffff888000000000");
		else
			assert_null(base);
		ss_trace_close(r);
		if (pass != 1) {
			assert_string_equal(seen, "u0@0 d0@0 u1@1 u1@1 d1@1 u2@0 u3@1 u4@0 d4@0 ");
			assert_true(t.page_base_found);
			assert_int_equal(t.page_frees, 6);
			assert_int_equal(t.kslabs_freed, 3);
			/* the summary says the base was found, and only that */
			assert_true(summary_says(&t, "Page frees (mm_page_free): 6, of them 3 kernel slabs"));
			assert_false(summary_says(&t, "not used"));
		} else {
			assert_false(t.page_base_found);
			assert_int_equal(t.page_frees, 4);
			assert_int_equal(t.kslabs_freed, 0);
			assert_string_equal(seen, "u0@0 u1@1 u1@1 u2@0 u3@1 ");
		}
	}
#undef F
#undef P
}

/* page_free_files() and a slab-fill file (256 bytes), written: two of
 * dentry's node partial slabs, frames 0x140005 (7 in use) and 0x140006 (3),
 * the direct map at 0xffff888000000000. */
static void fill_files(const char *stem, char *in, char *out, char *snap, char *fill)
{
	char name[64];

	page_free_files(stem, in, out, snap);
	snprintf(name, sizeof(name), "%s.fill", stem);
	tu_path(fill, 256, name);
	tu_write_text(fill, "slabsim-slabfill 1 nodes=1\n"
			    "cache=dentry\n"
			    "n 0 ffffea0005000140 ffff888140005200 7 21\n"
			    "n 0 ffffea0005000180 ffff888140006200 3 21\n");
}

/* A dentry free and a page free with its struct page (the next tests). */
#define F(cpu, ptr) " sh-1 [00" #cpu "] ..... 1.0: kmem_cache_free: call_site=d_free+0x1/0x2 ptr=" ptr " name=dentry\n"
#define P(cpu, page, pfn) " sh-1 [00" #cpu "] ..... 1.0: mm_page_free: page=" page " pfn=" pfn " order=0\n"

/* With a slab-fill file (--slab-fill) the direct map's base is exact:
 * the page frees' page= and pfn= give the struct page array, and each
 * listed slab's struct page and free object give its frame's address.
 * Three pairs of a free and a page free that agree on a base a GiB off
 * (what rsync-share-tmpfs's 6 of 7 did) are outvoted, and the import says
 * so; the kernel slab a prior free names is then its place on the list. */
static void test_import_page_base_from_fill(void **state)
{
	char in[256], out[256], snap[256], fill[256], seen[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	(void)state;

	fill_files("basefill", in, out, snap, fill);
	/* page = 0xffffea0000000000 + pfn * 64; the direct map at
	 * 0xffff888000000000: frame 0x140001 is ffff888140001000 */
	tu_write_text(in,
		" sh-1 [001] ..... 1.0: kmem_cache_alloc: call_site=d_alloc+0x1/0x2 ptr=ffff888100009000 "
		"bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false name=dentry\n"
		/* three pairs whose slab is a GiB above the page freed: votes
		 * for 0xffff888040000000 (the pages were others') */
		F(0, "ffff888140001040") P(0, "ffffea0004000040", "0x100001")
		F(1, "ffff888140002080") P(1, "ffffea0004000080", "0x100002")
		F(0, "ffff888140003000") P(0, "ffffea00040000c0", "0x100003")
		/* the listed slab's second object, freed */
		F(1, "ffff888140005080"));
	o.slab_fill = fill;
	r = import_open(&o, in, out, snap, &t);
	seen[0] = '\0';
	while (ss_trace_next(r, &ev, &err) == 1)
		if (ev.kind == SS_EV_FREE_PRIOR)
			snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "u%llu ",
				 (unsigned long long)ev.id - 1);
	assert_string_equal(ss_trace_meta(ss_trace_tables(r), "slab_fill") ? "meta" : "", "meta");
	ss_trace_close(r);
	assert_true(t.page_base_found);
	assert_true(t.page_base_from_fill);
	assert_true(t.page_votes_wrong);
	assert_true(t.page_base == 0xffff888000000000ull);
	assert_true(t.page_votes_base == 0xffff888040000000ull);
	/* the three unlisted slabs come after the list's two; the listed one
	 * (frame 0x140005) is 1, the head: K 0 in the trace */
	assert_string_equal(seen, "u2 u3 u4 u0 ");
}

/* An allocation that says dentry's sizes, and two page frees of page
 * cache that give the struct page array (the next two tests). */
#define DENTRY_AND_VMEMMAP \
	" sh-1 [001] ..... 1.0: kmem_cache_alloc: call_site=d_alloc+0x1/0x2 ptr=ffff888100009000 " \
	"bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false name=dentry\n" \
	P(0, "ffffea0000100040", "0x4001") P(1, "ffffea0000100080", "0x4002")

/* The slab pages before (--slab-pages, rule_slab_pages.c): a
 * kmem_cache_free of an object on a frame that was no slab page then,
 * or whose page the window freed since, is an untraced allocation, not a
 * prior free, from the "start" phase marker on; on a slab page (listed or not: a full slab is on no list)
 * it stays a prior free; a kfree is never taken (a large kmalloc's pages
 * are no slab).  When the slab-fill's listed slabs are not on the pages
 * the file marks, the rule is not used and the import says why. */
static void test_import_slab_pages(void **state)
{
	char in[256], out[256], snap[256], fill[256], pages[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	(void)state;

	fill_files("slabpages", in, out, snap, fill);
	tu_path(pages, sizeof(pages), "slabpages.pages");
	tu_write_text(in,
		DENTRY_AND_VMEMMAP
		/* before the "start" marker the rule waits: a prior free */
		F(1, "ffff888140021040")
		" sh-1 [000] ..... 1.0: tracing_mark_write: slabsim-phase start\n"
		/* the listed slab (frame 0x140005), and a full one (0x140010) */
		F(1, "ffff888140005080") F(0, "ffff888140010040")
		/* frame 0x140020: no slab page before */
		F(0, "ffff888140020040")
		/* the full slab's page freed: its frame's next object is new */
		P(0, "ffffea0005000400", "0x140010") F(1, "ffff888140010080")
		/* a kfree on a frame no slab held: a large kmalloc's, maybe */
		" sh-1 [000] ..... 1.0: kfree: call_site=k_free+0x1/0x2 ptr=ffff888140030000\n");
	for (int pass = 0; pass < 2; pass++) {
		/* pass 1: the file marks neither listed slab */
		tu_write_text(pages, pass ? "slabsim-slabpages 1 frames=2000000 slab=1 runs=1\n140010 1\n"
					  : "slabsim-slabpages 1 frames=2000000 slab=3 runs=2\n"
					    "140005 2\n140010 1\n");
		o.slab_fill = fill;
		o.slab_pages = pages;
		r = import_open(&o, in, out, snap, &t);
		while (ss_trace_next(r, &ev, &err) == 1) /* meta untraced_allocs is at the end */
			;
		if (!pass) {
			assert_true(t.slab_pages_used);
			assert_int_equal(t.new_slab_frees, 2);
			assert_int_equal(rule_frees(&t, "slab-pages"), 2);
			assert_int_equal(rule_frees(&t, "named"), 3);
			assert_int_equal(t.untraced_allocs, 2);
			assert_string_equal(ss_trace_meta(ss_trace_tables(r), "untraced_allocs"),
					    "dentry=2");
			/* the one before the marker, the listed slab's, the full
			 * one's, the kfree */
			assert_int_equal(t.prior_frees + t.prior_unattributed, 4);
		} else {
			assert_false(t.slab_pages_used);
			assert_non_null(t.slab_pages_why);
			assert_int_equal(t.new_slab_frees, 0);
			assert_int_equal(t.untraced_allocs, 0);
			assert_int_equal(t.prior_frees + t.prior_unattributed, 6);
		}
		ss_trace_close(r);
		assert_true(summary_says(&t, pass ? "(the slab-pages file not used: the slab-fill's"
						  : "(2 of those on pages no slab held as tracing began"));
	}
	/* a cut file is an error naming it */
	tu_write_text(pages, "slabsim-slabpages 1 frames=2000000 slab=3 runs=2\n140005 2\n");
	o.input = in;
	o.output = out;
	assert_int_equal(ss_import(&o, &t, &err), -1);
	assert_non_null(strstr(err.msg, "slabpages.pages:2: "));
}

/* --free-objects: a slab-fill file of version 3, read as tracing began,
 * has each listed slab's free objects: a free of one of them that the
 * trace never saw allocated is of an object allocated in the window
 * without an event (rule_free_objects.c), not a prior free, from the
 * "start" phase marker on (before it, the object may have been in use as
 * tracing began); a free of one in use then stays a prior free; once the
 * slab's page is freed, its bits say nothing of a slab made there. */
static void test_import_free_bits(void **state)
{
	char in[256], out[256], snap[256], fill[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	(void)state;

	fill_files("freebits", in, out, snap, fill);
	/* dentry: 21 objects of 192 bytes a page; 0, 2 and 20 free */
	tu_write_text(fill, "slabsim-slabfill 3 nodes=1 cpus=1\n"
			    "cache=dentry\n"
			    "n 0 ffffea0005000140 ffff888140005000 18 21 500001\n");
	tu_write_text(in,
		DENTRY_AND_VMEMMAP
		/* before the marker: the object may have been in use as
		 * tracing began and free when the file was read */
		F(0, "ffff888140005000")
		" sh-1 [000] ..... 1.0: tracing_mark_write: slabsim-phase start\n"
		F(0, "ffff8881400050c0") F(1, "ffff888140005180")
		P(1, "ffffea0005000140", "0x140005") F(1, "ffff888140005f00"));
	o.slab_fill = fill;
	o.free_objects = fill;
	r = import_open(&o, in, out, snap, &t);
	while (ss_trace_next(r, &ev, &err) == 1)
		;
	ss_trace_close(r);
	assert_true(t.free_slots_used);
	assert_int_equal(t.free_slot_frees, 1);
	assert_int_equal(rule_frees(&t, "free-objects"), 1);
	assert_int_equal(t.untraced_allocs, 1);
	assert_int_equal(t.prior_frees + t.prior_unattributed, 3);
	assert_true(summary_says(&t, "(1 of those of objects a listed slab had free as tracing began"));
}

#undef F
#undef P
#undef DENTRY_AND_VMEMMAP

/* A kfree, raw pointer, of an object from before the capture on a slab no
 * event named yet but the slab-fill file listed (read before the
 * capture): the listed cache's (learn.c, owner rule listed).  The site's
 * learned frees are kmalloc-128's and the offsets (384) fit 128 and 192
 * alike: without the listing the site's share takes them, as it does for
 * the unlisted slab's. */
static void test_import_listed_slab_kfree(void **state)
{
	char in[256], out[256], snap[256], fill[256], seen[128];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	(void)state;

	tu_path(in, sizeof(in), "listed.ftrace");
	tu_path(out, sizeof(out), "listed.trace");
	tu_path(snap, sizeof(snap), "listed.slabinfo");
	tu_path(fill, sizeof(fill), "listed.fill");
	tu_write_text(snap, "slabinfo - version: 2.1\n"
			    "kmalloc-128 3200 3200 128 32 1 : tunables 0 0 0 : slabdata 100 100 0\n"
			    "kmalloc-192 2100 2100 192 21 1 : tunables 0 0 0 : slabdata 100 100 0\n");
	/* kmalloc-192's node partial slab at frame 0x140005 */
	tu_write_text(fill, "slabsim-slabfill 1 nodes=1\n"
			    "cache=kmalloc-192\n"
			    "n 0 ffffea0005000140 ffff888140005000 7 21\n");
#define L(cpu, ev) " sh-1 [00" #cpu "] ..... 1.0: " ev "\n"
	tu_write_text(in,
		L(0, "kmalloc: call_site=f+0x1/0x2 ptr=ffff888100009000 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false")
		L(0, "kfree: call_site=g+0x1/0x2 ptr=ffff888100009000")
		L(1, "kfree: call_site=g+0x1/0x2 ptr=ffff888140005180")
		L(1, "kfree: call_site=g+0x1/0x2 ptr=ffff888140007180"));
#undef L
	for (int with = 1; with >= 0; with--) {
		o.slab_fill = with ? fill : NULL;
		prior_kmalloc_sizes(&o, in, out, snap, &t, seen, sizeof(seen));
		assert_string_equal(seen, with ? "192 128 " : "128 128 ");
		assert_int_equal(t.listed_frees, with);
		assert_int_equal(rule_frees(&t, "slab-owner"), with);
		assert_int_equal(rule_frees(&t, "site-share"), 2 - with);
		assert_true(summary_says(&t, "(1 unknown kfree()s on slabs the slab-fill listed") == with);
	}
}

/* A freed slab's obj_exts vector kfree()d (raw pointer, never seen
 * allocated) right after a kfree() of an object the capture saw
 * allocated: that object's cache's objects per slab x 8 (kmalloc-cg-64:
 * 64 a slab, 512 bytes), not the site's learned share (one 192-byte
 * vector), which a vector after a kfree of an unknown object still gets;
 * a vector's own known kfree between them changes nothing. */
static void test_import_vector_after_kfree(void **state)
{
	char in[256], out[256], snap[256], seen[128];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	(void)state;

	tu_path(in, sizeof(in), "vector.ftrace");
	tu_path(out, sizeof(out), "vector.trace");
	tu_path(snap, sizeof(snap), "vector.slabinfo");
	tu_write_text(snap, "slabinfo - version: 2.1\n"
			    "kmalloc-cg-64 6400 6400 64 64 1 : tunables 0 0 0 : slabdata 100 100 0\n"
			    "kmalloc-192 2100 2100 192 21 1 : tunables 0 0 0 : slabdata 100 100 0\n"
			    "kmalloc-512 800 800 512 8 1 : tunables 0 0 0 : slabdata 100 100 0\n");
#define L(cpu, ev) " sh-1 [00" #cpu "] ..... 1.0: " ev "\n"
#define VEC "call_site=__free_slab+0x87/0xf0 ptr="
	tu_write_text(in,
		L(0, "kmalloc: call_site=f+0x1/0x2 ptr=ffff888100001000 bytes_req=60 bytes_alloc=64 gfp_flags=GFP_KERNEL_ACCOUNT node=-1 accounted=true")
		L(1, "kmalloc: call_site=alloc_slab_obj_exts+0x58/0x110 ptr=ffff888100002000 bytes_req=168 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false")
		L(0, "kfree: call_site=g+0x1/0x2 ptr=ffff888100001000")
		L(1, "kfree: " VEC "ffff888100002000")
		L(0, "kfree: " VEC "ffff888140007600")
		L(1, "kfree: call_site=h+0x1/0x2 ptr=ffff888140009000")
		L(1, "kfree: " VEC "ffff888140008600"));
#undef VEC
#undef L
	prior_kmalloc_sizes(&o, in, out, snap, &t, seen, sizeof(seen));
	assert_string_equal(seen, "512 192 ");
	assert_int_equal(t.vector_frees, 1);
	assert_int_equal(rule_frees(&t, "slab-owner"), 1);
	assert_true(summary_says(&t, "(1 freed slabs' obj_exts vectors after a kfree() of an object"));
}

/* The snapshot walk's objects (--walk, rule_walk.c): a free of one the
 * trace never saw allocated is dropped, like its allocation; once the
 * trace allocates the pointer again, its free is that object's; a free of
 * a pointer the walk never had stays a prior free; a bad walk line is an
 * error naming the file and line. */
static void test_import_walk(void **state)
{
	char in[256], out[256], walk[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	(void)state;

	tu_path(in, sizeof(in), "walk-main.ftrace");
	tu_path(out, sizeof(out), "walk.trace");
	tu_path(walk, sizeof(walk), "walk.ftrace");
	tu_write_text(walk,
		      " slab-snapshot.s-9 [000] ..... 1.0: kmalloc: call_site=kernfs_fop_open+0x1/0x2 ptr=a0 bytes_req=80 bytes_alloc=96 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
		      " slab-snapshot.s-9 [000] ..... 1.0: kmalloc: call_site=kernfs_fop_open+0x1/0x2 ptr=b0 bytes_req=80 bytes_alloc=96 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
		      " slab-snapshot.s-9 [000] ..... 1.0: kmalloc: call_site=kernfs_fop_open+0x1/0x2 ptr=a0 bytes_req=80 bytes_alloc=96 gfp_flags=GFP_KERNEL node=-1 accounted=false\n");
	tu_write_text(in,
		      " kworker-7 [001] ..... 2.0: kfree: call_site=kvfree_rcu_list+0x1/0x2 ptr=a0\n"
		      " sh-1 [000] ..... 2.1: kmalloc: call_site=f+0x1/0x2 ptr=b0 bytes_req=80 bytes_alloc=96 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
		      " sh-1 [000] ..... 2.2: kfree: call_site=f+0x1/0x2 ptr=b0\n"
		      " kworker-7 [001] ..... 2.3: kfree: call_site=kvfree_rcu_list+0x1/0x2 ptr=b0\n"
		      " kworker-7 [001] ..... 2.4: kfree: call_site=kvfree_rcu_list+0x1/0x2 ptr=c0\n");
	o.input = in;
	o.output = out;
	o.walk = walk;
	if (ss_import(&o, &t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(t.walk_allocs, 2);
	assert_int_equal(t.walk_frees, 1);
	assert_int_equal(t.frees, 1);
	assert_int_equal(t.unknown_frees, 3);
	/* b0's second free is one of a pointer freed before; c0 a prior free */
	assert_int_equal(t.untraced_allocs, 1);
	assert_int_equal(t.prior_frees + t.prior_unattributed, 1);
	assert_int_equal(rule_frees(&t, "walk"), 1);
	assert_int_equal(rule_frees(&t, "again"), 1);
	assert_int_equal(rule_frees(&t, "unattributed"), 1);
	/* without the walk, a0's free is a prior free too */
	o.walk = NULL;
	if (ss_import(&o, &t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(t.walk_frees, 0);
	assert_int_equal(t.prior_frees + t.prior_unattributed, 2);
	tu_write_text(walk, " slab-snapshot.s-9 [000] ..... 1.0: kmalloc: call_site=x ptr=zz\n");
	o.walk = walk;
	assert_int_equal(ss_import(&o, &t, &err), -1);
	assert_non_null(strstr(err.msg, "walk.ftrace:1:"));
}

/* A pointer freed again with no allocation between was allocated
 * without an event: none of its frees is taken as an object from before
 * the capture (the learn pass finds it), each is counted in
 * untraced_allocs and, by the cache a kmem_cache_free names, in meta
 * untraced_allocs (most first); a kfree names no cache. */
static void test_import_untraced_allocs(void **state)
{
	char out[256];
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	(void)state;

	import_text("again",
		    " rcu-1 [000] ..... 1.0: kmem_cache_free: call_site=d_free+0x1/0x2 ptr=d0 name=dentry\n"
		    " rcu-1 [000] ..... 1.1: kmem_cache_free: call_site=d_free+0x1/0x2 ptr=d0 name=dentry\n"
		    " rcu-1 [000] ..... 1.2: kmem_cache_free: call_site=i_free+0x1/0x2 ptr=e0 name=proc_inode_cache\n"
		    " rcu-1 [000] ..... 1.3: kmem_cache_free: call_site=d_free+0x1/0x2 ptr=d0 name=dentry\n"
		    " rcu-1 [000] ..... 1.4: kmem_cache_free: call_site=i_free+0x1/0x2 ptr=e0 name=proc_inode_cache\n"
		    " sh-2 [001] ..... 1.5: kmem_cache_alloc: call_site=d_alloc+0x1/0x2 ptr=d0 bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false name=dentry\n"
		    " rcu-1 [000] ..... 1.6: kmem_cache_free: call_site=d_free+0x1/0x2 ptr=d0 name=dentry\n"
		    " rcu-1 [000] ..... 1.7: kfree: call_site=k_free+0x1/0x2 ptr=f0\n"
		    " rcu-1 [000] ..... 1.8: kfree: call_site=k_free+0x1/0x2 ptr=f0\n",
		    &t, out, sizeof(out));
	/* d0's three frees before its allocation, e0's two, f0's two; d0's
	 * last free is of its allocation */
	assert_int_equal(t.untraced_allocs, 7);
	assert_int_equal(rule_frees(&t, "again"), 7);
	assert_int_equal(t.prior_frees + t.prior_unattributed, 0);
	assert_int_equal(t.frees, 1);
	assert_int_equal(ss_trace_open(&r, out, &err), 0);
	while (ss_trace_next(r, &ev, &err) == 1)
		;
	assert_string_equal(ss_trace_meta(ss_trace_tables(r), "untraced_allocs"),
			    "dentry=3 proc_inode_cache=2");
	ss_trace_close(r);
}

/* The events of an imported trace, "KIND CPU SITE" each: a for an
 * allocation (SITE u for untraced_alloc, t otherwise), f for a free; a
 * free of an id no allocation holds fails the test. */
static void untraced_events(const char *out, char *seen, size_t n)
{
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	int rc;

	seen[0] = '\0';
	assert_int_equal(ss_trace_open(&r, out, &err), 0);
	while ((rc = ss_trace_next(r, &ev, &err)) == 1) {
		size_t used = strlen(seen);

		if (ev.kind == SS_EV_ALLOC)
			snprintf(seen + used, n - used, "a%u%s ", ev.cpu,
				 strcmp(ss_trace_name(ss_trace_tables(r), ev.site), SS_UNTRACED_SITE)
					 ? "t" : "u");
		else if (ev.kind == SS_EV_FREE)
			snprintf(seen + used, n - used, "f%u ", ev.cpu);
	}
	if (rc < 0)
		fail_msg("%s", err.msg);
	ss_trace_close(r);
}

/* Objects allocated without an event are replayed (untraced.c):
 * a free of one goes with an allocation after its kernel slab's last
 * traced allocation, on that allocation's CPU -- unless the object was
 * freed since (then as below); a slab no traced allocation touched has
 * its frees grouped, each group's allocations before its first free, on
 * its CPU, a group ending when one of its objects is freed again.  With
 * --drop-untraced both ends are dropped, as before. */
static void test_import_untraced_placed(void **state)
{
	char in[256], out[256], snap[256], seen[512];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	(void)state;

	page_free_files("placed", in, out, snap);
#define A(cpu, ptr) " sh-1 [00" #cpu "] ..... 1.0: kmem_cache_alloc: call_site=d_alloc+0x1/0x2 ptr=" ptr \
	" bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false name=dentry\n"
#define F(cpu, ptr) " sh-1 [00" #cpu "] ..... 1.0: kmem_cache_free: call_site=d_free+0x1/0x2 ptr=" ptr " name=dentry\n"
	tu_write_text(in,
		A(1, "ffff888100009000")	/* slab 9000: CPU 1 hands it out */
		A(0, "ffff88810000a000")
		F(0, "ffff8881000090c0")	/* freed twice, never allocated: */
		F(0, "ffff8881000090c0")	/* the second is no longer after 9000's */
		F(1, "ffff88810000b040")	/* slab b000: no traced allocation */
		F(0, "ffff88810000b080")
		F(1, "ffff88810000b040")	/* b040 again: a new group */
		F(0, "ffff88810000b080"));
#undef A
#undef F
	o.input = in;
	o.output = out;
	o.snapshot = snap;
	if (ss_import(&o, &t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(t.untraced_allocs, 6);
	assert_int_equal(t.untraced_placed, 6);
	assert_int_equal(t.untraced_anchored, 1);
	assert_int_equal(t.frees, 0);
	untraced_events(out, seen, sizeof(seen));
	assert_string_equal(seen, "a1t a1u a0t f0 a0u f0 a1u a1u f1 f0 a1u a1u f1 f0 ");
	assert_true(summary_says(&t, "(6 of those replayed: an allocation written where the trace places it,\n"
				     "  1 after their slab's last traced allocation"));
	/* dropped: the traced allocations alone */
	o.drop_untraced = true;
	if (ss_import(&o, &t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(t.untraced_allocs, 6);
	assert_int_equal(t.untraced_placed, 0);
	untraced_events(out, seen, sizeof(seen));
	assert_string_equal(seen, "a1t a0t ");
}

/* A cache with per-CPU sheaves (6.18: sheaf_capacity in the snapshot)
 * has its objects reach a CPU by bulk refills no tracepoint shows: its
 * objects allocated without an event are not placed, both ends dropped;
 * the same trace with sheaf_capacity 0 places them. */
static void test_import_untraced_sheaves(void **state)
{
	char in[256], out[256], snap[256], seen[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	static const char *const line =
		"cache=maple_node name=maple_node aliases=0 align=256 cache_dma=0 cpu_partial=52 "
		"cpu_slabs=2,N0=2 ctor= destroy_by_rcu=0 hwcache_align=0 min_partial=5 "
		"object_size=256 objects=512,N0=512 objects_partial=0 objs_per_slab=16 order=0 "
		"partial=0 poison=0 reclaim_account=0 red_zone=0 remote_node_defrag_ratio=100 "
		"sanity_checks=0 sheaf_capacity=%u slab_size=256 slabs=32,N0=32 "
		"slabs_cpu_partial=0(0) store_user=0 total_objects=512,N0=512 trace=0 usersize=0\n";
	char text[1024];
	(void)state;

	tu_path(in, sizeof(in), "sheaves.ftrace");
	tu_path(out, sizeof(out), "sheaves.trace");
	tu_path(snap, sizeof(snap), "sheaves.slab");
	tu_write_text(in,
		" sh-1 [001] ..... 1.0: kmem_cache_alloc: call_site=m_alloc+0x1/0x2 ptr=ffff888100009000 "
		"bytes_req=256 bytes_alloc=256 gfp_flags=GFP_KERNEL node=-1 accounted=false name=maple_node\n"
		" sh-1 [000] ..... 1.0: kmem_cache_free: call_site=m_free+0x1/0x2 ptr=ffff888100009100 name=maple_node\n"
		" sh-1 [000] ..... 1.0: kmem_cache_free: call_site=m_free+0x1/0x2 ptr=ffff888100009100 name=maple_node\n");
	o.input = in;
	o.output = out;
	o.snapshot = snap;
	for (unsigned sheaf = 0; sheaf <= 32; sheaf += 32) {
		int n = snprintf(text, sizeof(text), "slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=1 aliases=0\n");

		snprintf(text + n, sizeof(text) - (size_t)n, line, sheaf);
		tu_write_text(snap, text);
		if (ss_import(&o, &t, &err))
			fail_msg("%s", err.msg);
		assert_int_equal(t.untraced_allocs, 2);
		untraced_events(out, seen, sizeof(seen));
		if (sheaf) {
			assert_int_equal(t.untraced_placed, 0);
			assert_string_equal(seen, "a1t ");
		} else {
			assert_int_equal(t.untraced_placed, 2);
			assert_string_equal(seen, "a1t a1u f0 a0u f0 ");
		}
	}
}

static void test_import_errors(void **state)
{
	char in[256], out[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	(void)state;

	tu_path(in, sizeof(in), "bad.ftrace");
	tu_path(out, sizeof(out), "bad.trace");
	o.input = in;
	o.output = out;
	tu_write_text(in, "# tracer: nop\n a-1 [000] .... 1.0: kmalloc: call_site=f ptr=ff bytes_req=8\n");
	assert_int_equal(ss_import(&o, &t, &err), -1);
	assert_non_null(strstr(err.msg, "bad.ftrace:2: "));
	assert_int_equal(access(out, F_OK), -1); /* nothing half-written */
	tu_write_text(in, "hello\nworld\n");
	assert_int_equal(ss_import(&o, &t, &err), -1);
	assert_non_null(strstr(err.msg, "no kmalloc"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_ftrace_61),
		cmocka_unit_test(test_line_ftrace_old),
		cmocka_unit_test(test_line_tools),
		cmocka_unit_test(test_line_marker),
		cmocka_unit_test(test_format_file),
		cmocka_unit_test(test_ptrmap),
		cmocka_unit_test(test_infer_spec),
		cmocka_unit_test(test_import_sample),
		cmocka_unit_test(test_import_objext),
		cmocka_unit_test(test_import_listed_slab_kfree),
		cmocka_unit_test(test_import_vector_after_kfree),
		cmocka_unit_test(test_import_phases),
		cmocka_unit_test(test_import_walk),
		cmocka_unit_test(test_line_page_free),
		cmocka_unit_test(test_import_page_frees),
		cmocka_unit_test(test_import_page_base_from_fill),
		cmocka_unit_test(test_import_slab_pages),
		cmocka_unit_test(test_import_free_bits),
		cmocka_unit_test(test_import_untraced_allocs),
		cmocka_unit_test(test_import_untraced_placed),
		cmocka_unit_test(test_import_untraced_sheaves),
		cmocka_unit_test(test_import_errors),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
