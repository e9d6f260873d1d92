/* objtable.c - the dense object table. */
#include "objtable.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The whole id space as one private anonymous mapping, reserved but not
 * committed (MAP_NORESERVE): only the pages of ids in use ever become
 * memory, as with realloc, and a page comes zeroed on first touch -- the
 * growth by doubling copied and cleared the table each time (2 MiB of
 * memset for hb40's 65,536 slots).  0, or -1 where the system refuses
 * such a mapping (a 32-bit host, a tight ulimit -v): realloc then. */
static int reserve(struct ss_objtable *t)
{
	void *p;

	if (t->cap > SIZE_MAX / sizeof(*t->objs))
		return -1;
	p = mmap(NULL, t->cap * sizeof(*t->objs), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	t->objs = p;
	t->reserved = 1;
	return 0;
}

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
	if (!t->objs && !t->reserved)
		reserve(t); /* (refused: realloc below) */
	if (t->reserved) { /* slots past nr were never written: still zero */
		t->nr = nr;
		return &t->objs[id];
	}
	struct ss_obj *o = realloc(t->objs, nr * sizeof(*o));
	if (!o)
		return NULL;
	memset(o + t->nr, 0, (nr - t->nr) * sizeof(*o));
	t->objs = o;
	t->nr = nr;
	return &t->objs[id];
}

int ss_objtable_refused(const struct ss_objtable *t, uint64_t id, struct ss_error *err)
{
	if (id >= t->cap)
		return ss_errorf(err, "object id %llu is beyond the live-object cap of %llu (ids must be reused after free; raise --max-objects)",
				 (unsigned long long)id, (unsigned long long)t->cap);
	/* (the size in double: id + 1 slots of bytes may pass 2^64) */
	return ss_errorf(err, "out of memory: object id %llu needs a table of %llu slots (%.0f MiB), more than this host gives (the live-object cap of %llu is not reached; ids reused after free keep the table small)",
			 (unsigned long long)id, (unsigned long long)id + 1,
			 ((double)id + 1) * (double)sizeof(*t->objs) / (1 << 20),
			 (unsigned long long)t->cap);
}

void ss_objtable_release(struct ss_objtable *t)
{
	if (t->reserved)
		munmap(t->objs, t->cap * sizeof(*t->objs));
	else
		free(t->objs);
	memset(t, 0, sizeof(*t));
}
