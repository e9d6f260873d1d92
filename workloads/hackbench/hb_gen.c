/* hb_gen.c - the hackbench trace writer (hb_gen.h). */
#include "hb_gen.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "geometry.h"
#include "hb_consts.h"
#include "trace.h"

/* Site names: the allocations of __alloc_skb() (net/core/skbuff.c). */
#define SITE_SKB "__alloc_skb:skb"
#define SITE_DATA "__alloc_skb:data"
#define CACHE_SKB "skbuff_head_cache"
#define LABEL_SEND "hackbench:send"
#define LABEL_RECV "hackbench:recv"
/* Queued ids held at once: sockets x window, 2 ids each. */
#define MAX_QUEUED (1ull << 26)

struct msg_ids {
	uint64_t skb, data;
};

struct gen {
	const struct ss_hackbench_params *p;
	struct ss_trace_writer *w;
	struct ss_error *err;
	int skb_api;
	struct ss_idpool ids;
	struct msg_ids *ring;	/* per socket: window slots */
	uint32_t *head, *count;	/* per socket ring state */
	uint64_t send_cycles, recv_cycles;
};

void ss_hackbench_params_defaults(struct ss_hackbench_params *p)
{
	*p = (struct ss_hackbench_params){
		.sched = {.groups = HB_DEFAULT_GROUPS, .fds = HB_DEFAULT_FDS,
			  .loops = HB_DEFAULT_LOOPS, .cpus = 8,
			  .quantum = HB_DEFAULT_QUANTUM},
		.datasize = HB_DEFAULT_DATASIZE,
		.msg_cycles = HB_MSG_CYCLES,
	};
}

int ss_hackbench_params_finish(struct ss_hackbench_params *p, struct ss_error *err)
{
	if (!p->datasize || p->datasize > HB_MAX_DATASIZE)
		return ss_errorf(err, "datasize %u: want 1..%u bytes (one skb per write)",
				 p->datasize, HB_MAX_DATASIZE);
	if (p->msg_cycles > HB_MAX_MSG_CYCLES)
		return ss_errorf(err, "msg-cycles above 2^32");
	ss_hackbench_skb_compute(p->datasize, p->pipes, &p->skb);
	p->sched.window = p->skb.window;
	if (ss_hackbench_config_check(&p->sched, err))
		return -1;
	if (!p->pipes &&
	    (uint64_t)p->sched.groups * p->sched.fds * p->sched.window > MAX_QUEUED)
		return ss_errorf(err, "groups x fds x window = %llu queued messages; at most %llu",
				 (unsigned long long)p->sched.groups * p->sched.fds * p->sched.window,
				 (unsigned long long)MAX_QUEUED);
	return 0;
}

static int wfail(struct gen *g)
{
	return ss_trace_writer_failed(g->w, g->err);
}

/* unix_stream_sendmsg() -> sock_alloc_send_pskb() -> __alloc_skb(): the
 * sk_buff, then the data head. */
static int on_send(void *ctx, unsigned cpu, unsigned sock)
{
	struct gen *g = ctx;
	uint32_t w = g->p->sched.window;
	struct msg_ids *m;

	if (g->p->pipes)
		return 0;
	m = &g->ring[(uint64_t)sock * w + (g->head[sock] + g->count[sock]) % w];
	m->skb = ss_idpool_get(&g->ids);
	m->data = ss_idpool_get(&g->ids);
	g->count[sock]++;
	if (ss_trace_write_alloc(g->w, cpu, m->skb, SITE_SKB, (uint32_t)g->skb_api,
				 g->p->skb.skb_size) ||
	    ss_trace_write_alloc(g->w, cpu, m->data, SITE_DATA, SS_API_KMALLOC,
				 g->p->skb.head_size))
		return wfail(g);
	return 0;
}

/* unix_stream_read_generic() -> consume_skb(): skb_release_data() kfrees
 * the head, then kfree_skbmem() frees the sk_buff. */
static int on_recv(void *ctx, unsigned cpu, unsigned sock)
{
	struct gen *g = ctx;
	uint32_t w = g->p->sched.window;
	struct msg_ids m;

	if (g->p->pipes)
		return 0;
	m = g->ring[(uint64_t)sock * w + g->head[sock]];
	g->head[sock] = (g->head[sock] + 1) % w;
	g->count[sock]--;
	if (ss_trace_write_free(g->w, cpu, m.data) ||
	    ss_trace_write_free(g->w, cpu, m.skb))
		return wfail(g);
	ss_idpool_put(&g->ids, m.data);
	ss_idpool_put(&g->ids, m.skb);
	return 0;
}

