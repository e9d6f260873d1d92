/* test_import_eras.c - captures of every kernel era since 3.x import.
 *
 * The lines are written from the TP_printk() of include/trace/events/
 * kmem.h of each era (and the ftrace line prefix of its time):
 *   3.10  call_site=%lx ptr=%p (raw, NULL as right-aligned "(null)"),
 *         4 flag columns, *_node events with node=, 3.x gfp names
 *         (GFP_RECLAIMABLE; no GFP_DMA name: leftover bits in hex)
 *   4.9   the same with __GFP_ACCOUNT, GFP_DMA and mmflags.h names
 *   4.19  %p hashed (4.15+): 32-bit values
 *   5.10  call_site=%pS; kmem_cache_free without name=
 *   5.15  5 flag columns; kmem_cache_free name= (5.12+)
 *   6.18  kmem_cache_alloc name=, node=, accounted= (6.1+; _node gone)
 * Each is imported whole: events, caches, flags and the frees of objects
 * from before the capture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "import/import.h"
#include "test_util.h"
#include "trace.h"

struct got {
	unsigned allocs, frees, prior, phases;
	uint32_t gfp[16];	/* of the allocs, in order */
	char apis[16][40];	/* of the allocs */
	uint64_t sizes[16];
};

static void import_text(const char *text, struct ss_import_totals *t, struct got *g)
{
	char in[256], out[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;

	memset(g, 0, sizeof(*g));
	tu_path(in, sizeof(in), "era.ftrace");
	tu_path(out, sizeof(out), "era.trace");
	tu_write_text(in, text);
	o.input = in;
	o.output = out;
	if (ss_import(&o, t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ss_trace_open(&r, out, &err), 0);
	while (ss_trace_next(r, &ev, &err) == 1) {
		if (ev.kind == SS_EV_ALLOC && g->allocs < 16) {
			g->gfp[g->allocs] = ev.gfp;
			g->sizes[g->allocs] = ev.value;
			snprintf(g->apis[g->allocs], sizeof(g->apis[0]), "%s",
				 ss_trace_cache_name(ss_trace_tables(r), ev.api));
		}
		g->allocs += ev.kind == SS_EV_ALLOC;
		g->frees += ev.kind == SS_EV_FREE;
		g->prior += ev.kind == SS_EV_FREE_PRIOR;
		g->phases += ev.kind == SS_EV_PHASE;
	}
	ss_trace_close(r);
}

static void test_era_3_10(void **state)
{
	struct ss_import_totals t;
	struct got g;
	(void)state;

	import_text(
		"# tracer: nop\n"
		"#\n"
		"# entries-in-buffer/entries-written: 6/6   #P:4\n"
		"#\n"
		"#                              _-----=> irqs-off\n"
		"#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
		"            bash-2011  [001] d... 12345.678901: kmalloc: call_site=ffffffff811c0b3e ptr=ffff88003b9c7e00 bytes_req=60 bytes_alloc=64 gfp_flags=GFP_KERNEL|GFP_RECLAIMABLE\n"
		"            bash-2011  [001] .... 12345.678902: kmem_cache_alloc_node: call_site=ffffffff8150d2c8 ptr=ffff88003a0e3500 bytes_req=256 bytes_alloc=256 gfp_flags=GFP_ATOMIC node=-1\n"
		"            bash-2011  [003] .... 12345.678903: kmalloc_node: call_site=ffffffff8150d2d0 ptr=ffff88003a0e4000 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_ATOMIC|0x1 node=0\n"
		"            bash-2011  [001] .... 12345.678904: kfree: call_site=ffffffff8117a9c1 ptr=          (null)\n"
		"            bash-2011  [002] .... 12345.678905: kfree: call_site=ffffffff811c0c00 ptr=ffff88003b9c7e00\n"
		"            bash-2011  [000] .... 12345.678906: kmem_cache_free: call_site=ffffffff8150d3a0 ptr=ffff88003a0e3500\n",
		&t, &g);
	assert_int_equal(t.allocs, 3);
	assert_int_equal(t.null_frees, 1);
	assert_int_equal(t.frees, 2);
	assert_int_equal(t.max_cpu, 3);
	assert_int_equal(g.allocs, 3);
	assert_int_equal(g.gfp[0], SS_GFP_RECLAIMABLE);
	assert_int_equal(g.gfp[1], 0);
	assert_int_equal(g.gfp[2], SS_GFP_DMA); /* 0x1: ___GFP_DMA, no name in 3.x */
	/* 256/256 without name=: the kmalloc class of that stride */
	assert_string_equal(g.apis[1], "kmalloc");
}

static void test_era_4_9(void **state)
{
	struct ss_import_totals t;
	struct got g;
	(void)state;

	import_text(
		"          <idle>-0     [000] ..s. 5812.346611: kmem_cache_alloc: call_site=ffffffff816b2a7e ptr=ffff8800b52e3f00 bytes_req=232 bytes_alloc=256 gfp_flags=GFP_ATOMIC\n"
		"            sshd-1234  [000] .... 5812.346700: kmalloc_node: call_site=ffffffff813e0a5a ptr=ffff8800b7a4b000 bytes_req=2048 bytes_alloc=2048 gfp_flags=GFP_KERNEL|__GFP_ACCOUNT node=-1\n"
		"            sshd-1234  [001] .... 5812.346800: kmalloc: call_site=ffffffff813e0b00 ptr=ffff8800b7a4c000 bytes_req=512 bytes_alloc=512 gfp_flags=GFP_KERNEL|GFP_DMA\n"
		"            sshd-1234  [001] .... 5812.346900: kmem_cache_free: call_site=ffffffff816b2b00 ptr=ffff8800b52e3f00\n"
		"            sshd-1234  [001] .... 5812.347000: kfree: call_site=ffffffff813e0c00 ptr=ffff8800b7a4b000\n",
		&t, &g);
	assert_int_equal(g.allocs, 3);
	assert_int_equal(g.gfp[1], SS_GFP_ACCOUNT);
	assert_int_equal(g.gfp[2], SS_GFP_DMA);
	assert_int_equal(t.frees, 2);
	assert_int_equal(t.unknown_frees, 0);
}

static void test_era_4_19(void **state)
{
	struct ss_import_totals t;
	struct got g;
	(void)state;

	import_text(
		"            bash-900   [000] .... 1200.000001: kmalloc: call_site=ffffffffa2a8d2c5 ptr=000000004a5b6c7d bytes_req=24 bytes_alloc=32 gfp_flags=GFP_KERNEL_ACCOUNT\n"
		"            bash-900   [000] .... 1200.000002: kfree: call_site=ffffffffa2a8d300 ptr=000000004a5b6c7d\n"
		/* a free of an object from before the capture, at a site that
		 * also freed a kmalloc-32 object the capture saw */
		"            bash-900   [001] .... 1200.000003: kfree: call_site=ffffffffa2a8d300 ptr=00000000deadbeef\n",
		&t, &g);
	assert_int_equal(g.gfp[0], SS_GFP_ACCOUNT);
	assert_int_equal(t.unknown_frees, 1);
	assert_int_equal(t.prior_frees, 1);
	assert_int_equal(g.prior, 1);
}

static void test_era_5_10(void **state)
{
	struct ss_import_totals t;
	struct got g;
	(void)state;

	import_text(
		"             git-4711  [001] .... 8000.100000: kmem_cache_alloc: call_site=getname_flags+0x4b/0x1e0 ptr=00000000c1d2e3f4 bytes_req=4096 bytes_alloc=4096 gfp_flags=GFP_KERNEL\n"
		"             git-4711  [001] .... 8000.100001: kmem_cache_free: call_site=putname+0x4c/0x60 ptr=00000000c1d2e3f4\n"
		"             git-4711  [001] .... 8000.100002: kmalloc: call_site=alloc_pipe_info+0x5d/0x1e0 ptr=00000000d4e1b8f2 bytes_req=176 bytes_alloc=192 gfp_flags=GFP_KERNEL_ACCOUNT|__GFP_ZERO\n",
		&t, &g);
	assert_int_equal(g.allocs, 2);
	assert_string_equal(g.apis[0], "kmalloc"); /* 4096/4096 is a kmalloc stride */
	assert_int_equal(g.gfp[1], SS_GFP_ACCOUNT);
	assert_int_equal(t.frees, 1);
}

static void test_era_5_15(void **state)
{
	struct ss_import_totals t;
	struct got g;
	(void)state;

	import_text(
		"             tar-5000  [000] ..... 9000.000001: kmem_cache_alloc: call_site=__d_alloc+0x2d/0x1e0 ptr=0000000011112222 bytes_req=192 bytes_alloc=192 gfp_flags=GFP_KERNEL\n"
		"             tar-5000  [000] ..... 9000.000002: kmem_cache_free: call_site=__dentry_kill+0x10d/0x180 ptr=0000000011112222 name=dentry\n"
		"             tar-5000  [001] ..s1. 9000.000003: kmem_cache_free: call_site=rcu_do_batch+0x1b7/0x530 ptr=0000000033334444 name=filp\n",
		&t, &g);
	assert_int_equal(t.frees, 1);
	assert_int_equal(t.unknown_frees, 1);
	/* filp was never allocated in the capture and no snapshot says its
	 * size: the free cannot be placed */
	assert_int_equal(t.prior_unattributed, 1);
}

static void test_era_6_18(void **state)
{
	struct ss_import_totals t;
	struct got g;
	(void)state;

	import_text(
		"            bash-6387    [001] .....  2184.012056: kmem_cache_alloc: call_site=getname_flags.part.0+0x24/0x1f0 ptr=0000000038389422 name=names_cache bytes_req=4096 bytes_alloc=4096 gfp_flags=GFP_KERNEL node=-1 accounted=false\n"
		"            bash-6387    [001] .....  2184.012057: kmalloc: call_site=alloc_pipe_info+0x5d/0x230 ptr=0000000091f8ce76 bytes_req=176 bytes_alloc=192 gfp_flags=GFP_KERNEL_ACCOUNT|__GFP_ZERO node=-1 accounted=true\n"
		"            bash-6387    [000] .....  2184.012058: tracing_mark_write: slabsim-phase middle\n"
		"            bash-6387    [000] .....  2184.012059: kmem_cache_free: call_site=putname+0x4c/0x60 ptr=0000000038389422 name=names_cache\n"
		"            bash-6387    [000] .....  2184.012060: kmem_cache_free: call_site=putname+0x4c/0x60 ptr=0000000055556666 name=names_cache\n",
		&t, &g);
	assert_string_equal(g.apis[0], "names_cache");
	assert_int_equal(g.gfp[1], SS_GFP_ACCOUNT);
	assert_int_equal(g.phases, 1);
	assert_int_equal(t.frees, 1);
	assert_int_equal(g.prior, 1); /* names_cache is declared: a prior free of it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_era_3_10), cmocka_unit_test(test_era_4_9),
		cmocka_unit_test(test_era_4_19), cmocka_unit_test(test_era_5_10),
		cmocka_unit_test(test_era_5_15), cmocka_unit_test(test_era_6_18),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
