/* run.h - the one set-up of a run, shared by `slabsim run`, bench, host
 * mode and the fuzzers: the model a user named, the target and its CPU
 * and node counts, the topology, the cost table, the trace and what a
 * pre-pass learns of it (prepass.h: opened once, its header, site sizes,
 * prior counts), and the model configuration.
 *
 *   ss_run_setup_load()   model name, target, costs
 *   ss_run_setup_open()   topology, the trace's pre-pass, model config
 *   ss_run_setup_start()  create the model and the replay state
 *   ss_run_setup_close()  release all of it
 *
 * A caller with its own target or costs (the fuzzers) fills those fields
 * and skips ss_run_setup_load().
 */
#ifndef SS_RUN_H
#define SS_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "override.h"
#include "prepass.h"
#include "recon.h"
#include "replay.h"
#include "slabsnap.h"
#include "target.h"
#include "topology.h"

/* What a run is asked for, as options give it.  NULL / 0: the default. */
struct ss_run_spec {
	const char *trace;	/* a path; "-" is stdin */
	const char *model;	/* MODEL[+SPEC], e.g. traced+FZPU */
	const char *target;	/* a name under allocators/targets/ or a path */
	const char *costs;	/* a cost table; NULL: default.costs */
	const char *slub_debug; /* LETTERS[,cache,...] (not with MODEL+SPEC) */
	const char *allocator;	/* slub, slub-tiny, slab; NULL: the target's */
	const char *config;	/* kernel options "K=V,K=V" (kconfig.h) */
	const char *topology;	/* hwloc spec; NULL: flat from cpus/nodes */
	const char *map;	/* trace CPUs onto PUs; NULL: identity */
	unsigned cpus, nodes;	/* 0: the trace's `meta cpus`, else the target's */
	const char *initial_state; /* a slab snapshot the caches start from */
	/* the kernel it came from: "TARGET[,cpus=N][,K=V...]" (its target,
	 * CPU count and options as --config takes them); NULL: the run's
	 * target file without --config, at the trace's meta cpus */
	const char *initial_kernel;
	const char *final_state;   /* the kernel's after-snapshot: settle (settle.h) */
	const char *slab_fill;	   /* the initial state's node partial slabs (slab-fill) */
	bool no_merge;		/* no SLUB merging of the caches a model creates */
	const char *place;	/* a placement override file (override.h) */
	const struct ss_overrides *overrides; /* or a table in memory */
	uint64_t max_objects;	/* 0: SS_OBJTABLE_DEFAULT_CAP */
	uint64_t max_memory;	/* 0: SS_MEMCAP_DEFAULT */
	uint64_t draw_seed;	/* ss_recon_spec's: 0 the default draws */
};

struct ss_run_setup {
	const struct ss_model_desc *desc;
	char debug_spec[600];	/* the slub_debug spec in force, "" if none */
	struct ss_target target;
	struct ss_costs costs;
	struct ss_topology topo;
	struct ss_overrides place; /* read from spec->place */
	struct ss_model_config cfg;
	/* the replay's reader: the pre-pass's (NULL when the run shares a
	 * pass: ss_run_setup_open_with) */
	struct ss_trace_reader *reader;
	struct ss_snap initial;	/* --initial-state, if given */
	struct ss_target kernel; /* the rules of the kernel it came from */
	const struct ss_prepass *pass; /* the trace's header, sites, prior counts */
	struct ss_prepass own_pass;    /* ... this run's own (ss_run_setup_open) */
	/* what fits a capture to the model (reconcile/recon.h): made with
	 * the configuration, bound to each model made from it */
	struct ss_recon *recon;
	const char *cpus_from;	/* "--cpus", "trace", "target" or "topology" */
	bool imported;		/* meta workload import: the kernel's caches */
	const char *trace;	/* the trace's path, as given ("-": stdin) */
	uint64_t max_objects, max_memory;
	bool kernel_error;	/* the load failed on the allocator or options:
				 * a kernel that cannot be configured so */
};

/* The model (desc, debug_spec, cfg.debug*), target and costs. */
int ss_run_setup_load(struct ss_run_setup *s, const struct ss_run_spec *spec,
		      struct ss_error *err);
/* The pre-pass wants of this run, once loaded: added to *needs. */
void ss_run_setup_needs(const struct ss_run_setup *s, const struct ss_run_spec *spec,
			struct ss_prepass_needs *needs);
/* Topology, the trace's pre-pass and reader, and the model
 * configuration. */
int ss_run_setup_open(struct ss_run_setup *s, const struct ss_run_spec *spec,
		      struct ss_error *err);
/* The same for a run that shares the pass of its caller (several runs fed
 * by one pass, sim/multi.h), opened with at least this run's needs: the
 * model reads the trace's tables at `tables` (the caller keeps them as
 * the pass's reader's were when it opened); s->reader stays NULL. */
int ss_run_setup_open_with(struct ss_run_setup *s, const struct ss_run_spec *spec,
			   const struct ss_prepass *pass, const struct ss_trace_tables *tables,
			   struct ss_error *err);
/* Create the model into *model (host mode: no replay state). */
int ss_run_setup_model(struct ss_run_setup *s, struct ss_model **model,
		       struct ss_error *err);
/* Create the model and the replay state of run, whose callbacks the
 * caller has set; then ss_replay(run, s->reader, err). */
int ss_run_setup_start(struct ss_run_setup *s, struct ss_run *run,
		       struct ss_error *err);
/* Release the run (if any), the model in it, the reader and the rest. */
void ss_run_setup_close(struct ss_run_setup *s, struct ss_run *run);

/* A run's topology: spec NULL is the flat topology of the target's cpus
 * and nodes, map NULL is identity.  The target then sees the topology's
 * PU and node counts (calculate_order() counts num_present_cpus()). */
int ss_topology_for_run(struct ss_topology *topo, const char *spec,
			const char *map, struct ss_target *t,
			struct ss_error *err);

#endif
