/* host_clock.c - how fast the cycle counter ticks. */
#include "host_clock.h"

double ss_host_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double ss_host_clock_rate(unsigned ms)
{
	double t0 = ss_host_now_ns(), t1;
	uint64_t c0 = host_ticks(), c1;

	do {
		t1 = ss_host_now_ns();
	} while (t1 - t0 < (double)ms * 1e6);
	c1 = host_ticks();
	return (double)(c1 - c0) / (t1 - t0);
}
