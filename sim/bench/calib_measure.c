/* calib_measure.c - micro-measurements of the cost-table steps on this
 * host: memset / memchr_inv poison, an uncontended spin lock pair, a
 * locked cmpxchg pair (bit_spin_lock's), cmpxchg16b, a lock bounced
 * between two PUs, and the host-mode allocator's fast and slow paths. */
#include "calib.h"

#include <hwloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "host_clock.h"
#include "host_slab.h"
#include "sort.h"

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

double ss_calib_median(double *v, unsigned n)
{
	ss_sort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The p-th percentile of sorted v (nearest rank). */
static double percentile(const double *v, unsigned n, unsigned p)
{
	unsigned k = (p * n + 99) / 100;

	return v[k ? k - 1 : 0];
}

struct ss_calib_value ss_calib_spread(double *v, unsigned n)
{
	struct ss_calib_value r;

	r.v = ss_calib_median(v, n);
	r.lo = percentile(v, n, 10);
	r.hi = percentile(v, n, 90);
	return r;
}

struct ss_calib_fit ss_calib_fit_line(const double *x, const double *y, unsigned n)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	struct ss_calib_fit f;

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

static struct ss_calib_value positive_value(struct ss_calib_value c)
{
	c.v = positive(c.v);
	c.lo = positive(c.lo);
	c.hi = positive(c.hi);
	return c;
}

struct ss_calib_value ss_calib_less(struct ss_calib_value path, struct ss_calib_value part)
{
	if (path.v < 0 || part.v < 0)
		return path;
	path.v -= part.v;
	path.lo -= part.v;
	path.hi -= part.v;
	return positive_value(path);
}

static double timer_overhead(double *s, unsigned reps)
{
	for (unsigned i = 0; i < reps; i++) {
		uint64_t t0 = host_ticks();

		s[i] = (double)(host_ticks() - t0);
	}
	return ss_calib_median(s, reps);
}

/* ---- poison: memset and the word-wise check, fitted a + b * bytes ---- */

static const unsigned sizes[] = {32, 64, 128, 256, 512, 1024, 2048, 4096};
#define NR_SIZES (sizeof(sizes) / sizeof(sizes[0]))

/* Per call, per sample: s[r] for r < reps. */
static void time_poison(unsigned char *buf, unsigned n, bool check,
			double timer, double *s, unsigned reps)
{
	for (unsigned r = 0; r < reps; r++) {
		uint64_t t0 = host_ticks();

		for (unsigned k = 0; k < BATCH; k++) {
			if (check)
				sink(ss_hostslab_memchr_inv(buf, SS_HOSTSLAB_POISON_FREE, n));
			else
				memset(buf, SS_HOSTSLAB_POISON_FREE, n);
			sink(buf);
		}
		s[r] = ((double)(host_ticks() - t0) - timer) / BATCH;
	}
}

/* Lines through the medians, and through the 10th and 90th percentiles,
 * of each size. */
static struct ss_calib_fits fit_poison(bool check, double timer, double *s,
				    unsigned reps)
{
	unsigned char buf[4096] __attribute__((aligned(64)));
	double x[NR_SIZES], ymed[NR_SIZES], ylo[NR_SIZES], yhi[NR_SIZES];
	struct ss_calib_fits f;

	memset(buf, SS_HOSTSLAB_POISON_FREE, sizeof(buf));
	for (unsigned i = 0; i < NR_SIZES; i++) {
		struct ss_calib_value c;

		time_poison(buf, sizes[i], check, timer, s, reps);
		c = ss_calib_spread(s, reps);
		x[i] = sizes[i];
		ymed[i] = c.v;
		ylo[i] = c.lo;
		yhi[i] = c.hi;
	}
	f.med = ss_calib_fit_line(x, ymed, NR_SIZES);
	f.lo = ss_calib_fit_line(x, ylo, NR_SIZES);
	f.hi = ss_calib_fit_line(x, yhi, NR_SIZES);
	return f;
}

/* ---- locks ---- */

static struct ss_calib_value time_spin_pair(double timer, double *s, unsigned reps)
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
	return positive_value(ss_calib_spread(s, reps));
}

/* bit_spin_lock() / __bit_spin_unlock() on x86: one locked read-modify-
 * write to take the lock, a plain release store to drop it.  Measured as
 * a lock cmpxchg 0 -> 1 and a release store of 0 on a word in L1. */
