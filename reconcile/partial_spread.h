/* partial_spread.h - how full a cache's node partial slabs are, when the
 * kernel only says how many there are and how many objects they hold.
 *
 * SLUB's sysfs gives `partial` (slabs) and, through `objects` and
 * `total_objects`, their objects in use: a count and a sum, nothing about
 * each slab.  An even spread claims every slab holds the mean, the one
 * shape a partial list never has (slabs enter it with one free slot when
 * a free hits them full and leave it when an alloc takes their last
 * one).  The spread here is the maximum-entropy one the two figures allow
 * (Jaynes): over the fills lo..hi, p(k) proportional to r^k with r set so
 * that the mean is the snapshot's -- uniform when the mean is mid-range,
 * leaning towards full or empty slabs as the mean does -- and it claims
 * nothing else.  Its n quantiles, taken in a low-discrepancy order so
 * that the list's head is no fuller than its tail, are the slabs' fills;
 * they sum to the snapshot's objects exactly. */
#ifndef SS_PARTIAL_SPREAD_H
#define SS_PARTIAL_SPREAD_H

#include <stdint.h>

/* out[0..n) = the fills of n slabs holding total objects, each lo..hi
 * (lo <= hi; total clamped to n*lo .. n*hi).  Deterministic. */
void ss_partial_spread(uint32_t n, uint64_t total, uint32_t lo, uint32_t hi, uint32_t *out);

#endif
