/* import.c - kmem tracepoint text -> slabsim trace, one line at a time.
 *
 * Real captures start after allocations were made and drop events when
 * the ring buffer overflows.  Neither is fatal: a free of a pointer we
 * never saw allocated is counted and skipped; an allocation of a pointer
 * that is still live (its free was lost) is counted and the old object
 * freed first, so the output is always a valid trace with dense ids.
 * Totals follow perf kmem stat (tools/perf/builtin-kmem.c): every
 * allocation event adds bytes_req and bytes_alloc.
 */
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "grow.h"
#include "import.h"
#include "import_objext.h"
#include "trace_io.h"

struct importer {
	const struct ss_import_opts *o;
	struct ss_import_totals *t;
	struct ss_kmem_labels labels;
	struct ss_target target;
	struct ss_trace_writer *w;
	struct ss_ptrmap map;
	struct ss_ptrmap dead;	/* pointers freed in the capture, not since allocated */
	struct ss_strtab sites;	/* allocation sites, for untraced_frees */
	uint64_t *lost_free;	/* per site: allocations of a live pointer */
	uint32_t cap_sites;
	/* caches named by frees of a pointer already freed with no
	 * allocation between, and how many (for untraced_allocs) */
	struct ss_strtab again;
	uint64_t *again_n;
	uint32_t cap_again;
	struct ss_idpool ids;
	struct ss_import_caches caches;
	struct ss_import_prior prior;
	struct ss_import_objext objext; /* freed slabs' obj_exts vectors */
	struct ss_import_slabpages slabpages; /* objects not there as tracing began */
	struct ss_import_untraced *untraced; /* their allocations: planned, then written */
	struct ss_snap snap;
	bool have_snap;
	/* the snapshot again, with the --free-objects file's slabs */
	struct ss_snap start_snap;
	bool have_start_snap;
	uint64_t fill_hash;	/* the slab-fill file's (meta slab_fill) */
	bool cpus_written;	/* meta cpus went out before the events */
	struct ss_inbuf in;
	unsigned long lineno;
	unsigned cpus;		/* the CPU count written up front */
	bool dat;		/* the input is a trace-cmd trace.dat */
	unsigned dat_cpus;	/* its CPU count (meta cpus at the end) */
};

/* Where the planning reading's trace goes. */
#define SS_IMPORT_PLAN_OUTPUT "/dev/null"

#define BAD(im, err, ...) ss_error_at(err, (im)->o->input, (im)->lineno, __VA_ARGS__)

/* err, set by a helper that knows no line, again with the input's file
 * and line in front. */
static int at_line(const struct importer *im, struct ss_error *err)
{
	char why[sizeof(err->msg)];

	memcpy(why, err->msg, sizeof(why));
	return BAD(im, err, "%s", why);
}

/* meta cpus before the first event, so that a replay sizes its CPUs
 * from it without reading the trace twice. */
static int write_cpus(struct importer *im, unsigned cpus, struct ss_error *err)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u", cpus);
	if (ss_trace_write_meta(im->w, "cpus", buf))
		return ss_trace_writer_failed(im->w, err);
	im->cpus_written = true;
	im->cpus = cpus;
	return 0;
}

/* The object at e leaves: free it in the output and recycle its id. */
static int emit_free(struct importer *im, struct ss_ptr_entry *e, unsigned cpu)
{
	if (ss_trace_write_free(im->w, cpu, e->id))
		return -1;
	ss_idpool_put(&im->ids, e->id);
	if (!ss_ptrmap_find(&im->dead, e->ptr) && !ss_ptrmap_insert(&im->dead, e->ptr))
		return -1;
	ss_ptrmap_remove(&im->map, e);
	im->t->events++;
	return 0;
}

static int grow_sites(struct importer *im, uint32_t idx)
{
	return idx < im->cap_sites
		       ? 0
		       : ss_grow_zeroed((void **)&im->lost_free, &im->cap_sites, idx,
					sizeof(*im->lost_free), 256);
}

