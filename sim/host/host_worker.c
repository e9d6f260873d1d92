/* host_worker.c - the replay threads of host mode: each is bound to one
 * host PU with hwloc, counts its own events through perf, and times every
 * operation of its queue with the cycle counter. */
#include "host_engine.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "atomic_file.h"
#include "host_clock.h"

/* Bind to the host PU and read back what the kernel says we run on. */
static void bind_self(struct ss_host_worker *w)
{
	cpu_set_t set;

	w->info.pu = w->pu;
	w->info.host_os = w->host_pu->os_index;
	w->info.affinity_os = -1;
	if (hwloc_set_cpubind(w->e->host, w->host_pu->cpuset, HWLOC_CPUBIND_THREAD)) {
		snprintf(w->failed, sizeof(w->failed),
			 "cannot bind the thread of PU %u to host PU %u: %s",
			 w->pu, w->host_pu->os_index, strerror(errno));
		return;
	}
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	w->info.affinity_nr = (unsigned)CPU_COUNT(&set);
	for (int c = 0; c < CPU_SETSIZE && w->info.affinity_nr == 1; c++)
		if (CPU_ISSET(c, &set))
			w->info.affinity_os = c;
}

static void do_alloc(struct ss_host_worker *w, const struct ss_host_op *op,
		     struct ss_host_obj *obj)
{
	enum ss_hostslab_path path;

	if (op->state == HO_ZERO) { /* ZERO_SIZE_PTR: nothing to do */
		obj->ptr = NULL;
		w->zero_ops++;
		return;
	}
	if (op->state == HO_LARGE) { /* kmalloc_large(): pages straight */
		int64_t mapped = atomic_load(&w->e->mapped_bytes) +
				 atomic_fetch_add(&w->e->large_bytes, (int64_t)op->bytes);

		obj->slab = NULL;
		obj->ptr = NULL;
		w->large_ops++;
		if (w->e->max_bytes && mapped + (int64_t)op->bytes > w->e->max_bytes) {
			atomic_fetch_sub(&w->e->large_bytes, (int64_t)op->bytes);
			snprintf(w->failed, sizeof(w->failed),
				 "object id %llu: mapped memory would pass the --max-memory cap of %lld bytes",
				 (unsigned long long)op->id, (long long)w->e->max_bytes);
			return;
		}
		obj->ptr = mmap(NULL, op->bytes, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (obj->ptr == MAP_FAILED) {
			obj->ptr = NULL;
			atomic_fetch_sub(&w->e->large_bytes, (int64_t)op->bytes);
			snprintf(w->failed, sizeof(w->failed), "mmap of %llu bytes failed",
				 (unsigned long long)op->bytes);
		}
		return;
	}
	obj->ptr = ss_hostslab_alloc(w->e->caches[op->cache], w->pu, &obj->slab, &path, &w->ctx);
	if (!obj->ptr && w->ctx.over_cap)
		snprintf(w->failed, sizeof(w->failed),
			 "object id %llu: a new slab of cache %s would pass the --max-memory cap of %lld bytes",
			 (unsigned long long)op->id, w->e->caches[op->cache]->name,
			 (long long)w->e->max_bytes);
	else if (!obj->ptr)
		snprintf(w->failed, sizeof(w->failed), "out of memory in cache %s",
			 w->e->caches[op->cache]->name);
}

static void do_free(struct ss_host_worker *w, const struct ss_host_op *op,
		    struct ss_host_obj *obj)
{
	enum ss_hostslab_path path;

	if (op->state == HO_ZERO) {
		w->zero_ops++;
		return;
	}
	if (op->state == HO_LARGE) {
		munmap(obj->ptr, op->bytes);
		atomic_fetch_sub(&w->e->large_bytes, (int64_t)op->bytes);
		w->large_ops++;
	} else {
		ss_hostslab_free(w->e->caches[op->cache], w->pu, obj->ptr, obj->slab, &path, &w->ctx);
	}
	obj->ptr = NULL;
	w->remote_frees += op->remote;
}

static void run_queue(struct ss_host_worker *w)
{
	for (size_t i = 0; i < w->nq && !w->failed[0]; i++) {
		const struct ss_host_op *op = &w->q[i];
		struct ss_host_obj *obj = &w->e->objs[op->id];
		uint64_t t0 = host_ticks(), dt;

		if (op->kind == HQ_ALLOC)
			do_alloc(w, op, obj);
		else
			do_free(w, op, obj);
		dt = host_ticks() - t0;
		if (op->kind == HQ_ALLOC) {
			ss_hist_add(&w->alloc_hist, dt);
			w->alloc_ticks += (double)dt;
			w->allocs++;
		} else {
			ss_hist_add(&w->free_hist, dt);
			w->free_ticks += (double)dt;
			w->frees++;
		}
	}
	if (w->ctx.corrupt && !w->failed[0])
		snprintf(w->failed, sizeof(w->failed), "slub_debug check failed: %s",
			 w->ctx.corrupt);
	w->nq = 0;
}

static void *worker_main(void *arg)
{
	struct ss_host_worker *w = arg;

	bind_self(w);
	ss_pmu_thread_open(w->e->pmu, &w->pmu);
	ss_pmu_thread_enable(w->e->pmu, &w->pmu);
	for (;;) {
		pthread_barrier_wait(&w->e->start);
		if (w->e->done)
			break;
		if (!w->failed[0])
			run_queue(w);
		pthread_barrier_wait(&w->e->end);
	}
	ss_pmu_thread_disable(w->e->pmu, &w->pmu);
	ss_pmu_thread_read(w->e->pmu, &w->pmu);
	ss_pmu_thread_close(w->e->pmu, &w->pmu);
	return NULL;
}

int ss_host_workers_start(struct ss_host_engine *e, struct ss_error *err)
{
	unsigned n = e->nr_workers;

	if (pthread_barrier_init(&e->start, NULL, n + 1) ||
	    pthread_barrier_init(&e->end, NULL, n + 1))
		return ss_errorf(err, "host mode: pthread_barrier_init failed");
	for (unsigned i = 0; i < n; i++) {
		struct ss_host_worker *w = &e->w[i];
		sigset_t old;
		int failed;

		w->e = e;
		w->pu = i;
		w->host_pu = hwloc_get_obj_by_type(e->host, HWLOC_OBJ_PU, i);
		/* the clean-up signals go to the main thread (atomic_file.h) */
		ss_cleanup_block(&old);
		failed = pthread_create(&w->thread, NULL, worker_main, w);
		ss_cleanup_restore(&old);
		if (failed) {
			/* The barriers count every worker: the ones already
			 * started could never be released.  Nothing has been
			 * written yet, so leave at once. */
			fprintf(stderr, "slabsim run: host mode: cannot start replay thread %u of %u\n",
				i, n);
			exit(1);
		}
	}
	return 0;
}

static int worker_failure(struct ss_host_engine *e, struct ss_error *err)
{
	for (unsigned i = 0; i < e->nr_workers; i++)
		if (e->w[i].failed[0])
			return ss_errorf(err, "host mode: %s", e->w[i].failed);
	return 0;
}

int ss_host_window(struct ss_host_engine *e, struct ss_error *err)
{
	pthread_barrier_wait(&e->start);
	pthread_barrier_wait(&e->end);
	return worker_failure(e, err);
}

void ss_host_workers_stop(struct ss_host_engine *e)
{
	e->done = 1;
	pthread_barrier_wait(&e->start);
	for (unsigned i = 0; i < e->nr_workers; i++)
		pthread_join(e->w[i].thread, NULL);
	pthread_barrier_destroy(&e->start);
	pthread_barrier_destroy(&e->end);
}
