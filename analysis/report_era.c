/* report_era.c - what SLUB 7.x changes against 6.18's rules (report_era.h). */
#include "report_era.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "md_table.h"
#include "run_settings.h"
#include "slabsnap.h"

/* One cache of a run: what its caches.csv, slabinfo and counters.csv say. */
struct era_cache {
	char name[64];
	uint64_t slab_bytes;	/* caches.csv space_bytes: its slabs' pages */
	uint64_t objects;	/* caches.csv objects: the users' */
	uint64_t in_use;	/* slabinfo active objects (SLUB's `objects`) */
	uint64_t refill, flush, put_fail; /* counters.csv */
};

struct era_run {
	struct era_cache *c;
	size_t n, cap;
};

static struct era_cache *cache_of(struct era_run *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->c[i].name, name))
			return &r->c[i];
	if (strlen(name) >= sizeof(r->c[0].name))
		return NULL;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 32;
		struct era_cache *c = realloc(r->c, cap * sizeof(*c));

		if (!c)
			return NULL;
		r->c = c;
		r->cap = cap;
	}
	memset(&r->c[r->n], 0, sizeof(r->c[0]));
	strcpy(r->c[r->n].name, name);
	return &r->c[r->n++];
}

static int load_caches(const char *rundir, struct era_run *r, struct ss_error *err)
{
	char path[4400];
	struct ss_csv c;
	unsigned col[3];
	int rc;

	snprintf(path, sizeof(path), "%s/caches.csv", rundir);
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	if (ss_csv_need(&c, "name", &col[0], err) || ss_csv_need(&c, "objects", &col[1], err) ||
	    ss_csv_need(&c, "space_bytes", &col[2], err)) {
		ss_csv_close(&c);
		return -1;
	}
	while ((rc = ss_csv_next(&c, err)) == 1) {
		struct era_cache *e = cache_of(r, ss_csv_get(&c, col[0]));

		if (!e) {
			rc = ss_errorf(err, "%s: out of memory", path);
			break;
		}
		if (ss_csv_u64(&c, col[1], &e->objects, err) ||
		    ss_csv_u64(&c, col[2], &e->slab_bytes, err)) {
			rc = -1;
			break;
		}
	}
	ss_csv_close(&c);
	return rc;
}

static int load_counters(const char *rundir, struct era_run *r, struct ss_error *err)
{
	char path[4400];
	struct ss_csv c;
	unsigned col[3];
	int rc;

	snprintf(path, sizeof(path), "%s/counters.csv", rundir);
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	if (ss_csv_need(&c, "cache", &col[0], err) || ss_csv_need(&c, "counter", &col[1], err) ||
	    ss_csv_need(&c, "value", &col[2], err)) {
		ss_csv_close(&c);
		return -1;
	}
	while ((rc = ss_csv_next(&c, err)) == 1) {
		const char *what = ss_csv_get(&c, col[1]);
		struct era_cache *e;
		uint64_t *to;

		if (strcmp(what, "sheaf_refill") && strcmp(what, "sheaf_flush") &&
		    strcmp(what, "barn_put_fail"))
			continue;
		if (!(e = cache_of(r, ss_csv_get(&c, col[0])))) {
			rc = ss_errorf(err, "%s: out of memory", path);
			break;
		}
		to = !strcmp(what, "sheaf_refill") ? &e->refill
		     : !strcmp(what, "sheaf_flush") ? &e->flush : &e->put_fail;
		if (ss_csv_u64(&c, col[2], to, err)) {
			rc = -1;
			break;
		}
	}
	ss_csv_close(&c);
	return rc;
}

/* slabinfo's active objects: SLUB's `objects`, which counts objects in
 * sheaves and barns as in use (sim/results.c ss_write_slabinfo). */
