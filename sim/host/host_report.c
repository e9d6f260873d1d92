/* host_report.c - host mode's files (docs/host-mode.md): every figure in
 * them is measured on this machine, never modelled, and says so. */
#include "host_engine.h"

#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
#include "escape.h"
#include "host_clock.h"

struct figures {
	double alloc_mean, free_mean, a50, a99, f50, f99, p99, fast_pct;
};

static double ns(const struct ss_host_stats *st, double ticks)
{
	return st->ticks_per_ns > 0 ? ticks / st->ticks_per_ns : 0;
}

static void compute(const struct ss_host_stats *st, struct figures *f)
{
	struct ss_hist all = st->alloc_hist;
	double ops = (double)(st->alloc_ops + st->free_ops);

	for (unsigned i = 0; i < SS_HIST_BUCKETS; i++)
		all.count[i] += st->free_hist.count[i];
	all.total += st->free_hist.total;
	f->alloc_mean = st->alloc_ops ? ns(st, st->alloc_ticks / (double)st->alloc_ops) : 0;
	f->free_mean = st->free_ops ? ns(st, st->free_ticks / (double)st->free_ops) : 0;
	f->a50 = ns(st, (double)ss_hist_percentile(&st->alloc_hist, 0.50));
	f->a99 = ns(st, (double)ss_hist_percentile(&st->alloc_hist, 0.99));
	f->f50 = ns(st, (double)ss_hist_percentile(&st->free_hist, 0.50));
	f->f99 = ns(st, (double)ss_hist_percentile(&st->free_hist, 0.99));
	f->p99 = ns(st, (double)ss_hist_percentile(&all, 0.99));
	f->fast_pct = ops > 0 ? 100.0 * (double)(st->fast_allocs + st->fast_frees) / ops : 0;
}

static int open_in(struct ss_atomic_file *f, const char *dir, const char *name,
		   struct ss_error *err)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return ss_atomic_open(f, path, err);
}

/* Labels go into CSV quoted (RFC 4180) and into JSON escaped, whole:
 * no name is cut or changed (base/escape.h). */
static void csv_labels(FILE *fp, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputc(',', fp);
		ss_csv_put(fp, v[i]);
	}
}

static void json_labels(FILE *fp, const char *const *k, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(fp, "  \"%s\": ", k[i]);
		ss_json_put(fp, v[i]);
		fprintf(fp, ",\n");
	}
}

static const char *const csv_cols =
	"kind,workload,variant,model,slub_debug,target,pus,events,alloc_ops,free_ops,"
	"wall_ms,alloc_mean_ns,alloc_p50_ns,alloc_p99_ns,free_mean_ns,free_p50_ns,"
	"free_p99_ns,p99_ns,fastpath_pct,remote_frees,slabs_mapped,peak_mapped_kib,"
	"poison_written_bytes,poison_checked_bytes";

static void write_csv(FILE *fp, const struct ss_host_opts *o,
		      const struct ss_host_stats *st, const struct figures *f)
{
	const char *labels[] = {st->workload, st->variant, o->spec.model, st->slub_debug,
				o->spec.target};

	fprintf(fp, "%s\nmeasured", csv_cols);
	csv_labels(fp, labels, sizeof(labels) / sizeof(labels[0]));
	fprintf(fp, ",%u,%llu,%llu,%llu,%.3f,", st->nr_threads,
		(unsigned long long)st->events, (unsigned long long)st->alloc_ops,
		(unsigned long long)st->free_ops, st->wall_ns / 1e6);
	fprintf(fp, "%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.2f,%llu,%llu,%.2f,%llu,%llu\n",
		f->alloc_mean, f->a50, f->a99, f->free_mean, f->f50, f->f99, f->p99,
		f->fast_pct, (unsigned long long)st->remote_frees,
		(unsigned long long)st->slabs_mapped, (double)st->peak_mapped_bytes / 1024.0,
		(unsigned long long)st->poison_written,
		(unsigned long long)st->poison_checked);
}

