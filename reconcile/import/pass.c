/* pass.c - one reading pass over the capture: each record into trace
 * events, a free through the free rules (rules.c).
 *
 * Real captures start after allocations were made and drop events when
 * the ring buffer overflows.  Neither is fatal: a free of a pointer we
 * never saw allocated goes to the rules; an allocation of a pointer that
 * is still live (its free was lost) is counted and the old object freed
 * first, so the output is always a valid trace with dense ids.  Totals
 * follow perf kmem stat (tools/perf/builtin-kmem.c): every allocation
 * event adds bytes_req and bytes_alloc.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "import_rules.h"
#include "trace_io.h"

/* Where the plan pass's trace goes. */
#define SS_IMPORT_PLAN_OUTPUT "/dev/null"

int ss_import_at_line(const struct ss_import_pass *x, struct ss_error *err)
{
	char why[sizeof(err->msg)];

	memcpy(why, err->msg, sizeof(why));
	return SS_IMPORT_BAD(x, err, "%s", why);
}

/* meta cpus before the first event, so that a replay sizes its CPUs
 * from it without reading the trace twice. */
static int write_cpus(struct ss_import_pass *x, unsigned cpus, struct ss_error *err)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u", cpus);
	if (ss_trace_write_meta(x->w, "cpus", buf))
		return ss_trace_writer_failed(x->w, err);
	x->cpus_written = true;
	x->cpus = cpus;
	return 0;
}

static int grow_sites(struct ss_import_pass *x, uint32_t idx)
{
	return idx < x->cap_sites
		       ? 0
		       : ss_grow_zeroed((void **)&x->lost_free, &x->cap_sites, idx,
					sizeof(*x->lost_free), 256);
}

static int do_alloc(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		    struct ss_error *err)
{
	struct ss_import_totals *t = x->t;
	struct ss_ptr_entry *e;
	char site[SS_MAX_NAME + 1];
	uint64_t size;
	uint32_t site_idx;
	int api;

	t->allocs++;
	t->bytes_req += rec->bytes_req;
	t->bytes_alloc += rec->bytes_alloc;
	if (!rec->ptr) { /* the allocation failed */
		t->failed_allocs++;
		return 0;
	}
	api = ss_import_cache_api(&x->caches, x->w, rec, &size, err);
	if (api < 0)
		return ss_import_at_line(x, err);
	ss_import_clean_name(rec->call_site, site);
	site_idx = ss_strtab_intern(&x->sites, site);
	if (site_idx == UINT32_MAX || grow_sites(x, site_idx))
		return SS_IMPORT_BAD(x, err, "out of memory");
	e = ss_ptrmap_find(&x->live, rec->ptr);
	if (e) {
		/* ZERO_SIZE_PTR is handed out again and again; anything else
		 * live at the same address lost its free */
		if (e->bytes_alloc || rec->bytes_alloc) {
			t->realloc_live++;
			x->lost_free[e->site]++;
		}
		if (ss_import_emit_free(x, e, rec->cpu))
			return ss_trace_writer_failed(x->w, err);
	}
	e = ss_ptrmap_find(&x->dead, rec->ptr);
	if (e)
		ss_ptrmap_remove(&x->dead, e);
	e = ss_ptrmap_insert(&x->live, rec->ptr);
	if (!e)
		return SS_IMPORT_BAD(x, err, "out of memory");
	e->id = ss_idpool_get(&x->ids);
	e->bytes_alloc = rec->bytes_alloc;
	e->cpu = rec->cpu;
	e->site = site_idx;
	if (ss_trace_write_alloc_gfp(x->w, rec->cpu, e->id, site, (uint32_t)api, size, rec->gfp))
		return ss_trace_writer_failed(x->w, err);
	t->events++;
	if (ss_import_rules_note_alloc(x, rec))
		return SS_IMPORT_BAD(x, err, "out of memory");
	/* which CPU's slab handed out objects when: where the objects of
	 * the same slab that no event allocated go (untraced.c) */
	if (x->run->untraced.mode == SS_UNTRACED_PLAN && rec->event == SS_KE_CACHE_ALLOC &&
	    rec->name) {
		char name[SS_IMPORT_CACHE_NAME];

		ss_import_cache_name(&x->run->target, rec, name);
		if (ss_import_untraced_alloc(&x->run->untraced, rec, name, x->record))
			return SS_IMPORT_BAD(x, err, "out of memory");
	}
	return 0;
}

