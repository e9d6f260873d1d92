/* replay_int.h - what the replay's two loops share: replay.c's, which
 * serves every run, and replay_plain.c's, which takes a cache model's
 * plain SLUB caches on prices alone and hands every other event back to
 * the first.  Nothing else includes it.
 */
#ifndef SS_REPLAY_INT_H
#define SS_REPLAY_INT_H

#include "replay.h"

/* llround() of an operation's (non-negative) cycles without the libm
 * call, exact below 2^53: the replay rounds once per alloc and per free.
 * With whole-number prices (most steps) the cycles are an integer
 * already, and one conversion back says so. */
static inline uint64_t ss_round_cycles(double c)
{
	int64_t whole = (int64_t)c; /* one instruction, unlike a uint64_t */

	if ((double)whole == c)
		return (uint64_t)whole;
	if (!(c >= 0.5))
		return 0;
	return (uint64_t)whole + (c - (double)whole >= 0.5);
}

/* Add an operation's cycles to h: most operations of a run cost what the
 * one before did, so the bucket of the last value is kept (memo_c the
 * cycles, memo_b the bucket) and the rounding and bucket search skipped. */
static inline void ss_hist_add_cycles(struct ss_hist *h, double *memo_c, size_t *memo_b,
				      double c)
{
	if (c != *memo_c) {
		*memo_c = c;
		*memo_b = ss_hist_bucket(ss_round_cycles(c));
	}
	h->count[*memo_b]++;
	h->total++;
}

/* Object-table slots this many events ahead are prefetched: with many live
 * objects the slot is otherwise a cache miss per event (docs/bench.md). */
#define SS_PREFETCH_AHEAD SS_REPLAY_PAD

static inline void ss_replay_prefetch(const struct ss_run *run, const struct ss_event *e)
{
	/* integer arithmetic: the id may be past the table */
	__builtin_prefetch((const void *)((uintptr_t)run->objs.objs +
					  e[SS_PREFETCH_AHEAD].id * sizeof(struct ss_obj)));
}

/* One event through replay.c's paths, as its loop takes it for a run
 * with run->cm set: 0, or -1 with err. */
int ss_replay_event(struct ss_run *run, const struct ss_event *ev, struct ss_error *err);

/* Events e up to stop of a run with run->cm set and no timed work: the
 * plain caches' lock-free paths here, the rest through ss_replay_event.
 * NULL, or the event that failed (replay_plain.c). */
const struct ss_event *ss_replay_plain(struct ss_run *run, const struct ss_event *e,
				       const struct ss_event *stop, struct ss_error *err);

/* Up to max events of r (a version-2 trace: ss_trace_has_records) for a
 * run with run->cm set, no timed work and every trace CPU of the map its
 * own PU (same_cpus covers nr_map), the common records decoded in
 * the loop (trace_records.h), the rest read with ss_trace_next(): the
 * events replayed, *end set at the trace's end, or -1 with err. */
int64_t ss_replay_plain_trace(struct ss_run *run, struct ss_trace_reader *r, uint64_t max,
			      int *end, struct ss_error *err);
/* Whether that loop has an AVX build this CPU can run (run->plain_avx). */
bool ss_replay_plain_avx(void);

#endif
