/* results.c - write a run's result files. */
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "escape.h"
#include "geometry.h"
#include "parse.h"

static int open_in(struct ss_atomic_file *f, const char *dir, const char *name,
		   struct ss_error *err)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return ss_atomic_open(f, path, err);
}

static const char *const summary_cols =
	"workload,variant,model,slub_debug,target,era,cpus,footprint_kib,"
	"requested_bytes,allocated_bytes,padding_bytes,rounding_bytes,align_bytes,"
	"debug_bytes,free_slot_bytes,slab_tail_bytes,large_bytes,slab_pages,"
	"live_objects,caches,alloc_ops,free_ops,sim_time_ms,alloc_time_ms,"
	"work_time_ms,p50_ns,p99_ns,alloc_p50_ns,alloc_p99_ns,free_p50_ns,"
	"free_p99_ns,fastpath_pct,lock_wait_ms,lock_waits,cmpxchg_retries,"
	"remote_line_transfers,sim_time_ns,peak_footprint_kib,peak_requested_bytes,"
	"peak_padding_bytes,peak_rounding_bytes,peak_align_bytes,peak_debug_bytes,"
	"peak_free_slot_bytes,peak_slab_tail_bytes,peak_event";

/* The parts of the footprint at its peak.  Signed: a merged cache whose
 * objects are smaller than a request must not wrap. */
struct peak {
	double kib;
	int64_t requested, rounding, align, debug, free_slot, slab_tail;
	uint64_t event;
};

struct summary {
	struct ss_totals tot;
	struct peak peak;
	char era[16];
	double sim_ms, alloc_ms, work_ms, fastpath_pct, wait_ms;
	uint64_t line_transfers; /* object lines (remote_free) + slab lines */
	double p50, p99, a50, a99, f50, f99; /* ns */
};

static void compute_peak(const struct ss_acct_bytes *b, struct peak *p)
{
	p->kib = (double)b->footprint / 1024.0;
	p->requested = (int64_t)b->requested;
	p->rounding = (int64_t)(b->allocated - b->requested);
	p->align = (int64_t)b->align;
	p->debug = (int64_t)b->debug;
	p->slab_tail = (int64_t)b->slab_tail;
	p->free_slot = (int64_t)(b->footprint - b->allocated - b->align - b->debug -
				 b->slab_tail);
	p->event = b->events;
}

static void compute_summary(const struct ss_run *run, struct summary *s)
{
	struct ss_hist all = run->books.alloc_hist;
	double ops = (double)(ss_run_allocs(run) + ss_run_frees(run));

	for (unsigned i = 0; i < SS_HIST_BUCKETS; i++)
		all.count[i] += run->books.free_hist.count[i];
	all.total += run->books.free_hist.total;
	ss_totals_compute(run->desc, run->model, run->target, &s->tot);
	ss_era_str(run->target->era, s->era, sizeof(s->era));
	compute_peak(&run->books.acct.peak, &s->peak);
	s->sim_ms = ss_run_ns(run, ss_run_sim_cycles(run)) / 1e6;
	s->alloc_ms = ss_run_ns(run, run->books.alloc_cycles + run->books.free_cycles + run->timer_cycles) / 1e6;
	s->work_ms = ss_run_ns(run, run->work_cycles) / 1e6;
	/* fast paths of every allocator: SLUB's per-CPU freelist, SLAB's
	 * array_cache hits, 6.18's sheaves */
	s->fastpath_pct = ops > 0 ? 100.0 * (double)(s->tot.stats[SS_STEP_ALLOC_FASTPATH] +
						     s->tot.stats[SS_STEP_FREE_FASTPATH] +
						     s->tot.stats[SS_STEP_ALLOCHIT] +
						     s->tot.stats[SS_STEP_FREEHIT] +
						     s->tot.stats[SS_STEP_ALLOC_CPU_SHEAF] +
						     s->tot.stats[SS_STEP_FREE_CPU_SHEAF]) / ops
				  : 0;
	s->wait_ms = ss_run_ns(run, run->books.cont.wait_cycles) / 1e6;
	s->line_transfers = s->tot.stats[SS_STEP_REMOTE_FREE] +
			    s->tot.stats[SS_STEP_SLAB_LINE];
	s->p50 = ss_run_ns(run, (double)ss_hist_percentile(&all, 0.50));
	s->p99 = ss_run_ns(run, (double)ss_hist_percentile(&all, 0.99));
	s->a50 = ss_run_ns(run, (double)ss_hist_percentile(&run->books.alloc_hist, 0.50));
	s->a99 = ss_run_ns(run, (double)ss_hist_percentile(&run->books.alloc_hist, 0.99));
	s->f50 = ss_run_ns(run, (double)ss_hist_percentile(&run->books.free_hist, 0.50));
	s->f99 = ss_run_ns(run, (double)ss_hist_percentile(&run->books.free_hist, 0.99));
}

