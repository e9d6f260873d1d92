/* calib_measure.c - micro-measurements of the cost-table steps on this
 * host: memset / memchr_inv poison, uncontended locks, a lock bounced
 * between two PUs, and the host-mode allocator's fast and slow paths. */
#include "calib.h"

#include <hwloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "host_clock.h"
#include "host_slab.h"

#define BATCH 16

/* Keep the compiler from dropping or merging the measured work. */
static inline void sink(const volatile void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double calib_median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct calib_fit calib_fit_line(const double *x, const double *y, unsigned n)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	struct calib_fit f;

	for (unsigned i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
	}
	f.b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	f.a = (sy - f.b * sx) / n;
	return f;
}

static double positive(double v)
{
	return v > 0 ? v : 0;
}

static double timer_overhead(double *s, unsigned reps)
{
	for (unsigned i = 0; i < reps; i++) {
		uint64_t t0 = host_ticks();

		s[i] = (double)(host_ticks() - t0);
	}
	return calib_median(s, reps);
}

/* ---- poison: memset and the word-wise check, fitted a + b * bytes ---- */

static const unsigned sizes[] = {32, 64, 128, 256, 512, 1024, 2048, 4096};
#define NR_SIZES (sizeof(sizes) / sizeof(sizes[0]))

static double time_poison(unsigned char *buf, unsigned n, bool check,
			  double timer, double *s, unsigned reps)
{
	for (unsigned r = 0; r < reps; r++) {
		uint64_t t0 = host_ticks();

		for (unsigned k = 0; k < BATCH; k++) {
			if (check)
				sink(hs_memchr_inv(buf, HS_POISON_FREE, n));
			else
				memset(buf, HS_POISON_FREE, n);
			sink(buf);
		}
		s[r] = ((double)(host_ticks() - t0) - timer) / BATCH;
	}
	return calib_median(s, reps);
}

static struct calib_fit fit_poison(bool check, double timer, double *s,
				   unsigned reps)
{
	unsigned char buf[4096] __attribute__((aligned(64)));
	double x[NR_SIZES], y[NR_SIZES];

	memset(buf, HS_POISON_FREE, sizeof(buf));
	for (unsigned i = 0; i < NR_SIZES; i++) {
		x[i] = sizes[i];
		y[i] = time_poison(buf, sizes[i], check, timer, s, reps);
	}
	return calib_fit_line(x, y, NR_SIZES);
}

/* ---- locks ---- */

static double time_spin_pair(double timer, double *s, unsigned reps)
{
	pthread_spinlock_t l;

	pthread_spin_init(&l, PTHREAD_PROCESS_PRIVATE);
	for (unsigned r = 0; r < reps; r++) {
		uint64_t t0 = host_ticks();

		for (unsigned k = 0; k < BATCH; k++) {
			pthread_spin_lock(&l);
			sink((const void *)&l);
			pthread_spin_unlock(&l);
		}
		s[r] = ((double)(host_ticks() - t0) - timer) / BATCH;
	}
	pthread_spin_destroy(&l);
	return calib_median(s, reps);
}

static double time_bitlock_pair(double timer, double *s, unsigned reps)
{
	atomic_flag f = ATOMIC_FLAG_INIT;

	for (unsigned r = 0; r < reps; r++) {
		uint64_t t0 = host_ticks();

		for (unsigned k = 0; k < BATCH; k++) {
			hs_bitlock(&f);
			sink(&f);
			hs_bitunlock(&f);
		}
		s[r] = ((double)(host_ticks() - t0) - timer) / BATCH;
	}
	return calib_median(s, reps);
}

/* A lock and a turn in one cache line, handed back and forth between a
 * thread on host PU 0 and one on PU 1: every hand-off moves the line. */
struct bounce {
	_Alignas(64) pthread_spinlock_t lock;
	int turn;
	unsigned rounds;
	hwloc_topology_t host;
};

static void take_turn(struct bounce *b, int me)
{
	for (;;) {
		pthread_spin_lock(&b->lock);
		if (b->turn == me) {
			b->turn = !me;
			pthread_spin_unlock(&b->lock);
			return;
		}
		pthread_spin_unlock(&b->lock);
	}
}

static void *bounce_peer(void *arg)
{
	struct bounce *b = arg;
	hwloc_obj_t pu = hwloc_get_obj_by_type(b->host, HWLOC_OBJ_PU, 1);

	hwloc_set_cpubind(b->host, pu->cpuset, HWLOC_CPUBIND_THREAD);
	for (unsigned i = 0; i < b->rounds; i++)
		take_turn(b, 1);
	return NULL;
}

static double time_bounce(hwloc_topology_t host, double *s, unsigned samples)
{
	struct bounce b = {.turn = 0, .rounds = 2000, .host = host};

	if (hwloc_get_nbobjs_by_type(host, HWLOC_OBJ_PU) < 2)
		return -1;
	pthread_spin_init(&b.lock, PTHREAD_PROCESS_PRIVATE);
	for (unsigned r = 0; r < samples; r++) {
		pthread_t peer;
		uint64_t t0;
		sigset_t old;
		int failed;

		b.turn = 0;
		ss_cleanup_block(&old); /* signals stay with the main thread */
		failed = pthread_create(&peer, NULL, bounce_peer, &b);
		ss_cleanup_restore(&old);
		if (failed)
			return -1;
		take_turn(&b, 0);
		take_turn(&b, 0); /* the peer is running from here on */
		t0 = host_ticks();
		for (unsigned i = 2; i < b.rounds; i++)
			take_turn(&b, 0);
		s[r] = (double)(host_ticks() - t0) / (2.0 * (b.rounds - 2));
		pthread_join(peer, NULL);
	}
	pthread_spin_destroy(&b.lock);
	return calib_median(s, samples);
}

