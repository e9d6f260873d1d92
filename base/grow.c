/* grow.c - see grow.h. */
#include "grow.h"

#include <stdlib.h>
#include <string.h>

int ss_grow_zeroed(void **arr, uint32_t *n, uint32_t idx, size_t sz, uint32_t first)
{
	uint32_t nr = *n ? *n : first;
	char *p;

	if (idx < *n) /* room already: no realloc (a copy of the whole array under ASan) */
		return 0;
	while (nr <= idx)
		nr *= 2;
	p = realloc(*arr, (size_t)nr * sz);
	if (!p)
		return -1;
	memset(p + (size_t)*n * sz, 0, (size_t)(nr - *n) * sz);
	*arr = p;
	*n = nr;
	return 0;
}