static int do_alloc(struct importer *im, const struct ss_kmem_rec *rec,
		    struct ss_error *err)
{
	struct ss_import_totals *t = im->t;
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
	api = ss_import_cache_api(&im->caches, im->w, rec, &size, err);
	if (api < 0)
		return at_line(im, err);
	ss_import_clean_name(rec->call_site, site);
	site_idx = ss_strtab_intern(&im->sites, site);
	if (site_idx == UINT32_MAX || grow_sites(im, site_idx))
		return BAD(im, err, "out of memory");
	/* a pointer of the snapshot walk's allocated again, with an event:
	 * its next free is this object's */
	if (im->prior.walk.live && (e = ss_ptrmap_find(&im->prior.walk, rec->ptr)))
		ss_ptrmap_remove(&im->prior.walk, e);
	e = ss_ptrmap_find(&im->map, rec->ptr);
	if (e) {
		/* ZERO_SIZE_PTR is handed out again and again; anything else
		 * live at the same address lost its free */
		if (e->bytes_alloc || rec->bytes_alloc) {
			t->realloc_live++;
			im->lost_free[e->site]++;
		}
		if (emit_free(im, e, rec->cpu))
			return ss_trace_writer_failed(im->w, err);
	}
	e = ss_ptrmap_find(&im->dead, rec->ptr);
	if (e)
		ss_ptrmap_remove(&im->dead, e);
	e = ss_ptrmap_insert(&im->map, rec->ptr);
	if (!e)
		return BAD(im, err, "out of memory");
	e->id = ss_idpool_get(&im->ids);
	e->bytes_alloc = rec->bytes_alloc;
	e->cpu = rec->cpu;
	e->site = site_idx;
	if (ss_trace_write_alloc_gfp(im->w, rec->cpu, e->id, site, (uint32_t)api, size,
				     rec->gfp))
		return ss_trace_writer_failed(im->w, err);
	t->events++;
	/* which CPU's slab handed out objects when: where the objects of
	 * the same slab that no event allocated go (import_untraced.c) */
	if (im->untraced->mode == SS_UNTRACED_PLAN && rec->event == SS_KE_CACHE_ALLOC &&
	    rec->name) {
		char name[SS_IMPORT_CACHE_NAME];

		ss_import_cache_name(&im->target, rec, name);
		if (ss_import_untraced_alloc(im->untraced, rec, name, im->lineno))
			return BAD(im, err, "out of memory");
	}
	return 0;
}

/* A free of a pointer the capture never saw allocated (before the
 * capture, or its allocation was lost): a prior free of the cache the
 * event names, or the one its call site's learned frees point to. */
static int do_prior_free(struct importer *im, const struct ss_kmem_rec *rec,
			 struct ss_error *err)
{
	struct ss_import_totals *t = im->t;
	char name[SS_IMPORT_CACHE_NAME], site[SS_MAX_NAME + 1];
	uint64_t size = 0, slab = 0;
	uint32_t gfp = 0;
	int api = SS_API_KMALLOC;

	if (rec->name) {
		ss_import_cache_name(&im->target, rec, name);
		slab = ss_import_prior_slab(&im->prior, rec->ptr, name);
	} else if (!ss_import_objext_class(&im->objext, im->have_snap ? &im->snap : NULL,
					   &im->target, rec, &size)) {
		name[0] = '\0'; /* kmalloc-N of the size; the vector has no flags */
		slab = ss_import_prior_kmalloc_slab(&im->prior, rec->ptr, 0, size);
	} else if (ss_import_prior_pick(&im->prior, rec->ptr, rec->call_site, name, &size,
					&gfp, &slab)) {
		t->prior_unattributed++;
		return 0;
	}
	if (name[0]) {
		api = ss_import_cache_api_named(&im->caches, im->w, name,
						ss_import_prior_first(&im->prior, name), err);
		if (api == -2) { /* a cache nothing says the size of */
			t->prior_unattributed++;
			return 0;
		}
		if (api < 0)
			return at_line(im, err);
		size = 0;
	}
	ss_import_clean_name(rec->call_site, site);
	if (ss_trace_write_free_prior(im->w, rec->cpu, site, (uint32_t)api, size, gfp, slab))
		return ss_trace_writer_failed(im->w, err);
	t->prior_frees++;
	t->events++;
	return 0;
}

/* One more free of cache `name` of an object allocated without an
 * event. */
static int count_again(struct importer *im, const char *name)
{
	uint32_t i = ss_strtab_intern(&im->again, name);

	if (i == UINT32_MAX ||
	    (i >= im->cap_again &&
	     ss_grow_zeroed((void **)&im->again_n, &im->cap_again, i, sizeof(*im->again_n), 64)))
		return -1;
	im->again_n[i]++;
	return 0;
}

/* A free of an object allocated without an event, of cache `name`: the
 * first reading plans where its allocation goes, the second writes the
 * free of the object it allocated there (import_untraced.c). */
static int untraced_free(struct importer *im, const struct ss_kmem_rec *rec, const char *name,
			 struct ss_error *err)
{
	struct ss_import_untraced *u = im->untraced;
	uint64_t k, id;

	if (u->mode == SS_UNTRACED_PLAN)
		return ss_import_untraced_plan(u, rec, name, im->lineno) ? BAD(im, err, "out of memory")
									 : 0;
	if (u->mode != SS_UNTRACED_APPLY)
		return 0;
	k = u->seen++;
	if (k >= u->nr ||
	    (u->obj[k].at && strcmp(u->names.strs[u->obj[k].cache], name)))
		return BAD(im, err, "the capture reads differently the second time (did it change while read?)");
	if (!u->id[k]) /* not placed, or its cache could not be declared: dropped */
		return 0;
	id = u->id[k] - 1;
	if (ss_trace_write_free(im->w, rec->cpu, id))
		return ss_trace_writer_failed(im->w, err);
	ss_idpool_put(&im->ids, id);
	im->t->untraced_placed++;
	im->t->events++;
	return 0;
}

