/* test_replay_fast.c - a cache model replays through its batch replay
 * (allocators/cache_model_batch.c, run->batch: a loop that prices SLUB's
 * lock-free paths without a struct ss_op and keeps the engine's books
 * itself, model_batch.h), and its alloc and free call the plain SLUB
 * caches inline (cache_model_fast.h), instead of the engine calling the
 * model ops per event and the model calling its backend's.  All must
 * agree to the byte: each trace here is replayed as `slabsim run` does
 * (the loop, in the build for this CPU and in its baseline build), with
 * run->batch cleared after set-up (every event through the model ops),
 * and with the model's inline paths off too (every event through the
 * backend ops), and every result file the run writes (sim/results.h) and
 * every timeline sample must be identical. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache_model_int.h"
#include "hackbench/hb_gen.h"
#include "results.h"
#include "run.h"
#include "test_util.h"
#include "trace_convert.h"

/* The run's footprint and live objects at each timeline sample. */
struct samples {
	uint64_t v[4096];
	unsigned n;
};

static int on_sample(struct ss_run *run, struct ss_error *err)
{
	struct samples *s = run->user;

	(void)err;
	if (s->n + 3 <= sizeof(s->v) / sizeof(s->v[0])) {
		s->v[s->n++] = run->books.events;
		s->v[s->n++] = ss_run_footprint_bytes(run);
		s->v[s->n++] = ss_run_live_objects(run);
	}
	return 0;
}

/* The paths a replay can take. */
enum path {
	BACKEND, /* every event through the model ops, and the backend's */
	OPS,	 /* every event through the model ops, its plain caches inline */
	INLINE,	 /* the batch replay, the in-place loop as built for this CPU */
	BASE,	 /* the same, the loop's baseline build (where the other is AVX's) */
};

/* Replay spec into dir along path. */
static void replay(const struct ss_run_spec *spec, enum path path, const char *dir,
		   struct samples *smp)
{
	struct ss_run_setup rs = {0};
	struct ss_run run = {.sample_every = 97, .on_sample = on_sample, .user = smp};
	struct ss_run_labels lb = {.workload = "w", .variant = "-", .model = spec->model,
				   .costs = "default", .slub_debug = "-"};
	struct ss_error err = {{0}};

	if (ss_run_setup_load(&rs, spec, &err) || ss_run_setup_open(&rs, spec, &err) ||
	    ss_run_setup_start(&rs, &run, &err))
		fail_msg("%s on %s: %s", spec->model, spec->trace, err.msg);
	/* every model here is a SLUB one: the batch replay is there to skip */
	assert_non_null(run.batch);
	if (path == OPS || path == BACKEND)
		run.batch = NULL;
	if (path == BACKEND)
		((struct ss_cmodel *)run.model)->fast = false;
	if (path == BASE)
		run.books.avx = false;
	if (ss_replay(&run, rs.reader, &err) || ss_write_caches(dir, &run, &err) ||
	    ss_write_counters(dir, &run, &err) || ss_write_functions(dir, &run, &err) ||
	    ss_write_locks(dir, &run, &err) || ss_write_latency(dir, &run, &err) ||
	    ss_write_work(dir, &run, &err) || ss_write_summary(dir, &run, &lb, &err) ||
	    ss_write_slabinfo(dir, "slabinfo", &run, &err) || ss_write_sites(dir, &run, &err))
		fail_msg("%s on %s: %s", spec->model, spec->trace, err.msg);
	ss_run_setup_close(&rs, &run);
}

static char *slurp(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	long len = 0;

	if (!fp || fseek(fp, 0, SEEK_END) || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len + 1)) || fread(buf, 1, (size_t)len, fp) != (size_t)len)
		fail_msg("%s: cannot read", path);
	fclose(fp);
	*n = (size_t)len;
	return buf;
}

static void check_path(const struct ss_run_spec *spec, enum path path)
{
	static const char *const files[] = {
		"caches.csv", "counters.csv", "functions.csv", "locks.csv", "latency.csv",
		"work.csv", "summary.csv", "summary.json", "slabinfo", "sites.csv",
	};
	static struct samples fast, ops;
	static unsigned nr_checks;
	char dir_fast[TU_PATH_MAX], dir_ops[TU_PATH_MAX], name[32];

	fast.n = ops.n = 0;
	/* in the group's directory: a failed check leaves nothing behind */
	snprintf(name, sizeof(name), "fast%u", nr_checks);
	tu_path(dir_fast, sizeof(dir_fast), name);
	snprintf(name, sizeof(name), "ops%u", nr_checks++);
	tu_path(dir_ops, sizeof(dir_ops), name);
	if (mkdir(dir_fast, 0777) || mkdir(dir_ops, 0777))
		fail_msg("%s: cannot create", dir_fast);
	replay(spec, path, dir_fast, &fast);
	replay(spec, BACKEND, dir_ops, &ops);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char a[2 * TU_PATH_MAX], b[2 * TU_PATH_MAX];
		size_t na, nb;
		char *fa, *fb;

		snprintf(a, sizeof(a), "%s/%s", dir_fast, files[i]);
		snprintf(b, sizeof(b), "%s/%s", dir_ops, files[i]);
		fa = slurp(a, &na);
		fb = slurp(b, &nb);
		if (na != nb || memcmp(fa, fb, na))
			fail_msg("%s, %s on %s: %s differs between the path (%s) and the backend ops (%s)",
				 spec->model, spec->target, spec->trace, files[i], a, b);
		free(fa);
		free(fb);
	}
	assert_true(fast.n > 30);
	assert_int_equal(fast.n, ops.n);
	assert_memory_equal(fast.v, ops.v, fast.n * sizeof(fast.v[0]));
	tu_remove_tree(dir_fast);
	tu_remove_tree(dir_ops);
}

