/* steps.h - what an allocator operation did, named after CONFIG_SLUB_STATS
 * where the kernel has a name for it.
 *
 * A model counts steps; the cost table (costs.h) prices them.  Memory
 * figures never depend on prices.  STAT entries are the kernel's own
 * counters (reported per cache in counters.csv, cost usually 0 because the
 * work is priced by a finer step); COST entries carry the price.
 */
#ifndef SS_STEPS_H
#define SS_STEPS_H

#include <stdbool.h>
#include <stdint.h>

#include "resource.h"

/* X(id, name, unit): unit is "op", "object", "byte", "slab" or "page". */
#define SS_STEP_LIST(X)                                                        \
	/* SLUB_STATS counters */                                              \
	X(ALLOC_FASTPATH, "alloc_fastpath", "op")                              \
	X(ALLOC_SLOWPATH, "alloc_slowpath", "op")                              \
	X(FREE_FASTPATH, "free_fastpath", "op")                                \
	X(FREE_SLOWPATH, "free_slowpath", "op")                                \
	X(FREE_FROZEN, "free_frozen", "op")                                    \
	X(FREE_ADD_PARTIAL, "free_add_partial", "op")                          \
	X(FREE_REMOVE_PARTIAL, "free_remove_partial", "op")                    \
	X(ALLOC_FROM_PARTIAL, "alloc_from_partial", "op")                      \
	X(ALLOC_REFILL, "alloc_refill", "op")                                  \
	X(ALLOC_SLAB, "alloc_slab", "slab")                                    \
	X(FREE_SLAB, "free_slab", "slab")                                      \
	X(CPU_PARTIAL_ALLOC, "cpu_partial_alloc", "op")                        \
	X(CPU_PARTIAL_FREE, "cpu_partial_free", "op")                          \
	X(CPU_PARTIAL_NODE, "cpu_partial_node", "slab")                        \
	X(CPU_PARTIAL_DRAIN, "cpu_partial_drain", "op")                        \
	X(DEACTIVATE_FULL, "deactivate_full", "op")                            \
	X(DEACTIVATE_EMPTY, "deactivate_empty", "op")                          \
	X(DEACTIVATE_TO_HEAD, "deactivate_to_head", "op")                      \
	X(DEACTIVATE_TO_TAIL, "deactivate_to_tail", "op")                      \
	X(DEACTIVATE_REMOTE_FREES, "deactivate_remote_frees", "op")            \
	X(DEACTIVATE_BYPASS, "deactivate_bypass", "op")                        \
	X(ORDER_FALLBACK, "order_fallback", "slab")                            \
	/* priced steps */                                                     \
	X(LIST_LOCK, "list_lock", "op")                                        \
	X(SLAB_LOCK, "slab_lock", "op")                                        \
	X(CMPXCHG_DOUBLE, "cmpxchg_double", "op")                              \
	X(CMPXCHG_LOCKED, "cmpxchg_locked", "op")                              \
	X(REMOTE_FREE, "remote_free", "op")                                    \
	X(SLAB_LINE, "slab_line_transfer", "line")                             \
	X(CMPXCHG_RETRY, "cmpxchg_retry", "op")                                \
	X(LOCK_WAIT, "lock_wait", "op")                                        \
	X(NODE_REMOTE, "node_remote", "op")                                    \
	X(DEACTIVATE, "deactivate_slab", "op")                                 \
	X(DEACTIVATE_OBJECT, "deactivate_object", "object")                    \
	X(PAGE_ALLOC, "page_alloc", "page")                                    \
	X(PAGE_FREE, "page_free", "page")                                      \
	X(SLAB_INIT_OBJECT, "slab_init_object", "object")                      \
	X(KMALLOC_LARGE, "kmalloc_large", "op")                                \
	X(KFREE_LARGE, "kfree_large", "op")                                    \
	X(DEBUG_ALLOC, "alloc_debug_processing", "op")                         \
	X(DEBUG_FREE, "free_debug_processing", "op")                           \
	X(CHECK_SLAB, "check_slab", "op")                                      \
	X(CHECK_OBJECT, "check_object", "op")                                  \
	X(FREELIST_WALK, "on_freelist_object", "object")                       \
	X(CHECK_VALID_POINTER, "check_valid_pointer", "op")                    \
	X(POISON_WRITE, "poison_write", "op")                                  \
	X(POISON_WRITE_BYTES, "poison_write_byte", "byte")                     \
	X(POISON_CHECK, "poison_check", "op")                                  \
	X(POISON_CHECK_BYTES, "poison_check_byte", "byte")                     \
	X(REDZONE_WRITE, "redzone_write", "op")                                \
	X(SET_TRACK, "set_track", "op")                                        \
	/* SLAB (mm/slab.c STATS_INC_* names) */                               \
	X(ALLOCHIT, "allochit", "op")                                          \
	X(ALLOCMISS, "allocmiss", "op")                                        \
	X(FREEHIT, "freehit", "op")                                            \
	X(FREEMISS, "freemiss", "op")                                          \
	X(GROWN, "grown", "slab")                                              \
	X(REAPED, "reaped", "slab")                                            \
	X(NODEFREES, "nodefrees", "op")                                        \
	X(ACOVERFLOW, "acoverflow", "op")                                      \
	X(SLAB_GET_OBJ, "slab_get_obj", "object")                              \
	X(SLAB_PUT_OBJ, "slab_put_obj", "object")                              \
	X(ARRAY_MOVE, "array_move", "object")                                  \
	X(CACHE_REAP, "cache_reap", "op")                                      \
	/* per-CPU sheaves and the barn (6.18 SLUB_STATS names) */             \
	X(ALLOC_CPU_SHEAF, "alloc_cpu_sheaf", "op")                            \
	X(FREE_CPU_SHEAF, "free_cpu_sheaf", "op")                              \
	X(SHEAF_REFILL, "sheaf_refill", "object")                              \
	X(SHEAF_FLUSH, "sheaf_flush", "object")                                \
	X(SHEAF_ALLOC, "sheaf_alloc", "op")                                    \
	X(SHEAF_FREE, "sheaf_free", "op")                                      \
	X(BARN_GET, "barn_get", "op")                                          \
	X(BARN_GET_FAIL, "barn_get_fail", "op")                                \
	X(BARN_PUT, "barn_put", "op")                                          \
	X(BARN_PUT_FAIL, "barn_put_fail", "op")                                \
	/* kernel options (kconfig.h) */                                       \
	X(INIT_ON_ALLOC, "init_on_alloc", "op")                                \
	X(INIT_ON_ALLOC_BYTES, "init_on_alloc_byte", "byte")                   \
	X(INIT_ON_FREE, "init_on_free", "op")                                  \
	X(INIT_ON_FREE_BYTES, "init_on_free_byte", "byte")                     \
	X(KFENCE_ALLOC, "kfence_alloc", "op")                                  \
	X(KFENCE_FREE, "kfence_free", "op")                                    \
	X(MEMCG_CHARGE, "memcg_charge", "op")                                  \
	X(MEMCG_UNCHARGE, "memcg_uncharge", "op")                              \
	X(MEMCG_VECTOR, "memcg_vector", "slab")                                \
	X(MEMCG_VECTOR_BYTES, "memcg_vector_byte", "byte")

