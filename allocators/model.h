/* model.h - the interface every allocator model implements.
 *
 * The engine (sim/replay.c) owns the object table and calls a model for
 * each alloc and free; the model says where the object went (struct
 * ss_obj) and which steps it took (struct ss_op).  A model is a row in
 * allocators/registry.c: adding one touches nothing else.
 */
#ifndef SS_MODEL_H
#define SS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "costs.h"
#include "error.h"
#include "slabsnap.h"
#include "steps.h"
#include "target.h"
#include "topology.h"
#include "trace.h"

/* Object record kept by the engine, indexed by object id. */
enum ss_obj_state { SS_OBJ_FREE = 0, SS_OBJ_LIVE, SS_OBJ_ZERO, SS_OBJ_LARGE };

/* After a free the record keeps cache, site and CPUs, and `freed` says what
 * the object was, so a second free can be told from a free of an id never
 * allocated (sim/bad_free.c).  32 bytes at most: the table holds one per id. */
struct ss_obj {
	void *slab;	/* the model's slab (NULL for zero-size and large) */
	uint64_t size;	/* bytes requested */
	uint32_t cache; /* the model's cache index */
	uint32_t site;	/* allocation site (trace name index) */
	/* what is read only while the object is free, and only while it is
	 * allocated: one place for both (a zeroed record is never allocated) */
	union {
		struct {
			uint16_t free_cpu; /* freeing CPU, once freed */
			uint8_t freed;	/* state it had when last freed; SS_OBJ_FREE: never */
		};
		/* allocated: its (site, cache) pair in the replay's running
		 * totals, so that its free does not look the pair up
		 * (sim/account.h) */
		uint32_t acct;
	};
	uint16_t cpu;	/* allocating CPU */
	uint8_t state;	/* enum ss_obj_state */
	uint8_t mflags;	/* the model's own marks, set by every alloc */
};
_Static_assert(sizeof(struct ss_obj) <= 32, "struct ss_obj is one per object id");

/* Sizes seen per site in a pre-scan of the trace (for placements that
 * give fixed-size sites their own cache). */
struct ss_site_sizes {
	uint64_t *min, *max; /* indexed by trace name index; min > max: unseen */
	uint32_t *api;	     /* api of the site's first allocation */
	uint32_t nr;
};

struct ss_overrides; /* override.h */
struct ss_prior_counts; /* prior_counts.h */

struct ss_model_config {
	const struct ss_target *target;
	const struct ss_topology *topo;
	unsigned debug;		     /* slub_debug flags (SS_DBG_*) */
	char debug_caches[512];	     /* ",a,b," names the flags apply to; "" all */
	bool merge;		     /* SLUB cache merging for new caches */
	/* the trace's declared caches are a kernel's own (an imported trace):
	 * never merged, whatever `merge` says for the model's other caches */
	bool kernel_caches;
	/* the kernel's caches when the trace began (--initial-state): a
	 * cache created under a name it lists starts with its geometry,
	 * slabs and objects (allocators/slab_prior.h); NULL: empty */
	const struct ss_snap *initial;
	const struct ss_trace_tables *tables; /* the trace's declared caches */
	const struct ss_site_sizes *sites;    /* when the model needs them */
	/* placement overrides on top of the model's own placement (what
	 * `slabsim advise` proposes, `run --place`); NULL: none */
	const struct ss_overrides *overrides;
	/* per kernel slab of the trace's prior frees, how many it makes
	 * (a raw-pointer capture, --initial-state); NULL: not counted */
	const struct ss_prior_counts *prior_counts;
	/* which of the equally likely draws an initial state makes for the
	 * slabs of objects freed from before the trace (slab_prior.c): 0 is
	 * each cache's own (seeded by its name), any other a different
	 * sequence (run --draw-seed: how much of a figure is the draw) */
	uint64_t draw_seed;
};

/* One cache as reports see it (caches.csv, slabinfo, summary). */
struct ss_cache_report {
	const char *name;
	unsigned object_size, slab_size, size_nodebug, objs_per_slab, order;
	unsigned debug, align;
	/* the list limits the allocator keeps (0: none): s->min_partial, and
	 * the per-CPU partial limit in objects (before 5.16) or in slabs */
	unsigned min_partial, cpu_partial, cpu_partial_slabs;
	/* the per-CPU object caches (0: none): SLAB's array_cache limit,
	 * batchcount and shared factor (slabinfo's tunables), and a
	 * SLUB cache's sheaf capacity (6.18) */
	unsigned limit, batchcount, shared, sheaf_capacity;
	bool debug_checks; /* the debug paths run consistency checks */
	uint64_t live, requested_live, nr_slabs, total_objects, slab_bytes;
	uint64_t partial_slabs, cpu_slabs, peak_slab_bytes;
	uint64_t node_partial_free; /* free slots on node partial lists (slabinfo) */
	/* objects of the initial state: still allocated, freed by prior
	 * frees, and prior frees that found none left */
	uint64_t prior_live, prior_freed, prior_missing;
	/* kernel slabs the trace names by their place on the node partial
	 * list (slab-fill), and frees of them beyond what they held */
	uint64_t kslabs_listed, prior_listed_unseen;
	uint64_t cpu_slabs_listed; /* CPU slabs started as slab-fill listed them */
	/* kernel slabs the trace saw freed whose slab started holding what
	 * they held (slab_prior.h) */
	uint64_t kslabs_seen_freed;
	/* of prior_freed, those taken when the trace saw their kernel slab's
	 * pages freed (no free event of their own: slab_prior.h
	 * ss_kcache_kslab_left) */
	uint64_t prior_freed_unseen;
	/* kernel slabs the trace freed initial objects from, and of them
	 * those that held a whole slab (0 and 0 where a what-if cache holds
	 * several kernel caches' objects); initial slabs that were not full
	 * (CPU and node partial), and initial slabs the replay freed */
	uint64_t kslabs_freed_from, kslabs_whole, prior_slabs_not_full, prior_slabs_freed;
	/* free slots of the initial state's CPU slabs, which SLUB's `objects`
	 * counts as in use: by the half-full estimate, and measured */
	uint64_t cpu_free_estimated, cpu_free_measured;
	/* the CPU slabs' free slots when the report was taken (the run's
	 * end), the same count kernel.csv reads from a slab-fill file after */
	uint64_t cpu_free_end;
	/* of live and requested_live: objects the allocator kmalloc'ed for
	 * itself (memcg vectors, SLAB's off-slab management, sheaves), which
	 * no trace event names */
	uint64_t internal_live, internal_requested;
	bool from_snapshot;	/* geometry taken from the kernel's snapshot */
	const uint64_t *stats;		/* SS_NR_STEPS counters */
	const struct ss_fn_stat *fns;	/* SS_NR_FNS functions, or NULL */
	/* shared resources, one report row each (locks.csv), or nr_res 0 */
	const struct ss_res_stat *res;
	const char *const *res_names;
	unsigned nr_res;
};