/* A phase marker: the replay takes its snapshots there. */
static int do_phase(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		    struct ss_error *err)
{
	char name[SS_MAX_NAME + 1];

	ss_import_clean_name(rec->name, name);
	if (ss_trace_write_phase(x->w, name))
		return ss_trace_writer_failed(x->w, err);
	x->t->phases++;
	/* make capture's "start" comes after its reads of the slab pages and
	 * free objects: from here on they tell objects born in the window */
	if (!strcmp(name, SS_IMPORT_OBJECTS_READ_PHASE))
		x->after_start = true;
	return 0;
}

/* A page free (mm_page_free): if it is the pages of a kernel slab the
 * trace's prior frees named, that slab's death, a `d` event with the
 * prior frees' place (prior_counts.h reads it). */
static int do_page_free(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
			struct ss_error *err)
{
	char name[SS_IMPORT_CACHE_NAME];
	uint64_t addr, size, slab;
	uint32_t gfp, api = SS_API_KMALLOC;

	x->t->page_frees++;
	ss_import_rules_note_page_free(x, rec);
	if (!ss_import_pagefree_addr(&x->run->learned.pagefree, rec, &addr))
		return 0;
	ss_import_untraced_page_free(&x->run->untraced, addr);
	if (!ss_import_slab_freed(x, addr, rec->order, name, &size, &gfp, &slab))
		return 0;
	if (name[0]) {
		/* declared: the prior free that named the slab came first */
		switch (ss_import_cache_api_named(&x->caches, x->w, name,
						  ss_import_learned_first(&x->run->learned, name),
						  &api, err)) {
		case SS_IMPORT_CACHE_FOUND: break;
		case SS_IMPORT_CACHE_SIZELESS: return 0;
		case SS_IMPORT_CACHE_FAILED: return -1;
		}
		size = 0;
	}
	if (ss_trace_write_slab_freed(x->w, rec->cpu, api, size, gfp, slab))
		return ss_trace_writer_failed(x->w, err);
	x->t->kslabs_freed++;
	x->t->events++;
	return 0;
}

/* One record of the capture, from a text line or a trace.dat record. */
static int do_rec(void *ctx, int kind, struct ss_kmem_rec *recp, const char *why,
		  struct ss_error *err)
{
	struct ss_import_pass *x = ctx;
	struct ss_import_totals *t = x->t;
	struct ss_kmem_rec rec = *recp;

	if (x->run->untraced.mode == SS_UNTRACED_APPLY && ss_import_untraced_write_due(x, err))
		return -1;
	/* every line the kernel (or perf, or trace-cmd) prints ends in a
	 * newline: an event without one is the end of a capture that was cut,
	 * and its last value may be cut too (ptr=ffff88 of a kfree) */
	if ((kind == SS_KL_EVENT || kind == SS_KL_PHASE || kind == SS_KL_PAGE_FREE || kind < 0) &&
	    x->in.cut)
		return SS_IMPORT_BAD(x, err, "the last line has no newline: the capture ends mid-record (cut short?)");
	switch (kind) {
	case SS_KL_SKIP: t->skipped_lines++; return 0;
	case SS_KL_OTHER: t->other_events++; return 0;
	case SS_KL_LOST: t->lost_events += rec.lost; return 0;
	case SS_KL_HEADER: t->overwritten += rec.lost; return 0;
	case SS_KL_PHASE: return do_phase(x, &rec, err);
	case SS_KL_EVENT: break;
	case SS_KL_PAGE_FREE: break;
	default: return SS_IMPORT_BAD(x, err, "%s", why);
	}
	if (!rec.has_cpu)
		t->no_cpu_lines++;
	if (kind == SS_KL_EVENT && x->run->nr_tool_pids && rec.pid >= 0 && !rec.in_irq &&
	    bsearch(&rec.pid, x->run->tool_pids, x->run->nr_tool_pids, sizeof(rec.pid),
		    ss_import_cmp_pid))
		t->tool_events++;
	if (rec.cpu > 65535)
		return SS_IMPORT_BAD(x, err, "cpu %u out of range", rec.cpu);
	if (x->cpus_written && rec.cpu >= x->cpus)
		return SS_IMPORT_BAD(x, err, "cpu %u, but the capture has %u CPUs", rec.cpu, x->cpus);
	if (rec.cpu > t->max_cpu)
		t->max_cpu = rec.cpu;
	if (kind == SS_KL_PAGE_FREE)
		return do_page_free(x, &rec, err);
	if (rec.event == SS_KE_KMALLOC || rec.event == SS_KE_CACHE_ALLOC)
		return do_alloc(x, &rec, err);
	return ss_import_rules_free(x, &rec, err);
}

