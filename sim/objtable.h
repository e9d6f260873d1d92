/* objtable.h - live objects by dense id: a free is an array lookup.
 * The table grows to the largest id seen, which writers keep near the peak
 * number of live objects by reusing freed ids; a cap turns a runaway id
 * space into a clear error instead of exhausting the host. */
#ifndef SS_OBJTABLE_H
#define SS_OBJTABLE_H

#include <stdint.h>

#include "error.h"
#include "model.h"

#define SS_OBJTABLE_DEFAULT_CAP (64ull << 20) /* ids: 64 Mi x 32 B = 2 GiB */

struct ss_objtable {
	struct ss_obj *objs;
	uint64_t nr;  /* slots in use: ids below it have a slot, zeroed at first */
	uint64_t cap; /* largest id + 1 allowed */
	uint64_t live;
	uint64_t peak_live;
	/* objs is a reservation of cap slots (objtable.c): pages the kernel
	 * gives zeroed as they are first touched, so growing is moving nr,
	 * no copy and no memset; else (the reservation refused) realloc */
	int reserved;
};

void ss_objtable_init(struct ss_objtable *t, uint64_t cap);
/* Slot for id, growing the table; NULL if id >= cap or out of memory.
 * The common case (id already in the table) is inline. */
struct ss_obj *ss_objtable_grow(struct ss_objtable *t, uint64_t id);
static inline struct ss_obj *ss_objtable_slot(struct ss_objtable *t, uint64_t id)
{
	return id < t->nr ? &t->objs[id] : ss_objtable_grow(t, id);
}
/* After ss_objtable_grow() gave NULL for id: why, in err; -1.  An id at
 * or past the cap is the trace's (its ids are not reused after free);
 * below the cap the host would not give memory for a table up to id:
 * out of memory, whatever the cap. */
int ss_objtable_refused(const struct ss_objtable *t, uint64_t id, struct ss_error *err);
/* Existing slot or NULL (never grows). */
static inline struct ss_obj *ss_objtable_find(struct ss_objtable *t, uint64_t id)
{
	return id < t->nr ? &t->objs[id] : NULL;
}
void ss_objtable_release(struct ss_objtable *t);

#endif
