/* multi.c - decode once, replay many, on every core (multi.h). */
#include "multi.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "trace_tables.h"

/* One decoded block: events [0, n) of the trace's block number seq, and
 * the sizes of the reader's tables once it was decoded. */
struct block {
	struct ss_event *ev; /* SS_MULTI_BATCH + SS_REPLAY_PAD */
	unsigned n;
	uint64_t gen; /* tables_gen() after it */
};

/* The ring and who stands where in it; every field below `mu` changes
 * only under it. */
struct ring {
	struct ss_trace_reader *r;
	struct block b[SS_MULTI_RING];
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t decoded;   /* blocks decoded: seq < decoded are ready, */
	uint64_t *done;	    /* those below every worker's done are free */
	unsigned nr_workers;
	bool decoding;	    /* a group is decoding block `decoded` */
	int end;	    /* 0 more to come; 1 the trace's end; -1 read error */
	struct ss_error err; /* ... this one */
	ss_multi_tick_fn *tick;
	void *tick_arg;
};

/* A thread's work: its group, and any whose own thread could not start
 * (the caller's worker takes those). */
struct worker {
	struct ring *ring;
	struct ss_multi_group **g;
	unsigned ng;
	unsigned idx; /* in ring->done */
};

/* How far the reader's tables have come: names and declarations only
 * ever add (a meta set again is a declaration more). */
static uint64_t tables_gen(const struct ss_trace_reader *r)
{
	return ss_trace_tables(r)->names.nr + ss_trace_reader_decls(r);
}

/* The fewest blocks a worker still going has replayed. */
static uint64_t slowest(const struct ring *ring)
{
	uint64_t min = UINT64_MAX;

	for (unsigned i = 0; i < ring->nr_workers; i++)
		if (ring->done[i] < min)
			min = ring->done[i];
	return min;
}

/* Decode the next block (the caller set ring->decoding; the lock is not
 * held: no one else touches the reader meanwhile). */
static void decode(struct ring *ring, struct ss_error *rerr)
{
	struct block *b = &ring->b[ring->decoded % SS_MULTI_RING];
	int n = ss_trace_next_batch(ring->r, b->ev, SS_MULTI_BATCH, rerr);

	pthread_mutex_lock(&ring->mu);
	if (n > 0) {
		b->n = (unsigned)n;
		b->gen = tables_gen(ring->r);
		ring->decoded++;
	} else {
		ring->end = n < 0 ? -1 : 1;
		if (n < 0)
			ring->err = *rerr;
	}
	ring->decoding = false;
	pthread_cond_broadcast(&ring->cv);
}

/* Block seq, ready (the lock held on return), or NULL at the end of the
 * trace (its error, if any, in ring->err). */
static struct block *wait_block(struct ring *ring, uint64_t seq, struct ss_error *rerr)
{
	pthread_mutex_lock(&ring->mu);
	for (;;) {
		if (seq < ring->decoded)
			return &ring->b[seq % SS_MULTI_RING];
		if (ring->end)
			return NULL;
		if (!ring->decoding && ring->decoded - slowest(ring) < SS_MULTI_RING) {
			ring->decoding = true;
			pthread_mutex_unlock(&ring->mu);
			decode(ring, rerr); /* returns with the lock held */
			continue;
		}
		pthread_cond_wait(&ring->cv, &ring->mu);
	}
}

/* The group's tables up to the reader's (the lock held, no decode under
 * way: the reader's tables do not move). */
static int sync_tables(struct ring *ring, struct ss_multi_group *g)
{
	while (ring->decoding)
		pthread_cond_wait(&ring->cv, &ring->mu);
	g->tables_gen = tables_gen(ring->r);
	return ss_trace_tables_sync(&g->tables, ss_trace_tables(ring->r));
}

static bool behind(const struct ss_multi_group *g, const struct block *b)
{
	return g->tables_gen < b->gen;
}

/* Fail every run of g still going. */
static void fail_all(struct ss_multi_group *g, const struct ss_error *e)
{
	for (unsigned i = 0; i < g->n; i++)
		if (!g->slots[i].failed) {
			g->slots[i].failed = 1;
			g->slots[i].err = *e;
		}
}

/* After the last block: the group's tables up to the reader's end, the
 * runs still going failed by a read error or finished. */
static void finish(struct ring *ring, struct ss_multi_group *g)
{
	struct ss_error e;
	int rc, end;

	pthread_mutex_lock(&ring->mu);
	rc = sync_tables(ring, g);
	e = ring->err;
	end = ring->end;
	pthread_mutex_unlock(&ring->mu);
	if (rc) {
		ss_errorf(&e, "out of memory");
		fail_all(g, &e);
	} else if (end < 0) /* the trace could not be read to its end */
		fail_all(g, &e);
	for (unsigned i = 0; i < g->n; i++) {
		struct ss_multi_slot *s = &g->slots[i];

		if (!s->failed && ss_replay_finish(s->run, &s->err))
			s->failed = 1;
	}
}

/* Block b through each run of g still going: how many fail. */
static unsigned replay_block(struct ss_multi_group *g, const struct block *b)
{
	unsigned failed = 0;

	for (unsigned i = 0; i < g->n; i++) {
		struct ss_multi_slot *s = &g->slots[i];

		if (!s->failed && ss_replay_batch(s->run, b->ev, b->n, &s->err)) {
			s->failed = 1;
			failed++;
		}
	}
	return failed;
}

