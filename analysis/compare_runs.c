/* compare_runs.c - timeline.csv and caches.csv of one run (compare_runs.h). */
#include "compare_runs.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "csv.h"
#include "sort.h"

/* ---- timeline.csv ---------------------------------------------------------- */

enum { TL_EVENTS, TL_PHASE, TL_FOOTPRINT, TL_LIVE, TL_TIME, TL_NCOLS };
static const char *const tl_cols[TL_NCOLS] = {
	"events", "phase", "footprint_kib", "live_objects", "sim_time_ms",
};

static int add_phase(struct ss_compare_timeline *tl, const char *name, double events)
{
	struct ss_compare_phase *p = realloc(tl->ph, (tl->nph + 1) * sizeof(*p));

	if (!p)
		return -1;
	tl->ph = p;
	p += tl->nph;
	p->name = strdup(name);
	p->events = events;
	p->end_kib = 0;
	if (!p->name)
		return -1;
	tl->nph++;
	return 0;
}

/* One row: parse, check the order, note a phase change. */
static int timeline_row(struct ss_csv *c, const unsigned *idx, int initial, char **prev,
			struct ss_compare_point *pt, struct ss_compare_timeline *tl,
			struct ss_error *err)
{
	const char *phase = ss_csv_get(c, idx[TL_PHASE]);
	double ev, loaded = pt->initial_kib; /* the row before's */

	if (ss_csv_num(c, idx[TL_EVENTS], &ev, err) ||
	    ss_csv_num(c, idx[TL_FOOTPRINT], &pt->footprint_kib, err) ||
	    ss_csv_num(c, idx[TL_LIVE], &pt->live_objects, err) ||
	    ss_csv_num(c, idx[TL_TIME], &pt->sim_time_ms, err) ||
	    (initial >= 0 && ss_csv_num(c, (unsigned)initial, &pt->initial_kib, err)))
		return -1;
	if (pt->initial_kib < loaded)
		return ss_error_at(err, c->path, c->line,
				   "initial_kib %.2f: the initial state's slabs loaded so far only grow",
				   pt->initial_kib);
	if (tl->rows && ev < pt->events)
		return ss_error_at(err, c->path, c->line,
				   "events %.0f after %.0f: rows out of order",
				   ev, pt->events);
	if (!*phase)
		return ss_error_at(err, c->path, c->line, "empty phase");
	pt->events = ev;
	if (strcmp(phase, *prev)) {
		/* A marker's row is taken before the new phase's first event:
		 * its footprint is where the previous phase ended. */
		if (tl->nph)
			tl->ph[tl->nph - 1].end_kib = pt->footprint_kib;
		if (add_phase(tl, phase, ev))
			return ss_errorf(err, "%s: out of memory", c->path);
		free(*prev);
		if (!(*prev = strdup(phase)))
			return ss_errorf(err, "%s: out of memory", c->path);
	}
	if (!tl->rows || pt->footprint_kib > tl->peak.footprint_kib)
		tl->peak = *pt;
	tl->last = *pt;
	tl->rows++;
	return 0;
}

int ss_compare_read_timeline(const char *path, ss_compare_row_fn row, void *ctx,
		      struct ss_compare_timeline *tl, struct ss_error *err)
{
	struct ss_csv c;
	struct ss_compare_point pt = {0};
	unsigned idx[TL_NCOLS];
	char *prev = strdup("start"); /* the replay's phase before any marker */
	int r = -1, initial;