static void summary_csv(FILE *fp, const struct ss_run *run,
			const struct ss_run_labels *lb, const struct summary *s)
{
	const struct ss_totals *t = &s->tot;

	const char *labels[] = {lb->workload, lb->variant, lb->model, lb->slub_debug,
				run->target->name, s->era};

	fprintf(fp, "%s\n", summary_cols);
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		ss_csv_put(fp, labels[i]); /* names may hold ',' '"' '#' */
		fputc(',', fp);
	}
	fprintf(fp, "%u,%.2f,", run->topo->nr_cpus, (double)t->footprint_bytes / 1024.0);
	fprintf(fp, "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,",
		(unsigned long long)t->requested, (unsigned long long)t->allocated,
		(unsigned long long)(t->rounding + t->align),
		(unsigned long long)t->rounding, (unsigned long long)t->align,
		(unsigned long long)t->debug, (unsigned long long)t->free_slot,
		(unsigned long long)t->slab_tail, (unsigned long long)t->large_bytes,
		(unsigned long long)t->slab_pages, (unsigned long long)t->live_objects,
		(unsigned long long)t->caches);
	fprintf(fp, "%llu,%llu,%.3f,%.3f,%.3f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.2f,",
		(unsigned long long)ss_run_allocs(run), (unsigned long long)ss_run_frees(run),
		s->sim_ms, s->alloc_ms, s->work_ms, s->p50, s->p99, s->a50, s->a99,
		s->f50, s->f99, s->fastpath_pct);
	/* sim_time_ns: sim_time_ms unrounded, for differences between runs
	 * smaller than its 1 us (smack17k's patch3 and patch4) */
	fprintf(fp, "%.3f,%llu,%llu,%llu,%.1f,", s->wait_ms,
		(unsigned long long)run->books.cont.waits,
		(unsigned long long)run->books.cont.retries,
		(unsigned long long)s->line_transfers, s->sim_ms * 1e6);
	fprintf(fp, "%.2f,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%llu\n", s->peak.kib,
		(long long)s->peak.requested,
		(long long)(s->peak.rounding + s->peak.align),
		(long long)s->peak.rounding, (long long)s->peak.align,
		(long long)s->peak.debug, (long long)s->peak.free_slot,
		(long long)s->peak.slab_tail, (unsigned long long)s->peak.event);
}

