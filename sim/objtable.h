/* objtable.h - live objects by dense id: a free is an array lookup.
 * The table grows to the largest id seen, which writers keep near the peak
 * number of live objects by reusing freed ids; a cap turns a runaway id
 * space into a clear error instead of exhausting the host. */
#ifndef SS_OBJTABLE_H
#define SS_OBJTABLE_H

#include <stdint.h>

#include "error.h"
#include "model.h"
#include "model_batch.h"

#define SS_OBJTABLE_DEFAULT_CAP (64ull << 20) /* ids: 64 Mi x 32 B = 2 GiB */

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
