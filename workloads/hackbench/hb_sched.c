/* hb_sched.c - hackbench's tasks, sockets and turns (hb_sched.h). */
#include "hb_sched.h"

#include <stdlib.h>
#include <string.h>

struct task {
	uint64_t next;	/* sender: messages written; receiver: left to read */
	uint32_t group;
	uint32_t idx;	/* receiver or sender number in the group */
	uint32_t cpu;
	uint8_t role;
};

struct runlist {	/* one CPU's runnable tasks, in creation order */
	uint32_t *task;
	uint32_t n, cur;
};

struct state {
	const struct ss_hackbench_config *c;
	const struct ss_hackbench_sink *sink;
	struct ss_hackbench_stats *st;
	struct task *tasks;
	uint32_t *inflight;	/* per socket */
	uint32_t *recv_cpu;	/* per socket: its receiver's CPU */
	struct runlist *rl;
	uint64_t inflight_all;
	uint64_t per_sender;	/* loops * fds */
};

int ss_hackbench_config_check(const struct ss_hackbench_config *c, struct ss_error *err)
{
	if (!c->groups || !c->fds || !c->loops)
		return ss_errorf(err, "groups, fds and loops must be at least 1");
	if ((uint64_t)c->groups * c->fds * 2 > HB_MAX_TASKS)
		return ss_errorf(err, "2 x groups x fds = %llu tasks; at most %u",
				 (unsigned long long)c->groups * c->fds * 2, HB_MAX_TASKS);
	if (!c->cpus || c->cpus > HB_MAX_CPUS)
		return ss_errorf(err, "cpus %u: want 1..%u", c->cpus, HB_MAX_CPUS);
	if (!c->quantum || !c->window)
		return ss_errorf(err, "quantum and window must be at least 1");
	if (c->loops > HB_MAX_MESSAGES / ((uint64_t)c->groups * c->fds * c->fds))
		return ss_errorf(err, "groups x fds x fds x loops is above 2^40 messages");
	return 0;
}

uint64_t ss_hackbench_messages(const struct ss_hackbench_config *c)
{
	return (uint64_t)c->groups * c->fds * c->fds * c->loops;
}

/* Receivers round-robin over the CPUs in creation order, senders the same
 * starting half-way round: every CPU gets as many senders as receivers
 * (within one), and a sender shares a CPU with about 1/cpus of its
 * receivers. */
unsigned ss_hackbench_task_cpu(const struct ss_hackbench_config *c, unsigned group,
		     enum ss_hackbench_role role, unsigned idx)
{
	uint64_t k = (uint64_t)group * c->fds + idx;

	if (role == HB_SENDER)
		k += c->cpus / 2;
	return (unsigned)(k % c->cpus);
}

static void release(struct state *s)
{
	if (s->rl)
		for (unsigned i = 0; i < s->c->cpus; i++)
			free(s->rl[i].task);
	free(s->rl);
	free(s->tasks);
	free(s->inflight);
	free(s->recv_cpu);
}

static int setup(struct state *s, struct ss_error *err)
{
	const struct ss_hackbench_config *c = s->c;
	uint32_t nsock = c->groups * c->fds, ntask = 2 * nsock;

	s->per_sender = c->loops * c->fds;
	s->tasks = calloc(ntask, sizeof(*s->tasks));
	s->inflight = calloc(nsock, sizeof(*s->inflight));
	s->recv_cpu = calloc(nsock, sizeof(*s->recv_cpu));
	s->rl = calloc(c->cpus, sizeof(*s->rl));
	if (!s->tasks || !s->inflight || !s->recv_cpu || !s->rl)
		return ss_errorf(err, "out of memory for %u tasks", ntask);
	for (uint32_t k = 0; k < ntask; k++) {
		struct task *t = &s->tasks[k];
		uint32_t in_group = k % (2 * c->fds);

		t->group = k / (2 * c->fds);
		t->role = in_group < c->fds ? HB_RECEIVER : HB_SENDER;
		t->idx = in_group % c->fds;
		t->cpu = ss_hackbench_task_cpu(c, t->group, t->role, t->idx);
		t->next = t->role == HB_RECEIVER ? (uint64_t)c->fds * c->loops : 0;
		if (t->role == HB_RECEIVER)
			s->recv_cpu[t->group * c->fds + t->idx] = t->cpu;
		s->rl[t->cpu].n++;
	}
	for (unsigned i = 0; i < c->cpus; i++) {
		s->rl[i].task = malloc((s->rl[i].n ? s->rl[i].n : 1) * sizeof(uint32_t));
		if (!s->rl[i].task)
			return ss_errorf(err, "out of memory for run lists");
		s->rl[i].n = 0;
	}
	for (uint32_t k = 0; k < ntask; k++) {
		struct runlist *r = &s->rl[s->tasks[k].cpu];

		r->task[r->n++] = k;
	}
	return 0;
}