static struct ss_calib_value time_locked_cmpxchg_pair(double timer, double *s,
						   unsigned reps)
{
	_Atomic unsigned long w = 0;

	for (unsigned r = 0; r < reps; r++) {
		uint64_t t0 = host_ticks();

		for (unsigned k = 0; k < BATCH; k++) {
			unsigned long expect = 0;

			atomic_compare_exchange_strong(&w, &expect, 1);
			sink(&w);
			atomic_store_explicit(&w, 0, memory_order_release);
		}
		s[r] = ((double)(host_ticks() - t0) - timer) / BATCH;
	}
	return positive_value(ss_calib_spread(s, reps));
}

#if defined(__x86_64__)
/* One lock cmpxchg16b on a 16-byte-aligned pair in L1 that succeeds, as
 * __cmpxchg_double_slab()'s cmpxchg_double() on slab->freelist and
 * counters does when nobody raced it. */
static int cmpxchg16b(unsigned __int128 *p, unsigned __int128 old,
		      unsigned __int128 new_)
{
	unsigned long lo = (unsigned long)old, hi = (unsigned long)(old >> 64);
	unsigned char ok;

	__asm__ volatile("lock cmpxchg16b %1\n\tsete %0"
			 : "=q"(ok), "+m"(*p), "+a"(lo), "+d"(hi)
			 : "b"((unsigned long)new_), "c"((unsigned long)(new_ >> 64))
			 : "memory", "cc");
	return ok;
}

static struct ss_calib_value time_cmpxchg16b(double timer, double *s, unsigned reps)
{
	_Alignas(16) unsigned __int128 w = 0;

	for (unsigned r = 0; r < reps; r++) {
		uint64_t t0 = host_ticks();

		for (unsigned k = 0; k < BATCH; k++) {
			cmpxchg16b(&w, w, w + 1);
			sink(&w);
		}
		s[r] = ((double)(host_ticks() - t0) - timer) / BATCH;
	}
	return positive_value(ss_calib_spread(s, reps));
}
#else
/* No cmpxchg16b on this host: the default stays. */
static struct ss_calib_value time_cmpxchg16b(double timer, double *s, unsigned reps)
{
	(void)timer;
	(void)s;
	(void)reps;
	return (struct ss_calib_value){-1, -1, -1};
}
#endif

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

static struct ss_calib_value time_bounce(hwloc_topology_t host, double *s,
				      unsigned samples)
{
	struct bounce b = {.turn = 0, .rounds = 2000, .host = host};
	const struct ss_calib_value none = {-1, -1, -1};

	if (hwloc_get_nbobjs_by_type(host, HWLOC_OBJ_PU) < 2)
		return none;
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
			return none;
		take_turn(&b, 0);
		take_turn(&b, 0); /* the peer is running from here on */
		t0 = host_ticks();
		for (unsigned i = 2; i < b.rounds; i++)
			take_turn(&b, 0);
		s[r] = (double)(host_ticks() - t0) / (2.0 * (b.rounds - 2));
		pthread_join(peer, NULL);
	}
	pthread_spin_destroy(&b.lock);
	return ss_calib_spread(s, samples);
}

/* ---- host replay paths: one cache per sample, 64-byte objects ---- */

struct path_samples {
	double *af, *ff, *as, *fs;
	unsigned n;
};

static void one_path_sample(const struct ss_topology *topo, double timer,
			    struct path_samples *ps)
{
	struct ss_hostslab_geometry g;
	struct ss_hostslab_cache s;
	struct ss_hostslab_ctx ctx = {0};
	struct ss_error err;
	_Atomic int64_t mapped = 0, peak = 0;
	struct ss_hostslab_slab *sl[64];
	void *obj[64];
	enum ss_hostslab_path p;
	uint64_t t0;

	struct ss_target t;
	/* kmalloc-64 of the default target (x86_64, 6.x): 64 per 4 KiB slab */
	struct ss_cache_spec spec = {.object_size = 64, .flags = SS_CF_KMALLOC};

