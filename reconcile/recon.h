/* recon.h - the reconciliation layer's interface to the engine (sim/).
 *
 * A real capture starts with a kernel whose caches already hold objects,
 * frees objects allocated before it (SS_EV_FREE_PRIOR: `u` lines) and
 * sees slabs die whose objects it never saw freed (SS_EV_SLAB_FREED: `d`
 * lines).  A run's struct ss_recon holds what fits such a capture to the
 * model: the kernel's caches when the trace began (--initial-state, with
 * the slab-fill lists and the CPU slabs' free slots: base/slabsnap.h),
 * the prior frees per kernel slab (prior_counts.h) and the draw seed; it
 * reaches the model through the model's initial-state interface
 * (allocators/model_recon.h) and fills each SLUB cache's initial state
 * (slab_prior.h).  Nothing here changes how the model itself allocates
 * or frees.
 *
 *   ss_recon_create()    before the model: the capture's state, and the
 *                        hooks for the model's configuration
 *   ss_recon_bind()      the model made with them
 *   ss_recon_free_prior(), ss_recon_kslab_freed()   the two kinds of event
 *   ss_recon_objects(), ss_recon_report()           what the run reports
 *   ss_recon_initial_bytes()   the initial state's slab bytes loaded so far
 */
#ifndef SS_RECON_H
#define SS_RECON_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "model.h"
#include "prior_counts.h"
#include "slabsnap.h"
#include "steps.h"
#include "trace.h"

struct ss_recon;

struct ss_recon_spec {
	/* the kernel's caches when the trace began (--initial-state): a
	 * cache the model makes under a name it lists starts with its
	 * geometry, slabs and objects; NULL: every cache starts empty */
	const struct ss_snap *initial;
	/* the rules of the kernel it was taken from (its target, CPU count
	 * and slub_* boot parameters): a cache they lay out as the snapshot
	 * shows and the run's rules otherwise starts in the run's order
	 * (relayout.h); NULL: every cache keeps the snapshot's */
	const struct ss_target *kernel;
	/* per kernel slab of the trace's prior frees, how many it makes (a
	 * raw-pointer capture); NULL: not counted */
	const struct ss_prior_counts *counts;
	/* which of the equally likely draws the initial state makes for the
	 * slabs of objects freed from before the trace: 0 is each cache's
	 * own (seeded by its name), any other a different sequence (run
	 * --draw-seed: how much of a figure is the draw) */
	uint64_t draw_seed;
};

/* What the capture alone says of one model cache (prior.csv,
 * docs/outputs.md); all 0 for a cache the initial state never touched. */
struct ss_recon_report {
	bool from_snapshot;	/* geometry taken from the kernel's snapshot */
	/* objects of the initial state: still allocated, freed by prior
	 * frees, and prior frees that found none left */
	uint64_t prior_live, prior_freed, prior_missing;
	/* kernel slabs the trace names by their place on the node partial
	 * list (slab-fill), and frees of them beyond what they held */
	uint64_t kslabs_listed, prior_listed_unseen;
	uint64_t cpu_slabs_listed; /* CPU slabs started as slab-fill listed them */
	/* kernel slabs the trace saw freed whose slab started holding what
	 * they held */
	uint64_t kslabs_seen_freed;
	/* of prior_freed, those taken when the trace saw their kernel slab's
	 * pages freed (no free event of their own) */
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
	/* the cache as the initial state started it (SLUB's `objects`,
	 * slabs): the kernel's before, unless from_snapshot is false (a
	 * geometry of the run's: relaid, or a slub_debug what-if's) */
	uint64_t initial_objects, initial_slabs;
};

/* A run's reconciliation (spec's pointers must outlive it).  0, or -1
 * with err (out of memory). */
int ss_recon_create(struct ss_recon **out, const struct ss_recon_spec *spec,
		    struct ss_error *err);
/* The hooks the model's configuration takes (ss_model_config recon), or
 * NULL without an initial state (the caches then start empty). */
const struct ss_recon_hooks *ss_recon_hooks(struct ss_recon *r);
/* The model made with them; a model without the interface (ss_model_ops
 * recon NULL) takes nothing out for a prior free. */
void ss_recon_bind(struct ss_recon *r, const struct ss_model_desc *desc, struct ss_model *m);
void ss_recon_destroy(struct ss_recon *r);

/* A prior free: one object of the initial state leaves the cache the
 * model would have put the allocation in (*cache, set when there is one),
 * *took when one was left (else it counts in the cache's prior_missing
 * or prior_listed_unseen).  Which one the capture says, as far as it
 * does (slab_prior.h ss_recon_take_prior).  op->resync when the cache
 * gained the kernel's objects or grew its object_size on the way.  r
 * NULL: nothing.  0, or -1 with err. */
int ss_recon_free_prior(struct ss_recon *r, const struct ss_event *ev, struct ss_op *op,
			uint32_t *cache, bool *took, struct ss_error *err);
/* The trace saw the kernel slab of prior free ev freed (its
 * SS_EV_SLAB_FREED line, read as a prior free of that slab): it was
 * empty, so the slab it maps onto here is emptied too -- its initial
 * objects taken as prior frees, and put back on node partial slabs no
 * event touched where the snapshot leaves room, else counted freed
 * without an event (slab_prior.h ss_recon_kslab_left).  *taken: the
 * objects taken (of *cache; some may be put back elsewhere in it, so the
 * caller reads the cache again).  r NULL: none.  0, or -1 with err. */
int ss_recon_kslab_freed(struct ss_recon *r, const struct ss_event *ev, struct ss_op *op,
			 uint32_t *cache, uint32_t *taken, struct ss_error *err);
/* The initial state's objects of model cache `cache`: still allocated,
 * and taken by prior frees (0 and 0: none). */
void ss_recon_objects(const struct ss_recon *r, uint32_t cache, uint64_t *live,
		      uint64_t *freed);
/* The run starts from an initial state (ss_recon_spec initial). */
bool ss_recon_has_initial(const struct ss_recon *r);
/* The slab bytes (PAGE << order per slab) the initial state has given the
 * caches it loaded so far, in the model's own layout: each cache's slabs
 * as ss_recon_populate() or ss_recon_add_prior() made them, counted when
 * they were made -- on the cache's first use, the moment its pages join
 * the run's footprint (model_recon.h).  The run's footprint less this is
 * what the trace's window changed (timeline.csv initial_kib,
 * docs/outputs.md).  0 when r is NULL or has no initial state. */
uint64_t ss_recon_initial_bytes(const struct ss_recon *r);
/* The capture's figures of model cache `cache` into *out: false (and
 * *out all 0) when the initial state never touched it. */
bool ss_recon_report(const struct ss_recon *r, uint32_t cache, struct ss_recon_report *out);
/* The caches started from the snapshot so far that the run's rules lay
 * out in another order than the kernel's (*relaid), and those whose
 * snapshot layout the kernel's rules do not give, kept although the run's
 * rules differ (*kept).  r NULL: 0 and 0. */
void ss_recon_relaid(const struct ss_recon *r, uint32_t *relaid, uint32_t *kept);
/* spec's kernel: the rules the snapshot's layouts are checked against
 * (NULL: none, or r NULL). */
const struct ss_target *ss_recon_kernel(const struct ss_recon *r);

#endif