static void json_threads(FILE *fp, const struct ss_host_stats *st)
{
	fprintf(fp, "  \"threads\": [\n");
	for (unsigned i = 0; i < st->nr_threads; i++) {
		const struct ss_host_thread *t = &st->threads[i];

		fprintf(fp, "    {\"pu\": %u, \"host_pu_os\": %u, \"affinity_cpus\": %u, \"affinity_cpu\": %d}%s\n",
			t->pu, t->host_os, t->affinity_nr, t->affinity_os,
			i + 1 < st->nr_threads ? "," : "");
	}
	fprintf(fp, "  ],\n");
}

static void json_events(FILE *fp, const struct ss_host_stats *st)
{
	fprintf(fp, "  \"events\": [\n");
	for (unsigned i = 0; i < st->pmu.nr; i++) {
		const struct ss_pmu_event *ev = &st->pmu.ev[i];

		fprintf(fp, "    {\"event\": ");
		ss_json_put(fp, ev->name);
		fprintf(fp, ", \"status\": \"%s\", ", ss_pmu_status_name(ev->status));
		if (ev->status == SS_PMU_COUNTED)
			fprintf(fp, "\"value\": %llu, \"enabled_ns\": %llu, \"running_ns\": %llu}",
				(unsigned long long)ev->value,
				(unsigned long long)ev->enabled_ns,
				(unsigned long long)ev->running_ns);
		else {
			fprintf(fp, "\"errno\": %d, \"reason\": ", ev->err);
			ss_json_put(fp, ev->why);
			fputc('}', fp);
		}
		fprintf(fp, "%s\n", i + 1 < st->pmu.nr ? "," : "");
	}
	fprintf(fp, "  ]\n");
}

static void write_json(FILE *fp, const struct ss_host_opts *o,
		       const struct ss_host_stats *st, const struct figures *f)
{
	const char *keys[] = {"workload", "variant", "model", "slub_debug", "target",
			      "topology", "host", "clock"};
	const char *vals[] = {st->workload, st->variant, o->spec.model, st->slub_debug,
			      o->spec.target, st->topology, st->host, SS_HOST_CLOCK_NAME};

	fprintf(fp, "{\n  \"kind\": \"measured\",\n  \"mode\": \"host\",\n");
	json_labels(fp, keys, vals, sizeof(keys) / sizeof(keys[0]));
	fprintf(fp, "  \"ticks_per_ns\": %.4f,\n", st->ticks_per_ns);
	fprintf(fp, "  \"events_replayed\": %llu,\n  \"windows\": %llu,\n"
		    "  \"alloc_ops\": %llu,\n  \"free_ops\": %llu,\n  \"wall_ms\": %.3f,\n",
		(unsigned long long)st->events, (unsigned long long)st->windows,
		(unsigned long long)st->alloc_ops, (unsigned long long)st->free_ops,
		st->wall_ns / 1e6);
	fprintf(fp, "  \"alloc_mean_ns\": %.1f,\n  \"alloc_p50_ns\": %.1f,\n  \"alloc_p99_ns\": %.1f,\n"
		    "  \"free_mean_ns\": %.1f,\n  \"free_p50_ns\": %.1f,\n  \"free_p99_ns\": %.1f,\n"
		    "  \"p99_ns\": %.1f,\n  \"fastpath_pct\": %.2f,\n",
		f->alloc_mean, f->a50, f->a99, f->free_mean, f->f50, f->f99, f->p99,
		f->fast_pct);
	fprintf(fp, "  \"paths\": {\"alloc_fast\": %llu, \"alloc_refill\": %llu, "
		    "\"alloc_cpu_partial\": %llu, \"alloc_node_partial\": %llu, "
		    "\"alloc_new_slab\": %llu, \"free_fast\": %llu, \"free_slow\": %llu, "
		    "\"remote_frees\": %llu, \"large\": %llu, \"zero_size\": %llu},\n",
		(unsigned long long)st->fast_allocs, (unsigned long long)st->refill_allocs,
		(unsigned long long)st->cpu_partial_allocs,
		(unsigned long long)st->node_partial_allocs,
		(unsigned long long)st->new_slab_allocs, (unsigned long long)st->fast_frees,
		(unsigned long long)st->slow_frees, (unsigned long long)st->remote_frees,
		(unsigned long long)st->large_ops, (unsigned long long)st->zero_ops);
	fprintf(fp, "  \"slabs_mapped\": %llu,\n  \"slabs_unmapped\": %llu,\n"
		    "  \"peak_mapped_kib\": %.2f,\n  \"poison_written_bytes\": %llu,\n"
		    "  \"poison_checked_bytes\": %llu,\n",
		(unsigned long long)st->slabs_mapped, (unsigned long long)st->slabs_unmapped,
		(double)st->peak_mapped_bytes / 1024.0,
		(unsigned long long)st->poison_written,
		(unsigned long long)st->poison_checked);
	json_threads(fp, st);
	json_events(fp, st);
	fprintf(fp, "}\n");
}

