/* bad_free.h - the report of a free a trace gets wrong, in the words
 * slub_debug uses for the same mistake in a kernel.
 *
 * A double free of a slab object reads like mm/slub.c's object_err()
 * from free_consistency_checks() ("BUG <cache> (<taint>): Object already
 * free", the alloc and free tracks, "FIX <cache>: Object at ... not freed");
 * a double free of a kmalloc_large object is the page allocator's "Bad page
 * state"; a free of an id that was never allocated, or a second free of a
 * zero-size allocation, says so.  Use after free cannot be seen: a trace has
 * allocs and frees, not the accesses in between (docs/bad-input.md).
 */
#ifndef SS_BAD_FREE_H
#define SS_BAD_FREE_H

#include <stdint.h>

#include "replay.h"

/* Fill err with the report for a free of id at event `line` of r
 * (ss_trace_where), where obj is the id's record (NULL: beyond the
 * table) and not live.  Returns -1. */
int ss_bad_free(const struct ss_run *run, const struct ss_trace_reader *r,
		unsigned long line, uint64_t id, const struct ss_obj *obj,
		struct ss_error *err);

#endif