enum ss_step {
#define X(id, name, unit) SS_STEP_##id,
	SS_STEP_LIST(X)
#undef X
	SS_NR_STEPS
};

/* The kernel's name of a step ("alloc_fastpath"), and its unit. */
const char *ss_step_name(enum ss_step s);
const char *ss_step_unit(enum ss_step s);
/* Step by name, or -1. */
int ss_step_find(const char *name);

/* Kernel functions whose calls and inclusive cycles a model records, so
 * that a report can say how much of the time one function took without
 * pricing steps again (functions.csv). */
#define SS_FN_LIST(X)                                                          \
	X(SLAB_ALLOC, "___slab_alloc")                                         \
	X(DEACTIVATE, "deactivate_slab")                                       \
	X(SLAB_FREE, "__slab_free")                                            \
	X(UNFREEZE, "unfreeze_partials")                                       \
	X(ALLOCATE_SLAB, "allocate_slab")                                      \
	X(DISCARD_SLAB, "discard_slab")                                        \
	X(ALLOC_DEBUG, "alloc_debug_processing")                               \
	X(FREE_DEBUG, "free_debug_processing")

enum ss_fn {
#define X(id, name) SS_FN_##id,
	SS_FN_LIST(X)
#undef X
	SS_NR_FNS
};

struct ss_fn_stat {
	uint64_t calls;
	double cycles; /* inclusive: a nested function counts in both */
};

/* The kernel's name of a function ("deactivate_slab"). */
const char *ss_fn_name(enum ss_fn f);