static int load_slabinfo(const char *rundir, struct era_run *r, struct ss_error *err)
{
	char path[4400];
	struct ss_snap s;

	snprintf(path, sizeof(path), "%s/slabinfo", rundir);
	if (ss_snap_load(&s, path, err))
		return -1;
	for (unsigned i = 0; i < s.nr; i++) {
		struct era_cache *e = cache_of(r, s.caches[i].name);

		if (!e) {
			ss_snap_release(&s);
			return ss_errorf(err, "%s: out of memory", path);
		}
		e->in_use = s.caches[i].objects;
	}
	ss_snap_release(&s);
	return 0;
}

static int load_run(const char *dir, const char *variant, const char *model, struct era_run *r,
		    struct ss_error *err)
{
	char rundir[4200];

	snprintf(rundir, sizeof(rundir), "%s/runs/%s__%s", dir, variant, model);
	memset(r, 0, sizeof(*r));
	if (load_caches(rundir, r, err) || load_slabinfo(rundir, r, err) ||
	    load_counters(rundir, r, err)) {
		free(r->c);
		r->c = NULL;
		return -1;
	}
	return 0;
}

/* The objects 7.x held in sheaves and barns: SLUB's count less the users'. */
static uint64_t parked(const struct era_cache *e)
{
	return e && e->in_use > e->objects ? e->in_use - e->objects : 0;
}

static const struct ss_report_run *twin(const struct ss_report_results *base, const struct ss_report_run *run)
{
	for (size_t i = 0; i < base->nruns; i++)
		if (!strcmp(base->runs[i].variant, run->variant) &&
		    !strcmp(base->runs[i].model, run->model))
			return &base->runs[i];
	return NULL;
}

/* Run k is of a 7.x target (its kernel.txt's era; a run without one is
 * taken as the era base says nothing of it: not 7.x). */
static bool seven(const struct ss_report_report_in *in, size_t k)
{
	const char *era = in->settings ? ss_report_setting(&in->settings[k], "era") : NULL;

	return era && atoi(era) >= 7;
}

/* Both eras have the run of variant and model. */
static bool twin_exists(const struct ss_report_report_in *in, const char *variant, const char *model)
{
	for (size_t i = 0; i < in->res->nruns; i++)
		if (!strcmp(in->res->runs[i].variant, variant) &&
		    !strcmp(in->res->runs[i].model, model))
			return twin(in->era_base, &in->res->runs[i]) != NULL;
	return false;
}

static void delta_cell(struct ss_md_table *t, double now, double before, const char *fmt)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, now - before);
	ss_mdtable_cell(t, "%s%s", now - before > 0 ? "+" : "", buf);
}

