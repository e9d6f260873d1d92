/* hb_consts.h - every size and constant of the hackbench workload, with
 * its source (docs/workloads/hackbench.md, shared/reference/hackbench.md).
 * Sizes are x86_64, Linux 4.5-6.1; they are the same in every era the
 * workload replays (4.5, 4.6, 6.1), so one trace serves all of them. */
#ifndef SS_HB_CONSTS_H
#define SS_HB_CONSTS_H

/* hackbench defaults (rt-tests hackbench.c, perf bench sched messaging):
 * 20 fds per group (20 senders, 20 receivers), 100-byte messages.  The
 * seed runs `hackbench -g 20 -l 1000`. */
#define HB_DEFAULT_GROUPS 20u
#define HB_DEFAULT_LOOPS 1000u
#define HB_DEFAULT_FDS 20u
#define HB_DEFAULT_DATASIZE 100u

/* sizeof(struct sk_buff) on x86_64, 4.x-6.1 (pahole; reference/hackbench.md
 * gives 224-232): the object of skbuff_head_cache, created with
 * kmem_cache_create("skbuff_head_cache", sizeof(struct sk_buff), 0,
 * SLAB_HWCACHE_ALIGN | SLAB_PANIC, NULL) in skb_init(). */
#define HB_SKB_SIZE 232u
/* sizeof(struct skb_shared_info) on x86_64 (MAX_SKB_FRAGS 17): 320. */
#define HB_SHINFO_SIZE 320u
/* SKB_DATA_ALIGN(): ALIGN(x, SMP_CACHE_BYTES), 64 on x86_64. */
#define HB_SMP_CACHE_BYTES 64u
/* PAGE_SIZE */
#define HB_PAGE_SIZE 4096u
/* sk_sndbuf of a new AF_UNIX socket = sysctl_wmem_default = SK_WMEM_MAX =
 * 256 packets x SKB_TRUESIZE(256) (832) = 212992 on x86_64. */
#define HB_SNDBUF 212992u
/* A pipe holds PIPE_DEF_BUFFERS (16) pages (fs/pipe.c). */
#define HB_PIPE_BUFFERS 16u

/* Messages a task handles in one turn of the deterministic scheduler
 * before the next task on its CPU runs (docs/workloads/hackbench.md,
 * "Interleaving").  Estimate: with ~0.5 us per write or read, 64 messages
 * are ~30 us, well under one CFS slice, so a woken receiver typically
 * finds a few dozen skbs queued. */
#define HB_DEFAULT_QUANTUM 64u
/* Its range for `make sensitivity` (an estimate too): 16 messages (~8 us,
 * a receiver woken at once by each wakeup preemption) to 256 (~130 us,
 * a sender filling most of its socket buffer -- 212992 / 832 = 256 skbs
 * -- before it blocks). */
#define HB_QUANTUM_LOW 16u
#define HB_QUANTUM_HIGH 256u

/* HB_MSG_CYCLES: non-allocator time of one message (both sides: the
 * write(2) and read(2) syscalls, unix_stream_sendmsg/recvmsg minus the
 * slab calls, the copies, wakeups and the context switches hackbench
 * causes), half charged to the sender's CPU, half to the receiver's.
 *
 * CALIBRATION, fitted ONCE on the no-debug run time of the seed's machine:
 * 7.437 s for `hackbench -g 20 -l 1000`, slub_debug=-, 4.5-rc kernel, QEMU
 * with one CPU (the series' v1 cover letter, Message-Id
 * <1453770913-32287-1-git-send-email-labbott@fedoraproject.org>).  With
 * --msg-cycles 0, model traced on x86_64-4.5 with --cpus 1 simulated
 * 477.4 ms (allocator only), so (7437 - 477.4) ms x 3000 MHz / 8,000,000
 * messages = 2609.9 -> 2610 cycles.  docs/workloads/hackbench.md, "The
 * fitted constant", has the commands. */
#define HB_MSG_CYCLES 2610u

#endif