	ss_target_defaults(&t);
	if (ss_hostslab_geometry_for_spec(&g, &t, topo, &spec, &err) ||
	    ss_hostslab_cache_init(&s, "calibrate", &g, topo, &mapped, &peak, &err))
		return;
	for (unsigned i = 0; i < 64; i++) /* CPU 0 fills a slab */
		obj[i] = ss_hostslab_alloc(&s, 0, &sl[i], &p, &ctx);
	/* CPU 0 has run dry; 16 times: CPU 1 frees one of its objects, CPU 0
	 * allocates it back through get_freelist() (a slow free + a refill) */
	t0 = host_ticks();
	for (unsigned i = 0; i < BATCH; i++) {
		ss_hostslab_free(&s, 1, obj[i], sl[i], &p, &ctx);
		obj[i] = ss_hostslab_alloc(&s, 0, &sl[i], &p, &ctx);
	}
	ps->as[ps->n] = ((double)(host_ticks() - t0) - timer) / BATCH;
	if (ctx.alloc_path[HS_REFILL] != BATCH)
		goto out;
	t0 = host_ticks(); /* CPU 1 frees 32 into it: __slab_free, frozen */
	for (unsigned i = 16; i < 48; i++)
		ss_hostslab_free(&s, 1, obj[i], sl[i], &p, &ctx);
	ps->fs[ps->n] = ((double)(host_ticks() - t0) - timer) / 32;
	ps->as[ps->n] -= ps->fs[ps->n]; /* the refill alone */
	obj[16] = ss_hostslab_alloc(&s, 0, &sl[16], &p, &ctx); /* takes the 32 back */
	t0 = host_ticks(); /* 31 left on c->freelist: fast pops */
	for (unsigned i = 17; i < 17 + BATCH; i++)
		obj[i] = ss_hostslab_alloc(&s, 0, &sl[i], &p, &ctx);
	ps->af[ps->n] = ((double)(host_ticks() - t0) - timer) / BATCH;
	t0 = host_ticks(); /* and fast pushes back */
	for (unsigned i = 17; i < 17 + BATCH; i++)
		ss_hostslab_free(&s, 0, obj[i], sl[i], &p, &ctx);
	ps->ff[ps->n] = ((double)(host_ticks() - t0) - timer) / BATCH;
	ps->n++;
out:
	ss_hostslab_cache_destroy(&s);
}

static void time_paths(struct ss_calib_result *r, double *buf, unsigned reps)
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
	r->alloc_fast = positive_value(ss_calib_spread(ps.af, ps.n));
	r->free_fast = positive_value(ss_calib_spread(ps.ff, ps.n));
	r->alloc_slow = positive_value(ss_calib_spread(ps.as, ps.n));
	r->free_slow = positive_value(ss_calib_spread(ps.fs, ps.n));
}

void ss_calib_measure(struct ss_calib_result *r, unsigned reps,
		   struct hwloc_topology *host)
{
	double *s = calloc((size_t)reps * 4, sizeof(*s));
	hwloc_obj_t pu0 = hwloc_get_obj_by_type(host, HWLOC_OBJ_PU, 0);

	const struct ss_calib_value none = {-1, -1, -1};

	memset(r, 0, sizeof(*r));
	r->list_lock = r->slab_lock = r->cmpxchg16b = none;
	r->bounce = r->alloc_fast = r->free_fast = r->alloc_slow = r->free_slow = none;
	if (!s)
		return;
	if (pu0) /* measure on one PU, the bounce's PU 0 */
		hwloc_set_cpubind(host, pu0->cpuset, HWLOC_CPUBIND_THREAD);
	r->timer = timer_overhead(s, reps);
	r->poison_write = fit_poison(false, r->timer, s, reps);
	r->poison_check = fit_poison(true, r->timer, s, reps);
	r->list_lock = time_spin_pair(r->timer, s, reps);
	r->slab_lock = time_locked_cmpxchg_pair(r->timer, s, reps);
	r->cmpxchg16b = time_cmpxchg16b(r->timer, s, reps);
	r->bounce = time_bounce(host, s, reps < 15 ? reps : 15);
	time_paths(r, s, reps);
	/* Host mode updates a slab's freelist under its bit lock, the pair
	 * slab_lock measures (host_slab.c: slab_alloc_slow's get_freelist,
	 * slab_free_slow); the model prices that update apart, as
	 * cmpxchg_double (cmpxchg16b here), so it leaves both slow paths. */
	r->alloc_slow = ss_calib_less(r->alloc_slow, r->slab_lock);
	r->free_slow = ss_calib_less(r->free_slow, r->slab_lock);
	free(s);
}