/* The allocations planned before the record at hand: fresh ids, on the
 * planned CPU, of the bytes the cache's allocations ask for. */
static int untraced_allocs_due(struct importer *im, struct ss_error *err)
{
	struct ss_import_untraced *u = im->untraced;
	uint64_t k;

	while (ss_import_untraced_due(u, im->lineno, &k)) {
		const char *name = u->names.strs[u->obj[k].cache];
		int api = ss_import_cache_api_named(&im->caches, im->w, name,
						    ss_import_prior_first(&im->prior, name), err);
		uint64_t size, id;

		if (api == -2) /* nothing says its size: its free is dropped */
			continue;
		if (api < 0)
			return at_line(im, err);
		size = ss_import_cache_req(&im->caches, name);
		if (!size)
			continue;
		id = ss_idpool_get(&im->ids);
		if (ss_trace_write_alloc(im->w, u->obj[k].cpu, id, SS_UNTRACED_SITE, (uint32_t)api,
					 size))
			return ss_trace_writer_failed(im->w, err);
		u->id[k] = id + 1;
		im->t->events++;
	}
	return 0;
}

static int do_free(struct importer *im, const struct ss_kmem_rec *rec,
		   struct ss_error *err)
{
	struct ss_import_totals *t = im->t;
	struct ss_ptr_entry *e;

	if (!rec->ptr) {
		t->null_frees++;
		return 0;
	}
	e = ss_ptrmap_find(&im->map, rec->ptr);
	if (!e) { /* allocated before the capture, or its allocation was lost */
		t->unknown_frees++;
		/* the snapshot walk's, allocated after the counts were read
		 * (import_walk.c): in neither, like its allocation */
		if (im->prior.walk.live && (e = ss_ptrmap_find(&im->prior.walk, rec->ptr))) {
			ss_ptrmap_remove(&im->prior.walk, e);
			t->walk_frees++;
			return 0;
		}
		/* a pointer this capture already saw freed was allocated
		 * again without an event: that object is not one from
		 * before the capture (measured on 6.18: /proc inodes and
		 * their dentries, docs/import.md); nor is an object on a
		 * page that held no slab then, or one a listed slab had
		 * free then (import_slabpages.c) */
		bool again = ss_ptrmap_find(&im->dead, rec->ptr) ||
			     ss_ptrmap_find(&im->prior.untraced, rec->ptr);
		bool new_slab = !again && ss_import_slabpages_new(&im->slabpages, rec);
		bool was_free = !again && !new_slab &&
				ss_import_freebits_was_free(&im->slabpages, rec->ptr);

		if (again || new_slab || was_free) {
			char name[SS_IMPORT_CACHE_NAME];

			t->untraced_allocs++;
			t->new_slab_frees += new_slab;
			t->free_slot_frees += was_free;
			/* by the name the trace declares the cache under (meta
			 * untraced_allocs is matched to it), never raw bytes a
			 * meta value cannot hold */
			if (!rec->name)
				return 0;
			ss_import_cache_name(&im->target, rec, name);
			if (count_again(im, name))
				return BAD(im, err, "out of memory");
			return untraced_free(im, rec, name, err);
		}
		if (!ss_ptrmap_insert(&im->dead, rec->ptr))
			return BAD(im, err, "out of memory");
		return do_prior_free(im, rec, err);
	}
	t->frees++;
	t->bytes_freed += e->bytes_alloc;
	t->cross_cpu_frees += e->cpu != rec->cpu;
	return emit_free(im, e, rec->cpu) ? ss_trace_writer_failed(im->w, err) : 0;
}

/* A phase marker: the replay takes its snapshots there. */
static int do_phase(struct importer *im, const struct ss_kmem_rec *rec,
		    struct ss_error *err)
{
	char name[SS_MAX_NAME + 1];

	ss_import_clean_name(rec->name, name);
	if (ss_trace_write_phase(im->w, name))
		return ss_trace_writer_failed(im->w, err);
	im->t->phases++;
	/* make capture's "start" comes after its reads of the slab pages and
	 * free objects: from here on they tell objects born in the window */
	if (!strcmp(name, SS_IMPORT_OBJECTS_READ_PHASE))
		im->slabpages.read = true;
	return 0;
}

static int do_rec(void *ctx, int kind, struct ss_kmem_rec *recp, const char *why,
		  struct ss_error *err);

/* A page free (mm_page_free): if it is the pages of a kernel slab the
 * trace's prior frees named, that slab's death, a `d` event with the
 * prior frees' cache (prior_counts.h reads it). */
static int do_page_free(struct importer *im, const struct ss_kmem_rec *rec,
			struct ss_error *err)
{
	char name[SS_IMPORT_CACHE_NAME];
	uint64_t addr, size, slab;
	uint32_t gfp;
	int api = SS_API_KMALLOC;

