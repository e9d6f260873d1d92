/* test_host.c - host mode: the real slab allocator (free lists, slabs,
 * poison checks that catch a use after free), the replay threads' pinning
 * as sched_getaffinity() reports it, windows cut at cross-CPU frees, and
 * the refusal of a topology larger than this host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geometry.h"
#include "host_run.h"
#include "host_slab.h"

/* ---- the allocator alone, one node, one thread ---- */

struct one {
	struct ss_topology topo;
	struct ss_hostslab_cache s;
	struct ss_hostslab_ctx ctx;
	_Atomic int64_t mapped, peak;
};

/* The host layout of a 64-byte cache on a target of era `era` (x86_64,
 * 4 KiB pages) with slub_debug flags debug, as the model computes it. */
static void geometry(struct ss_hostslab_geometry *g, const struct ss_topology *topo,
		     int era, unsigned size, unsigned debug)
{
	struct ss_target t;
	struct ss_cache_spec spec = {.object_size = size, .debug = debug};
	struct ss_error err;

	ss_target_defaults(&t);
	t.era = era;
	assert_int_equal(ss_hostslab_geometry_for_spec(g, &t, topo, &spec, &err), 0);
}

/* 64-byte objects, 64 per 4 KiB slab (56 72-byte slots with P, the free
 * pointer after the object); min_partial 5 (ilog2(64)/2 = 3).  Era 4.5 runs the checks
 * with any flag, 6.1 only with F. */
static struct one *one_cache(unsigned debug, bool checks)
{
	struct one *f = calloc(1, sizeof(*f));
	struct ss_hostslab_geometry g;
	struct ss_error err;

	assert_int_equal(ss_topology_flat(&f->topo, 2, 1, &err), 0);
	geometry(&g, &f->topo, checks ? SS_ERA_4_5 : SS_ERA_6_1, 64, debug);
	assert_int_equal(ss_hostslab_cache_init(&f->s, "t", &g, &f->topo, &f->mapped, &f->peak, &err), 0);
	return f;
}

static void one_free(struct one *f)
{
	ss_hostslab_cache_destroy(&f->s);
	assert_int_equal(f->mapped, 0);
	ss_topology_release(&f->topo);
	free(f);
}

/* The host takes the model's numbers for the target's era. */
static void test_geometry(void **state)
{
	struct ss_topology topo;
	struct ss_hostslab_geometry g;
	struct ss_error err;
	(void)state;

	assert_int_equal(ss_topology_flat(&topo, 2, 1, &err), 0);
	geometry(&g, &topo, SS_ERA_6_1, 64, 0);
	assert_int_equal(g.size, 64);
	assert_int_equal(g.objs, 64);
	assert_int_equal(g.fp_offset, 0);
	assert_int_equal(g.min_partial, 5);
	/* set_cpu_partial() 5.16+: 120 objects -> DIV_ROUND_UP(240, 64) = 4 slabs */
	assert_int_equal(g.cpu_partial_slabs, 4);
	geometry(&g, &topo, SS_ERA_6_1, 512, 0);
	/* 52 objects: DIV_ROUND_UP(104, objects per slab) */
	assert_int_equal(g.cpu_partial_slabs, (104 + g.objs - 1) / g.objs);
	/* before 5.16 the limit is 30 objects, counted as objects */
	geometry(&g, &topo, SS_ERA_3_10, 64, 0);
	assert_int_equal(g.cpu_partial, 30);
	assert_int_equal(g.cpu_partial_slabs, 0);
	geometry(&g, &topo, SS_ERA_4_5, 64, SS_DBG_P);
	assert_int_equal(g.size, 72);		  /* object + free pointer word */
	assert_int_equal(g.fp_offset, 68);	  /* the slot's last 4 bytes */
	assert_int_equal(g.cpu_partial, 0);	  /* debug: no per-CPU partials */
	assert_int_equal(g.cpu_partial_slabs, 0);
	assert_true(g.checks);			  /* 4.5: checks with any flag */
	geometry(&g, &topo, SS_ERA_6_1, 64, SS_DBG_P);
	assert_false(g.checks);			  /* 4.6+: only with F */
	ss_topology_release(&topo);
}