/* Both builds of the batch replay, and the model ops with their inline
 * paths, give the backend ops' figures. */
static void check_same(const struct ss_run_spec *spec)
{
	check_path(spec, INLINE);
	check_path(spec, BASE);
	check_path(spec, OPS);
}

/* A text trace every route of the model meets: three declared caches,
 * kmalloc sizes from 0 (ZERO_SIZE_PTR) through the size memo's end (8192)
 * to kmalloc_large, accounted allocations, frees on other CPUs (and so
 * other nodes), work and phases.  A fixed LCG: the same trace each run. */
static void write_mixed_trace(const char *path)
{
	static const unsigned sizes[] = {0, 8, 13, 64, 96, 100, 192, 200, 500, 1024,
					 2000, 4096, 8192, 8193, 9000, 20000, 70000};
	FILE *fp = fopen(path, "w");
	uint64_t x = 42, live[512];
	unsigned nlive = 0, next_id = 1;

	assert_non_null(fp);
	fprintf(fp, "slabsim-trace 1\nmeta workload mixed\n"
		    "cache small size=24\ncache mid size=200 flags=hwcache\n"
		    "cache big size=4000 align=64\n");
	for (unsigned i = 0; i < 30000; i++) {
		unsigned r, cpu;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		r = (unsigned)(x >> 33);
		cpu = r % 4;
		if (i % 7000 == 6999)
			fprintf(fp, "p phase%u\n", i / 7000);
		if (r % 11 == 0) {
			fprintf(fp, "w %u %u label%u\n", cpu, 100 + r % 900, r % 3);
		} else if (nlive == 512 || (nlive && (r >> 8) % 2)) {
			unsigned k = (r >> 12) % nlive;

			fprintf(fp, "f %u %llu\n", (cpu + (r >> 20) % 2) % 4,
				(unsigned long long)live[k]);
			live[k] = live[--nlive];
		} else {
			unsigned kind = (r >> 16) % 8;

			live[nlive++] = next_id;
			if (kind == 0)
				fprintf(fp, "a %u %u s_small small 24\n", cpu, next_id);
			else if (kind == 1)
				fprintf(fp, "a %u %u s_mid mid %u\n", cpu, next_id, 100 + r % 101);
			else if (kind == 2)
				fprintf(fp, "a %u %u s_big big 4000\n", cpu, next_id);
			else
				fprintf(fp, "a %u %u site%u kmalloc %u%s\n", cpu, next_id, r % 5,
					sizes[(r >> 4) % (sizeof(sizes) / sizeof(sizes[0]))],
					kind == 3 ? " gfp=account" : "");
			next_id++;
		}
	}
	fclose(fp);
}

static void test_mixed_trace(void **state)
{
	static const char *const models[] = {"traced", "traced+P", "kmem_cache", "kmalloc-buckets"};
	static const char *const targets[] = {"x86_64-4.6", "x86_64-6.1"};
	char path[TU_PATH_MAX];
	(void)state;

	char sbt[TU_PATH_MAX];
	struct ss_error err = {{0}};
	uint64_t n;

	tu_path(path, sizeof(path), "mixed.trace");
	write_mixed_trace(path);
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++)
		for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++)
			check_same(&(struct ss_run_spec){.trace = path, .model = models[m],
							 .target = targets[t], .cpus = 4,
							 .nodes = 2});
	/* binary: the in-place loop reads the records, and its sites of
	 * several sizes move their route memos (cache_model_batch.c) */
	tu_path(sbt, sizeof(sbt), "mixed.sbt");
	if (ss_trace_convert(path, sbt, SS_TRACE_BIN, &n, &err))
		fail_msg("convert: %s", err.msg);
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++)
		check_same(&(struct ss_run_spec){.trace = sbt, .model = models[m],
						 .target = "x86_64-6.1", .cpus = 4, .nodes = 2});
}

/* The workload the speed figures are for (docs/bench.md), binary v2. */
static void test_hackbench(void **state)
{
	struct ss_hackbench_params p;
	struct ss_hackbench_stats st;
	struct ss_error err = {{0}};
	char path[TU_PATH_MAX];
	(void)state;

	ss_hackbench_params_defaults(&p);
	p.sched.groups = 2;
	p.sched.loops = 20;
	p.sched.cpus = 4;
	tu_path(path, sizeof(path), "hb.sbt");
	if (ss_hackbench_params_finish(&p, &err) || ss_hackbench_gen_trace(&p, path, &st, &err))
		fail_msg("hackbench trace: %s", err.msg);
	check_same(&(struct ss_run_spec){.trace = path, .model = "traced",
					 .target = "x86_64-4.6", .cpus = 4});
	check_same(&(struct ss_run_spec){.trace = path, .model = "kmem_cache",
					 .target = "x86_64-6.1", .cpus = 4, .nodes = 2});
	/* one CPU: no cmpxchg is placed (the in-place loop's other copy) */
	check_same(&(struct ss_run_spec){.trace = path, .model = "traced",
					 .target = "x86_64-4.6", .cpus = 1, .map = "fold"});
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mixed_trace),
		cmocka_unit_test(test_hackbench),
	};

	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
