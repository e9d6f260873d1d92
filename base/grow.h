/* grow.h - a zero-filled array grown to cover an index. */
#ifndef SS_GROW_H
#define SS_GROW_H

#include <stddef.h>
#include <stdint.h>

/* Grow *arr (*n elements of sz bytes) by doubling, from `first` when
 * empty, until idx is inside; the new elements zeroed.  0, or -1 when out
 * of memory (then *arr and *n are as they were). */
int ss_grow_zeroed(void **arr, uint32_t *n, uint32_t idx, size_t sz, uint32_t first);

#endif