	memset(tl, 0, sizeof(*tl));
	if (!prev)
		return ss_errorf(err, "%s: out of memory", path);
	if (ss_csv_open(&c, path, NULL, NULL, err)) {
		free(prev);
		return -1;
	}
	for (int k = 0; k < TL_NCOLS; k++)
		if (ss_csv_need(&c, tl_cols[k], &idx[k], err))
			goto out;
	initial = ss_csv_col(&c, "initial_kib"); /* a run from an initial state */
	tl->initial = initial >= 0;
	while ((r = ss_csv_next(&c, err)) == 1) {
		if (timeline_row(&c, idx, initial, &prev, &pt, tl, err))
			goto fail;
		if (row && row(ctx, &pt)) {
			ss_errorf(err, "write failed (out of memory or I/O error)");
			goto fail;
		}
	}
	if (r == 0 && !tl->rows)
		r = ss_error_at(err, path, 0, "no rows");
	if (r == 0 && tl->nph)
		tl->ph[tl->nph - 1].end_kib = tl->last.footprint_kib;
	goto out;
fail:
	r = -1;
out:
	free(prev);
	ss_csv_close(&c);
	if (r)
		ss_compare_timeline_free(tl);
	return r ? -1 : 0;
}

void ss_compare_timeline_free(struct ss_compare_timeline *tl)
{
	for (size_t i = 0; i < tl->nph; i++)
		free(tl->ph[i].name);
	free(tl->ph);
	tl->ph = NULL;
	tl->nph = 0;
}

/* ---- caches.csv -------------------------------------------------------------- */

enum {
	CC_NAME, CC_OBJSIZE, CC_OPS, CC_ORDER, CC_OBJECTS, CC_SLABS, CC_PARTIAL,
	CC_CPU, CC_SPACE, CC_LOSS, CC_LPADD, CC_REQUESTED, CC_ALIGN, CC_DEBUGB,
	CC_FREE, CC_DEBUG, CC_ROUNDING, CC_NCOLS
};
static const char *const cc_cols[CC_NCOLS] = {
	"name", "object_size", "objs_per_slab", "order", "objects", "slabs",
	"partial_slabs", "cpu_slabs", "space_bytes", "loss_bytes", "lpadd_bytes",
	"requested_bytes", "align_bytes", "debug_bytes", "free_slot_bytes",
	"debug", "rounding_bytes",
};

static int cmp_waste(const void *a, const void *b)
{
	const struct ss_compare_cache *x = a, *y = b;

	if (x->waste_bytes != y->waste_bytes)
		return x->waste_bytes < y->waste_bytes ? 1 : -1;
	return strcasecmp(x->name, y->name);
}

/* Copy the current record into cc->c[cc->n] and parse its numbers. */
static int cache_row(struct ss_csv *c, const unsigned *idx,
		     struct ss_compare_caches *cc, struct ss_error *err)
{
	uint64_t *num[CC_NCOLS] = {0};
	double rounding;
	struct ss_compare_cache *e, *grown = realloc(cc->c, (cc->n + 1) * sizeof(*grown));

	if (!grown)
		return ss_errorf(err, "%s: out of memory", c->path);
	cc->c = grown;
	e = memset(&cc->c[cc->n], 0, sizeof(*e));
	e->row = calloc(c->ncols, sizeof(*e->row));
	if (!e->row)
		return ss_errorf(err, "%s: out of memory", c->path);
	cc->n++;
	for (unsigned k = 0; k < c->ncols; k++)
		if (!(e->row[k] = strdup(ss_csv_get(c, k))))
			return ss_errorf(err, "%s: out of memory", c->path);
	e->name = e->row[idx[CC_NAME]];
	e->debug = e->row[idx[CC_DEBUG]];
	if (!*e->name)
		return ss_error_at(err, c->path, c->line, "empty cache name");
	num[CC_OBJSIZE] = &e->object_size;
	num[CC_OPS] = &e->objs_per_slab;
	num[CC_ORDER] = &e->order;
	num[CC_OBJECTS] = &e->objects;
	num[CC_SLABS] = &e->slabs;
	num[CC_PARTIAL] = &e->partial_slabs;
	num[CC_CPU] = &e->cpu_slabs;
	num[CC_SPACE] = &e->space_bytes;
	num[CC_LOSS] = &e->loss_bytes;
	num[CC_LPADD] = &e->lpadd_bytes;
	num[CC_REQUESTED] = &e->requested_bytes;
	num[CC_ALIGN] = &e->align_bytes;
	num[CC_DEBUGB] = &e->debug_bytes;
	num[CC_FREE] = &e->free_slot_bytes;
	for (int k = 0; k < CC_NCOLS; k++)
		if (num[k] && ss_csv_u64(c, idx[k], num[k], err))
			return -1;
	if (ss_csv_num(c, idx[CC_ROUNDING], &rounding, err))
		return -1;
	if (e->cpu_slabs > e->slabs || e->partial_slabs > e->slabs)
		return ss_error_at(err, c->path, c->line,
				   "cache %s: more partial or CPU slabs than slabs",
				   e->name);
	e->rounding_bytes = (int64_t)rounding;
	if (e->requested_bytes > e->space_bytes ||
	    e->requested_bytes + (uint64_t)e->rounding_bytes + e->align_bytes +
			    e->debug_bytes + e->free_slot_bytes + e->lpadd_bytes !=
		    e->space_bytes)
		return ss_error_at(err, c->path, c->line,
				   "cache %s: requested + rounding + align + debug + free slots + "
				   "lpadd is not space_bytes", e->name);
	e->waste_bytes = (int64_t)(e->space_bytes - e->requested_bytes);
	return 0;
}

