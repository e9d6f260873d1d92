/* resource.h - what two CPUs can contend for, as the model interface
 * carries it (docs/cost-model.md, "Contention").
 *
 * A model embeds one struct ss_resource in each thing CPUs share (a lock;
 * the line a cmpxchg swaps) and, while pricing an operation, notes each
 * use of it in the operation (struct ss_op, steps.h): a lock held from one
 * point of the operation to another, or a cmpxchg whose read and swap are
 * some cycles apart.  The engine (sim/contention.c) places the uses on the
 * CPUs' simulated clocks, adds the waits and the retries to the operation,
 * and keeps the resource's recent uses in its history.  Nothing here knows
 * which allocator it is: the names of the report rows are the model's.
 */
#ifndef SS_RESOURCE_H
#define SS_RESOURCE_H

#include <stdint.h>
#include <stdlib.h>

/* One use on the simulated clocks: a lock's hold [from, until), or a
 * cmpxchg's swap (from == until). */
struct ss_res_span {
	double from, until;
	uint32_t cpu;
};

/* The newest holds a history keeps apart, sorted among themselves, until
 * there are this many (sim/contention.c keep). */
#define SS_RES_PEND 32

/* The recent uses of one resource (sim/contention.c allocates, trims and
 * alone reads it): a lock's holds still inside the window of the CPUs'
 * clocks, by `from`.  A cmpxchg line's pointer holds contention.c's own
 * ring of its last swaps instead. */
struct ss_res_hist {
	uint32_t n, cap;
	/* the sorted spans are span[first .. first + n): dropping the oldest
	 * moves `first` instead of the others */
	uint32_t first;
	/* and the newest, pend[0 .. npend), merged into span[] once there
	 * are SS_RES_PEND: one move of the spans after the earliest of them
	 * per SS_RES_PEND holds, not per hold.  The history is the merge of
	 * the two, a sorted span before a pending one that begins at the
	 * same time (it came first). */
	uint32_t npend;
	struct ss_res_span pend[SS_RES_PEND];
	struct ss_res_span span[];
};

/* A shared lock or line (a resource is used as one or the other).  A model zeroes it (ss_resource_init) and, when
 * the thing it lives in goes away (a discarded slab, a released cache),
 * calls ss_resource_release so that its history goes too. */
struct ss_resource {
	struct ss_res_hist *hist; /* NULL: no use kept */
};

static inline void ss_resource_init(struct ss_resource *r)
{
	r->hist = NULL;
}

static inline void ss_resource_release(struct ss_resource *r)
{
	free(r->hist);
	r->hist = NULL;
}

/* One report row (locks.csv): the uses of a kind of resource in one cache
 * or one model, summed by the engine. */
struct ss_res_stat {
	uint64_t uses;	   /* lock acquisitions, cmpxchgs */
	uint64_t waits;	   /* acquisitions that found the lock held */
	uint64_t retries;  /* cmpxchgs that failed and looped */
	double wait_cycles; /* spent waiting for the lock */
	double hold_cycles; /* held (locks), including waits nested inside */
};

enum ss_use_kind {
	SS_USE_LOCK,	/* held over [at, at + len) */
	SS_USE_CMPXCHG, /* reads at `at`, swaps at at + len; loops once more
			 * if another CPU swapped in between */
};

struct ss_use {
	struct ss_resource *res;
	struct ss_res_stat *stat;
	double at;    /* op->cycles when the use began */
	double len;   /* lock: hold; cmpxchg: read-to-swap window; < 0 open */
	double retry; /* cmpxchg: cycles one more round of the loop costs */
	uint32_t kind; /* enum ss_use_kind */
};

/* Uses one operation can carry (the most a path takes is five: a 4.5
 * debug alloc from a partial slab); more are counted as unplaced. */
#define SS_OP_MAX_USES 8

#endif
