/* compare_runs.c - timeline.csv and caches.csv of one run (compare_runs.h). */
#include "compare_runs.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "csv.h"

/* ---- timeline.csv ---------------------------------------------------------- */

enum { TL_EVENTS, TL_PHASE, TL_FOOTPRINT, TL_LIVE, TL_TIME, TL_NCOLS };
static const char *const tl_cols[TL_NCOLS] = {
	"events", "phase", "footprint_kib", "live_objects", "sim_time_ms",
};

static int add_phase(struct cmp_timeline *tl, const char *name, double events)
{
	struct cmp_phase *p = realloc(tl->ph, (tl->nph + 1) * sizeof(*p));

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
static int timeline_row(struct ss_csv *c, const unsigned *idx, char **prev,
			struct cmp_point *pt, struct cmp_timeline *tl,
			struct ss_error *err)
{
	const char *phase = ss_csv_get(c, idx[TL_PHASE]);
	double ev;

	if (ss_csv_num(c, idx[TL_EVENTS], &ev, err) ||
	    ss_csv_num(c, idx[TL_FOOTPRINT], &pt->footprint_kib, err) ||
	    ss_csv_num(c, idx[TL_LIVE], &pt->live_objects, err) ||
	    ss_csv_num(c, idx[TL_TIME], &pt->sim_time_ms, err))
		return -1;
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

int cmp_read_timeline(const char *path, cmp_row_fn row, void *ctx,
		      struct cmp_timeline *tl, struct ss_error *err)
{
	struct ss_csv c;
	struct cmp_point pt = {0};
	unsigned idx[TL_NCOLS];
	char *prev = strdup("start"); /* the replay's phase before any marker */
	int r = -1;

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
	while ((r = ss_csv_next(&c, err)) == 1) {
		if (timeline_row(&c, idx, &prev, &pt, tl, err))
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
		cmp_timeline_free(tl);
	return r ? -1 : 0;
}

void cmp_timeline_free(struct cmp_timeline *tl)
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
	CC_CPU, CC_SPACE, CC_LOSS, CC_DEBUG, CC_NCOLS
};
static const char *const cc_cols[CC_NCOLS] = {
	"name", "object_size", "objs_per_slab", "order", "objects", "slabs",
	"partial_slabs", "cpu_slabs", "space_bytes", "loss_bytes", "debug",
};

static int cmp_loss(const void *a, const void *b)
{
	const struct cmp_cache *x = a, *y = b;

	if (x->loss_bytes != y->loss_bytes)
		return x->loss_bytes < y->loss_bytes ? 1 : -1;
	return strcasecmp(x->name, y->name);
}

/* Copy the current record into cc->c[cc->n] and parse its numbers. */
static int cache_row(struct ss_csv *c, const unsigned *idx,
		     struct cmp_caches *cc, struct ss_error *err)
{
	uint64_t *num[CC_NCOLS] = {0};
	struct cmp_cache *e, *grown = realloc(cc->c, (cc->n + 1) * sizeof(*grown));

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
	for (int k = 0; k < CC_NCOLS; k++)
		if (num[k] && ss_csv_u64(c, idx[k], num[k], err))
			return -1;
	if (e->cpu_slabs > e->slabs || e->partial_slabs > e->slabs)
		return ss_error_at(err, c->path, c->line,
				   "cache %s: more partial or CPU slabs than slabs",
				   e->name);
	return 0;
}

static void drop_empty(struct cmp_caches *cc, unsigned ncols)
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

int cmp_read_caches(const char *path, struct cmp_caches *cc,
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
		cmp_caches_free(cc);
		return -1;
	}
	drop_empty(cc, cc->ncols);
	if (cc->n) /* no caches: c is NULL, which qsort() may not take */
		qsort(cc->c, cc->n, sizeof(*cc->c), cmp_loss);
	return 0;
}

void cmp_caches_free(struct cmp_caches *cc)
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

unsigned cmp_partial_pct(const struct cmp_cache *c)
{
	return c->slabs ? (unsigned)(c->partial_slabs * 100 / c->slabs) : 100;
}

unsigned cmp_efficiency_pct(const struct cmp_cache *c)
{
	return c->space_bytes ? (unsigned)(c->objects * c->object_size * 100 /
					   c->space_bytes)
			      : 100;
}
