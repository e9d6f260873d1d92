/* run.c - the one set-up of a run (run.h). */
#include "run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "parse.h"
#include "site_scan.h"

int ss_topology_for_run(struct ss_topology *topo, const char *spec,
			const char *map, struct ss_target *t,
			struct ss_error *err)
{
	enum ss_cpu_map policy = SS_MAP_IDENTITY;

	if (map && ss_cpu_map_parse(map, &policy))
		return ss_errorf(err, "unknown CPU map '%s' (identity, compact, scatter, fold)", map);
	if (spec ? ss_topology_load(topo, spec, err)
		 : ss_topology_flat(topo, t->cpus, t->nodes, err))
		return -1;
	if (policy != SS_MAP_IDENTITY && ss_topology_set_map(topo, policy, err)) {
		ss_topology_release(topo);
		return -1;
	}
	t->cpus = topo->nr_cpus;
	t->nodes = topo->nr_nodes;
	return 0;
}

int ss_run_setup_load(struct ss_run_setup *s, const struct ss_run_spec *spec,
		      struct ss_error *err)
{
	if (ss_model_parse(spec->model, &s->desc, s->debug_spec,
			   sizeof(s->debug_spec), err))
		return -1;
	if (spec->slub_debug) {
		if (s->debug_spec[0])
			return ss_errorf(err, "slub_debug given twice: '%s' and --slub-debug '%s'",
					 spec->model, spec->slub_debug);
		if (strlen(spec->slub_debug) >= sizeof(s->debug_spec))
			return ss_errorf(err, "slub_debug spec too long");
		strcpy(s->debug_spec, spec->slub_debug);
	}
	if (s->debug_spec[0] && ss_model_config_debug(&s->cfg, s->debug_spec, err))
		return -1;
	if (ss_target_load(spec->target, &s->target, err) ||
	    ss_costs_load(&s->costs, spec->costs, err))
		return -1;
	s->kernel = s->target; /* (the initial state's kernel by default) */
	if (spec->place && spec->overrides)
		return ss_errorf(err, "placement overrides given twice");
	if (spec->place && ss_overrides_load(&s->place, spec->place, err))
		return -1;
	s->cfg.overrides = spec->place ? &s->place : spec->overrides;
	if (spec->allocator &&
	    ss_allocator_parse(spec->allocator, &s->target.kc.allocator))
		return ss_errorf(err, "unknown allocator '%s' (slub, slub-tiny, slab)",
				 spec->allocator);
	if ((spec->config && ss_kconfig_apply_list(&s->target, spec->config, err)) ||
	    ss_kconfig_finish(&s->target, err)) {
		s->kernel_error = true;
		return -1;
	}
	/* slub_debug= is mm/slub.c's; mm/slab.c has only the build-time
	 * CONFIG_DEBUG_SLAB, not modelled: no SLAB kernel runs this model */
	if (s->debug_spec[0] && s->target.kc.allocator == SS_ALLOCATOR_SLAB) {
		s->kernel_error = true;
		return ss_errorf(err, "model %s: slub_debug is SLUB's; SLAB has no slub_debug "
				 "(its CONFIG_DEBUG_SLAB is not modelled)", spec->model);
	}
	if (spec->cpus)
		s->target.cpus = spec->cpus;
	if (spec->nodes)
		s->target.nodes = spec->nodes;
	return 0;
}

/* The model configuration, once the trace is open, with the capture's
 * reconciliation (reconcile/recon.h).  0, or -1 with err. */
