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
struct ss_recon_hooks; /* model_recon.h */
struct ss_model_recon; /* model_recon.h */
struct ss_model_batch; /* model_batch.h */

struct ss_model_config {
	const struct ss_target *target;
	const struct ss_topology *topo;
	unsigned debug;		     /* slub_debug flags (SS_DBG_*) */
	char debug_caches[512];	     /* ",a,b," names the flags apply to; "" all */
	bool merge;		     /* SLUB cache merging for new caches */
	/* the trace's declared caches are a kernel's own (an imported trace):
	 * never merged, whatever `merge` says for the model's other caches */
	bool kernel_caches;
	/* the trace holds the kernel's own obj_exts vectors (kmallocs at
	 * alloc_slab_obj_exts, kfrees at __free_slab: an imported trace of a
	 * kernel that charged, or one imported before the import said):
	 * CONFIG_MEMCG's model makes none of its own (cm_memcg.c) */
	bool kernel_vectors;
	/* the reconciliation layer's hooks (model_recon.h): with them each
	 * cache the model makes may start as a kernel's (--initial-state,
	 * reconcile/); NULL: every cache starts empty */
	const struct ss_recon_hooks *recon;
	const struct ss_trace_tables *tables; /* the trace's declared caches */
	const struct ss_site_sizes *sites;    /* when the model needs them */
	/* placement overrides on top of the model's own placement (what
	 * `slabsim advise` proposes, `run --place`); NULL: none */
	const struct ss_overrides *overrides;
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
	/* of live and requested_live: objects the allocator kmalloc'ed for
	 * itself (memcg vectors, SLAB's off-slab management, sheaves), which
	 * no trace event names */
	uint64_t internal_live, internal_requested;
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
	/* Optional (NULL: tick runs after every event when the model has
	 * one).  Whether this instance has timed work at all: without, the
	 * engine calls no tick. */
	bool (*timed)(const struct ss_model *m);
	/* Optional (NULL: none).  This instance's batch replay
	 * (model_batch.h), or NULL: the engine takes its events many at a
	 * time through it, in a run without timed work, instead of calling
	 * alloc and free per event. */
	const struct ss_model_batch *(*batch)(struct ss_model *m);
	/* Optional (NULL: the caches start empty and a free of an object
	 * allocated before the trace takes none out).  The initial-state
	 * interface (model_recon.h), through which the reconciliation layer
	 * (reconcile/recon.h) fits a real capture to the model. */
	const struct ss_model_recon *recon;
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
