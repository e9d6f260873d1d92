/* multi.c - decode once, replay many (multi.h). */
#include "multi.h"

#include <pthread.h>
#include <stdlib.h>

/* One group: each batch through every run still going. */
static void *replay_group(void *arg)
{
	struct ss_multi_group *g = arg;
	struct ss_event *ev = calloc(SS_MULTI_BATCH + SS_REPLAY_PAD, sizeof(*ev));
	struct ss_error rerr;
	unsigned going = g->n;
	int n = 0;

	for (unsigned i = 0; i < g->n; i++) {
		g->slots[i].failed = 0;
		ss_replay_start(g->slots[i].run, g->reader);
	}
	if (!ev) {
		ss_errorf(&rerr, "out of memory");
		n = -1;
	}
	while (ev && going && (n = ss_trace_next_batch(g->reader, ev, SS_MULTI_BATCH, &rerr)) > 0) {
		for (unsigned i = 0; i < g->n; i++) {
			struct ss_multi_slot *s = &g->slots[i];

			if (!s->failed && ss_replay_batch(s->run, ev, (unsigned)n, &s->err)) {
				s->failed = 1;
				going--;
			}
		}
	}
	for (unsigned i = 0; i < g->n; i++) {
		struct ss_multi_slot *s = &g->slots[i];

		if (s->failed)
			continue;
		if (n < 0) { /* the trace could not be read to its end */
			s->failed = 1;
			s->err = rerr;
		} else if (ss_replay_finish(s->run, &s->err)) {
			s->failed = 1;
		}
	}
	free(ev);
	return NULL;
}

int ss_replay_multi(struct ss_multi_group *groups, unsigned nr_groups,
		    struct ss_error *err)
{
	pthread_t *tid = calloc(nr_groups, sizeof(*tid));
	char *started = calloc(nr_groups, 1);

	if (!tid || !started) {
		free(tid);
		free(started);
		return ss_errorf(err, "out of memory");
	}
	for (unsigned t = 1; t < nr_groups; t++)
		started[t] = !pthread_create(&tid[t], NULL, replay_group, &groups[t]);
	/* the caller's group, and any whose thread did not start */
	for (unsigned t = 0; t < nr_groups; t++)
		if (!started[t])
			replay_group(&groups[t]);
	for (unsigned t = 1; t < nr_groups; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
	free(tid);
	free(started);
	return 0;
}
