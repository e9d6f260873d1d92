/* histogram.c - log-linear buckets. */
#include "histogram.h"

uint64_t ss_hist_bucket_max(unsigned i)
{
	unsigned shift, sub;

	if (i < 128)
		return i;
	shift = (i - 128) / 64 + 1;
	sub = (i - 128) % 64 + 64;
	return (((uint64_t)sub + 1) << shift) - 1;
}

uint64_t ss_hist_percentile(const struct ss_hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->total)
		return 0;
	rank = (uint64_t)(q * (double)h->total);
	if ((double)rank < q * (double)h->total || rank == 0)
		rank++; /* ceil, at least the first value */
	for (unsigned i = 0; i < SS_HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= rank)
			return ss_hist_bucket_max(i);
	}
	return ss_hist_bucket_max(SS_HIST_BUCKETS - 1);
}
