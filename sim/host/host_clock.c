/* host_clock.c - how fast the cycle counter ticks. */
#include "host_clock.h"

double host_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double host_clock_rate(unsigned ms)
{
	double t0 = host_now_ns(), t1;
	uint64_t c0 = host_ticks(), c1;

	do {
		t1 = host_now_ns();
	} while (t1 - t0 < (double)ms * 1e6);
	c1 = host_ticks();
	return (double)(c1 - c0) / (t1 - t0);
}