static void test_fast_and_slow_paths(void **state)
{
	struct one *f = one_cache(0, false);
	void *obj[130];
	struct ss_hostslab_slab *sl[130];
	enum ss_hostslab_path p;
	(void)state;

	for (int i = 0; i < 130; i++) {
		obj[i] = ss_hostslab_alloc(&f->s, 0, &sl[i], &p, &f->ctx);
		assert_non_null(obj[i]);
		memset(obj[i], i, 64); /* the memory is real */
	}
	/* slabs of 64: objects 0, 64, 128 opened new slabs */
	assert_int_equal(f->ctx.alloc_path[SS_HOSTSLAB_NEW_SLAB], 3);
	assert_int_equal(f->ctx.alloc_path[SS_HOSTSLAB_FAST], 127);
	assert_int_equal(f->mapped, 3 * 4096);
	assert_ptr_equal((char *)obj[1] - (char *)obj[0], 64);
	assert_ptr_equal(sl[63], sl[0]);
	assert_ptr_not_equal(sl[64], sl[0]);
	for (int i = 0; i < 130; i++)
		assert_int_equal(((unsigned char *)obj[i])[63], i);
	/* CPU 1 frees object 0 of the full slab 0: slow, to CPU 1's partial
	 * list; the next allocation on CPU 1 takes it from there. */
	ss_hostslab_free(&f->s, 1, obj[0], sl[0], &p, &f->ctx);
	assert_int_equal(p, HS_FREE_SLOW);
	obj[0] = ss_hostslab_alloc(&f->s, 1, &sl[0], &p, &f->ctx);
	assert_int_equal(p, SS_HOSTSLAB_CPU_PARTIAL);
	/* CPU 0 frees into its active slab: fast, and LIFO reuse */
	ss_hostslab_free(&f->s, 0, obj[129], sl[129], &p, &f->ctx);
	assert_int_equal(p, SS_HOSTSLAB_FAST);
	assert_ptr_equal(ss_hostslab_alloc(&f->s, 0, &sl[129], &p, &f->ctx), obj[129]);
	one_free(f);
}

/* CPU 1 frees objects of CPU 0's active slab: they wait on the slab's
 * own free list until CPU 0 runs dry and takes them (get_freelist). */
static void test_remote_frees_refill(void **state)
{
	struct one *f = one_cache(0, false);
	void *obj[64];
	struct ss_hostslab_slab *sl[64];
	enum ss_hostslab_path p;
	(void)state;

	for (int i = 0; i < 64; i++)
		obj[i] = ss_hostslab_alloc(&f->s, 0, &sl[i], &p, &f->ctx);
	for (int i = 0; i < 10; i++)
		ss_hostslab_free(&f->s, 1, obj[i], sl[i], &p, &f->ctx);
	assert_int_equal(f->ctx.free_path[HS_FREE_SLOW], 10);
	assert_non_null(ss_hostslab_alloc(&f->s, 0, &sl[0], &p, &f->ctx));
	assert_int_equal(p, HS_REFILL);
	assert_int_equal(f->ctx.alloc_path[SS_HOSTSLAB_NEW_SLAB], 1);
	one_free(f);
}

/* slub_debug=P: poison written on free, checked on alloc; a write to a
 * freed object is caught at its next allocation. */
static void test_poison_catches_use_after_free(void **state)
{
	struct one *f = one_cache(SS_DBG_P, true);
	struct ss_hostslab_slab *sl;
	enum ss_hostslab_path p;
	unsigned char *obj;
	(void)state;

	obj = ss_hostslab_alloc(&f->s, 0, &sl, &p, &f->ctx);
	/* new slab: 4096 bytes of 0x5a, then 56 objects poisoned */
	assert_int_equal(f->ctx.poison_written, 4096 + 56 * 64);
	assert_int_equal(f->ctx.poison_checked, 64);
	assert_int_equal(obj[0], SS_HOSTSLAB_POISON_FREE);
	assert_int_equal(obj[63], SS_HOSTSLAB_POISON_END);
	assert_null(f->ctx.corrupt);
	ss_hostslab_free(&f->s, 0, obj, sl, &p, &f->ctx);
	assert_int_equal(obj[10], SS_HOSTSLAB_POISON_FREE);
	obj[10] = 0; /* use after free */
	assert_ptr_equal(ss_hostslab_alloc(&f->s, 0, &sl, &p, &f->ctx), obj);
	assert_non_null(f->ctx.corrupt);
	assert_non_null(strstr(f->ctx.corrupt, "poison overwritten"));
	one_free(f);
}

static void test_memchr_inv(void **state)
{
	unsigned char b[40];
	(void)state;

	memset(b, 0x6b, sizeof(b));
	assert_null(ss_hostslab_memchr_inv(b, 0x6b, sizeof(b)));
	b[37] = 0;
	assert_ptr_equal(ss_hostslab_memchr_inv(b, 0x6b, sizeof(b)), b + 37);
	b[3] = 0;
	assert_ptr_equal(ss_hostslab_memchr_inv(b, 0x6b, sizeof(b)), b + 3);
}

