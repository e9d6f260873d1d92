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
#include <string.h>

#include "atomic_file.h"
#include "import.h"
#include "trace_io.h"

struct importer {
	const struct ss_import_opts *o;
	struct ss_import_totals *t;
	struct ss_kmem_labels labels;
	struct ss_target target;
	struct ss_trace_writer *w;
	struct ss_ptrmap map;
	struct ss_idpool ids;
	struct ss_import_caches caches;
	struct ss_inbuf in;
	unsigned long lineno;
};

#define BAD(im, err, ...) ss_error_at(err, (im)->o->input, (im)->lineno, __VA_ARGS__)

/* The object at e leaves: free it in the output and recycle its id. */
static int emit_free(struct importer *im, struct ss_ptr_entry *e, unsigned cpu)
{
	if (ss_trace_write_free(im->w, cpu, e->id))
		return -1;
	ss_idpool_put(&im->ids, e->id);
	ss_ptrmap_remove(&im->map, e);
	im->t->events++;
	return 0;
}

static int do_alloc(struct importer *im, const struct ss_kmem_rec *rec,
		    struct ss_error *err)
{
	struct ss_import_totals *t = im->t;
	struct ss_ptr_entry *e;
	char site[SS_MAX_NAME + 1];
	uint64_t size;
	int api;

	t->allocs++;
	t->bytes_req += rec->bytes_req;
	t->bytes_alloc += rec->bytes_alloc;
	if (!rec->ptr) { /* the allocation failed */
		t->failed_allocs++;
		return 0;
	}
	api = ss_import_cache_api(&im->caches, im->w, rec, &size, err);
	if (api < 0) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		return BAD(im, err, "%s", why);
	}
	e = ss_ptrmap_find(&im->map, rec->ptr);
	if (e) {
		/* ZERO_SIZE_PTR is handed out again and again; anything else
		 * live at the same address lost its free */
		t->realloc_live += e->bytes_alloc || rec->bytes_alloc;
		if (emit_free(im, e, rec->cpu))
			return BAD(im, err, "write failed");
	}
	e = ss_ptrmap_insert(&im->map, rec->ptr);
	if (!e)
		return BAD(im, err, "out of memory");
	e->id = ss_idpool_get(&im->ids);
	e->bytes_alloc = rec->bytes_alloc;
	e->cpu = rec->cpu;
	ss_import_clean_name(rec->call_site, site);
	if (ss_trace_write_alloc_gfp(im->w, rec->cpu, e->id, site, (uint32_t)api, size,
				     rec->gfp))
		return BAD(im, err, "write failed");
	t->events++;
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
		return 0;
	}
	t->frees++;
	t->bytes_freed += e->bytes_alloc;
	t->cross_cpu_frees += e->cpu != rec->cpu;
	return emit_free(im, e, rec->cpu) ? BAD(im, err, "write failed") : 0;
}

/* A phase marker: the replay takes its snapshots there. */
static int do_phase(struct importer *im, const struct ss_kmem_rec *rec,
		    struct ss_error *err)
{
	char name[SS_MAX_NAME + 1];

	ss_import_clean_name(rec->name, name);
	if (ss_trace_write_phase(im->w, name))
		return BAD(im, err, "write failed");
	im->t->phases++;
	return 0;
}

static int do_line(struct importer *im, char *line, struct ss_error *err)
{
	struct ss_import_totals *t = im->t;
	struct ss_kmem_rec rec;
	const char *why = NULL;
	int kind = ss_kmem_parse_line(line, &im->labels, &rec, &why);

	switch (kind) {
	case SS_KL_SKIP: t->skipped_lines++; return 0;
	case SS_KL_OTHER: t->other_events++; return 0;
	case SS_KL_LOST: t->lost_events += rec.lost; return 0;
	case SS_KL_HEADER: t->overwritten += rec.lost; return 0;
	case SS_KL_PHASE: return do_phase(im, &rec, err);
	case SS_KL_EVENT: break;
	default: return BAD(im, err, "%s", why);
	}
	if (!rec.has_cpu)
		t->no_cpu_lines++;
	if (rec.cpu > 65535)
		return BAD(im, err, "cpu %u out of range", rec.cpu);
	if (rec.cpu > t->max_cpu)
		t->max_cpu = rec.cpu;
	if (rec.event == SS_KE_KMALLOC || rec.event == SS_KE_CACHE_ALLOC)
		return do_alloc(im, &rec, err);
	return do_free(im, &rec, err);
}

static int read_all(struct importer *im, struct ss_error *err)
{
	char *line;
	size_t len;
	int rc;

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
	if (!im->t->allocs && !im->t->frees && !im->t->unknown_frees && !im->t->null_frees)
		return ss_errorf(err, "%s: no kmalloc, kmem_cache_alloc, kfree or kmem_cache_free events found",
				 im->o->input);
	return 0;
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
	im->caches.target = &im->target;
	im->caches.warn = stderr;
	if (ss_inbuf_open(&im->in, o->input, err))
		return -1;
	if (ss_trace_writer_open(&im->w, o->output, err))
		return -1;
	if (ss_trace_write_meta(im->w, "workload", "import") ||
	    ss_trace_write_meta(im->w, "source", o->input) ||
	    ss_trace_write_meta(im->w, "target", im->target.name))
		return ss_errorf(err, "%s: write failed", o->output);
	return 0;
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
	snprintf(buf, sizeof(buf), "%u", t->max_cpu + 1);
	if (ss_trace_write_meta(im->w, "cpus", buf))
		return ss_errorf(err, "%s: write failed", im->o->output);
	return 0;
}

int ss_import(const struct ss_import_opts *o, struct ss_import_totals *t,
	      struct ss_error *err)
{
	struct importer im = {.o = o, .t = t};
	int rc = -1;

	memset(t, 0, sizeof(*t));
	if (setup(&im, err) || read_all(&im, err) || finish(&im, err)) {
		ss_trace_writer_abort(im.w);
	} else {
		rc = ss_trace_writer_commit(im.w, err);
	}
	ss_inbuf_close(&im.in);
	ss_ptrmap_release(&im.map);
	ss_idpool_release(&im.ids);
	ss_import_caches_release(&im.caches);
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
	fprintf(out, "Frees of unknown pointers (skipped): %llu\n", (unsigned long long)t->unknown_frees);
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
		      "kmalloc_class_mismatch,geometry_mismatch,phases\n");
	fprintf(f.fp, "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
		      "%llu,%llu,%llu,%llu,%u,%llu,%llu,%llu,%llu\n",
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
		(unsigned long long)t->geometry_mismatch, (unsigned long long)t->phases);
	return ss_atomic_commit(&f, err);
}