	im->t->page_frees++;
	ss_import_slabpages_page_free(&im->slabpages, rec);
	if (ss_import_pagefree_addr(&im->prior.pagefree, rec, &addr))
		return 0;
	ss_import_untraced_page_free(im->untraced, addr);
	if (!ss_import_prior_slab_freed(&im->prior, addr, rec->order, name, &size, &gfp, &slab))
		return 0;
	if (name[0]) {
		/* declared: the prior free that named the slab came first */
		api = ss_import_cache_api_named(&im->caches, im->w, name,
						ss_import_prior_first(&im->prior, name), err);
		if (api < 0)
			return api == -2 ? 0 : -1;
		size = 0;
	}
	if (ss_trace_write_slab_freed(im->w, rec->cpu, (uint32_t)api, size, gfp, slab))
		return ss_trace_writer_failed(im->w, err);
	im->t->kslabs_freed++;
	im->t->events++;
	return 0;
}

static int do_line(struct importer *im, char *line, struct ss_error *err)
{
	struct ss_import_totals *t = im->t;
	struct ss_kmem_rec rec;
	const char *why = NULL;
	unsigned ncpu;
	int kind;

	/* the `trace` file's header: "# entries-in-buffer/...   #P:2" */
	if (line[0] == '#' && !im->cpus_written && !t->events && strstr(line, "#P:") &&
	    sscanf(strstr(line, "#P:"), "#P:%u", &ncpu) == 1 && ncpu && ncpu <= 65536 &&
	    write_cpus(im, ncpu, err))
		return -1;
	kind = ss_kmem_parse_line(line, &im->labels, &rec, &why);
	return do_rec(im, kind, &rec, why, err);
}

/* One record of the capture, from a text line or a trace.dat record. */
static int do_rec(void *ctx, int kind, struct ss_kmem_rec *recp, const char *why,
		  struct ss_error *err)
{
	struct importer *im = ctx;
	struct ss_import_totals *t = im->t;
	struct ss_kmem_rec rec = *recp;

	if (im->untraced->mode == SS_UNTRACED_APPLY && untraced_allocs_due(im, err))
		return -1;
	/* every line the kernel (or perf, or trace-cmd) prints ends in a
	 * newline: an event without one is the end of a capture that was cut,
	 * and its last value may be cut too (ptr=ffff88 of a kfree) */
	if ((kind == SS_KL_EVENT || kind == SS_KL_PHASE || kind == SS_KL_PAGE_FREE || kind < 0) &&
	    im->in.cut)
		return BAD(im, err, "the last line has no newline: the capture ends mid-record (cut short?)");
	switch (kind) {
	case SS_KL_SKIP: t->skipped_lines++; return 0;
	case SS_KL_OTHER: t->other_events++; return 0;
	case SS_KL_LOST: t->lost_events += rec.lost; return 0;
	case SS_KL_HEADER: t->overwritten += rec.lost; return 0;
	case SS_KL_PHASE: return do_phase(im, &rec, err);
	case SS_KL_EVENT: break;
	case SS_KL_PAGE_FREE: break;
	default: return BAD(im, err, "%s", why);
	}
	if (!rec.has_cpu)
		t->no_cpu_lines++;
	if (rec.cpu > 65535)
		return BAD(im, err, "cpu %u out of range", rec.cpu);
	if (im->cpus_written && rec.cpu >= im->cpus)
		return BAD(im, err, "cpu %u, but the capture has %u CPUs", rec.cpu, im->cpus);
	if (rec.cpu > t->max_cpu)
		t->max_cpu = rec.cpu;
	if (kind == SS_KL_PAGE_FREE)
		return do_page_free(im, &rec, err);
	if (rec.event == SS_KE_KMALLOC || rec.event == SS_KE_CACHE_ALLOC)
		return do_alloc(im, &rec, err);
	if (do_free(im, &rec, err))
		return -1;
	return ss_import_objext_note(&im->objext, &rec) ? BAD(im, err, "out of memory") : 0;
}

/* A trace.dat record: numbered like a line, for the errors. */
static int dat_rec(void *ctx, int kind, struct ss_kmem_rec *rec, const char *why,
		   struct ss_error *err)
{
	struct importer *im = ctx;

	im->lineno++;
	im->t->lines++;
	return do_rec(im, kind, rec, why, err);
}

static int read_all(struct importer *im, struct ss_error *err)
{
	char *line;
	size_t len;
	int rc;

	if (im->dat) {
		unsigned cpus;

		/* the CPU count is in the file's header: meta cpus goes first */
		rc = ss_import_dat_read(im->o->input, dat_rec, im, &cpus, err);
		if (rc)
			return -1;
		if (!im->cpus_written && cpus)
			im->dat_cpus = cpus;
		goto done;
	}
	while ((rc = ss_inbuf_line(&im->in, &line, &len, im->o->input, err)) == 1) {
		im->lineno++;
		im->t->lines++;
		if (memchr(line, '\0', len))
			return BAD(im, err, "NUL byte in line (not a text trace?)");
		if (do_line(im, line, err))
			return -1;
	}
	if (rc < 0)
		return -1;
done:
	if (!im->t->allocs && !im->t->frees && !im->t->unknown_frees && !im->t->null_frees)
		return ss_errorf(err, "%s: no kmalloc, kmem_cache_alloc, kfree or kmem_cache_free events found",
				 im->o->input);
	return 0;
}