/* One work event per turn: msgs x the side's share of HB_MSG_CYCLES. */
static int on_turn_end(void *ctx, unsigned cpu, enum ss_hackbench_role role,
		       uint64_t msgs)
{
	struct gen *g = ctx;
	uint64_t per = role == HB_SENDER ? g->send_cycles : g->recv_cycles;

	if (!per)
		return 0;
	if (ss_trace_write_work(g->w, cpu, per * msgs,
				role == HB_SENDER ? LABEL_SEND : LABEL_RECV))
		return wfail(g);
	return 0;
}

static int write_meta_u64(struct ss_trace_writer *w, const char *key,
			  uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return ss_trace_write_meta(w, key, buf);
}

static int write_header(struct gen *g)
{
	const struct ss_hackbench_params *p = g->p;
	struct ss_trace_writer *w = g->w;
	int bad = 0;

	bad |= ss_trace_write_meta(w, "workload", "hackbench");
	bad |= ss_trace_write_meta(w, "generator", HB_GEN_NAME);
	bad |= ss_trace_write_meta(w, "target", "x86_64");
	bad |= ss_trace_write_meta(w, "mode", p->pipes ? "pipes" : "sockets");
	bad |= write_meta_u64(w, "groups", p->sched.groups);
	bad |= write_meta_u64(w, "fds", p->sched.fds);
	bad |= write_meta_u64(w, "loops", p->sched.loops);
	bad |= write_meta_u64(w, "datasize", p->datasize);
	bad |= write_meta_u64(w, "messages", ss_hackbench_messages(&p->sched));
	bad |= write_meta_u64(w, "cpus", p->sched.cpus);
	bad |= write_meta_u64(w, "quantum", p->sched.quantum);
	bad |= write_meta_u64(w, "window", p->sched.window);
	bad |= write_meta_u64(w, "msg_cycles", p->msg_cycles);
	if (bad)
		return wfail(g);
	if (!p->pipes) {
		/* kmem_cache_create("skbuff_head_cache", sizeof(struct sk_buff),
		 * 0, SLAB_HWCACHE_ALIGN | SLAB_PANIC, NULL) */
		g->skb_api = ss_trace_write_cache(w, CACHE_SKB, p->skb.skb_size, 0,
						  SS_CF_HWCACHE);
		if (g->skb_api < 0)
			return wfail(g);
	}
	return ss_trace_write_phase(w, "messaging") ? wfail(g) : 0;
}

static int alloc_rings(struct gen *g)
{
	uint64_t nsock = (uint64_t)g->p->sched.groups * g->p->sched.fds;

	if (g->p->pipes)
		return 0;
	g->ring = malloc(nsock * g->p->sched.window * sizeof(*g->ring));
	g->head = calloc(nsock, sizeof(*g->head));
	g->count = calloc(nsock, sizeof(*g->count));
	if (!g->ring || !g->head || !g->count)
		return ss_errorf(g->err, "out of memory for %llu socket queues",
				 (unsigned long long)nsock);
	return 0;
}

int ss_hackbench_gen_trace(const struct ss_hackbench_params *p, const char *path,
		 struct ss_hackbench_stats *st, struct ss_error *err)
{
	struct gen g = {.p = p, .err = err};
	struct ss_hackbench_sink sink = {.ctx = &g, .send = on_send, .recv = on_recv,
			       .turn_end = on_turn_end};
	int rc = -1;

	g.send_cycles = p->msg_cycles / 2;
	g.recv_cycles = p->msg_cycles - g.send_cycles;
	if (alloc_rings(&g) || ss_trace_writer_open(&g.w, path, err))
		goto out;
	if (write_header(&g) || ss_hackbench_run(&p->sched, &sink, st, err))
		goto out;
	rc = ss_trace_writer_commit(g.w, err);
	g.w = NULL;
out:
	if (g.w)
		ss_trace_writer_abort(g.w);
	ss_idpool_release(&g.ids);
	free(g.ring);
	free(g.head);
	free(g.count);
	return rc;
}