/* The same figures as JSON, plus what the CSV has no room for. */
static void summary_json(FILE *fp, const struct ss_run *run,
			 const struct ss_run_labels *lb, const struct summary *s)
{
	const struct ss_totals *t = &s->tot;

	const char *keys[] = {"workload", "variant", "model", "slub_debug", "target",
			      "era", "topology", "cost_table"};
	const char *vals[] = {lb->workload, lb->variant, lb->model, lb->slub_debug,
			      run->target->name, s->era, run->topo->desc, lb->costs};

	fprintf(fp, "{\n");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		fprintf(fp, "  \"%s\": ", keys[i]);
		ss_json_put(fp, vals[i]); /* escaped: names may hold '"' '\\' */
		fprintf(fp, ",\n");
	}
	fprintf(fp, "  \"clock_mhz\": %u,\n", run->target->clock_mhz);
	fprintf(fp, "  \"footprint_kib\": %.2f,\n  \"requested_bytes\": %llu,\n"
		    "  \"rounding_bytes\": %llu,\n  \"align_bytes\": %llu,\n"
		    "  \"debug_bytes\": %llu,\n  \"free_slot_bytes\": %llu,\n"
		    "  \"slab_tail_bytes\": %llu,\n  \"large_bytes\": %llu,\n"
		    "  \"slabs\": %llu,\n  \"partial_slabs\": %llu,\n"
		    "  \"live_objects\": %llu,\n  \"peak_live_objects\": %llu,\n",
		(double)t->footprint_bytes / 1024.0, (unsigned long long)t->requested,
		(unsigned long long)t->rounding, (unsigned long long)t->align,
		(unsigned long long)t->debug, (unsigned long long)t->free_slot,
		(unsigned long long)t->slab_tail, (unsigned long long)t->large_bytes,
		(unsigned long long)t->slabs, (unsigned long long)t->partial_slabs,
		(unsigned long long)t->live_objects,
		(unsigned long long)run->books.objs.peak_live);
	fprintf(fp, "  \"events\": %llu,\n  \"alloc_ops\": %llu,\n  \"free_ops\": %llu,\n"
		    "  \"zero_size_allocs\": %llu,\n  \"large_allocs\": %llu,\n"
		    "  \"sim_time_ms\": %.3f,\n  \"alloc_time_ms\": %.3f,\n"
		    "  \"work_time_ms\": %.3f,\n  \"p50_ns\": %.1f,\n  \"p99_ns\": %.1f,\n"
		    "  \"fastpath_pct\": %.2f,\n",
		(unsigned long long)run->books.events, (unsigned long long)ss_run_allocs(run),
		(unsigned long long)ss_run_frees(run), (unsigned long long)run->zero_allocs,
		(unsigned long long)run->large_allocs, s->sim_ms, s->alloc_ms,
		s->work_ms, s->p50, s->p99, s->fastpath_pct);
	fprintf(fp, "  \"lock_wait_ms\": %.3f,\n  \"lock_waits\": %llu,\n"
		    "  \"cmpxchg_retries\": %llu,\n  \"cmpxchg_retry_ms\": %.3f,\n"
		    "  \"remote_line_transfers\": %llu,\n"
		    "  \"resource_uses\": %llu,\n  \"resource_uses_unplaced\": %llu,\n",
		s->wait_ms, (unsigned long long)run->books.cont.waits,
		(unsigned long long)run->books.cont.retries,
		ss_run_ns(run, run->books.cont.retry_cycles) / 1e6,
		(unsigned long long)s->line_transfers,
		(unsigned long long)run->books.cont.uses,
		(unsigned long long)run->books.cont.lost);
	fprintf(fp, "  \"peak_footprint_kib\": %.2f,\n  \"peak_requested_bytes\": %lld,\n"
		    "  \"peak_rounding_bytes\": %lld,\n  \"peak_align_bytes\": %lld,\n"
		    "  \"peak_debug_bytes\": %lld,\n  \"peak_free_slot_bytes\": %lld,\n"
		    "  \"peak_slab_tail_bytes\": %lld,\n  \"peak_event\": %llu,\n"
		    "  \"counters\": {",
		s->peak.kib, (long long)s->peak.requested, (long long)s->peak.rounding,
		(long long)s->peak.align, (long long)s->peak.debug,
		(long long)s->peak.free_slot, (long long)s->peak.slab_tail,
		(unsigned long long)s->peak.event);
	for (int i = 0; i < SS_NR_STEPS; i++)
		fprintf(fp, "%s\n    \"%s\": %llu", i ? "," : "", ss_step_name(i),
			(unsigned long long)t->stats[i]);
	fprintf(fp, "\n  }\n}\n");
}

/* The running totals the peak was taken from must end where the model's
 * own reports do: a difference is a bug of the accounting, and a peak
 * built on it would be a silent wrong answer. */
static int check_account(const struct ss_run *run, const struct ss_totals *t,
			 struct ss_error *err)
{
	struct ss_acct_bytes b;