/* meta slab_fill: the slab-fill file the kernel slab ids follow (run
 * --slab-fill checks it was given the same), before the events */
static int write_slab_fill(struct importer *im, struct ss_error *err)
{
	char buf[32];

	if (!im->o->slab_fill)
		return 0;
	snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)im->fill_hash);
	if (ss_trace_write_meta(im->w, "slab_fill", buf))
		return ss_trace_writer_failed(im->w, err);
	return 0;
}

/* meta cpu_slab_free (import_cpuslab.c): written before the events, so
 * that `run --initial-state` has it when it fills the caches. */
static int write_cpu_slab_free(struct importer *im, struct ss_error *err)
{
	char *buf;
	int rc = 0;

	if (!im->have_snap || !im->prior.raw || !im->prior.cpuslab.states.live)
		return 0;
	if (!(buf = malloc(SS_META_CPUSLAB_MAX + 1)))
		return BAD(im, err, "out of memory");
	if (ss_import_cpuslab_meta(&im->prior.cpuslab, &im->snap, buf, SS_META_CPUSLAB_MAX + 1))
		rc = BAD(im, err, "out of memory");
	else if (buf[0] && ss_trace_write_meta(im->w, "cpu_slab_free", buf))
		rc = ss_trace_writer_failed(im->w, err);
	free(buf);
	return rc;
}

static int setup(struct importer *im, struct ss_error *err)
{
	const struct ss_import_opts *o = im->o;

	ss_kmem_labels_default(&im->labels);
	for (unsigned i = 0; i < o->nr_formats; i++)
		if (ss_kmem_labels_load(&im->labels, o->formats[i], err))
			return -1;
	if (ss_target_load(o->target, &im->target, err))
		return -1;
	if (o->snapshot) {
		if (ss_snap_load(&im->snap, o->snapshot, err))
			return -1;
		im->have_snap = true;
		im->caches.snap = &im->snap;
	}
	if (o->slab_fill) {
		unsigned skipped = 0;

		if (ss_snap_take_fill(&im->snap, o->slab_fill, &im->fill_hash, &skipped, err))
			return -1;
	}
	im->caches.target = &im->target;
	im->caches.warn = stderr;
	im->prior.snap = im->have_snap ? &im->snap : NULL;
	if (o->slab_fill && ss_import_prior_fill(&im->prior))
		return ss_errorf(err, "out of memory");
	if (o->walk && ss_import_walk_load(&im->prior, o->walk, &im->labels, &im->t->walk_allocs, err))
		return -1;
	im->dat = ss_import_is_dat(o->input);
	/* standard input is read once: its unknown frees cannot learn */
	if (strcmp(o->input, "-") &&
	    ss_import_prior_learn(&im->prior, o->input, im->dat, &im->labels, &im->target, err))
		return -1;
	im->t->stride_frees = im->prior.stride_frees;
	im->t->listed_frees = im->prior.listed_frees;
	im->t->vector_frees = im->prior.vector_frees;
	im->t->stride_slabs = im->prior.stride_slabs;
	im->t->page_base_found = im->prior.pagefree.have_base;
	im->t->page_base_from_fill = im->prior.pagefree.base_from_fill;
	im->t->page_votes_wrong = im->prior.pagefree.votes_wrong;
	im->t->page_base = im->prior.pagefree.base;
	im->t->page_votes_base = im->prior.pagefree.votes_base;
	if (o->slab_pages) {
		if (ss_import_slabpages_setup(&im->slabpages, o->slab_pages, &im->prior.pagefree,
					      im->have_snap ? &im->snap : NULL, err))
			return -1;
		im->t->slab_pages_used = im->slabpages.active;
		im->t->slab_pages_why = im->slabpages.why;
	}
	if (o->free_objects) {
		uint64_t hash;
		unsigned skipped = 0;

		if (ss_snap_load(&im->start_snap, o->snapshot, err))
			return -1;
		im->have_start_snap = true;
		if (ss_snap_take_fill(&im->start_snap, o->free_objects, &hash, &skipped, err))
			return -1;
		if (ss_import_freebits_setup(&im->slabpages, &im->prior.pagefree, &im->start_snap))
			return ss_errorf(err, "out of memory");
		im->t->free_slots_used = im->slabpages.frames.live > 0;
	}
	if (!im->dat && ss_inbuf_open(&im->in, o->input, err))
		return -1;
	if (im->untraced->mode == SS_UNTRACED_PLAN) {
		/* the planning reading: its trace goes nowhere, its warnings
		 * are the second reading's */
		im->caches.warn = NULL;
		if (ss_trace_writer_open_format(&im->w, o->output, SS_TRACE_BIN, err))
			return -1;
	} else if (ss_trace_writer_open(&im->w, o->output, err)) {
		return -1;
	}
	if (ss_trace_write_meta(im->w, "workload", "import") ||
	    ss_trace_write_meta(im->w, "source", o->input) ||
	    ss_trace_write_meta(im->w, "target", im->target.name))
		return ss_trace_writer_failed(im->w, err);
	if (write_slab_fill(im, err) || write_cpu_slab_free(im, err))
		return -1;
	return o->cpus ? write_cpus(im, o->cpus, err) : 0;
}