static int configure(struct ss_run_setup *s, const struct ss_run_spec *spec,
		     const struct ss_trace_tables *tables, struct ss_error *err)
{
	struct ss_recon_spec rs = {
		.initial = spec->initial_state ? &s->initial : NULL,
		.kernel = spec->initial_state ? &s->kernel : NULL,
		.counts = spec->initial_state && s->pass->prior_counts.slabs.nr ?
				  &s->pass->prior_counts : NULL,
		.draw_seed = spec->draw_seed,
	};

	if (ss_recon_create(&s->recon, &rs, err))
		return -1;
	s->cfg.target = &s->target;
	s->cfg.topo = &s->topo;
	s->cfg.merge = !spec->no_merge;
	s->cfg.kernel_caches = s->imported;
	s->cfg.kernel_vectors = s->imported && s->pass->slab_vectors != 0;
	s->cfg.recon = ss_recon_hooks(s->recon);
	s->cfg.tables = tables;
	s->cfg.sites = s->desc->needs_site_sizes ? &s->pass->sites : NULL;
	return 0;
}

/* The kernel the initial state was taken from had CONFIG_MEMCG when it
 * lists kmalloc-cg-N caches (create_kmalloc_caches(), 5.14+, makes them
 * only with it), and an accounted kmalloc went there: the run models
 * that kernel unless --config says otherwise.  Without this, 6.x targets
 * (CONFIG_MEMCG off by default) put a capture's accounted kmallocs --
 * 29% of a git clone's -- into kmalloc-N. */
static void kernel_from_snapshot(struct ss_run_setup *s)
{
	if (s->target.kc.memcg_given || s->target.era < SS_ERA_5_9)
		return;
	for (unsigned i = 0; i < s->initial.nr; i++)
		if (!strncmp(s->initial.caches[i].name, "kmalloc-cg-", 11)) {
			s->target.kc.memcg = true;
			return;
		}
}

/* A capture whose kernel had CONFIG_MEMCG (its snapshot lists
 * kmalloc-cg-N) and charged nothing (the import saw no obj_exts vector
 * event: meta slab_vectors 0) ran with no memory cgroup below the root:
 * memcg_kmem_online() false, so no object was charged and no slab got a
 * vector.  The run models that kernel unless --config says otherwise
 * (memcg_kmem_online=y: the what-if of a cgroup). */
static void kernel_from_trace(struct ss_run_setup *s)
{
	bool cg = false;

	if (!s->imported || s->pass->slab_vectors != 0 || s->target.kc.memcg_kmem_given)
		return;
	for (unsigned i = 0; i < s->initial.nr && !cg; i++)
		cg = !strncmp(s->initial.caches[i].name, "kmalloc-cg-", 11);
	if (cg)
		s->target.kc.memcg_kmem_online = false;
}

/* A trace that holds its kernel's obj_exts vectors (meta slab_vectors
 * above 0: kmallocs at alloc_slab_obj_exts(), memcg_alloc_slab_cgroups()
 * before 6.10) came from a kernel that charged: memcg_kmem_online() true.  --config
 * memcg_kmem_online=y is then that kernel, no what-if; =n would keep the
 * vectors the trace replays though such a kernel makes none.  Both are
 * refused rather than run as an answer they are not. */
static int memcg_online_given(const struct ss_run_setup *s, struct ss_error *err)
{
	if (!s->imported || s->pass->slab_vectors <= 0 || !s->target.kc.memcg_kmem_given)
		return 0;
	if (s->target.kc.memcg_kmem_online)
		return ss_errorf(err, "--config memcg_kmem_online=y: %s holds its kernel's obj_exts vectors "
				 "(meta slab_vectors %lld): that kernel charged already, so this is the "
				 "capture's own setting, not a what-if", s->trace,
				 (long long)s->pass->slab_vectors);
	return ss_errorf(err, "--config memcg_kmem_online=n: %s holds its kernel's obj_exts vectors "
			 "(meta slab_vectors %lld), which a kernel that charges nothing does not make; "
			 "the replay cannot take them out: not modelled", s->trace,
			 (long long)s->pass->slab_vectors);
}

/* The free slots of the CPUs' active slabs at the trace's start, as a
 * raw-pointer import saw them (reconcile/import/cpuslab.c): the initial state takes
 * them instead of its half-full estimate (slab_prior.c). */
