/* adv_replay.c - the advisor's replays (adv_replay.h). */
#include "adv_replay.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "totals.h"

/* The footprint as summary.csv counts it, after every event: slab pages,
 * and kmalloc_large pages where the era counts them as slab memory. */
static int note_peak(struct ss_run *run, struct ss_error *err)
{
	struct adv_result *res = run->user;
	uint64_t bytes = run->books.mem.slab_pages * run->books.mem.page_size;
	double kib;

	(void)err;
	if (run->target->large_in_slab_stat)
		bytes += run->books.mem.large_bytes;
	kib = (double)bytes / 1024.0;
	if (kib > res->peak_kib)
		res->peak_kib = kib;
	return 0;
}

static int replay_one(const struct ss_run_spec *base, struct adv_job *job,
		      struct ss_error *err)
{
	struct ss_run_spec spec = *base;
	struct ss_run_setup rs = {0};
	struct ss_run run = {.on_sample = note_peak, .sample_every = 1, .user = &job->res};
	struct ss_totals tot;
	int rc = -1;

	spec.place = NULL;
	spec.overrides = job->ov;
	memset(&job->res, 0, sizeof(job->res));
	if (ss_run_setup_load(&rs, &spec, err) || ss_run_setup_open(&rs, &spec, err) ||
	    ss_run_setup_start(&rs, &run, err) || ss_replay(&run, rs.reader, err))
		goto out;
	ss_totals_compute(run.desc, run.model, run.target, &tot);
	job->res.footprint_kib = (double)tot.footprint_bytes / 1024.0;
	job->res.slab_pages = tot.slab_pages;
	job->res.sim_ms = ss_run_ns(&run, ss_run_sim_cycles(&run)) / 1e6;
	if (job->res.footprint_kib > job->res.peak_kib) /* an empty trace */
		job->res.peak_kib = job->res.footprint_kib;
	rc = 0;
out:
	ss_run_setup_close(&rs, &run);
	return rc;
}

struct pool {
	const struct ss_run_spec *spec;
	struct adv_job *jobs;
	unsigned n, next;
	int *rc;
	struct ss_error *errs;
	pthread_mutex_t lock;
};

static void *worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		unsigned i;

		pthread_mutex_lock(&p->lock);
		i = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->n)
			return NULL;
		p->rc[i] = replay_one(p->spec, &p->jobs[i], &p->errs[i]);
	}
}

int adv_replay_all(const struct ss_run_spec *spec, struct adv_job *jobs,
		   unsigned n, unsigned threads, struct ss_error *err)
{
	struct pool p = {.spec = spec, .jobs = jobs, .n = n};
	pthread_t *tid;
	unsigned started = 0;
	int rc = 0;

	if (!threads) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		threads = cpus > 0 ? (unsigned)cpus : 1;
	}
	if (threads > n)
		threads = n ? n : 1;
	p.rc = calloc(n + 1, sizeof(*p.rc));
	p.errs = calloc(n + 1, sizeof(*p.errs));
	tid = calloc(threads, sizeof(*tid));
	if (!p.rc || !p.errs || !tid || pthread_mutex_init(&p.lock, NULL)) {
		free(p.rc);
		free(p.errs);
		free(tid);
		return ss_errorf(err, "out of memory");
	}
	/* the calling thread is one of the workers */
	for (unsigned t = 1; t < threads; t++)
		if (!pthread_create(&tid[t], NULL, worker, &p))
			started = t;
		else
			break;
	worker(&p);
	for (unsigned t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
	for (unsigned i = 0; i < n && !rc; i++)
		if (p.rc[i]) {
			*err = p.errs[i];
			rc = -1;
		}
	pthread_mutex_destroy(&p.lock);
	free(p.rc);
	free(p.errs);
	free(tid);
	return rc;
}
