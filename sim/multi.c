/* multi.c - decode once, replay many (multi.h). */
#include "multi.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct multi {
	struct ss_multi_slot *slots;
	unsigned n, jobs;
	struct ss_event *ev;	/* the batch: SS_MULTI_BATCH + SS_REPLAY_PAD */
	unsigned nr_ev;		/* events in it; 0 with done: stop */
	int done;
	pthread_barrier_t ready, replayed;
	/* the threads wait here until the barriers are set up for however
	 * many of them could be started */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate;
	int go;
};

/* Thread t's share of the batch: runs t, t + jobs, ... */
static void replay_share(struct multi *m, unsigned t)
{
	for (unsigned i = t; i < m->n; i += m->jobs) {
		struct ss_multi_slot *s = &m->slots[i];

		if (!s->failed && ss_replay_batch(s->run, m->ev, m->nr_ev, &s->err))
			s->failed = 1;
	}
}

static void *worker(void *arg)
{
	struct multi *m = ((void **)arg)[0];
	unsigned t = (unsigned)(uintptr_t)((void **)arg)[1];

	pthread_mutex_lock(&m->gate_lock);
	while (!m->go)
		pthread_cond_wait(&m->gate, &m->gate_lock);
	pthread_mutex_unlock(&m->gate_lock);
	for (;;) {
		pthread_barrier_wait(&m->ready);
		if (m->done)
			return NULL;
		replay_share(m, t);
		pthread_barrier_wait(&m->replayed);
	}
}

static void fail_all(struct multi *m, const struct ss_error *err)
{
	for (unsigned i = 0; i < m->n; i++) {
		if (!m->slots[i].failed) {
			m->slots[i].failed = 1;
			m->slots[i].err = *err;
		}
	}
}

int ss_replay_multi(struct ss_trace_reader *r, struct ss_multi_slot *slots,
		    unsigned n, unsigned jobs, struct ss_error *err)
{
	struct multi m = {.slots = slots, .n = n, .jobs = jobs ? jobs : 1};
	pthread_t *tid = NULL;
	void *(*args)[2] = NULL;
	unsigned started = 0;
	int rc, read_failed = 0;

	if (m.jobs > n)
		m.jobs = n ? n : 1;
	m.ev = calloc(SS_MULTI_BATCH + SS_REPLAY_PAD, sizeof(*m.ev));
	tid = calloc(m.jobs, sizeof(*tid));
	args = calloc(m.jobs, sizeof(*args));
	if (!m.ev || !tid || !args) {
		free(m.ev);
		free(tid);
		free(args);
		return ss_errorf(err, "out of memory");
	}
	for (unsigned i = 0; i < n; i++) {
		slots[i].failed = 0;
		ss_replay_start(slots[i].run, ss_trace_path(r));
	}
	pthread_mutex_init(&m.gate_lock, NULL);
	pthread_cond_init(&m.gate, NULL);
	for (unsigned t = 1; t < m.jobs; t++) {
		args[t][0] = &m;
		args[t][1] = (void *)(uintptr_t)t;
		if (pthread_create(&tid[t], NULL, worker, args[t]))
			break; /* fewer threads: the shares spread over those there are */
		started++;
	}
	m.jobs = started + 1;
	pthread_barrier_init(&m.ready, NULL, m.jobs);
	pthread_barrier_init(&m.replayed, NULL, m.jobs);
	pthread_mutex_lock(&m.gate_lock);
	m.go = 1;
	pthread_cond_broadcast(&m.gate);
	pthread_mutex_unlock(&m.gate_lock);
	for (;;) {
		rc = ss_trace_next_batch(r, m.ev, SS_MULTI_BATCH, err);
		if (rc <= 0) {
			read_failed = rc < 0;
			break;
		}
		m.nr_ev = (unsigned)rc;
		pthread_barrier_wait(&m.ready);
		replay_share(&m, 0);
		pthread_barrier_wait(&m.replayed);
	}
	m.done = 1;
	pthread_barrier_wait(&m.ready);
	for (unsigned t = 1; t < m.jobs; t++)
		pthread_join(tid[t], NULL);
	if (read_failed) {
		fail_all(&m, err);
		rc = -1;
	} else {
		rc = 0;
	}
	for (unsigned i = 0; i < n && !rc; i++)
		if (!slots[i].failed && ss_replay_finish(slots[i].run, &slots[i].err))
			slots[i].failed = 1;
	pthread_mutex_destroy(&m.gate_lock);
	pthread_cond_destroy(&m.gate);
	pthread_barrier_destroy(&m.ready);
	pthread_barrier_destroy(&m.replayed);
	free(m.ev);
	free(tid);
	free(args);
	return rc;
}