static void drop_empty(struct ss_compare_caches *cc, unsigned ncols)
{
	size_t k = 0;

	for (size_t i = 0; i < cc->n; i++) {
		if (cc->c[i].slabs) {
			cc->c[k++] = cc->c[i];
			continue;
		}
		for (unsigned j = 0; j < ncols; j++)
			free(cc->c[i].row[j]);
		free(cc->c[i].row);
	}
	cc->n = k;
}

int ss_compare_read_caches(const char *path, struct ss_compare_caches *cc,
		    struct ss_error *err)
{
	struct ss_csv c;
	unsigned idx[CC_NCOLS];
	int r = -1;

	memset(cc, 0, sizeof(*cc));
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	for (int k = 0; k < CC_NCOLS; k++)
		if (ss_csv_need(&c, cc_cols[k], &idx[k], err))
			goto out;
	cc->header = calloc(c.ncols, sizeof(*cc->header));
	if (!cc->header) {
		ss_errorf(err, "%s: out of memory", path);
		goto out;
	}
	cc->ncols = c.ncols;
	for (unsigned k = 0; k < c.ncols; k++)
		if (!(cc->header[k] = strdup(c.hdr[k]))) {
			ss_errorf(err, "%s: out of memory", path);
			goto out;
		}
	while ((r = ss_csv_next(&c, err)) == 1)
		if (cache_row(&c, idx, cc, err)) {
			r = -1;
			break;
		}
out:
	ss_csv_close(&c);
	if (r) {
		ss_compare_caches_free(cc);
		return -1;
	}
	drop_empty(cc, cc->ncols);
	ss_sort(cc->c, cc->n, sizeof(*cc->c), cmp_waste);
	return 0;
}

void ss_compare_caches_free(struct ss_compare_caches *cc)
{
	for (size_t i = 0; i < cc->n; i++) {
		for (unsigned j = 0; cc->c[i].row && j < cc->ncols; j++)
			free(cc->c[i].row[j]);
		free(cc->c[i].row);
	}
	for (unsigned j = 0; cc->header && j < cc->ncols; j++)
		free(cc->header[j]);
	free(cc->header);
	free(cc->c);
	memset(cc, 0, sizeof(*cc));
}

unsigned ss_compare_partial_pct(const struct ss_compare_cache *c)
{
	return c->slabs ? (unsigned)(c->partial_slabs * 100 / c->slabs) : 100;
}

unsigned ss_compare_efficiency_pct(const struct ss_compare_cache *c)
{
	return c->space_bytes ? (unsigned)(c->objects * c->object_size * 100 /
					   c->space_bytes)
			      : 100;
}

/* ---- sites.csv -------------------------------------------------------------- */