static int do_line(struct ss_import_pass *x, char *line, struct ss_error *err)
{
	struct ss_kmem_rec rec;
	const char *why = NULL;
	unsigned ncpu;
	int kind;

	/* the `trace` file's header: "# entries-in-buffer/...   #P:2" */
	if (line[0] == '#' && !x->cpus_written && !x->t->events && strstr(line, "#P:") &&
	    sscanf(strstr(line, "#P:"), "#P:%u", &ncpu) == 1 && ncpu && ncpu <= 65536 &&
	    write_cpus(x, ncpu, err))
		return -1;
	kind = ss_kmem_parse_line(line, &x->run->labels, &rec, &why);
	return do_rec(x, kind, &rec, why, err);
}

/* A trace.dat record: numbered like a line, for the errors. */
static int dat_rec(void *ctx, int kind, struct ss_kmem_rec *rec, const char *why,
		   struct ss_error *err)
{
	struct ss_import_pass *x = ctx;

	x->record++;
	x->t->lines++;
	return do_rec(x, kind, rec, why, err);
}

static int read_all(struct ss_import_pass *x, struct ss_error *err)
{
	const char *input = x->run->o->input;
	char *line;
	size_t len;
	int rc;

	if (x->run->dat) {
		unsigned cpus;

		/* the CPU count is in the file's header: meta cpus goes first */
		rc = ss_import_dat_read(input, dat_rec, x, &cpus, err);
		if (rc)
			return -1;
		if (!x->cpus_written && cpus)
			x->dat_cpus = cpus;
		goto done;
	}
	while ((rc = ss_inbuf_line(&x->in, &line, &len, input, err)) == 1) {
		x->record++;
		x->t->lines++;
		if (memchr(line, '\0', len))
			return SS_IMPORT_BAD(x, err, "NUL byte in line (not a text trace?)");
		if (do_line(x, line, err))
			return -1;
	}
	if (rc < 0)
		return -1;
done:
	if (!x->t->allocs && !x->t->frees && !x->t->unknown_frees && !x->t->null_frees)
		return ss_errorf(err, "%s: no kmalloc, kmem_cache_alloc, kfree or kmem_cache_free events found",
				 input);
	return 0;
}

/* meta slab_fill: the slab-fill file the kernel slab ids follow (run
 * --slab-fill checks it was given the same), before the events */
static int write_slab_fill(struct ss_import_pass *x, struct ss_error *err)
{
	char buf[32];

	if (!x->run->o->slab_fill)
		return 0;
	snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)x->run->fill_hash);
	if (ss_trace_write_meta(x->w, "slab_fill", buf))
		return ss_trace_writer_failed(x->w, err);
	return 0;
}

/* meta slab_vectors: the kernel's obj_exts vector events (the learn
 * pass's count), before the events: a replay that charges objects makes
 * its own vectors only for a kernel that made none (allocators/model.h
 * kernel_vectors).  Not said when no site is named (a trace of bare
 * addresses shows no function) or there was no learn pass (stdin). */
static int write_slab_vectors(struct ss_import_pass *x, struct ss_error *err)
{
	char buf[32];

	if (!x->run->learned.named_sites)
		return 0;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)x->run->learned.slab_vectors);
	if (ss_trace_write_meta(x->w, "slab_vectors", buf))
		return ss_trace_writer_failed(x->w, err);
	return 0;
}

/* meta cpu_slab_free (cpuslab.c): written before the events, so that
 * `run --initial-state` has it when it fills the caches. */