	ss_account_now(&run->books.acct, &b);
	const struct {
		const char *name;
		uint64_t replay, model;
	} part[] = {
		{"footprint", b.footprint, t->footprint_bytes},
		{"requested", b.requested, t->requested - t->internal_requested},
		{"allocated", b.allocated, t->allocated - t->internal_allocated},
		{"alignment", b.align, t->align - t->internal_align},
		{"debug", b.debug, t->debug - t->internal_debug},
		{"slab tail", b.slab_tail, t->slab_tail},
	};

	/* the running totals follow the trace's objects; the model's also
	 * hold the allocator's own (memcg vectors, ...): compare without them */
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		if (part[i].replay != part[i].model)
			return ss_errorf(err, "internal error: the replay's running %s bytes (%llu) "
					      "differ from the model's caches (%llu) at the end",
					 part[i].name, (unsigned long long)part[i].replay,
					 (unsigned long long)part[i].model);
	/* the peak is the largest footprint reached, the end's included: one
	 * below it missed a moment the pages grew (account.c note_peak) */
	if (run->books.acct.peak.footprint < b.footprint)
		return ss_errorf(err, "internal error: the peak footprint (%llu bytes, event %llu) "
				      "is below the footprint at the end (%llu)",
				 (unsigned long long)run->books.acct.peak.footprint,
				 (unsigned long long)run->books.acct.peak.events,
				 (unsigned long long)b.footprint);
	return 0;
}

int ss_write_summary(const char *dir, const struct ss_run *run,
		     const struct ss_run_labels *lb, struct ss_error *err)
{
	struct ss_atomic_file f;
	struct summary s;

	compute_summary(run, &s);
	if (ss_totals_check(&s.tot, err))
		return -1;
	if (check_account(run, &s.tot, err))
		return -1;
	if (open_in(&f, dir, "summary.csv", err))
		return -1;
	summary_csv(f.fp, run, lb, &s);
	if (ss_atomic_commit(&f, err) || open_in(&f, dir, "summary.json", err))
		return -1;
	summary_json(f.fp, run, lb, &s);
	return ss_atomic_commit(&f, err);
}

/* tools/mm/slabinfo.c names: Space, Loss, Lalig, Lpadd, %Ef. */
int ss_write_caches(const char *dir, const struct ss_run *run,
		    struct ss_error *err)
{
	unsigned n = run->desc->ops->nr_caches(run->model);
	struct ss_atomic_file f;

	if (open_in(&f, dir, "caches.csv", err))
		return -1;
	fprintf(f.fp, "name,object_size,slab_size,objs_per_slab,order,objects,"
		      "total_objects,slabs,partial_slabs,cpu_slabs,space_bytes,"
		      "loss_bytes,lalig_bytes,lpadd_bytes,efficiency_pct,debug,"
		      "requested_bytes,rounding_bytes,align_bytes,debug_bytes,"
		      "free_slot_bytes\n");
	for (unsigned i = 0; i < n; i++) {
		struct ss_cache_report r;
		char dbg[16];
		uint64_t slab_bytes_each, lpadd;

		run->desc->ops->cache_report(run->model, i, &r);
		slab_bytes_each = (uint64_t)run->target->page_size << r.order;
		lpadd = (slab_bytes_each - (uint64_t)r.objs_per_slab * r.slab_size) * r.nr_slabs;
		ss_debug_str(r.debug, dbg, sizeof(dbg));
		ss_csv_put(f.fp, r.name);
		fprintf(f.fp, ",%u,%u,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.2f,%s,",
			r.object_size, r.slab_size, r.objs_per_slab, r.order,
			(unsigned long long)r.live, (unsigned long long)r.total_objects,
			(unsigned long long)r.nr_slabs, (unsigned long long)r.partial_slabs,
			(unsigned long long)r.cpu_slabs, (unsigned long long)r.slab_bytes,
			(unsigned long long)(r.slab_bytes - r.live * r.object_size),
			(unsigned long long)((uint64_t)(r.slab_size - r.object_size) * r.live),
			(unsigned long long)lpadd,
			r.slab_bytes ? 100.0 * (double)(r.live * r.object_size) / (double)r.slab_bytes : 0.0,
			dbg);
		/* where the bytes go, as summary.csv splits them (totals.h) */
		fprintf(f.fp, "%llu,%lld,%llu,%llu,%llu\n",
			(unsigned long long)r.requested_live,
			(long long)(r.live * r.object_size - r.requested_live),
			(unsigned long long)(r.live * (r.size_nodebug - r.object_size)),
			(unsigned long long)(r.live * (r.slab_size - r.size_nodebug)),
			(unsigned long long)((r.total_objects - r.live) * r.slab_size));
	}
	return ss_atomic_commit(&f, err);
}

