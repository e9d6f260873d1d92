/* run_outputs.c - one run's output directory (run_outputs.h). */
#include "run_outputs.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "results.h"
#include "settle.h"
#include "slabtop.h"
#include "timeline.h"

/* caches in each table of the summary printed at the end */
#define RUN_TOP 10

static int timeline_row(struct ss_run *run, struct ss_error *err)
{
	struct ss_run_out *o = run->user;

	(void)err;
	ss_progress_tick(&o->progress, run->books.events);
	ss_timeline_row(o->timeline.fp, run);
	return 0;
}

/* A timeline row, then slabinfo.K-PHASE at a phase marker (K its
 * number), or slabinfo at the end (phase NULL). */
static int on_phase(struct ss_run *run, const char *phase, struct ss_error *err)
{
	struct ss_run_out *o = run->user;
	char name[128];

	if (timeline_row(run, err))
		return -1;
	if (!phase) {
		snprintf(name, sizeof(name), "slabinfo");
	} else {
		char *p;

		snprintf(name, sizeof(name), "slabinfo.%llu-%.80s",
			 (unsigned long long)run->phase_index, phase);
		/* a phase name is any trace name: in a file name, '/' would
		 * leave the directory (found by fuzz_roundtrip) and quotes
		 * trip shells; K keeps the names apart */
		for (p = name + 9; *p; p++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *p))
				*p = '_';
	}
	return ss_write_slabinfo(o->od.stage, name, run, err);
}

int ss_run_out_begin(struct ss_run_out *o, const struct ss_run_out_opts *opts,
		     struct ss_run *run, struct ss_error *err)
{
	memset(o, 0, sizeof(*o));
	run->on_phase = on_phase;
	run->on_sample = timeline_row;
	run->sample_every = opts->sample_every ? opts->sample_every : 4096;
	run->user = o;
	o->run = run;
	return ss_outdir_begin(&o->od, opts->out, err);
}

int ss_run_out_start(struct ss_run_out *o, const struct ss_run_out_opts *opts,
		     const struct ss_run_spec *spec, struct ss_error *err)
{
	snprintf(o->tl, sizeof(o->tl), "%s/timeline.csv", o->od.stage);
	if (ss_atomic_open(&o->timeline, o->tl, err))
		return -1;
	ss_timeline_start(o->timeline.fp, o->run);
	if (opts->progress)
		ss_progress_start(&o->progress, STDERR_FILENO, spec->model, spec->trace);
	return 0;
}

/* --final-state: the settling rule (sim/settle.h), then settled.csv and
 * the final slabinfo again (it was written at the end of the replay);
 * slabinfo.unsettled keeps the replay's own, what a run without
 * --final-state ends with (the report's figure without settling). */
static int settle(struct ss_run_out *o, struct ss_run *run, const struct ss_run_spec *spec,
		  const char *dir, struct ss_error *err)
{
	struct ss_snap after;
	struct ss_settle s;
	struct ss_atomic_file f;
	char path[4200];
	int rc;

	if (!spec->final_state)
		return 0;
	if (ss_write_slabinfo(dir, "slabinfo.unsettled", run, err))
		return -1;
	if (ss_snap_load_in(&after, spec->final_state, "slab-after.txt", err))
		return -1;
	ss_timeline_settled(o->timeline.fp, run); /* the phase's marker row */
	rc = ss_settle_run(run, &after, &s, err);
	ss_snap_release(&after);
	if (rc)
		return -1;
	ss_timeline_settled(o->timeline.fp, run);
	snprintf(path, sizeof(path), "%s/settled.csv", dir);
	if (ss_atomic_open(&f, path, err)) {
		ss_settle_release(&s);
		return -1;
	}
	ss_settle_csv(f.fp, run, &s);
	ss_settle_release(&s);
	if (ss_atomic_commit(&f, err))
		return -1;
	return ss_write_slabinfo(dir, "slabinfo", run, err);
}

/* kernel.txt: what kernel and machine the run modelled and from what,
 * for a report's header and a comparison across allocators and options
 * (docs/outputs.md): the settings as the run took them, so that a report
 * says what its runs used and not what a command line asked for. */
static int write_kernel(const char *dir, const struct ss_run *run, const struct ss_run_spec *sp,
			struct ss_error *err)
{
	const struct ss_target *k;
	struct ss_atomic_file f;
	char path[4200], era[16], opts[1024];
	const char *wl = ss_trace_meta(run->tables, "workload");
	const char *vectors = ss_trace_meta(run->tables, "slab_vectors");
	const bool imported = wl && !strcmp(wl, "import");