static int write_cpu_slab_free(struct ss_import_pass *x, struct ss_error *err)
{
	struct ss_import_run *r = x->run;
	char *buf;
	int rc = 0;

	if (!r->have_snap || !r->learned.raw || !r->learned.cpuslab.states.live)
		return 0;
	if (!(buf = malloc(SS_META_CPUSLAB_MAX + 1)))
		return SS_IMPORT_BAD(x, err, "out of memory");
	if (ss_import_cpuslab_meta(&r->learned.cpuslab, &r->snap, buf, SS_META_CPUSLAB_MAX + 1))
		rc = SS_IMPORT_BAD(x, err, "out of memory");
	else if (buf[0] && ss_trace_write_meta(x->w, "cpu_slab_free", buf))
		rc = ss_trace_writer_failed(x->w, err);
	free(buf);
	return rc;
}

/* The totals the learn pass and the run's files give. */
static void learned_totals(struct ss_import_pass *x)
{
	const struct ss_import_run *r = x->run;
	struct ss_import_totals *t = x->t;

	t->walk_allocs = r->walk_allocs;
	t->stride_frees = r->learned.stride_frees;
	t->listed_frees = r->learned.listed_frees;
	t->vector_frees = r->learned.vector_frees;
	t->stride_slabs = r->learned.stride_slabs;
	t->page_base_found = r->learned.pagefree.have_base;
	t->page_base_from_fill = r->learned.pagefree.base_from_fill;
	t->page_votes_wrong = r->learned.pagefree.votes_wrong;
	t->page_base = r->learned.pagefree.base;
	t->page_votes_base = r->learned.pagefree.votes_base;
}

/* The pass's state, the input opened and the trace begun. */
static int begin(struct ss_import_pass *x, struct ss_error *err)
{
	struct ss_import_run *r = x->run;
	const struct ss_import_opts *o = r->o;

	x->caches.target = &r->target;
	x->caches.snap = r->have_snap ? &r->snap : NULL;
	/* the plan pass's warnings are the write pass's */
	x->caches.warn = x->kind == SS_IMPORT_PASS_PLAN ? NULL : stderr;
	learned_totals(x);
	if (ss_import_rules_begin(x, err))
		return -1;
	if (!r->dat && ss_inbuf_open(&x->in, o->input, err))
		return -1;
	if (x->kind == SS_IMPORT_PASS_PLAN) {
		if (ss_trace_writer_open_format(&x->w, SS_IMPORT_PLAN_OUTPUT, SS_TRACE_BIN, err))
			return -1;
	} else if (ss_trace_writer_open(&x->w, o->output, err)) {
		return -1;
	}
	if (ss_trace_write_meta(x->w, "workload", "import") ||
	    ss_trace_write_meta(x->w, "source", o->input) ||
	    ss_trace_write_meta(x->w, "target", r->target.name))
		return ss_trace_writer_failed(x->w, err);
	if (write_slab_fill(x, err) || write_cpu_slab_free(x, err) || write_slab_vectors(x, err))
		return -1;
	return o->cpus ? write_cpus(x, o->cpus, err) : 0;
}

static int by_count_desc(const void *a, const void *b, void *ctx)
{
	const uint64_t *n = ctx;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;

	if (n[i] != n[j])
		return n[i] < n[j] ? 1 : -1;
	return i < j ? -1 : i > j;
}

/* Meta `key`: "NAME=N ..." for each name of t whose count n[] is not 0,
 * most first (ties in name order of t), as many as fit. */
static int write_counts(struct ss_import_pass *x, const char *key, const struct ss_strtab *t,
			uint64_t *n, struct ss_error *err)
{
	uint32_t nr = 0, *idx = malloc((t->nr ? t->nr : 1) * sizeof(*idx));
	char *buf = malloc(SS_META_UNTRACED_MAX + 1);
	size_t used = 0;
	int rc = 0;

	if (!idx || !buf) {
		free(idx);
		free(buf);
		return ss_errorf(err, "out of memory");
	}
	for (uint32_t i = 0; i < t->nr; i++)
		if (n[i])
			idx[nr++] = i;
	qsort_r(idx, nr, sizeof(*idx), by_count_desc, n);
	buf[0] = '\0';
	for (uint32_t k = 0; k < nr; k++) {
		int w = snprintf(buf + used, SS_META_UNTRACED_MAX + 1 - used, "%s%s=%llu",
				 used ? " " : "", t->strs[idx[k]], (unsigned long long)n[idx[k]]);

		if (w < 0 || (size_t)w > SS_META_UNTRACED_MAX - used) {
			buf[used] = '\0'; /* the rarest do not fit: left out */
			break;
		}
		used += (size_t)w;
	}
	if (nr && ss_trace_write_meta(x->w, key, buf))
		rc = ss_trace_writer_failed(x->w, err);
	free(idx);
	free(buf);
	return rc;
}