/* The share of the allocated bytes (object_size each) not requested: the
 * rounding.  perf kmem's Frag has the same formula over bytes_alloc =
 * s->size (trace_kmem_cache_alloc(), include/trace/events/kmem.h), the
 * stride, so it also counts alignment and debug bytes (docs/outputs.md). */
static double frag_pct(uint64_t requested, uint64_t allocated)
{
	return allocated ? 100.0 - 100.0 * (double)requested / (double)allocated : 0.0;
}

int ss_write_sites(const char *dir, const struct ss_run *run,
		   struct ss_error *err)
{
	const struct ss_account *a = &run->books.acct;
	struct ss_atomic_file f;
	uint32_t *order;

	if (ss_account_sorted(a, run->tables, &order))
		return ss_errorf(err, "out of memory");
	if (open_in(&f, dir, "sites.csv", err)) {
		free(order);
		return -1;
	}
	fprintf(f.fp, "site,cache,allocs,frees,requested_bytes,allocated_bytes,frag_pct,"
		      "cross_cpu_frees,live_objects,peak_live_objects,live_requested_bytes,"
		      "rounding_bytes,align_bytes,debug_bytes\n");
	for (uint32_t i = 0; i < a->nr_sites; i++) {
		const struct ss_acct_site *s = &a->site[order[i]];
		const struct ss_acct_cache *k = ss_account_geo(a, s->cache);
		uint64_t live = s->allocs - s->frees, allocated = ss_account_site_allocated(a, s);

		ss_csv_put(f.fp, ss_account_site_name(s, run->tables));
		fputc(',', f.fp);
		ss_csv_put(f.fp, ss_account_cache_name(a, s));
		fprintf(f.fp, ",%llu,%llu,%llu,%llu,%.2f,%llu,%llu,%llu,%llu,%lld,%llu,%llu\n",
			(unsigned long long)s->allocs, (unsigned long long)s->frees,
			(unsigned long long)s->requested, (unsigned long long)allocated,
			frag_pct(s->requested, allocated), (unsigned long long)s->cross_cpu,
			(unsigned long long)live, (unsigned long long)s->peak_live,
			(unsigned long long)(s->requested - s->freed_requested),
			/* at the cache's object_size now, as caches.csv
			 * counts it (a merged alias may have grown it) */
			(long long)((k ? live * k->object_size : s->allocated - s->freed_allocated) -
				    (s->requested - s->freed_requested)),
			k ? (unsigned long long)(live * k->align_each) : 0ull,
			k ? (unsigned long long)(live * k->debug_each) : 0ull);
	}
	free(order);
	return ss_atomic_commit(&f, err);
}

int ss_write_counters(const char *dir, const struct ss_run *run,
		      struct ss_error *err)
{
	unsigned n = run->desc->ops->nr_caches(run->model);
	struct ss_atomic_file f;

	if (open_in(&f, dir, "counters.csv", err))
		return -1;
	fprintf(f.fp, "cache,counter,unit,value\n");
	for (unsigned i = 0; i < n; i++) {
		struct ss_cache_report r;

		run->desc->ops->cache_report(run->model, i, &r);
		for (int s = 0; s < SS_NR_STEPS; s++)
			if (r.stats[s])
			{
				ss_csv_put(f.fp, r.name);
				fprintf(f.fp, ",%s,%s,%llu\n", ss_step_name(s),
					ss_step_unit(s), (unsigned long long)r.stats[s]);
			}
	}
	return ss_atomic_commit(&f, err);
}