/* Every run against its twin: footprint, peak, allocator time, fast path. */
static int runs_table(FILE *fp, const struct ss_report_report_in *in)
{
	struct ss_md_table t;
	unsigned alone = 0;

	ss_mdtable_init(&t, "llrrrrrrrrrrr");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "model");
	ss_mdtable_cell(&t, "KiB, 6.18");
	ss_mdtable_cell(&t, "7.x");
	ss_mdtable_cell(&t, "Δ");
	ss_mdtable_cell(&t, "peak KiB, 6.18");
	ss_mdtable_cell(&t, "7.x");
	ss_mdtable_cell(&t, "Δ");
	ss_mdtable_cell(&t, "allocator ms, 6.18");
	ss_mdtable_cell(&t, "7.x");
	ss_mdtable_cell(&t, "Δ");
	ss_mdtable_cell(&t, "%s", "fast path %, 6.18");
	ss_mdtable_cell(&t, "7.x");
	for (size_t k = 0; k < in->res->nruns; k++) {
		const struct ss_report_run *r = &in->res->runs[k], *b = twin(in->era_base, r);

		if (!seven(in, k))
			continue;
		if (!b) {
			alone++;
			continue;
		}
		ss_mdtable_cell(&t, "%s", r->variant);
		ss_mdtable_cell(&t, "%s", r->model);
		ss_mdtable_cell(&t, "%.0f", b->s.footprint_kib);
		ss_mdtable_cell(&t, "%.0f", r->s.footprint_kib);
		delta_cell(&t, r->s.footprint_kib, b->s.footprint_kib, "%.0f");
		if (ss_report_has_peak(&r->s) && ss_report_has_peak(&b->s)) {
			ss_mdtable_cell(&t, "%.0f", b->s.peak_footprint_kib);
			ss_mdtable_cell(&t, "%.0f", r->s.peak_footprint_kib);
			delta_cell(&t, r->s.peak_footprint_kib, b->s.peak_footprint_kib, "%.0f");
		} else {
			ss_mdtable_cell(&t, "-");
			ss_mdtable_cell(&t, "-");
			ss_mdtable_cell(&t, "-");
		}
		ss_mdtable_cell(&t, "%.3f", b->s.alloc_time_ms);
		ss_mdtable_cell(&t, "%.3f", r->s.alloc_time_ms);
		delta_cell(&t, r->s.alloc_time_ms, b->s.alloc_time_ms, "%.3f");
		ss_mdtable_cell(&t, "%.1f", b->s.fastpath_pct);
		ss_mdtable_cell(&t, "%.1f", r->s.fastpath_pct);
	}
	if (ss_mdtable_print(fp, &t))
		return -1;
	ss_mdtable_free(&t);
	if (alone)
		fprintf(fp, "\n%u run%s of a 7.x target %s no run under 6.18's rules beside %s.\n",
			alone, alone == 1 ? "" : "s", alone == 1 ? "has" : "have",
			alone == 1 ? "it" : "them");
	return 0;
}

static int by_moved(const void *a, const void *b, void *ctx)
{
	const struct era_run *base = ctx;
	const struct era_cache *x = a, *y = b;
	double dx = 0, dy = 0;

	for (size_t i = 0; i < base->n; i++) {
		if (!strcmp(base->c[i].name, x->name))
			dx = (double)base->c[i].slab_bytes;
		if (!strcmp(base->c[i].name, y->name))
			dy = (double)base->c[i].slab_bytes;
	}
	dx = fabs((double)x->slab_bytes - dx);
	dy = fabs((double)y->slab_bytes - dy);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

static const struct era_cache *find(const struct era_run *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->c[i].name, name))
			return &r->c[i];
	return NULL;
}

#define ERA_TOP 6

/* The compare model's caches that moved most, each variant: slab memory
 * both eras, and what 7.x held in sheaves at the end and did to get there. */
