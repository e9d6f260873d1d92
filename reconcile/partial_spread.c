/* partial_spread.c - the maximum-entropy fills of node partial slabs
 * (partial_spread.h).
 *
 * Worked on the continuous stand-in: a fill is floor(x) for x on [0, L)
 * (L = hi - lo + 1) with density proportional to e^(lambda x), whose mean
 * and quantiles have closed forms, so that a spread costs O(n) whatever
 * the slab size.  The floor takes half a slot off the mean; the few
 * objects the rounding of n quantiles leaves over are handed out one per
 * slab afterwards, so the sum is exact. */
#include "partial_spread.h"

#include <math.h>

/* The mean of x on [0, L) under e^(lambda x). */
static double mean_at(double lambda, double L)
{
	double t = lambda * L;

	if (fabs(t) < 1e-9)
		return L / 2;
	return L * (1 / -expm1(-t) - 1 / t);
}

/* The lambda whose mean is want (0 < want < L): the mean rises with
 * lambda, so bisection; |lambda L| <= 60 covers every mean a slab of up
 * to 65,535 objects can have to within a slot. */
static double lambda_for(double want, double L)
{
	double lo = -60 / L, hi = 60 / L;

	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (mean_at(mid, L) < want)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The u-quantile of x (0 < u < 1). */
static double quantile(double lambda, double L, double u)
{
	double t = lambda * L;

	if (fabs(t) < 1e-9)
		return u * L;
	return log1p(u * expm1(t)) / lambda;
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

void ss_partial_spread(uint32_t n, uint64_t total, uint32_t lo, uint32_t hi, uint32_t *out)
{
	uint32_t m = hi - lo, step;
	double L = (double)m + 1, want, lambda;
	uint64_t sum = 0;

	if (!n)
		return;
	if (total < (uint64_t)n * lo)
		total = (uint64_t)n * lo;
	if (total > (uint64_t)n * hi)
		total = (uint64_t)n * hi;
	/* the mean over the fills lo..hi, on the stand-in: +0.5 for the floor */
	want = (double)(total - (uint64_t)n * lo) / n + 0.5;
	lambda = want <= 0.5 ? -60 / L : want >= L - 0.5 ? 60 / L : lambda_for(want, L);
	/* slab i takes quantile j = i * step mod n: a stride near n / phi
	 * coprime with n visits every stratum once, scattered */
	step = (uint32_t)((double)n * 0.6180339887498949);
	if (step < 1)
		step = 1;
	while (gcd(step, n) != 1)
		step++;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t j = (uint32_t)(((uint64_t)i * step) % n);
		double x = quantile(lambda, L, (j + 0.5) / n);
		uint32_t k = x <= 0 ? 0 : x >= m ? m : (uint32_t)x;

		out[i] = lo + k;
		sum += out[i];
	}
	/* what the rounding left, a slot per slab in turn */
	for (uint32_t i = 0; sum < total; i = (i + 1) % n)
		if (out[i] < hi) {
			out[i]++;
			sum++;
		}
	for (uint32_t i = 0; sum > total; i = (i + 1) % n)
		if (out[i] > lo) {
			out[i]--;
			sum--;
		}
}
