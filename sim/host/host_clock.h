/* host_clock.h - the cycle counter host mode and calibrate time with.
 *
 * x86-64: the TSC (rdtsc after lfence, so earlier instructions retire
 * first); it ticks at a constant rate, which ss_host_clock_rate() measures
 * against CLOCK_MONOTONIC.  Elsewhere: CLOCK_MONOTONIC_RAW in ns.
 */
#ifndef SS_HOST_CLOCK_H
#define SS_HOST_CLOCK_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t host_ticks(void)
{
	_mm_lfence();
	return __rdtsc();
}
#define SS_HOST_CLOCK_NAME "rdtsc"
#else
static inline uint64_t host_ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#define SS_HOST_CLOCK_NAME "clock_gettime"
#endif

/* Ticks per nanosecond, measured over about ms milliseconds. */
double ss_host_clock_rate(unsigned ms);
/* CLOCK_MONOTONIC in ns. */
double ss_host_now_ns(void);

#endif