/* meta untraced_frees: the allocation sites whose objects were freed
 * without a free event, as "SITE=N ..." (N allocations found their
 * pointer still live), most first.  The replay's settling rule reads it
 * (docs/own-trace.md); a site absent here showed no such evidence.
 * meta untraced_allocs: the caches whose objects were allocated without
 * an allocation event, as "CACHE=N ..." (N kmem_cache_free events the
 * rules again, slab-pages and free-objects took), for the replay's
 * prior.csv and the report's notes (a kfree names no cache). */
static int write_untraced(struct ss_import_pass *x, struct ss_error *err)
{
	return write_counts(x, "untraced_frees", &x->sites, x->lost_free, err) ||
	       write_counts(x, "untraced_allocs", &x->again, x->again_n, err);
}

static int write_u64_meta(struct ss_import_pass *x, const char *key, const char *fmt,
			  uint64_t v, struct ss_error *err)
{
	char buf[32];

	snprintf(buf, sizeof(buf), fmt, (unsigned long long)v);
	return ss_trace_write_meta(x->w, key, buf) ? ss_trace_writer_failed(x->w, err) : 0;
}

/* Facts only known at the end go last (meta may come anywhere). */
static int finish(struct ss_import_pass *x, struct ss_error *err)
{
	struct ss_import_totals *t = x->t;

	t->live_at_end = x->live.live;
	t->peak_live = x->live.peak;
	t->kmalloc_class_mismatch = x->caches.kmalloc_mismatch;
	t->geometry_mismatch = x->caches.geometry_mismatch;
	t->caches = x->caches.names.nr;
	if (write_untraced(x, err))
		return -1;
	/* what the page frees gave, for whoever reads the trace (the totals
	 * have them too): the `d` lines themselves are what the replay reads */
	if (t->page_frees && (write_u64_meta(x, "page_frees", "%llu", t->page_frees, err) ||
			      write_u64_meta(x, "kslabs_freed", "%llu", t->kslabs_freed, err)))
		return -1;
	/* the base that names a page free's kernel slab: with it, every
	 * kernel slab the trace frees from and that died has its `d` line,
	 * so one without did not die (allocators/prior_counts.h outlived) --
	 * unless events were lost, a page free perhaps among them */
	if (t->page_frees && t->page_base_found && !t->lost_events && !t->overwritten &&
	    write_u64_meta(x, "page_base", "0x%llx", t->page_base, err))
		return -1;
	if (x->cpus_written)
		return 0;
	return write_u64_meta(x, "cpus", "%llu",
			      x->dat_cpus > t->max_cpu ? x->dat_cpus : (uint64_t)t->max_cpu + 1, err);
}

static void release(struct ss_import_pass *x)
{
	ss_import_rules_end(x);
	ss_inbuf_close(&x->in);
	ss_ptrmap_release(&x->live);
	ss_ptrmap_release(&x->dead);
	ss_strtab_release(&x->sites);
	free(x->lost_free);
	ss_strtab_release(&x->again);
	free(x->again_n);
	ss_idpool_release(&x->ids);
	ss_import_caches_release(&x->caches);
	ss_import_slab_ids_release(&x->slab_ids);
}

int ss_import_pass(struct ss_import_run *r, enum ss_import_pass_kind kind,
		   struct ss_import_totals *t, struct ss_error *err)
{
	struct ss_import_pass x = {.run = r, .kind = kind, .t = t};
	int rc = -1;

	memset(t, 0, sizeof(*t));
	t->tool_counted = r->o->tool_pids != NULL;
	if (begin(&x, err) || read_all(&x, err) || finish(&x, err))
		ss_trace_writer_abort(x.w);
	else
		rc = ss_trace_writer_commit(x.w, err);
	release(&x);
	return rc;
}