/* ---- host replay paths: one cache per sample, 64-byte objects ---- */

struct path_samples {
	double *af, *ff, *as, *fs;
	unsigned n;
};

static void one_path_sample(const struct ss_topology *topo, double timer,
			    struct path_samples *ps)
{
	struct hs_geometry g;
	struct hs_cache s;
	struct hs_ctx ctx = {0};
	struct ss_error err;
	_Atomic int64_t mapped = 0, peak = 0;
	struct hs_slab *sl[64];
	void *obj[64];
	enum hs_path p;
	uint64_t t0;

	struct ss_target t;
	/* kmalloc-64 of the default target (x86_64, 6.x): 64 per 4 KiB slab */
	struct ss_cache_spec spec = {.object_size = 64, .flags = SS_CF_KMALLOC};

	ss_target_defaults(&t);
	if (hs_geometry_for_spec(&g, &t, topo, &spec, &err) ||
	    hs_cache_init(&s, "calibrate", &g, topo, &mapped, &peak, &err))
		return;
	for (unsigned i = 0; i < 64; i++) /* CPU 0 fills a slab */
		obj[i] = hs_alloc(&s, 0, &sl[i], &p, &ctx);
	/* CPU 0 has run dry; 16 times: CPU 1 frees one of its objects, CPU 0
	 * allocates it back through get_freelist() (a slow free + a refill) */
	t0 = host_ticks();
	for (unsigned i = 0; i < BATCH; i++) {
		hs_free(&s, 1, obj[i], sl[i], &p, &ctx);
		obj[i] = hs_alloc(&s, 0, &sl[i], &p, &ctx);
	}
	ps->as[ps->n] = ((double)(host_ticks() - t0) - timer) / BATCH;
	if (ctx.alloc_path[HS_REFILL] != BATCH)
		goto out;
	t0 = host_ticks(); /* CPU 1 frees 32 into it: __slab_free, frozen */
	for (unsigned i = 16; i < 48; i++)
		hs_free(&s, 1, obj[i], sl[i], &p, &ctx);
	ps->fs[ps->n] = ((double)(host_ticks() - t0) - timer) / 32;
	ps->as[ps->n] -= ps->fs[ps->n]; /* the refill alone */
	obj[16] = hs_alloc(&s, 0, &sl[16], &p, &ctx); /* takes the 32 back */
	t0 = host_ticks(); /* 31 left on c->freelist: fast pops */
	for (unsigned i = 17; i < 17 + BATCH; i++)
		obj[i] = hs_alloc(&s, 0, &sl[i], &p, &ctx);
	ps->af[ps->n] = ((double)(host_ticks() - t0) - timer) / BATCH;
	t0 = host_ticks(); /* and fast pushes back */
	for (unsigned i = 17; i < 17 + BATCH; i++)
		hs_free(&s, 0, obj[i], sl[i], &p, &ctx);
	ps->ff[ps->n] = ((double)(host_ticks() - t0) - timer) / BATCH;
	ps->n++;
out:
	hs_cache_destroy(&s);
}

static void time_paths(struct calib_result *r, double *buf, unsigned reps)
{
	struct ss_topology topo;
	struct ss_error err;
	struct path_samples ps = {buf, buf + reps, buf + 2 * reps, buf + 3 * reps, 0};

	if (ss_topology_flat(&topo, 2, 1, &err))
		return;
	for (unsigned i = 0; i < reps; i++)
		one_path_sample(&topo, r->timer, &ps);
	ss_topology_release(&topo);
	if (!ps.n) /* the allocator did not take the expected paths */
		return;
	r->alloc_fast = positive(calib_median(ps.af, ps.n));
	r->free_fast = positive(calib_median(ps.ff, ps.n));
	r->alloc_slow = positive(calib_median(ps.as, ps.n));
	r->free_slow = positive(calib_median(ps.fs, ps.n));
}

void calib_measure(struct calib_result *r, unsigned reps,
		   struct hwloc_topology *host)
{
	double *s = calloc((size_t)reps * 4, sizeof(*s));
	hwloc_obj_t pu0 = hwloc_get_obj_by_type(host, HWLOC_OBJ_PU, 0);

	memset(r, 0, sizeof(*r));
	r->bounce = r->alloc_fast = r->free_fast = r->alloc_slow = r->free_slow = -1;
	if (!s)
		return;
	if (pu0) /* measure on one PU, the bounce's PU 0 */
		hwloc_set_cpubind(host, pu0->cpuset, HWLOC_CPUBIND_THREAD);
	r->timer = timer_overhead(s, reps);
	r->poison_write = fit_poison(false, r->timer, s, reps);
	r->poison_check = fit_poison(true, r->timer, s, reps);
	r->list_lock = positive(time_spin_pair(r->timer, s, reps));
	r->slab_lock = positive(time_bitlock_pair(r->timer, s, reps));
	r->bounce = time_bounce(host, s, reps < 15 ? reps : 15);
	time_paths(r, s, reps);
	free(s);
}