static int by_lost_desc(const void *a, const void *b, void *ctx)
{
	const uint64_t *n = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (n[x] != n[y])
		return n[x] < n[y] ? 1 : -1;
	return x < y ? -1 : x > y;
}

/* Meta `key`: "NAME=N ..." for each name of t whose count n[] is not 0,
 * most first (ties in name order of t), as many as fit. */
static int write_counts(struct importer *im, const char *key, const struct ss_strtab *t,
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
	qsort_r(idx, nr, sizeof(*idx), by_lost_desc, n);
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
	if (nr && ss_trace_write_meta(im->w, key, buf))
		rc = ss_trace_writer_failed(im->w, err);
	free(idx);
	free(buf);
	return rc;
}

/* meta untraced_frees: the allocation sites whose objects were freed
 * without a free event, as "SITE=N ..." (N allocations found their
 * pointer still live), most first.  The replay's settling rule reads it
 * (docs/own-trace.md); a site absent here showed no such evidence.
 * meta untraced_allocs: the caches whose objects were allocated without
 * an allocation event, as "CACHE=N ..." (N kmem_cache_free events of a
 * pointer already freed with no allocation between), for the replay's
 * prior.csv and the report's notes (a kfree names no cache). */
static int write_untraced(struct importer *im, struct ss_error *err)
{
	return write_counts(im, "untraced_frees", &im->sites, im->lost_free, err) ||
	       write_counts(im, "untraced_allocs", &im->again, im->again_n, err);
}

/* Facts only known at the end go last (meta may come anywhere). */
static int finish(struct importer *im, struct ss_error *err)
{
	struct ss_import_totals *t = im->t;
	char buf[32];

	t->live_at_end = im->map.live;
	t->peak_live = im->map.peak;
	t->kmalloc_class_mismatch = im->caches.kmalloc_mismatch;
	t->geometry_mismatch = im->caches.geometry_mismatch;
	t->caches = im->caches.names.nr;
	if (write_untraced(im, err))
		return -1;
	/* what the page frees gave, for whoever reads the trace (the totals
	 * have them too): the `d` lines themselves are what the replay reads */
	if (t->page_frees) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)t->page_frees);
		if (ss_trace_write_meta(im->w, "page_frees", buf))
			return ss_trace_writer_failed(im->w, err);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)t->kslabs_freed);
		if (ss_trace_write_meta(im->w, "kslabs_freed", buf))
			return ss_trace_writer_failed(im->w, err);
	}
	/* the base that names a page free's kernel slab: with it, every
	 * kernel slab the trace frees from and that died has its `d` line,
	 * so one without did not die (allocators/prior_counts.h outlived) --
	 * unless events were lost, a page free perhaps among them */
	if (t->page_frees && t->page_base_found && !t->lost_events && !t->overwritten) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)t->page_base);
		if (ss_trace_write_meta(im->w, "page_base", buf))
			return ss_trace_writer_failed(im->w, err);
	}
	if (im->cpus_written)
		return 0;
	snprintf(buf, sizeof(buf), "%u", im->dat_cpus > t->max_cpu ? im->dat_cpus : t->max_cpu + 1);
	if (ss_trace_write_meta(im->w, "cpus", buf))
		return ss_trace_writer_failed(im->w, err);
	return 0;
}

/* One reading of the capture: u says whether it plans the untraced
 * objects' allocations (the trace then goes nowhere) or writes them. */
static int import_once(const struct ss_import_opts *o, struct ss_import_totals *t,
		       struct ss_import_untraced *u, struct ss_error *err)
{
	struct importer im = {.o = o, .t = t, .untraced = u};
	int rc = -1;

	memset(t, 0, sizeof(*t));
	if (setup(&im, err)) {
		ss_trace_writer_abort(im.w);
		goto out;
	}
	/* a slab is an address rounded down: raw pointers and a snapshot */
	if (u->mode == SS_UNTRACED_PLAN && !im.prior.raw)
		u->mode = SS_UNTRACED_OFF;
	u->snap = im.have_snap ? &im.snap : NULL;
	if (read_all(&im, err) || finish(&im, err)) {
		ss_trace_writer_abort(im.w);
	} else {
		rc = ss_trace_writer_commit(im.w, err);
	}
	u->snap = NULL;
out:
	ss_inbuf_close(&im.in);
	ss_ptrmap_release(&im.map);
	ss_ptrmap_release(&im.dead);
	ss_strtab_release(&im.sites);
	free(im.lost_free);
	ss_strtab_release(&im.again);
	free(im.again_n);
	ss_idpool_release(&im.ids);
	ss_import_caches_release(&im.caches);
	ss_import_prior_release(&im.prior);
	ss_import_objext_release(&im.objext);
	ss_import_slabpages_release(&im.slabpages);
	if (im.have_snap)
		ss_snap_release(&im.snap);
	if (im.have_start_snap)
		ss_snap_release(&im.start_snap);
	return rc;
}

