/* hb_gen.h - the hackbench trace: per message an sk_buff from
 * skbuff_head_cache and a kmalloc'ed data head on the sender's CPU, both
 * freed by consume_skb() on the receiver's CPU; work events carry the
 * non-allocator time.  Streamed: memory is the in-flight messages only. */
#ifndef SS_HB_GEN_H
#define SS_HB_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "hb_sched.h"
#include "hb_skb.h"

#define HB_GEN_NAME "slabsim-hackbench-gen/1" /* bump when output changes */
#define HB_MAX_MSG_CYCLES (1ull << 32)

struct ss_hackbench_params {
	struct ss_hackbench_config sched;	/* window filled by ss_hackbench_params_finish() */
	unsigned datasize;
	bool pipes;
	uint64_t msg_cycles;	/* HB_MSG_CYCLES unless overridden */
	struct ss_hackbench_skb skb;	/* filled by ss_hackbench_params_finish() */
};

/* Defaults: the seed's `-g 20 -l 1000`, 20 fds, 100 bytes, sockets,
 * 8 CPUs (the x86_64 targets), HB_DEFAULT_QUANTUM, HB_MSG_CYCLES. */
void ss_hackbench_params_defaults(struct ss_hackbench_params *p);
/* Derive the skb sizes and the window, check every limit. */
int ss_hackbench_params_finish(struct ss_hackbench_params *p, struct ss_error *err);

/* Write the trace to path ("-" = stdout), atomically.  st gets the run's
 * figures.  0, or -1 with err. */
int ss_hackbench_gen_trace(const struct ss_hackbench_params *p, const char *path,
		 struct ss_hackbench_stats *st, struct ss_error *err);

#endif