static void *replay_groups(void *arg)
{
	struct worker *w = arg;
	struct ring *ring = w->ring;
	unsigned going = 0;
	uint64_t seq, events = 0;
	struct ss_error rerr;
	struct block *b = NULL;

	for (unsigned k = 0; k < w->ng; k++)
		for (unsigned i = 0; i < w->g[k]->n; i++) {
			w->g[k]->slots[i].failed = 0;
			ss_replay_start(w->g[k]->slots[i].run, ring->r);
			going++;
		}
	for (seq = 0; going && (b = wait_block(ring, seq, &rerr)); seq++) {
		for (unsigned k = 0; k < w->ng; k++)
			if (behind(w->g[k], b) && sync_tables(ring, w->g[k])) {
				ss_errorf(&rerr, "out of memory");
				for (k = 0; k < w->ng; k++)
					fail_all(w->g[k], &rerr);
				going = 0;
			}
		pthread_mutex_unlock(&ring->mu);
		for (unsigned k = 0; going && k < w->ng; k++)
			going -= replay_block(w->g[k], b);
		pthread_mutex_lock(&ring->mu);
		ring->done[w->idx] = seq + 1;
		pthread_cond_broadcast(&ring->cv);
		pthread_mutex_unlock(&ring->mu);
		events += b->n;
		if (ring->tick && !w->idx)
			ring->tick(ring->tick_arg, events);
	}
	/* out of the ring: the others no longer wait for this worker (at
	 * the end, wait_block returned with the lock held) */
	if (!(going && !b))
		pthread_mutex_lock(&ring->mu);
	ring->done[w->idx] = UINT64_MAX;
	pthread_cond_broadcast(&ring->cv);
	pthread_mutex_unlock(&ring->mu);
	for (unsigned k = 0; k < w->ng; k++)
		finish(ring, w->g[k]);
	return NULL;
}

int ss_multi_tables_init(struct ss_multi_group *groups, unsigned nr_groups,
			 const struct ss_trace_reader *r, struct ss_error *err)
{
	for (unsigned i = 0; i < nr_groups; i++) {
		groups[i].tables_gen = tables_gen(r);
		if (ss_trace_tables_init(&groups[i].tables) ||
		    ss_trace_tables_sync(&groups[i].tables, ss_trace_tables(r)))
			return ss_errorf(err, "out of memory");
	}
	return 0;
}

void ss_multi_tables_release(struct ss_multi_group *groups, unsigned nr_groups)
{
	for (unsigned i = 0; i < nr_groups; i++)
		ss_trace_tables_release(&groups[i].tables);
}

static void ring_free(struct ring *ring)
{
	for (unsigned i = 0; i < SS_MULTI_RING; i++)
		free(ring->b[i].ev);
	free(ring->done);
	pthread_mutex_destroy(&ring->mu);
	pthread_cond_destroy(&ring->cv);
}

int ss_replay_multi(struct ss_trace_reader *r, struct ss_multi_group *groups,
		    unsigned nr_groups, ss_multi_tick_fn *tick, void *tick_arg,
		    struct ss_error *err)
{
	struct ring ring = {.r = r, .nr_workers = nr_groups, .tick = tick, .tick_arg = tick_arg};
	pthread_t *tid = calloc(nr_groups, sizeof(*tid));
	struct worker *w = calloc(nr_groups, sizeof(*w));
	struct ss_multi_group **gs = calloc(nr_groups, sizeof(*gs));
	struct ss_multi_group **gp = calloc(nr_groups, sizeof(*gp));
	bool ok = tid && w && gs && gp;
	sigset_t old;

	pthread_mutex_init(&ring.mu, NULL);
	pthread_cond_init(&ring.cv, NULL);
	ring.done = calloc(nr_groups, sizeof(*ring.done));
	ok = ok && ring.done;
	for (unsigned i = 0; ok && i < SS_MULTI_RING; i++)
		ok = (ring.b[i].ev = calloc(SS_MULTI_BATCH + SS_REPLAY_PAD, sizeof(struct ss_event)));
	if (!ok) {
		ring_free(&ring);
		free(tid);
		free(w);
		free(gs);
		free(gp);
		return ss_errorf(err, "out of memory");
	}
	/* worker t takes group t; worker 0 (this thread) also those whose
	 * thread did not start (gs, after its own) */
	gs[0] = &groups[0];
	w[0] = (struct worker){.ring = &ring, .g = gs, .ng = 1, .idx = 0};
	ss_cleanup_block(&old); /* the clean-up signals stay with this thread */
	for (unsigned t = 1; t < nr_groups; t++) {
		w[t] = (struct worker){.ring = &ring, .g = &gp[t], .ng = 1, .idx = t};
		gp[t] = &groups[t];
		if (!pthread_create(&tid[t], NULL, replay_groups, &w[t]))
			continue;
		w[t].ng = 0;
		ring.done[t] = UINT64_MAX; /* never in the ring */
		gs[w[0].ng++] = &groups[t];
	}
	ss_cleanup_restore(&old);
	replay_groups(&w[0]);
	for (unsigned t = 1; t < nr_groups; t++)
		if (w[t].ng)
			pthread_join(tid[t], NULL);
	ring_free(&ring);
	free(tid);
	free(w);
	free(gs);
	free(gp);
	return 0;
}