/* Two readings when objects allocated without an event are replayed
 * (import_untraced.c): standard input is read once, and keeps dropping
 * them. */
int ss_import(const struct ss_import_opts *o, struct ss_import_totals *t,
	      struct ss_error *err)
{
	struct ss_import_untraced u = {.mode = SS_UNTRACED_OFF};
	int rc;

	if (!o->drop_untraced && strcmp(o->input, "-")) {
		struct ss_import_opts plan = *o;

		plan.output = SS_IMPORT_PLAN_OUTPUT;
		u.mode = SS_UNTRACED_PLAN;
		if (import_once(&plan, t, &u, err)) {
			ss_import_untraced_release(&u);
			return -1;
		}
		if (u.mode == SS_UNTRACED_PLAN && ss_import_untraced_ready(&u)) {
			ss_import_untraced_release(&u);
			return ss_errorf(err, "out of memory");
		}
	}
	rc = import_once(o, t, &u, err);
	t->untraced_anchored = u.anchored;
	ss_import_untraced_release(&u);
	return rc;
}

double ss_import_frag_pct(const struct ss_import_totals *t)
{
	if (!t->bytes_alloc)
		return 0.0;
	return 100.0 - 100.0 * (double)t->bytes_req / (double)t->bytes_alloc;
}

void ss_import_print(FILE *out, const struct ss_import_totals *t)
{
	fprintf(out, "SUMMARY (SLAB allocator)\n========================\n");
	fprintf(out, "Total bytes requested: %llu\n", (unsigned long long)t->bytes_req);
	fprintf(out, "Total bytes allocated: %llu\n", (unsigned long long)t->bytes_alloc);
	fprintf(out, "Total bytes freed:     %llu\n", (unsigned long long)t->bytes_freed);
	if (t->bytes_alloc > t->bytes_freed)
		fprintf(out, "Net total bytes allocated: %llu\n",
			(unsigned long long)(t->bytes_alloc - t->bytes_freed));
	/* no wrap: every record has bytes_req <= bytes_alloc (payload()) */
	fprintf(out, "Total bytes wasted on internal fragmentation: %llu\n",
		(unsigned long long)(t->bytes_alloc - t->bytes_req));
	fprintf(out, "Internal fragmentation: %f%%\n", ss_import_frag_pct(t));
	fprintf(out, "Cross CPU frees (ping-pong): %llu/%llu\n",
		(unsigned long long)t->cross_cpu_frees, (unsigned long long)t->frees);
	fprintf(out, "\nIMPORT\n======\n");
	fprintf(out, "Lines read: %llu (%llu other events, %llu not events)\n",
		(unsigned long long)t->lines, (unsigned long long)t->other_events,
		(unsigned long long)t->skipped_lines);
	fprintf(out, "Events written: %llu (%llu allocs, %llu frees), CPUs 0-%u, %llu caches declared\n",
		(unsigned long long)t->events, (unsigned long long)(t->allocs - t->failed_allocs),
		(unsigned long long)t->frees, t->max_cpu, (unsigned long long)t->caches);
	fprintf(out, "Frees of unknown pointers: %llu (%llu written as prior frees, %llu of an unknown cache skipped,\n"
		     "  %llu of an object allocated without an event)\n",
		(unsigned long long)t->unknown_frees, (unsigned long long)t->prior_frees,
		(unsigned long long)t->prior_unattributed, (unsigned long long)t->untraced_allocs);
	if (t->untraced_allocs)
		fprintf(out, "  (%llu of those replayed: an allocation written where the trace places it,\n"
			     "  %llu after their slab's last traced allocation; the rest dropped)\n",
			(unsigned long long)t->untraced_placed, (unsigned long long)t->untraced_anchored);
	if (t->slab_pages_used)
		fprintf(out, "  (%llu of those on pages no slab held as tracing began: slab-pages)\n",
			(unsigned long long)t->new_slab_frees);
	else if (t->slab_pages_why)
		fprintf(out, "  (the slab-pages file not used: %s)\n", t->slab_pages_why);
	if (t->free_slots_used)
		fprintf(out, "  (%llu of those of objects a listed slab had free as tracing began: "
			     "free-objects)\n", (unsigned long long)t->free_slot_frees);
	if (t->walk_allocs)
		fprintf(out, "  (%llu of them the before-snapshot walk's objects, of %llu it allocated: skipped)\n",
			(unsigned long long)t->walk_frees, (unsigned long long)t->walk_allocs);
	if (t->listed_frees)
		fprintf(out, "  (%llu unknown kfree()s on slabs the slab-fill listed and no event had named: "
			     "the listed cache's)\n", (unsigned long long)t->listed_frees);
	if (t->vector_frees)
		fprintf(out, "  (%llu freed slabs' obj_exts vectors after a kfree() of an object the capture "
			     "saw allocated: its cache's objects per slab x %u)\n",
			(unsigned long long)t->vector_frees, SS_OBJEXT_BYTES);
	if (t->stride_frees)
		fprintf(out, "  (%llu unknown kfree()s placed by their offsets in %llu slabs: the stride rule)\n",
			(unsigned long long)t->stride_frees, (unsigned long long)t->stride_slabs);
	fprintf(out, "kfree(NULL) (skipped): %llu\n", (unsigned long long)t->null_frees);
	fprintf(out, "Allocations of a live pointer (lost free, old object freed): %llu\n",
		(unsigned long long)t->realloc_live);
	fprintf(out, "Failed allocations (ptr 0, skipped): %llu\n", (unsigned long long)t->failed_allocs);
	fprintf(out, "Lost events: %llu reported by [LOST] markers, %llu overwritten in the ring buffer\n",
		(unsigned long long)t->lost_events, (unsigned long long)t->overwritten);
	fprintf(out, "Live at end: %llu objects (peak %llu)\n", (unsigned long long)t->live_at_end,
		(unsigned long long)t->peak_live);
	fprintf(out, "kmalloc records whose bytes_alloc is not the target's class: %llu\n",
		(unsigned long long)t->kmalloc_class_mismatch);
	fprintf(out, "Caches whose traced stride the target's rules do not reproduce: %llu\n",
		(unsigned long long)t->geometry_mismatch);
	fprintf(out, "Phase markers (slabsim-phase): %llu\n", (unsigned long long)t->phases);
	if (t->page_frees && t->page_base_found) {
		fprintf(out, "Page frees (mm_page_free): %llu, of them %llu kernel slabs prior frees named (slab freed events)\n",
			(unsigned long long)t->page_frees, (unsigned long long)t->kslabs_freed);
		if (t->page_base_from_fill)
			fprintf(out, "  (the direct map at %#llx, from the slab-fill's slabs and the page "
				     "frees' struct pages", (unsigned long long)t->page_base);
		if (t->page_base_from_fill && t->page_votes_wrong)
			fprintf(out, "; the frees-then-page-free votes had put it at %#llx",
				(unsigned long long)t->page_votes_base);
		if (t->page_base_from_fill)
			fputs(")\n", out);
	} else if (t->page_frees)
		fprintf(out, "Page frees (mm_page_free): %llu, not used: no direct-map base found (hashed pointers, or too few frees right before a page free)\n",
			(unsigned long long)t->page_frees);
	if (t->no_cpu_lines)
		fprintf(out, "Events without a [CPU] column (put on CPU 0): %llu\n",
			(unsigned long long)t->no_cpu_lines);
}

