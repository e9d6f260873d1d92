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

/* Copy standard input to a temporary file, for models that read the trace
 * twice (a site scan, then the replay).  The file is unlinked as soon as
 * both have opened it. */
static int spool_stdin(struct ss_run_setup *s, struct ss_error *err)
{
	const char *dir = getenv("TMPDIR");
	char buf[1 << 16];
	size_t n;
	FILE *out;
	int fd;

	if ((size_t)snprintf(s->spool, sizeof(s->spool), "%s/slabsim-stdin.XXXXXX",
			     dir && *dir ? dir : "/tmp") >= sizeof(s->spool)) {
		s->spool[0] = '\0';
		return ss_errorf(err, "-: cannot spool standard input: $TMPDIR is too long");
	}
	fd = mkstemp(s->spool);
	if (fd < 0) {
		int e = errno;

		s->spool[0] = '\0';
		return ss_errorf(err, "-: cannot spool standard input: %s", strerror(e));
	}
	/* a signal before the unlink in ss_run_setup_open removes it too */
	s->spool_slot = ss_cleanup_add(s->spool, 0) + 1;
	out = fdopen(fd, "wb");
	if (!out) {
		close(fd);
		return ss_errorf(err, "-: cannot spool standard input: %s", strerror(errno));
	}
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			break;
	if (ferror(stdin) || ferror(out) || fclose(out)) {
		if (!ferror(stdin))
			return ss_errorf(err, "%s: cannot spool standard input: %s", s->spool,
					 strerror(errno));
		return ss_errorf(err, "-: read error on standard input");
	}
	return 0;
}

/* The trace's meta `key`, when it has it, a NAME=COUNT list (the import
 * writes them before the events; results.c and settle.c read them): 0, or
 * -1 with err naming the trace and the first bad entry. */
static int counts_ok(struct ss_trace_reader *r, const char *path, const char *key,
		     struct ss_error *err)
{
	const char *v = ss_trace_meta(ss_trace_tables(r), key), *bad;
	size_t len;

	if (!v || !(bad = ss_parse_counts_bad(v, &len)))
		return 0;
	return ss_errorf(err, "%s: meta %s: '%.*s' is not NAME=COUNT", path, key,
			 len > 80 ? 80 : (int)len, bad);
}

/* What the trace says of itself before its first event: `meta workload`,
 * `meta cpus` and its NAME=COUNT lists (checked), `meta cpu_slab_free`.
 * An imported trace may state its CPUs only at the end (slabsim import
 * before it knew them up front): then the whole trace is read for them.
 * Standard input cannot be read twice: nothing. */
static int trace_header(const char *path, unsigned *cpus, bool *imported,
			char **cpu_slab_free, char **slab_fill, struct ss_error *err)
{
	struct ss_trace_reader *r;
	struct ss_event ev;
	const char *v;
	uint64_t n;
	int rc;

	*cpus = 0;
	*imported = false;
	if (!strcmp(path, "-"))
		return 0;
	if (ss_trace_open(&r, path, err))
		return -1;
	rc = ss_trace_next(r, &ev, err);
	v = ss_trace_meta(ss_trace_tables(r), "workload");
	*imported = v && !strcmp(v, "import");
	if (rc >= 0 && *imported && !ss_trace_meta(ss_trace_tables(r), "cpus"))
		while ((rc = ss_trace_next(r, &ev, err)) == 1)
			;
	v = ss_trace_meta(ss_trace_tables(r), "cpus");
	if (rc >= 0 && v) {
		if (ss_parse_u64(v, 65536, &n) || !n)
			rc = ss_errorf(err, "%s: meta cpus '%s' is not a CPU count (1-65536)", path, v);
		else
			*cpus = (unsigned)n;
	}
	if (rc >= 0)
		rc = counts_ok(r, path, "untraced_allocs", err);
	if (rc >= 0)
		rc = counts_ok(r, path, "untraced_frees", err);
	/* written before the events (import.c), for the initial state */
	v = ss_trace_meta(ss_trace_tables(r), "cpu_slab_free");
	if (rc >= 0 && v && !(*cpu_slab_free = strdup(v)))
		rc = ss_errorf(err, "out of memory");
	v = ss_trace_meta(ss_trace_tables(r), "slab_fill");
	if (rc >= 0 && v && !(*slab_fill = strdup(v)))
		rc = ss_errorf(err, "out of memory");
	ss_trace_close(r);
	return rc < 0 ? -1 : 0;
}

/* The model configuration, once the trace is open, with the capture's
 * reconciliation (reconcile/recon.h).  0, or -1 with err. */
static int configure(struct ss_run_setup *s, const struct ss_run_spec *spec,
		     struct ss_trace_reader *reader, struct ss_error *err)
{
	struct ss_recon_spec rs = {
		.initial = spec->initial_state ? &s->initial : NULL,
		.counts = s->prior_counts.slabs.nr ? &s->prior_counts : NULL,
		.draw_seed = spec->draw_seed,
	};