static int take_cpu_free(struct ss_run_setup *s, struct ss_error *err)
{
	unsigned skipped;
	struct ss_error e;

	if (ss_snap_take_cpu_free(&s->initial, s->pass->cpu_slab_free, &skipped, &e))
		return ss_errorf(err, "%s: %s", s->trace, e.msg);
	return 0;
}

/* The node partial slabs of the initial state as the kernel listed them
 * (slab-fill): their fills, and, when the trace was imported with the
 * same file (meta slab_fill), the trace's kernel slab ids are their
 * places.  Another file than the import's is refused: its ids would name
 * other slabs. */
static int take_slab_fill(struct ss_run_setup *s, const char *path, struct ss_error *err)
{
	unsigned skipped = 0;
	uint64_t hash;
	char hex[32];

	if (ss_snap_take_fill(&s->initial, path, &hash, &skipped, err))
		return -1;
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)hash);
	if (s->pass->slab_fill && strcmp(s->pass->slab_fill, hex))
		return ss_errorf(err, "--slab-fill %s: the trace %s was imported with another slab-fill "
				 "file (meta slab_fill %s, this one %s)", path, s->trace,
				 s->pass->slab_fill, hex);
	for (unsigned i = 0; s->pass->slab_fill && i < s->initial.nr; i++)
		s->initial.caches[i].fill_ids = s->initial.caches[i].nr_fill > 0;
	return 0;
}

/* The rules of the kernel the initial state came from (run.h
 * initial_kernel): "TARGET[,cpus=N][,K=V...]", or the run's target file
 * without --config at the trace's CPUs (trace_cpus 0: the file's). */
static int initial_kernel(struct ss_run_setup *s, const struct ss_run_spec *spec,
			  unsigned trace_cpus, struct ss_error *err)
{
	char buf[2048], list[2048] = "", *save = NULL, *item;
	const char *v = spec->initial_kernel;
	unsigned cpus = 0;
	size_t used = 0;
	struct ss_error e;

	if (!v) {
		if (!s->kernel.page_size) /* (a caller that set the target itself) */
			s->kernel = s->target;
		if (trace_cpus)
			s->kernel.cpus = trace_cpus;
		return 0;
	}
	if (strlen(v) >= sizeof(buf))
		return ss_errorf(err, "--initial-kernel: too long");
	strcpy(buf, v);
	item = strtok_r(buf, ",", &save);
	if (!item || ss_target_load(item, &s->kernel, &e))
		return ss_errorf(err, "--initial-kernel '%s': %s", v, item ? e.msg : "no target");
	while ((item = strtok_r(NULL, ",", &save))) {
		if (!strncmp(item, "cpus=", 5)) {
			if (ss_parse_uint(item + 5, 65536, &cpus) || !cpus)
				return ss_errorf(err, "--initial-kernel '%s': cpus=%s is not a CPU count "
						 "(1-65536)", v, item + 5);
			continue;
		}
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", used ? "," : "", item);
	}
	if ((list[0] && ss_kconfig_apply_list(&s->kernel, list, &e)) ||
	    ss_kconfig_finish(&s->kernel, &e))
		return ss_errorf(err, "--initial-kernel '%s': %s", v, e.msg);
	s->kernel.cpus = cpus ? cpus : trace_cpus ? trace_cpus : s->kernel.cpus;
	return 0;
}

/* What both opens do once the pass is open: the trace's own CPUs and
 * kind, the initial state and the topology. */