enum {
	SC_SITE, SC_CACHE, SC_ALLOCS, SC_FREES, SC_REQ, SC_ALLOC, SC_XCPU, SC_LIVE,
	SC_PEAK, SC_LIVEREQ, SC_ALIGN, SC_DEBUG, SC_ROUNDING, SC_NCOLS
};
static const char *const sc_cols[SC_NCOLS] = {
	"site", "cache", "allocs", "frees", "requested_bytes", "allocated_bytes",
	"cross_cpu_frees", "live_objects", "peak_live_objects",
	"live_requested_bytes", "align_bytes", "debug_bytes", "rounding_bytes",
};

static int cmp_site_waste(const void *a, const void *b)
{
	const struct ss_compare_site *x = a, *y = b;
	int c;

	if (x->waste_bytes != y->waste_bytes)
		return x->waste_bytes < y->waste_bytes ? 1 : -1;
	if ((c = strcmp(x->site, y->site)))
		return c;
	return strcmp(x->cache, y->cache);
}

static int site_row(struct ss_csv *c, const unsigned *idx, struct ss_compare_sites *ss,
		    struct ss_error *err)
{
	uint64_t *num[SC_NCOLS] = {0};
	struct ss_compare_site *e, *grown = realloc(ss->s, (ss->n + 1) * sizeof(*grown));
	double rounding;

	if (!grown)
		return ss_errorf(err, "%s: out of memory", c->path);
	ss->s = grown;
	e = memset(&ss->s[ss->n], 0, sizeof(*e));
	e->site = strdup(ss_csv_get(c, idx[SC_SITE]));
	e->cache = strdup(ss_csv_get(c, idx[SC_CACHE]));
	ss->n++;
	if (!e->site || !e->cache)
		return ss_errorf(err, "%s: out of memory", c->path);
	if (!*e->site || !*e->cache)
		return ss_error_at(err, c->path, c->line, "empty site or cache name");
	num[SC_ALLOCS] = &e->allocs;
	num[SC_FREES] = &e->frees;
	num[SC_REQ] = &e->requested;
	num[SC_ALLOC] = &e->allocated;
	num[SC_XCPU] = &e->cross_cpu;
	num[SC_LIVE] = &e->live_objects;
	num[SC_PEAK] = &e->peak_live;
	num[SC_LIVEREQ] = &e->live_requested;
	num[SC_ALIGN] = &e->align_bytes;
	num[SC_DEBUG] = &e->debug_bytes;
	for (int k = 0; k < SC_NCOLS; k++)
		if (num[k] && ss_csv_u64(c, idx[k], num[k], err))
			return -1;
	if (ss_csv_num(c, idx[SC_ROUNDING], &rounding, err))
		return -1;
	if (e->frees > e->allocs || e->live_objects != e->allocs - e->frees ||
	    e->peak_live < e->live_objects)
		return ss_error_at(err, c->path, c->line,
				   "site %s: live_objects is not allocs - frees, or above its peak",
				   e->site);
	e->rounding_bytes = (int64_t)rounding;
	e->waste_bytes = e->rounding_bytes + (int64_t)(e->align_bytes + e->debug_bytes);
	return 0;
}

int ss_compare_read_sites(const char *path, struct ss_compare_sites *ss, struct ss_error *err)
{
	struct ss_csv c;
	unsigned idx[SC_NCOLS];
	int r = -1;

	memset(ss, 0, sizeof(*ss));
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	for (int k = 0; k < SC_NCOLS; k++)
		if (ss_csv_need(&c, sc_cols[k], &idx[k], err))
			goto out;
	while ((r = ss_csv_next(&c, err)) == 1)
		if (site_row(&c, idx, ss, err)) {
			r = -1;
			break;
		}
out:
	ss_csv_close(&c);
	if (r) {
		ss_compare_sites_free(ss);
		return -1;
	}
	ss_sort(ss->s, ss->n, sizeof(*ss->s), cmp_site_waste);
	return 0;
}

void ss_compare_sites_free(struct ss_compare_sites *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		free(ss->s[i].site);
		free(ss->s[i].cache);
	}
	free(ss->s);
	memset(ss, 0, sizeof(*ss));
}