	if (ss_recon_create(&s->recon, &rs, err))
		return -1;
	s->cfg.target = &s->target;
	s->cfg.topo = &s->topo;
	s->cfg.merge = !spec->no_merge;
	s->cfg.kernel_caches = s->imported;
	s->cfg.recon = ss_recon_hooks(s->recon);
	s->cfg.tables = ss_trace_tables(reader);
	s->cfg.sites = s->desc->needs_site_sizes ? &s->sites : NULL;
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

/* The free slots of the CPUs' active slabs at the trace's start, as a
 * raw-pointer import saw them (import_cpuslab.c): the initial state takes
 * them instead of its half-full estimate (slab_prior.c). */
static int take_cpu_free(struct ss_run_setup *s, struct ss_error *err)
{
	unsigned skipped;
	struct ss_error e;

	if (ss_snap_take_cpu_free(&s->initial, s->cpu_slab_free, &skipped, &e))
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
	if (s->slab_fill && strcmp(s->slab_fill, hex))
		return ss_errorf(err, "--slab-fill %s: the trace %s was imported with another slab-fill "
				 "file (meta slab_fill %s, this one %s)", path, s->trace, s->slab_fill, hex);
	for (unsigned i = 0; s->slab_fill && i < s->initial.nr; i++)
		s->initial.caches[i].fill_ids = s->initial.caches[i].nr_fill > 0;
	return 0;
}

/* What both opens do first: the trace's own CPUs and kind, the initial
 * state and the topology. */
static int open_prelude(struct ss_run_setup *s, const struct ss_run_spec *spec,
			struct ss_error *err)
{
	unsigned trace_cpus;

	s->trace = spec->trace;
	s->max_objects = spec->max_objects;
	s->max_memory = spec->max_memory;
	if (trace_header(spec->trace, &trace_cpus, &s->imported, &s->cpu_slab_free, &s->slab_fill,
			 err))
		return -1;
	s->cpus_from = spec->topology ? "topology" : spec->cpus ? "--cpus" : "target";
	if (!spec->topology && !spec->cpus && trace_cpus) {
		s->target.cpus = trace_cpus;
		s->cpus_from = "trace";
	}
	if (spec->initial_state && ss_snap_load(&s->initial, spec->initial_state, err))
		return -1;
	if (spec->initial_state)
		kernel_from_snapshot(s);
	if (spec->initial_state && s->cpu_slab_free && take_cpu_free(s, err))
		return -1;
	if (spec->slab_fill && take_slab_fill(s, spec->slab_fill, err))
		return -1;
	/* a pass over the trace before the replay (standard input is read
	 * once: its kernel slabs map by draws alone, reconcile/slab_prior.h) */
	if (spec->initial_state && strcmp(spec->trace, "-") &&
	    ss_prior_counts_scan(spec->trace, &s->prior_counts, err))
		return -1;
	return ss_topology_for_run(&s->topo, spec->topology, spec->map, &s->target, err);
}

int ss_run_setup_open(struct ss_run_setup *s, const struct ss_run_spec *spec,
		      struct ss_error *err)
{
	if (open_prelude(s, spec, err))
		return -1;
	if (s->desc->needs_site_sizes && !strcmp(spec->trace, "-")) {
		if (spool_stdin(s, err))
			return -1;
		s->trace = s->spool;
	}
	if (s->desc->needs_site_sizes && ss_site_scan(s->trace, &s->sites, err))
		return -1;
	if (ss_trace_open(&s->reader, s->trace, err))
		return -1;
	ss_trace_note_unchecked(s->reader);
	if (s->spool[0]) { /* both opened it: the name can go */
		unlink(s->spool);
		s->spool[0] = '\0';
		ss_cleanup_del(s->spool_slot - 1);
		s->spool_slot = 0;
	}
	return configure(s, spec, s->reader, err);
}

int ss_run_setup_open_with(struct ss_run_setup *s, const struct ss_run_spec *spec,
			   struct ss_trace_reader *reader, struct ss_error *err)
{
	if (open_prelude(s, spec, err))
		return -1;
	if (s->desc->needs_site_sizes && ss_site_scan(s->trace, &s->sites, err))
		return -1;
	return configure(s, spec, reader, err);
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
	if (s->spool[0])
		unlink(s->spool);
	s->spool[0] = '\0';
	ss_cleanup_del(s->spool_slot - 1);
	s->spool_slot = 0;
	ss_site_sizes_release(&s->sites);
	ss_snap_release(&s->initial);
	free(s->cpu_slab_free);
	s->cpu_slab_free = NULL;
	free(s->slab_fill);
	s->slab_fill = NULL;
	ss_recon_destroy(s->recon);
	s->recon = NULL;
	ss_prior_counts_release(&s->prior_counts);
	ss_topology_release(&s->topo);
	ss_overrides_release(&s->place);
}
