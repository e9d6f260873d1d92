/* sort.h - qsort() for arrays that may be empty.  C says qsort()'s array
 * must be a valid pointer even when it has no element, and UBSan holds us
 * to it (the round-trip fuzzer found an empty compare site list passing
 * NULL); an empty or one-element array needs no sorting anyway. */
#ifndef SS_SORT_H
#define SS_SORT_H

#include <stdlib.h>

static inline void ss_sort(void *base, size_t n, size_t size,
			   int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

#endif
