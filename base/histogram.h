/* histogram.h - latency histogram in cycles with bounded relative error.
 * Values below 128 are exact; above, each power of two is split into 64
 * buckets (< 1.6% error).  Percentiles are deterministic: the upper bound
 * of the bucket holding the q-th value. */
#ifndef SS_HISTOGRAM_H
#define SS_HISTOGRAM_H

#include <stdint.h>

#define SS_HIST_BUCKETS 3776

struct ss_hist {
	uint64_t count[SS_HIST_BUCKETS];
	uint64_t total;
};

uint64_t ss_hist_percentile(const struct ss_hist *h, double q);
/* Bucket i's largest value. */
uint64_t ss_hist_bucket_max(unsigned i);

/* Inline: called twice per replayed event. */
static inline unsigned ss_hist_bucket(uint64_t v)
{
	unsigned msb, shift;

	if (v < 128)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - 6;
	return 128 + (shift - 1) * 64 + (unsigned)((v >> shift) - 64);
}

static inline void ss_hist_add(struct ss_hist *h, uint64_t v)
{
	h->count[ss_hist_bucket(v)]++;
	h->total++;
}

#endif