static int caches_table(FILE *fp, const struct ss_report_report_in *in, struct ss_error *err)
{
	const char *model = in->compare_model;
	struct ss_md_table t;
	uint64_t held = 0, held_caches = 0;
	unsigned variants = 0;

	ss_mdtable_init(&t, "llrrrrrrrr");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "cache");
	ss_mdtable_cell(&t, "slabs KiB, 6.18");
	ss_mdtable_cell(&t, "7.x");
	ss_mdtable_cell(&t, "Δ");
	ss_mdtable_cell(&t, "objects allocated, 7.x");
	ss_mdtable_cell(&t, "in sheaves and barns");
	ss_mdtable_cell(&t, "refilled");
	ss_mdtable_cell(&t, "flushed");
	ss_mdtable_cell(&t, "barn full");
	for (unsigned v = 0; v < in->res->variants.n; v++) {
		const char *variant = in->res->variants.v[v];
		struct era_run now, base;
		size_t shown = 0;

		if (!twin_exists(in, variant, model))
			continue;
		if (load_run(in->dir, variant, model, &now, err))
			return -1;
		if (load_run(in->era_base_dir, variant, model, &base, err)) {
			free(now.c);
			return -1;
		}
		variants++;
		for (size_t i = 0; i < now.n; i++) {
			held += parked(&now.c[i]);
			held_caches += parked(&now.c[i]) > 0;
		}
		qsort_r(now.c, now.n, sizeof(now.c[0]), by_moved, &base);
		for (size_t i = 0; i < now.n && shown < ERA_TOP; i++) {
			const struct era_cache *c = &now.c[i], *b = find(&base, c->name);
			double kb = b ? (double)b->slab_bytes / 1024 : 0;

			if (fabs((double)c->slab_bytes / 1024 - kb) < 1 && !parked(c))
				continue;
			shown++;
			ss_mdtable_cell(&t, "%s", variant);
			ss_mdtable_cell(&t, "%s", c->name);
			ss_mdtable_cell(&t, "%.0f", kb);
			ss_mdtable_cell(&t, "%.0f", (double)c->slab_bytes / 1024);
			delta_cell(&t, (double)c->slab_bytes / 1024, kb, "%.0f");
			ss_mdtable_cell(&t, "%llu", (unsigned long long)c->objects);
			ss_mdtable_cell(&t, "%llu", (unsigned long long)parked(c));
			ss_mdtable_cell(&t, "%llu", (unsigned long long)c->refill);
			ss_mdtable_cell(&t, "%llu", (unsigned long long)c->flush);
			ss_mdtable_cell(&t, "%llu", (unsigned long long)c->put_fail);
		}
		free(now.c);
		free(base.c);
	}
	if (!variants) {
		ss_mdtable_free(&t);
		return 0;
	}
	fprintf(fp, "\nModel `%s`'s caches whose slab memory moved most, or that held objects in "
		    "sheaves (at most %d a variant), at the end of each trace; the objects allocated "
		    "are the users' and, in kmalloc caches, the sheaves themselves (kmalloc'ed: a "
		    "sheaf of C objects takes sizeof(struct slab_sheaf) and C pointers: 32 + 8C bytes "
		    "on 64-bit, 20 + 4C on 32-bit):\n\n", model, ERA_TOP);
	if (ss_mdtable_print(fp, &t))
		return -1;
	ss_mdtable_free(&t);
	ss_mdtable_wrap(fp, "", "", true,
		 "At the end 7.x held %llu objects in sheaves and barns over %llu cache%s and the "
		 "%u variant%s (SLUB's `objects` counts them as in use: the slabinfo of each run): "
		 "allocated from their slabs, free for no user, they keep those slabs from being "
		 "freed until an allocation takes them or a flush gives them back.",
		 (unsigned long long)held, (unsigned long long)held_caches,
		 held_caches == 1 ? "" : "s", variants, variants == 1 ? "" : "s");
	return 0;
}

int ss_report_era_write_md(FILE *fp, const struct ss_report_report_in *in, struct ss_error *err)
{
	if (!in->era_base)
		return 0;
	ss_report_heading(fp, in, "What SLUB 7.x changes: the same runs under 6.18's rules");
	ss_mdtable_wrap(fp, "", "", true,
		 "These runs are of SLUB's 7.x rules: no CPU slab and no CPU partial list; every "
		 "cache but the debug ones (slub_debug), `kmem_cache` and `kmem_cache_node` takes "
		 "its objects from per-CPU sheaves of calculate_sheaf_capacity() objects, refilled "
		 "from the node's partial slabs in bulk and flushed past a barn of at most 10 full "
		 "sheaves a node (docs/sheaves.md).  Beside each, the same run under 6.18's rules on "
		 "the same machine and kernel options (`%s`: the target with era 6.18, where only "
		 "the caches that ask have sheaves): the differences below are the 7.x allocator "
		 "alone.  A debug cache has no sheaves in either era and takes 6.1's single-object "
		 "debug paths in both (alloc_single_from_partial(), free_to_partial_list()): no CPU "
		 "slab to deactivate in either, so its figures are 6.18's.", in->era_base_dir);
	return runs_table(fp, in) || caches_table(fp, in, err) ? -1 : 0;
}