static void write_latency(FILE *fp, const struct ss_host_stats *st)
{
	const struct ss_hist *h[2] = {&st->alloc_hist, &st->free_hist};
	const char *name[2] = {"alloc", "free"};

	fprintf(fp, "kind,op,ticks_max,ns_max,count\n");
	for (unsigned k = 0; k < 2; k++)
		for (unsigned i = 0; i < SS_HIST_BUCKETS; i++)
			if (h[k]->count[i])
				fprintf(fp, "measured,%s,%llu,%.1f,%llu\n", name[k],
					(unsigned long long)ss_hist_bucket_max(i),
					ns(st, (double)ss_hist_bucket_max(i)),
					(unsigned long long)h[k]->count[i]);
}

static void write_events(FILE *fp, const struct ss_host_stats *st)
{
	fprintf(fp, "kind,event,status,value,enabled_ns,running_ns,errno,reason\n");
	for (unsigned i = 0; i < st->pmu.nr; i++) {
		const struct ss_pmu_event *ev = &st->pmu.ev[i];

		fputs("measured,", fp);
		ss_csv_put(fp, ev->name);
		fprintf(fp, ",%s,%llu,%llu,%llu,%d,", ss_pmu_status_name(ev->status),
			(unsigned long long)ev->value, (unsigned long long)ev->enabled_ns,
			(unsigned long long)ev->running_ns, ev->err);
		ss_csv_put(fp, ev->why);
		fputc('\n', fp);
	}
}

int ss_host_write_results(const char *dir, const struct ss_host_opts *o,
		       const struct ss_host_stats *st, struct ss_error *err)
{
	static const char *const names[4] = {"measured_latency.csv",
					     "measured_events.csv", "measured.json",
					     "measured.csv"};
	struct ss_atomic_file f[4];
	struct figures fig;
	unsigned i;

	compute(st, &fig);
	if (ss_mkdirs(dir, err))
		return -1;
	for (i = 0; i < 4; i++)
		if (open_in(&f[i], dir, names[i], err))
			goto fail;
	write_latency(f[0].fp, st);
	write_events(f[1].fp, st);
	write_json(f[2].fp, o, st, &fig);
	write_csv(f[3].fp, o, st, &fig);
	for (i = 0; i < 4; i++) /* measured.csv last: the completion mark */
		if (ss_atomic_commit(&f[i], err))
			goto fail_committed;
	return 0;
fail_committed:
	for (unsigned j = 0; j < i; j++) {
		char path[4200];

		snprintf(path, sizeof(path), "%s/%s", dir, names[j]);
		remove(path);
	}
	for (unsigned j = i + 1; j < 4; j++)
		ss_atomic_abort(&f[j]);
	return -1;
fail:
	while (i--)
		ss_atomic_abort(&f[i]);
	return -1;
}
