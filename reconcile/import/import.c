/* import.c - ss_import(): the options' files read once, then the passes
 * over the capture (README.md, "The passes"):
 *
 *   learn  what the whole capture tells about the frees it cannot explain
 *          (learn.c); not on standard input, which is read once
 *   plan   where the objects allocated without an event go (untraced.c);
 *          with raw pointers, unless --drop-untraced or standard input
 *   write  the trace
 */
#include <stdlib.h>
#include <string.h>

#include "import_rules.h"
#include "parse.h"

/* The options' files, in the order their errors are reported. */
int ss_import_cmp_pid(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* --tool-pids "P P,P": sorted into r->tool_pids.  -1 with err naming the
 * first word that is not a PID. */
static int read_tool_pids(struct ss_import_run *r, const char *list, struct ss_error *err)
{
	const char *p = list;

	while (*(p += strspn(p, " ,\t"))) {
		size_t n = strcspn(p, " ,\t");
		char word[24];
		uint64_t v;
		int64_t *grown;

		snprintf(word, sizeof(word), "%.*s", (int)(n < 23 ? n : 23), p);
		if (n > 22 || ss_parse_u64(word, 1ull << 32, &v))
			return ss_errorf(err, "--tool-pids: '%.*s' is not a PID", (int)(n > 40 ? 40 : n), p);
		if (!(grown = realloc(r->tool_pids, (r->nr_tool_pids + 1) * sizeof(*grown))))
			return ss_errorf(err, "out of memory");
		r->tool_pids = grown;
		r->tool_pids[r->nr_tool_pids++] = (int64_t)v;
		p += n;
	}
	if (r->nr_tool_pids)
		qsort(r->tool_pids, r->nr_tool_pids, sizeof(*r->tool_pids), ss_import_cmp_pid);
	return 0;
}

static int read_files(struct ss_import_run *r, struct ss_error *err)
{
	const struct ss_import_opts *o = r->o;

	ss_kmem_labels_default(&r->labels);
	for (unsigned i = 0; i < o->nr_formats; i++)
		if (ss_kmem_labels_load(&r->labels, o->formats[i], err))
			return -1;
	if (ss_target_load(o->target, &r->target, err))
		return -1;
	if (o->snapshot) {
		if (ss_snap_load(&r->snap, o->snapshot, err))
			return -1;
		r->have_snap = true;
		r->places.snap = &r->snap;
	}
	if (o->slab_fill) {
		unsigned skipped = 0;

		if (ss_snap_take_fill(&r->snap, o->slab_fill, &r->fill_hash, &skipped, err))
			return -1;
		if (ss_import_learn_listed(&r->learned, r->have_snap ? &r->snap : NULL))
			return ss_errorf(err, "out of memory");
	}
	if (o->walk && ss_import_walk_load(&r->walk, o->walk, &r->labels, &r->walk_allocs, err))
		return -1;
	if (o->tool_pids && read_tool_pids(r, o->tool_pids, err))
		return -1;
	r->dat = ss_import_is_dat(o->input);
	return 0;
}

/* The files that need the direct map's base the learn pass finds. */
static int read_start_files(struct ss_import_run *r, struct ss_error *err)
{
	const struct ss_import_opts *o = r->o;

	if (o->slab_pages) {
		if (ss_slabpages_load(&r->pages, o->slab_pages, err))
			return -1;
		r->have_pages = true;
	}
	if (o->free_objects) {
		uint64_t hash;
		unsigned skipped = 0;

		if (ss_snap_load(&r->start_snap, o->snapshot, err))
			return -1;
		r->have_start_snap = true;
		if (ss_snap_take_fill(&r->start_snap, o->free_objects, &hash, &skipped, err))
			return -1;
	}
	return 0;
}

static void run_release(struct ss_import_run *r)
{
	ss_import_untraced_release(&r->untraced);
	ss_import_learned_release(&r->learned);
	ss_import_places_release(&r->places);
	ss_ptrmap_release(&r->walk);
	if (r->have_pages)
		ss_slabpages_release(&r->pages);
	if (r->have_snap)
		ss_snap_release(&r->snap);
	if (r->have_start_snap)
		ss_snap_release(&r->start_snap);
	free(r->tool_pids);
}

int ss_import(const struct ss_import_opts *o, struct ss_import_totals *t,
	      struct ss_error *err)
{
	struct ss_import_run r = {.o = o, .untraced = {.mode = SS_UNTRACED_OFF}};
	bool stdin_input = !strcmp(o->input, "-");
	int rc = -1;

	memset(t, 0, sizeof(*t));
	if (read_files(&r, err))
		goto out;
	if (!stdin_input && ss_import_learn(&r, err))
		goto out;
	if (read_start_files(&r, err))
		goto out;
	/* a slab is an address rounded down: raw pointers */
	if (!o->drop_untraced && !stdin_input && r.learned.raw) {
		r.untraced.mode = SS_UNTRACED_PLAN;
		r.untraced.snap = r.have_snap ? &r.snap : NULL;
		if (ss_import_pass(&r, SS_IMPORT_PASS_PLAN, t, err))
			goto out;
		if (ss_import_untraced_ready(&r.untraced)) {
			ss_errorf(err, "out of memory");
			goto out;
		}
	}
	rc = ss_import_pass(&r, SS_IMPORT_PASS_WRITE, t, err);
	t->untraced_anchored = r.untraced.anchored;
out:
	run_release(&r);
	return rc;
}
