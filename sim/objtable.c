/* objtable.c - the dense object table. */
#include "objtable.h"

#include <stdlib.h>
#include <string.h>

void ss_objtable_init(struct ss_objtable *t, uint64_t cap)
{
	memset(t, 0, sizeof(*t));
	t->cap = cap;
}

struct ss_obj *ss_objtable_grow(struct ss_objtable *t, uint64_t id)
{
	if (id < t->nr)
		return &t->objs[id];
	if (id >= t->cap)
		return NULL;
	uint64_t nr = t->nr ? t->nr : 1024;
	while (nr <= id)
		nr *= 2;
	if (nr > t->cap)
		nr = t->cap;
	struct ss_obj *o = realloc(t->objs, nr * sizeof(*o));
	if (!o)
		return NULL;
	memset(o + t->nr, 0, (nr - t->nr) * sizeof(*o));
	t->objs = o;
	t->nr = nr;
	return &t->objs[id];
}

void ss_objtable_release(struct ss_objtable *t)
{
	free(t->objs);
	memset(t, 0, sizeof(*t));
}