static int open_prelude(struct ss_run_setup *s, const struct ss_run_spec *spec,
			struct ss_error *err)
{
	s->trace = spec->trace;
	s->max_objects = spec->max_objects;
	s->max_memory = spec->max_memory;
	s->imported = s->pass->imported;
	s->cpus_from = spec->topology ? "topology" : spec->cpus ? "--cpus" : "target";
	if (!spec->topology && !spec->cpus && s->pass->cpus) {
		s->target.cpus = s->pass->cpus;
		s->cpus_from = "trace";
	}
	if (memcg_online_given(s, err))
		return -1;
	if (spec->initial_state && ss_snap_load(&s->initial, spec->initial_state, err))
		return -1;
	if (spec->initial_state) {
		kernel_from_snapshot(s);
		kernel_from_trace(s);
	}
	if (spec->initial_state && initial_kernel(s, spec, s->pass->cpus, err))
		return -1;
	if (spec->initial_state && s->pass->cpu_slab_free && take_cpu_free(s, err))
		return -1;
	if (spec->slab_fill && take_slab_fill(s, spec->slab_fill, err))
		return -1;
	return ss_topology_for_run(&s->topo, spec->topology, spec->map, &s->target, err);
}

void ss_run_setup_needs(const struct ss_run_setup *s, const struct ss_run_spec *spec,
			struct ss_prepass_needs *needs)
{
	needs->site_sizes |= s->desc->needs_site_sizes;
	needs->prior_counts |= spec->initial_state != NULL;
}

int ss_run_setup_open(struct ss_run_setup *s, const struct ss_run_spec *spec,
		      struct ss_error *err)
{
	struct ss_prepass_needs needs = {0};

	ss_run_setup_needs(s, spec, &needs);
	s->pass = &s->own_pass;
	if (ss_prepass_open(&s->own_pass, spec->trace, &needs, err))
		return -1;
	s->reader = s->own_pass.reader;
	s->own_pass.reader = NULL; /* (closed with the run: ss_run_setup_close) */
	ss_trace_note_unchecked(s->reader);
	if (open_prelude(s, spec, err))
		return -1;
	return configure(s, spec, ss_trace_tables(s->reader), err);
}

int ss_run_setup_open_with(struct ss_run_setup *s, const struct ss_run_spec *spec,
			   const struct ss_prepass *pass, const struct ss_trace_tables *tables,
			   struct ss_error *err)
{
	struct ss_prepass_needs needs = {0};

	ss_run_setup_needs(s, spec, &needs);
	s->pass = pass;
	if ((needs.site_sizes && !pass->have_sites) ||
	    (needs.prior_counts && !pass->have_prior_counts))
		return ss_errorf(err, "internal error: %s: the pass lacks what a run needs",
				 spec->trace);
	if (open_prelude(s, spec, err))
		return -1;
	return configure(s, spec, tables, err);
}

int ss_run_setup_model(struct ss_run_setup *s, struct ss_model **model,
		       struct ss_error *err)
{
	if (s->desc->ops->create(model, &s->cfg, s->desc->policy, err))
		return -1;
	ss_recon_bind(s->recon, s->desc, *model);
	return 0;
}

int ss_run_setup_start(struct ss_run_setup *s, struct ss_run *run,
		       struct ss_error *err)
{
	run->target = &s->target;
	run->topo = &s->topo;
	run->costs = &s->costs;
	run->desc = s->desc;
	run->recon = s->recon;
	run->tables = s->cfg.tables;
	if (ss_run_setup_model(s, &run->model, err))
		return -1;
	run->books.mem.max_bytes = s->max_memory;
	return ss_run_init(run, s->max_objects ? s->max_objects : SS_OBJTABLE_DEFAULT_CAP,
			   err);
}

void ss_run_setup_close(struct ss_run_setup *s, struct ss_run *run)
{
	if (run) {
		if (run->model)
			s->desc->ops->destroy(run->model);
		run->model = NULL;
		ss_run_release(run);
	}
	ss_trace_close(s->reader);
	s->reader = NULL;
	ss_prepass_close(&s->own_pass);
	s->pass = NULL;
	ss_recon_destroy(s->recon);
	s->recon = NULL;
	ss_snap_release(&s->initial);
	ss_topology_release(&s->topo);
	ss_overrides_release(&s->place);
}
