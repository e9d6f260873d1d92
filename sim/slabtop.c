/* slabtop.c - the terminal summary of a run (slabtop.h). */
#include "slabtop.h"

#include <stdlib.h>
#include <string.h>

#include "sort.h"
#include "totals.h"

struct row {
	struct ss_cache_report r;
	uint64_t waste; /* slab bytes - requested */
};

static int by_size(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->r.slab_bytes != y->r.slab_bytes)
		return x->r.slab_bytes < y->r.slab_bytes ? 1 : -1;
	return strcmp(x->r.name, y->r.name);
}

static int by_waste(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->waste != y->waste)
		return x->waste < y->waste ? 1 : -1;
	return strcmp(x->r.name, y->r.name);
}

static double kib(uint64_t b)
{
	return (double)b / 1024.0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void header(FILE *fp, const struct ss_run *run,
		   const struct ss_run_labels *lb, const struct ss_totals *t,
		   const struct row *rows, unsigned n)
{
	uint64_t objs = 0, active = 0, used = 0;
	char era[16];

	for (unsigned i = 0; i < n; i++) {
		objs += rows[i].r.total_objects;
		active += rows[i].r.live;
		used += rows[i].r.live > 0;
	}
	ss_era_str(run->target->era, era, sizeof(era));
	fprintf(fp, "%s %s, model %s on %s (kernel %s), %u CPU%s: %llu allocs, %llu frees\n",
		lb->workload, lb->variant, lb->model, run->target->name, era,
		run->topo->nr_cpus, run->topo->nr_cpus == 1 ? "" : "s",
		(unsigned long long)ss_run_allocs(run), (unsigned long long)ss_run_frees(run));
	fprintf(fp, " Active / Total Objects (%% used)    : %llu / %llu (%.1f%%)\n",
		(unsigned long long)active, (unsigned long long)objs, pct(active, objs));
	fprintf(fp, " Active / Total Slabs (%% used)      : %llu / %llu (%.1f%%)\n",
		(unsigned long long)(t->slabs - t->partial_slabs), (unsigned long long)t->slabs,
		pct(t->slabs - t->partial_slabs, t->slabs));
	fprintf(fp, " Active / Total Caches (%% used)     : %llu / %u (%.1f%%)\n",
		(unsigned long long)used, n, pct(used, n));
	fprintf(fp, " Active / Total Size (%% used)       : %.2fK / %.2fK (%.1f%%)\n",
		kib(t->requested), kib(t->footprint_bytes), pct(t->requested, t->footprint_bytes));
	fprintf(fp, " Peak Size                          : %.2fK at event %llu\n",
		kib(run->books.acct.peak.footprint), (unsigned long long)run->books.acct.peak.events);
	fprintf(fp, " Simulated time                     : %.3f ms (allocator %.3f ms)\n",
		ss_run_ns(run, ss_run_sim_cycles(run)) / 1e6,
		ss_run_ns(run, run->books.alloc_cycles + run->books.free_cycles) / 1e6);
}

int ss_print_slabtop(FILE *fp, const struct ss_run *run,
		     const struct ss_run_labels *lb, unsigned top)
{
	unsigned n = run->desc->ops->nr_caches(run->model), k = 0;
	struct row *rows = calloc(n + 1, sizeof(*rows));
	struct ss_totals t;

	if (!rows)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		run->desc->ops->cache_report(run->model, i, &rows[i].r);
		rows[i].waste = rows[i].r.slab_bytes > rows[i].r.requested_live ?
				rows[i].r.slab_bytes - rows[i].r.requested_live : 0;
	}
	ss_totals_compute(run->desc, run->model, run->target, &t);
	header(fp, run, lb, &t, rows, n);
	/* slabtop's own columns, its default order (by cache size) */
	ss_sort(rows, n, sizeof(*rows), by_size);
	fprintf(fp, "\n  OBJS ACTIVE  USE OBJ SIZE  SLABS OBJ/SLAB CACHE SIZE NAME\n");
	for (unsigned i = 0; i < n && k < top; i++) {
		const struct ss_cache_report *r = &rows[i].r;

		if (!r->nr_slabs)
			continue;
		k++;
		fprintf(fp, "%6llu %6llu %3.0f%% %7.2fK %6llu %8u %9.0fK %s\n",
			(unsigned long long)r->total_objects, (unsigned long long)r->live,
			pct(r->live, r->total_objects), kib(r->slab_size),
			(unsigned long long)r->nr_slabs, r->objs_per_slab, kib(r->slab_bytes),
			r->name);
	}
	/* where the bytes no caller asked for are (docs/outputs.md, caches.csv) */
	ss_sort(rows, n, sizeof(*rows), by_waste);
	fprintf(fp, "\n  WASTE ROUNDING   ALIGN   DEBUG    FREE    TAIL NAME   (K; waste = size - requested)\n");
	for (unsigned i = 0, k2 = 0; i < n && k2 < top && rows[i].waste; i++, k2++) {
		const struct ss_cache_report *r = &rows[i].r;
		uint64_t alloc = r->live * r->object_size;

		fprintf(fp, "%6.0fK %7.1fK %6.1fK %6.1fK %6.1fK %6.1fK %s\n", kib(rows[i].waste),
			alloc >= r->requested_live ? kib(alloc - r->requested_live) : 0.0,
			kib(r->live * (r->size_nodebug - r->object_size)),
			kib(r->live * (r->slab_size - r->size_nodebug)),
			kib((r->total_objects - r->live) * r->slab_size),
			kib(r->slab_bytes - r->total_objects * r->slab_size), r->name);
	}
	free(rows);
	return ferror(fp) ? -1 : 0;
}