int ss_write_locks(const char *dir, const struct ss_run *run,
		   struct ss_error *err)
{
	unsigned n = run->desc->ops->nr_caches(run->model);
	struct ss_atomic_file f;

	if (open_in(&f, dir, "locks.csv", err))
		return -1;
	fprintf(f.fp, "cache,resource,uses,waits,retries,wait_ms,hold_ms\n");
	for (unsigned i = 0; i < n; i++) {
		struct ss_cache_report r;

		run->desc->ops->cache_report(run->model, i, &r);
		for (unsigned k = 0; k < r.nr_res; k++) {
			const struct ss_res_stat *st = &r.res[k];

			if (!st->uses)
				continue;
			ss_csv_put(f.fp, r.name);
			fputc(',', f.fp);
			ss_csv_put(f.fp, r.res_names[k]);
			fprintf(f.fp, ",%llu,%llu,%llu,%.6f,%.6f\n", (unsigned long long)st->uses,
				(unsigned long long)st->waits, (unsigned long long)st->retries,
				ss_run_ns(run, st->wait_cycles) / 1e6,
				ss_run_ns(run, st->hold_cycles) / 1e6);
		}
	}
	return ss_atomic_commit(&f, err);
}

int ss_write_functions(const char *dir, const struct ss_run *run,
		       struct ss_error *err)
{
	unsigned n = run->desc->ops->nr_caches(run->model);
	struct ss_atomic_file f;

	if (open_in(&f, dir, "functions.csv", err))
		return -1;
	fprintf(f.fp, "cache,function,calls,cycles\n");
	for (unsigned i = 0; i < n; i++) {
		struct ss_cache_report r;

		run->desc->ops->cache_report(run->model, i, &r);
		for (int k = 0; r.fns && k < SS_NR_FNS; k++)
			if (r.fns[k].calls)
			{
				ss_csv_put(f.fp, r.name);
				fprintf(f.fp, ",%s,%llu,%.1f\n", ss_fn_name(k),
					(unsigned long long)r.fns[k].calls, r.fns[k].cycles);
			}
	}
	return ss_atomic_commit(&f, err);
}

static void latency_rows(FILE *fp, const struct ss_run *run, const char *op,
			 const struct ss_hist *h)
{
	for (unsigned i = 0; i < SS_HIST_BUCKETS; i++)
		if (h->count[i])
			fprintf(fp, "%s,%.1f,%llu\n", op,
				ss_run_ns(run, (double)ss_hist_bucket_max(i)),
				(unsigned long long)h->count[i]);
}

int ss_write_latency(const char *dir, const struct ss_run *run,
		     struct ss_error *err)
{
	struct ss_atomic_file f;

	if (open_in(&f, dir, "latency.csv", err))
		return -1;
	fprintf(f.fp, "op,ns,count\n");
	latency_rows(f.fp, run, "alloc", &run->books.alloc_hist);
	latency_rows(f.fp, run, "free", &run->books.free_hist);
	return ss_atomic_commit(&f, err);
}

int ss_write_work(const char *dir, const struct ss_run *run,
		  struct ss_error *err)
{
	struct ss_atomic_file f;

	if (open_in(&f, dir, "work.csv", err))
		return -1;
	fprintf(f.fp, "label,events,cycles,ms\n");
	fprintf(f.fp, "allocator,%llu,%.0f,%.3f\n",
		(unsigned long long)(ss_run_allocs(run) + ss_run_frees(run)),
		run->books.alloc_cycles + run->books.free_cycles + run->timer_cycles,
		ss_run_ns(run, run->books.alloc_cycles + run->books.free_cycles + run->timer_cycles) / 1e6);
	for (uint32_t i = 0; i < run->nr_labels; i++)
		if (run->label_events[i])
		{
			ss_csv_put(f.fp, ss_trace_name(run->tables, i));
			fprintf(f.fp, ",%llu,%.0f,%.3f\n",
				(unsigned long long)run->label_events[i], run->label_cycles[i],
				ss_run_ns(run, run->label_cycles[i]) / 1e6);
		}
	return ss_atomic_commit(&f, err);
}