int ss_import_write_totals(const char *path, const struct ss_import_totals *t,
			   struct ss_error *err)
{
	struct ss_atomic_file f;

	if (ss_atomic_open(&f, path, err))
		return -1;
	fprintf(f.fp, "lines,events,allocs,frees,bytes_requested,bytes_allocated,bytes_freed,"
		      "internal_fragmentation_pct,cross_cpu_frees,unknown_frees,null_frees,"
		      "realloc_live,failed_allocs,lost_events,overwritten_events,other_events,"
		      "skipped_lines,live_at_end,peak_live,max_cpu,caches,"
		      "kmalloc_class_mismatch,geometry_mismatch,phases,prior_frees,prior_unattributed,"
		      "untraced_allocs,walk_allocs,walk_frees,page_frees,kslabs_freed,untraced_placed\n");
	fprintf(f.fp, "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
		      "%llu,%llu,%llu,%llu,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n",
		(unsigned long long)t->lines, (unsigned long long)t->events,
		(unsigned long long)t->allocs, (unsigned long long)t->frees,
		(unsigned long long)t->bytes_req, (unsigned long long)t->bytes_alloc,
		(unsigned long long)t->bytes_freed, ss_import_frag_pct(t),
		(unsigned long long)t->cross_cpu_frees, (unsigned long long)t->unknown_frees,
		(unsigned long long)t->null_frees, (unsigned long long)t->realloc_live,
		(unsigned long long)t->failed_allocs, (unsigned long long)t->lost_events,
		(unsigned long long)t->overwritten, (unsigned long long)t->other_events,
		(unsigned long long)t->skipped_lines, (unsigned long long)t->live_at_end,
		(unsigned long long)t->peak_live, t->max_cpu, (unsigned long long)t->caches,
		(unsigned long long)t->kmalloc_class_mismatch,
		(unsigned long long)t->geometry_mismatch, (unsigned long long)t->phases,
		(unsigned long long)t->prior_frees, (unsigned long long)t->prior_unattributed,
		(unsigned long long)t->untraced_allocs, (unsigned long long)t->walk_allocs,
		(unsigned long long)t->walk_frees, (unsigned long long)t->page_frees,
		(unsigned long long)t->kslabs_freed, (unsigned long long)t->untraced_placed);
	return ss_atomic_commit(&f, err);
}
