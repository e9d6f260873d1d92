/* hb_sched.h - the deterministic interleaving of hackbench's tasks.
 *
 * A group is `fds` receivers, each owning one socket (or pipe), and `fds`
 * senders that each write `loops` messages to every receiver of the group,
 * receiver after receiver (rt-tests hackbench, perf bench sched
 * messaging).  The i-th receiver (creation order, all groups) runs on CPU
 * i mod cpus, the i-th sender on CPU (i + cpus/2) mod cpus: the even
 * spread a load balancer gives 2 * groups * fds runnable tasks, each CPU
 * with as many senders as receivers, so that with cpus > 1 most frees
 * happen on another CPU than the allocation (1 - 1/cpus of them).
 *
 * Each CPU runs its tasks round-robin, one turn each, CPUs in lock step
 * (CPU 0's turn, CPU 1's turn, ...).  In a turn a sender writes up to
 * `quantum` messages and stops early when the socket of its next message
 * holds `window` messages (sock_alloc_send_pskb() would sleep); a receiver
 * reads up to `quantum` messages and stops when its socket is empty.  The
 * same configuration always gives the same sequence.
 */
#ifndef SS_HB_SCHED_H
#define SS_HB_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

#define HB_MAX_TASKS (1u << 20)	       /* 2 * groups * fds */
#define HB_MAX_CPUS 65535u	       /* what a trace can carry */
#define HB_MAX_MESSAGES (1ull << 40)   /* groups * fds * fds * loops */

enum ss_hackbench_role { HB_RECEIVER, HB_SENDER };

struct ss_hackbench_config {
	unsigned groups, fds, cpus, quantum, window;
	uint64_t loops;
};

/* What the interleaving does, in order.  Every callback returns 0 or -1:
 * the run then stops and returns -1, and the error is the sink's to
 * report (hb_run leaves err alone). */
struct ss_hackbench_sink {
	void *ctx;
	/* a sender on cpu queues one message on socket sock */
	int (*send)(void *ctx, unsigned cpu, unsigned sock);
	/* the receiver of sock, on cpu, takes the oldest message */
	int (*recv)(void *ctx, unsigned cpu, unsigned sock);
	/* a task's turn ended after msgs messages (> 0) */
	int (*turn_end)(void *ctx, unsigned cpu, enum ss_hackbench_role role,
			uint64_t msgs);
};

struct ss_hackbench_stats {
	uint64_t messages;	/* sent = received */
	uint64_t remote;	/* messages whose receiver runs on another CPU */
	uint64_t turns;		/* turns that handled at least one message */
	uint64_t blocked;	/* sender turns that stopped on a full socket */
	uint64_t max_inflight;	/* most messages queued at once, all sockets */
};

/* Check c against the limits above; 0 or -1 with err. */
int ss_hackbench_config_check(const struct ss_hackbench_config *c, struct ss_error *err);
/* Messages a full run sends: groups * fds * fds * loops. */
uint64_t ss_hackbench_messages(const struct ss_hackbench_config *c);
/* CPU of a group's idx-th receiver or sender. */
unsigned ss_hackbench_task_cpu(const struct ss_hackbench_config *c, unsigned group,
		     enum ss_hackbench_role role, unsigned idx);
/* Run the whole benchmark into sink.  0, or -1: with err for a bad
 * configuration or out of memory, untouched for a sink failure. */
int ss_hackbench_run(const struct ss_hackbench_config *c, const struct ss_hackbench_sink *sink,
	   struct ss_hackbench_stats *st, struct ss_error *err);

#endif