/* ---- the replay ---- */

static char trace_path[64];

/* CPU 0 allocates 10 objects, CPU 1 frees them (a cross-CPU free cuts
 * the window), CPU 1 allocates 10, CPU 0 frees them (another cut). */
static void write_trace(void)
{
	FILE *fp;
	int fd;

	snprintf(trace_path, sizeof(trace_path), "/tmp/slabsim-host-XXXXXX");
	fd = mkstemp(trace_path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fprintf(fp, "slabsim-trace 1\nmeta workload unit\ncache obj size=100 align=8\np start\n");
	for (int i = 0; i < 10; i++)
		fprintf(fp, "a 0 %d site obj 100\n", i);
	for (int i = 0; i < 10; i++)
		fprintf(fp, "f 1 %d\n", i);
	for (int i = 0; i < 10; i++)
		fprintf(fp, "a 1 %d site kmalloc %d\n", i, 32 + i);
	fprintf(fp, "a 1 10 site kmalloc 0\nf 1 10\n"); /* ZERO_SIZE_PTR */
	for (int i = 0; i < 10; i++)
		fprintf(fp, "f 0 %d\n", i);
	fclose(fp);
}

/* debug: slub_debug letters, or NULL */
static struct ss_host_opts opts(const char *topology, const char *debug)
{
	struct ss_host_opts o = {
		.spec = {.trace = trace_path, .target = "arm32-3.10", .model = "traced",
			 .topology = topology, .slub_debug = debug},
		.events = "task-clock,cycles",
	};

	return o;
}

/* The PUs this process may run on: what hwloc counts as the host. */
static long host_pus(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return sysconf(_SC_NPROCESSORS_ONLN);
	return CPU_COUNT(&set);
}

static void test_replay_pins_threads(void **state)
{
	struct ss_host_opts o = opts("synth:pack:1 core:2 pu:1", "P");
	struct ss_host_stats *st = calloc(1, sizeof(*st));
	struct ss_error err = {{0}};
	(void)state;

	if (host_pus() < 2) {
		free(st);
		skip();
	}
	write_trace();
	if (ss_host_replay(&o, st, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(st->nr_threads, 2);
	for (unsigned i = 0; i < 2; i++) {
		/* each thread runs on exactly one CPU: its host PU */
		assert_int_equal(st->threads[i].pu, i);
		assert_int_equal(st->threads[i].affinity_nr, 1);
		assert_int_equal(st->threads[i].affinity_os, (int)st->threads[i].host_os);
	}
	assert_int_not_equal(st->threads[0].host_os, st->threads[1].host_os);
	assert_int_equal(st->alloc_ops, 21);
	assert_int_equal(st->free_ops, 21);
	assert_int_equal(st->zero_ops, 2);
	assert_int_equal(st->remote_frees, 20);
	assert_int_equal(st->windows, 3);
	assert_int_equal(st->events, 1 + 21 + 21);
	assert_true(st->poison_written > 0);  /* P on the 3.10 target: */
	assert_true(st->poison_checked > 0);  /* checks run for any flag */
	assert_true(st->alloc_hist.total == 21);
	assert_true(st->ticks_per_ns > 0);
	assert_string_equal(st->workload, "unit");
	assert_int_equal(st->pmu.nr, 2);
	assert_int_equal(st->pmu.ev[0].status, SS_PMU_COUNTED); /* task-clock */
	ss_host_stats_release(st);
	free(st);
	unlink(trace_path);
}

static void test_refuses_topology_bigger_than_host(void **state)
{
	struct ss_host_opts o = opts("synth:\"pack:2 core:16 pu:2\"", NULL);
	struct ss_host_stats *st = calloc(1, sizeof(*st));
	struct ss_error err = {{0}};
	char want[80];
	(void)state;

	write_trace();
	assert_int_equal(ss_host_replay(&o, st, &err), -1);
	snprintf(want, sizeof(want), "has 64 PUs but this host has %ld", host_pus());
	assert_non_null(strstr(err.msg, want));
	ss_host_stats_release(st);
	free(st);
	unlink(trace_path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_fast_and_slow_paths),
		cmocka_unit_test(test_remote_frees_refill),
		cmocka_unit_test(test_poison_catches_use_after_free),
		cmocka_unit_test(test_memchr_inv),
		cmocka_unit_test(test_replay_pins_threads),
		cmocka_unit_test(test_refuses_topology_bigger_than_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