	snprintf(path, sizeof(path), "%s/kernel.txt", dir);
	if (ss_atomic_open(&f, path, err))
		return -1;
	ss_era_str(run->target->era, era, sizeof(era));
	ss_kconfig_str(&run->target->kc, opts, sizeof(opts));
	fprintf(f.fp, "target=%s\nera=%s\nallocator=%s\nconfig=%s\n", run->target->name, era,
		ss_allocator_name(run->target->kc.allocator), opts);
	/* slab_nomerge (find_mergeable(), mm/slab_common.c) on a capture:
	 * the trace names each object's cache as the kernel merged it, so
	 * only the caches the model creates are kept apart */
	if ((run->target->kc.nomerge || sp->no_merge) && imported)
		fprintf(f.fp, "nomerge_scope=model\n");
	/* CONFIG_MEMCG=n on a capture whose kernel charged: the trace's
	 * obj_exts vectors (kmallocs at alloc_slab_obj_exts(), 6.10+) are
	 * replayed as any kmalloc, though such a kernel makes none */
	if (!run->target->kc.memcg && imported && vectors && strcmp(vectors, "0"))
		fprintf(f.fp, "memcg_vectors_replayed=%s\n", vectors);
	if (sp->draw_seed) /* (the default draws: no line, as before there was one) */
		fprintf(f.fp, "draw_seed=%llu\n", (unsigned long long)sp->draw_seed);
	/* the slub_* boot parameters (ss_kconfig_set: --config takes them) */
	fprintf(f.fp, "slub_min_order=%u\nslub_max_order=%u\nslub_min_objects=%u\n",
		run->target->slub_min_order, run->target->slub_max_order,
		run->target->slub_min_objects);
	fprintf(f.fp, "cpus=%u\ntopology=%s\ncosts=%s\ntrace=%s\n", run->topo->nr_cpus,
		run->topo->desc, sp->costs ? sp->costs : "default", sp->trace);
	if (sp->initial_state)
		fprintf(f.fp, "initial_state=%s\n", sp->initial_state);
	if (sp->initial_state && (k = ss_recon_kernel(run->recon))) {
		uint32_t relaid, kept;

		/* the rules its layouts were checked against, and what they
		 * gave: caches in this run's order, and kept as they were */
		ss_kconfig_str(&k->kc, opts, sizeof(opts));
		ss_recon_relaid(run->recon, &relaid, &kept);
		fprintf(f.fp, "initial_kernel=%s,cpus=%u,slub_min_order=%u,slub_max_order=%u,"
			      "slub_min_objects=%u%s%s\ninitial_relaid=%u\ninitial_relaid_not=%u\n",
			k->name, k->cpus, k->slub_min_order, k->slub_max_order, k->slub_min_objects,
			opts[0] ? "," : "", opts, relaid, kept);
		/* CONFIG_RANDOM_KMALLOC_CACHES where the snapshot's kernel had
		 * none: kmalloc_type() spreads the run's own kmallocs over the
		 * copies; the snapshot's objects stay in kmalloc-N */
		if (run->target->kc.random_kmalloc && !k->kc.random_kmalloc)
			fprintf(f.fp, "random_kmalloc_initial=kept\n");
	}
	return ss_atomic_commit(&f, err);
}

static int write_results(struct ss_run *run, const struct ss_run_out_opts *opts,
			 const struct ss_run_spec *spec, const struct ss_run_setup *rs,
			 const char *dir, struct ss_error *err)
{
	const char *meta_wl = ss_trace_meta(run->tables, "workload");
	const char *meta_var = ss_trace_meta(run->tables, "variant");
	struct ss_run_labels lb = {
		.workload = meta_wl ? meta_wl : "trace",
		.variant = opts->variant ? opts->variant : meta_var ? meta_var : "-",
		.model = opts->label ? opts->label : spec->model,
		.costs = spec->costs ? spec->costs : "default",
		.slub_debug = rs->debug_spec[0] ? rs->debug_spec : "-",
	};

	if (write_kernel(dir, run, spec, err) ||
	    (spec->initial_state && ss_write_prior(dir, run, err)))
		return -1;
	if (ss_write_caches(dir, run, err) || ss_write_counters(dir, run, err) ||
	    ss_write_sites(dir, run, err) ||
	    ss_write_functions(dir, run, err) || ss_write_locks(dir, run, err) ||
	    ss_write_latency(dir, run, err) || ss_write_work(dir, run, err) ||
	    ss_write_summary(dir, run, &lb, err))
		return -1;
	/* the runs of a set complete one after another: no interleaving */
	if (!opts->quiet && ss_print_slabtop(stdout, run, &lb, RUN_TOP))
		return ss_errorf(err, "stdout: write failed");
	return 0;
}

int ss_run_out_complete(struct ss_run_out *o, const struct ss_run_out_opts *opts,
			struct ss_run *run, const struct ss_run_spec *spec,
			const struct ss_run_setup *rs, struct ss_error *err)
{
	if (settle(o, run, spec, o->od.stage, err) || ss_atomic_commit(&o->timeline, err) ||
	    write_results(run, opts, spec, rs, o->od.stage, err))
		return -1;
	return ss_outdir_commit(&o->od, err);
}

void ss_run_out_release(struct ss_run_out *o, bool failed)
{
	ss_progress_done(&o->progress);
	if (failed) {
		ss_atomic_abort(&o->timeline);
		ss_outdir_abort(&o->od); /* a failed run leaves --out empty */
	}
}