/* Cache `name`'s count in the trace's meta untraced_allocs ("CACHE=N
 * ..."; the import's frees of objects allocated without an event), 0
 * when it has none (the run checked the list when it opened the trace:
 * sim/run.c trace_header). */
static uint64_t untraced_allocs_of(const char *meta, const char *name)
{
	uint64_t n;

	return meta && ss_parse_count_of(meta, name, &n) ? n : 0;
}

int ss_write_prior(const char *dir, const struct ss_run *run, struct ss_error *err)
{
	unsigned n = run->desc->ops->nr_caches(run->model);
	const char *untraced = ss_trace_meta(run->tables, "untraced_allocs");
	struct ss_atomic_file f;

	if (open_in(&f, dir, "prior.csv", err))
		return -1;
	fprintf(f.fp, "cache,from_snapshot,prior_live,prior_freed,prior_missing,kslabs_seen_freed,"
		      "untraced_allocs,cpu_free_estimated,cpu_free_measured,kslabs_freed_from,"
		      "kslabs_whole,prior_slabs_not_full,prior_slabs_freed,prior_freed_unseen,"
		      "kslabs_listed,prior_listed_unseen,cpu_slabs_listed,cpu_free_end,"
		      "initial_objects,initial_slabs\n");
	for (unsigned i = 0; i < n; i++) {
		struct ss_cache_report c;
		struct ss_recon_report r;

		/* (a cache the initial state never touched has no row) */
		if (!ss_recon_report(run->recon, i, &r) ||
		    (!r.from_snapshot && !r.prior_freed && !r.prior_missing && !r.prior_live &&
		     !r.prior_listed_unseen))
			continue;
		run->desc->ops->cache_report(run->model, i, &c);
		fprintf(f.fp, "%s,%d,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
			"%llu,%llu,%llu,%llu\n",
			c.name, r.from_snapshot,
			(unsigned long long)r.prior_live, (unsigned long long)r.prior_freed,
			(unsigned long long)r.prior_missing, (unsigned long long)r.kslabs_seen_freed,
			(unsigned long long)untraced_allocs_of(untraced, c.name),
			(unsigned long long)r.cpu_free_estimated,
			(unsigned long long)r.cpu_free_measured,
			(unsigned long long)r.kslabs_freed_from, (unsigned long long)r.kslabs_whole,
			(unsigned long long)r.prior_slabs_not_full,
			(unsigned long long)r.prior_slabs_freed,
			(unsigned long long)r.prior_freed_unseen,
			(unsigned long long)r.kslabs_listed,
			(unsigned long long)r.prior_listed_unseen,
			(unsigned long long)r.cpu_slabs_listed,
			(unsigned long long)r.cpu_free_end,
			(unsigned long long)r.initial_objects, (unsigned long long)r.initial_slabs);
	}
	return ss_atomic_commit(&f, err);
}

/* get_slabinfo() / slabinfo_show(): active objects are all but the free
 * slots on node partial lists (SLAB: on its node lists); tunables are 0
 * under SLUB, SLAB's limit, batchcount and shared factor. */
int ss_write_slabinfo(const char *dir, const char *name,
		      const struct ss_run *run, struct ss_error *err)
{
	unsigned n = run->desc->ops->nr_caches(run->model);
	struct ss_atomic_file f;

	if (open_in(&f, dir, name, err))
		return -1;
	fprintf(f.fp, "slabinfo - version: 2.1\n"
		      "# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>"
		      " : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n");
	for (unsigned i = 0; i < n; i++) {
		struct ss_cache_report r;

		run->desc->ops->cache_report(run->model, i, &r);
		fprintf(f.fp, "%-17s %6llu %6llu %6u %4u %4u : tunables %4d %4d %4d : slabdata %6llu %6llu %6d\n",
			r.name, (unsigned long long)(r.total_objects - r.node_partial_free),
			(unsigned long long)r.total_objects, r.slab_size,
			r.objs_per_slab, 1u << r.order, (int)r.limit, (int)r.batchcount,
			(int)r.shared,
			(unsigned long long)r.nr_slabs, (unsigned long long)r.nr_slabs, 0);
	}
	return ss_atomic_commit(&f, err);
}