/* A sender's turn: its next messages go to receiver (next mod fds) of its
 * group.  Returns messages written, or -1; *done when it wrote its last. */
static int64_t sender_turn(struct state *s, struct task *t, bool *done)
{
	const struct ss_hackbench_config *c = s->c;
	uint64_t n = 0;

	while (n < c->quantum && t->next < s->per_sender) {
		uint32_t sock = t->group * c->fds + (uint32_t)(t->next % c->fds);

		if (s->inflight[sock] >= c->window) {
			s->st->blocked++;
			break;
		}
		if (s->sink->send(s->sink->ctx, t->cpu, sock))
			return -1;
		s->inflight[sock]++;
		if (++s->inflight_all > s->st->max_inflight)
			s->st->max_inflight = s->inflight_all;
		s->st->remote += s->recv_cpu[sock] != t->cpu;
		t->next++;
		n++;
	}
	*done = t->next == s->per_sender;
	return (int64_t)n;
}

static int64_t receiver_turn(struct state *s, struct task *t, bool *done)
{
	uint32_t sock = t->group * s->c->fds + t->idx;
	uint64_t n = 0;

	while (n < s->c->quantum && s->inflight[sock]) {
		if (s->sink->recv(s->sink->ctx, t->cpu, sock))
			return -1;
		s->inflight[sock]--;
		s->inflight_all--;
		s->st->messages++;
		t->next--;
		n++;
	}
	*done = t->next == 0;
	return (int64_t)n;
}

/* One turn of CPU cpu's current task.  Returns messages handled or -1. */
static int64_t run_turn(struct state *s, unsigned cpu)
{
	struct runlist *r = &s->rl[cpu];
	struct task *t;
	bool done = false;
	int64_t n;

	if (r->cur >= r->n)
		r->cur = 0;
	t = &s->tasks[r->task[r->cur]];
	n = t->role == HB_SENDER ? sender_turn(s, t, &done)
				 : receiver_turn(s, t, &done);
	if (n < 0)
		return -1;
	if (n > 0) {
		s->st->turns++;
		if (s->sink->turn_end(s->sink->ctx, cpu, t->role, (uint64_t)n))
			return -1;
	}
	if (done) { /* the task exits: keep the others' order */
		memmove(&r->task[r->cur], &r->task[r->cur + 1],
			(r->n - r->cur - 1) * sizeof(r->task[0]));
		r->n--;
	} else {
		r->cur++;
	}
	return n;
}

int ss_hackbench_run(const struct ss_hackbench_config *c, const struct ss_hackbench_sink *sink,
	   struct ss_hackbench_stats *st, struct ss_error *err)
{
	struct state s = {.c = c, .sink = sink, .st = st};
	uint64_t left;
	int rc = -1;

	memset(st, 0, sizeof(*st));
	if (ss_hackbench_config_check(c, err) || setup(&s, err))
		goto out;
	left = 2ull * c->groups * c->fds;
	while (left) {
		left = 0;
		for (unsigned cpu = 0; cpu < c->cpus; cpu++) {
			if (!s.rl[cpu].n)
				continue;
			if (run_turn(&s, cpu) < 0)
				goto out; /* the sink filled its error */
			left += s.rl[cpu].n;
		}
	}
	rc = 0;
out:
	release(&s);
	return rc;
}
