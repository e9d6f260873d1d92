/* test_import_gfp.c - the allocation flags an import reads from
 * gfp_flags= and accounted=, per era, into the trace's gfp= field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "import/import.h"
#include "import/import_read.h"
#include "test_util.h"
#include "trace.h"

static void test_gfp_names(void **state)
{
	(void)state;
	assert_int_equal(ss_import_gfp("GFP_KERNEL", NULL), 0);
	assert_int_equal(ss_import_gfp("GFP_KERNEL|__GFP_ZERO", "false"), 0);
	assert_int_equal(ss_import_gfp("GFP_KERNEL_ACCOUNT|__GFP_ZERO", NULL), SS_GFP_ACCOUNT);
	assert_int_equal(ss_import_gfp("GFP_NOFS|__GFP_ZERO|__GFP_NOFAIL|__GFP_ACCOUNT", NULL),
			 SS_GFP_ACCOUNT);
	assert_int_equal(ss_import_gfp("GFP_KERNEL_ACCOUNT|__GFP_RECLAIMABLE", "true"),
			 SS_GFP_ACCOUNT | SS_GFP_RECLAIMABLE);
	assert_int_equal(ss_import_gfp("GFP_TEMPORARY", NULL), SS_GFP_RECLAIMABLE);
	assert_int_equal(ss_import_gfp("GFP_KERNEL|GFP_DMA", NULL), SS_GFP_DMA);
	assert_int_equal(ss_import_gfp("GFP_ATOMIC|__GFP_DMA", NULL), SS_GFP_DMA);
	/* another zone, and names that only start like ours */
	assert_int_equal(ss_import_gfp("GFP_KERNEL|GFP_DMA32", NULL), 0);
	assert_int_equal(ss_import_gfp("__GFP_ACCOUNTX|X__GFP_DMA", NULL), 0);
	/* accounted= alone: a SLAB_ACCOUNT cache, or 6.x flags */
	assert_int_equal(ss_import_gfp("GFP_KERNEL", "true"), SS_GFP_ACCOUNT);
	assert_int_equal(ss_import_gfp(NULL, "true"), SS_GFP_ACCOUNT);
	/* numbers: only the bits that never moved (DMA 0x1, RECLAIMABLE 0x10) */
	assert_int_equal(ss_import_gfp("0x11", NULL), SS_GFP_DMA | SS_GFP_RECLAIMABLE);
	assert_int_equal(ss_import_gfp("0xcc0", NULL), 0);
	assert_int_equal(ss_import_gfp("", ""), 0);
}

/* Lines of three eras through the importer: the alloc lines carry the
 * flags into the trace, frees carry none. */
static void test_import_gfp_lines(void **state)
{
	char in[256], out[256];
	struct ss_import_opts o = {.target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	uint32_t got[8];
	int n = 0;
	(void)state;

	tu_path(in, sizeof(in), "gfp.ftrace");
	tu_path(out, sizeof(out), "gfp.trace");
	tu_write_text(in,
		/* 6.18: accounted= */
		" git-1 [000] ..... 1.0: kmalloc: call_site=alloc_pipe_info+0x5d/0x230 ptr=0000000091f8ce76 "
		"bytes_req=176 bytes_alloc=192 gfp_flags=GFP_KERNEL_ACCOUNT|__GFP_ZERO node=-1 accounted=true\n"
		" git-1 [000] ..... 1.1: kmalloc: call_site=ext4_dir_open+0x1f/0x50 ptr=00000000727eced5 "
		"bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL|__GFP_ZERO node=-1 accounted=false\n"
		/* 4.x: kmalloc_node, no accounted= */
		" sh-2 [001] .... 2.0: kmalloc_node: call_site=ffffffff8123abcd ptr=ffff88003c1a2b00 "
		"bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL|GFP_DMA node=0\n"
		/* 3.10: hex site, 4 columns */
		" sh-2 [001] .... 3.0: kmem_cache_alloc: call_site=ffffffff81111111 ptr=ffff88003c1a2c00 "
		"bytes_req=40 bytes_alloc=40 gfp_flags=GFP_TEMPORARY\n"
		" sh-2 [001] .... 3.1: kfree: call_site=ffffffff81111112 ptr=ffff88003c1a2b00\n");
	o.input = in;
	o.output = out;
	if (ss_import(&o, &t, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(ss_trace_open(&r, out, &err), 0);
	while (ss_trace_next(r, &ev, &err) == 1 && n < 8)
		got[n++] = ev.kind == SS_EV_ALLOC ? ev.gfp : 100 + ev.gfp;
	ss_trace_close(r);
	assert_int_equal(n, 5);
	assert_int_equal(got[0], SS_GFP_ACCOUNT);
	assert_int_equal(got[1], 0);
	assert_int_equal(got[2], SS_GFP_DMA);
	assert_int_equal(got[3], SS_GFP_RECLAIMABLE);
	assert_int_equal(got[4], 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gfp_names),
		cmocka_unit_test(test_import_gfp_lines),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