/* Per-operation accumulator: the model adds steps, the cost table prices,
 * and the uses of shared resources (resource.h) are listed in the order
 * they began, for the engine to place on the CPUs' clocks. */
struct ss_op {
	double cycles;
	const double *cost; /* ss_costs.cycles */
	uint64_t *stats;    /* the cache's counters, set by the cache code */
	/* pages this operation gave to slabs (+) and took back from them
	 * (-), in whatever cache: slub_cache.c, slab.c, and a model adding an
	 * initial state's slabs.  The replay's memory total (sim/memcap.h)
	 * moves by it; nonzero tells it to look. */
	int64_t slab_pages;
	/* the model changed the cache outside its steps (an initial state's
	 * objects added, a merged alias's larger object_size): whoever keeps
	 * running totals per cache (sim/account.h) reads it again */
	bool resync;
	unsigned nr_uses;
	unsigned uses_lost; /* uses beyond SS_OP_MAX_USES, not placed */
	struct ss_use use[SS_OP_MAX_USES];
};

/* Only the fields read before written: an initializer would zero the
 * whole use array once per replayed event. */
static inline void ss_op_init(struct ss_op *op, const double *cost)
{
	op->cycles = 0;
	op->cost = cost;
	op->stats = 0;
	op->nr_uses = 0;
	op->uses_lost = 0;
	op->slab_pages = 0;
	op->resync = false;
}

static inline void ss_step(struct ss_op *op, enum ss_step s, uint64_t n)
{
	op->stats[s] += n;
	op->cycles += op->cost[s] * (double)n;
}

/* The cycles of a new operation (0) after one step of price p: p itself.
 * 0 + p is p for every p but -0, and no price is -0: every cost table is
 * read by costs.c, whose figures take no sign (what `slabsim calibrate`
 * and `slabsim costs` write is read back so).  A path's first price
 * needs no add. */
static inline double ss_price_from_0(double p)
{
	return p;
}

/* ss_step(op, s, 1) on an operation's cycles c held by the caller (a
 * register, not op->cycles in memory): the same count, the same sum (a
 * price times 1 is the price). */
static inline double ss_step_on(uint64_t *stats, const double *cost, enum ss_step s,
				double c)
{
	stats[s]++;
	return c + cost[s];
}

static inline struct ss_use *ss_op_use(struct ss_op *op, struct ss_resource *r,
				       struct ss_res_stat *st, enum ss_use_kind kind)
{
	struct ss_use *u;

	if (op->nr_uses == SS_OP_MAX_USES) {
		op->uses_lost++;
		return 0;
	}
	u = &op->use[op->nr_uses++];
	u->res = r;
	u->stat = st;
	u->at = op->cycles;
	u->len = -1;
	u->retry = 0;
	u->kind = kind;
	return u;
}

/* Take lock r now; the hold lasts until ss_op_unlock(op, r). */
static inline void ss_op_lock(struct ss_op *op, struct ss_resource *r,
			      struct ss_res_stat *st)
{
	ss_op_use(op, r, st, SS_USE_LOCK);
}

/* Release r: its latest open hold ends now. */
static inline void ss_op_unlock(struct ss_op *op, struct ss_resource *r)
{
	for (unsigned i = op->nr_uses; i-- > 0;)
		if (op->use[i].res == r && op->use[i].len < 0) {
			op->use[i].len = op->cycles - op->use[i].at;
			return;
		}
}

/* A cmpxchg on r whose read came at `at` (in op's cycles) and its swap
 * `window` cycles later; one more round of its loop costs `retry` cycles.
 * ss_op_cmpxchg: one whose swap is now. */
static inline void ss_op_cmpxchg_at(struct ss_op *op, struct ss_resource *r,
				    struct ss_res_stat *st, double at, double window,
				    double retry)
{
	struct ss_use *u = ss_op_use(op, r, st, SS_USE_CMPXCHG);

	if (u) {
		u->at = at;
		u->len = window;
		u->retry = retry;
	}
}

static inline void ss_op_cmpxchg(struct ss_op *op, struct ss_resource *r,
				 struct ss_res_stat *st, double window,
				 double retry)
{
	ss_op_cmpxchg_at(op, r, st, op->cycles - window, window, retry);
}

/* Record a call of f that began when op->cycles was `start`. */
static inline void ss_fn_done(struct ss_fn_stat *fns, enum ss_fn f,
			      const struct ss_op *op, double start)
{
	fns[f].calls++;
	fns[f].cycles += op->cycles - start;
}

#endif