/* Allocations that bypass the slab caches (kmalloc_large). */
struct ss_large_report {
	uint64_t live, requested_live, page_bytes, peak_page_bytes;
};

struct ss_model;

struct ss_model_ops {
	int (*create)(struct ss_model **out, const struct ss_model_config *cfg,
		      const void *policy, struct ss_error *err);
	/* 0, or -1 with err (e.g. a cache the target cannot lay out). */
	int (*alloc)(struct ss_model *m, const struct ss_event *ev,
		     struct ss_obj *obj, struct ss_op *op, struct ss_error *err);
	void (*free)(struct ss_model *m, unsigned cpu, struct ss_obj *obj,
		     struct ss_op *op);
	/* A free of an object allocated before the trace (SS_EV_FREE_PRIOR):
	 * one object of the initial state leaves the cache the model would
	 * have put the allocation in.  1 done (*cache: that cache), 0 the
	 * cache has none left (or no initial state), -1 with err.  NULL: 0.
	 * op->resync when the cache gained the kernel's objects or grew its
	 * object_size on the way (*cache is then set even with 0). */
	int (*free_prior)(struct ss_model *m, const struct ss_event *ev,
			  struct ss_op *op, uint32_t *cache, struct ss_error *err);
	/* Optional (NULL: nothing).  The trace saw the kernel slab of prior
	 * free ev freed (its SS_EV_SLAB_FREED line, as a prior free of that
	 * slab): it was empty, so the slab it maps onto here is emptied too
	 * (backend.h kslab_freed).  The objects taken (*cache: their cache;
	 * some may be put back elsewhere in it, so the caller reads the
	 * cache again); -1 with err. */
	int64_t (*kslab_freed)(struct ss_model *m, const struct ss_event *ev, struct ss_op *op,
			       uint32_t *cache, struct ss_error *err);
	unsigned (*nr_caches)(const struct ss_model *m);
	void (*cache_report)(const struct ss_model *m, unsigned i,
			     struct ss_cache_report *r);
	/* Optional (NULL: cache_report's slab_bytes).  Cache i's slab_bytes
	 * alone, for the replay's running totals, which read it whenever an
	 * operation moved slab pages (a full report walks the partial lists). */
	uint64_t (*cache_slab_bytes)(const struct ss_model *m, unsigned i);
	void (*large_report)(const struct ss_model *m, struct ss_large_report *r);
	void (*destroy)(struct ss_model *m);
	/* Optional (NULL: no timed work).  Called after each event with the
	 * CPU that ran it and that CPU's simulated clock in cycles; work the
	 * allocator does on its own timers (SLAB's cache_reap, KFENCE's
	 * sample gate) runs then, and its steps go into op. */
	void (*tick)(struct ss_model *m, unsigned cpu, double now,
		     struct ss_op *op);
};

struct ss_model_desc {
	const char *name;
	const char *summary;
	const struct ss_model_ops *ops;
	const void *policy;	/* model-specific (a placement for SLUB models) */
	bool needs_site_sizes;
};

/* allocators/registry.c */
/* The model called name; '-' and '_' are the same letter, so kmem-cache
 * and kmalloc_buckets name kmem_cache and kmalloc-buckets. */
const struct ss_model_desc *ss_model_find(const char *name);
/* Every model name of a blank-separated list spelled as the registry
 * spells it, in place ("kmem-cache+P traced" -> "kmem_cache+P traced";
 * a compare label's model too: "kmalloc_buckets.slab.c1"): the one
 * normalisation every command that takes model names applies, so that a
 * run's directory, its summary row and every report name it alike.
 * Words that name no model, or name it so already, are not written. */
void ss_model_canon(char *list);
unsigned ss_model_count(void);
const struct ss_model_desc *ss_model_at(unsigned i);

/* "MODEL[+SPEC]" as a user writes it (traced, traced+FZPU, kmem-cache+P,
 * traced+P,kmalloc-64): the model, and in debug (n bytes) the slub_debug
 * spec after '+' (see ss_model_config_debug), "" if none.
 * -1 with err naming the valid models or the valid letters. */
int ss_model_parse(const char *arg, const struct ss_model_desc **desc,
		   char *debug, size_t n, struct ss_error *err);

/* The slub_debug= syntax, "LETTERS[,cache,...]": flags into cfg->debug,
 * the cache names into cfg->debug_caches as ",a,b,".  -1 with err. */
int ss_model_config_debug(struct ss_model_config *cfg, const char *spec,
			  struct ss_error *err);

#endif
