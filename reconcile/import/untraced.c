/* untraced.c - objects allocated without an event, replayed where the
 * trace places their allocation (import --drop-untraced: not).
 *
 * The import tells such objects by their frees (rules again, slab-pages
 * and free-objects: a pointer freed again with no allocation between, an
 * object on a page that was no slab page as tracing began, one a listed
 * slab had free then).  Dropping both ends keeps every count right but
 * not the slabs: in the kernel the allocation took a slot of some CPU's
 * slab -- filling it, so that the CPU moved on to another -- and the
 * free, often on another CPU, found that slab full and put it on its CPU
 * partial list (__slab_free(), mm/slub.c 6.18), where it may end empty.
 *
 * So the import reads the capture once more: the plan pass plans, for
 * each such kmem_cache_free, where the allocation goes, by the kernel slab
 * of the object (its address rounded down to the slab size, from the
 * snapshot's order; raw pointers):
 *
 *  - after the slab's last traced allocation before the free, on that
 *    allocation's CPU: the slab was a CPU's active slab then, and objects
 *    are handed out from the active slab (___slab_alloc);
 *  - with none since the object's previous free (or since the slab's
 *    pages were last freed), the slab's objects came only from unseen
 *    allocations (a task no tracepoint reports filled a slab of its own):
 *    with the group of such frees of that slab, before the group's first
 *    free and on its CPU.  A group ends when one of its objects is freed
 *    again.
 *
 * Caches with per-CPU sheaves are left out (order_of() says why): their
 * objects' frees are dropped at both ends.
 *
 * The write pass writes the trace with those allocations (site
 * SS_UNTRACED_SITE, fresh ids) and each planned free as an ordinary free
 * of its object.  Both passes classify the same frees in the same order:
 * the planned allocations touch none of the rules' state.  Memory: 16
 * bytes per such free for the plan and 16 more to apply it, and a map
 * entry per kernel slab and per such object seen. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "import_rules.h"

/* order_of()'s mark for a cache with sheaves (never an order). */
#define SS_UNTRACED_SHEAVES 127

/* order_of()'s answers that are no index. */
enum { ORDER_OUT_OF_MEMORY = -1, ORDER_NOT_PLACED = -2 };

/* The index of cache `name` in u->names, with its slab order; or
 * ORDER_NOT_PLACED for a cache whose objects are not placed, or
 * ORDER_OUT_OF_MEMORY. */
static int order_of(struct ss_import_untraced *u, const char *name, unsigned *order)
{
	uint32_t i = ss_strtab_intern(&u->names, name);

	if (i == UINT32_MAX)
		return ORDER_OUT_OF_MEMORY;
	if (i >= u->cap_order) {
		uint32_t old = u->cap_order;

		if (ss_grow_zeroed((void **)&u->order, &u->cap_order, i, sizeof(*u->order), 64))
			return ORDER_OUT_OF_MEMORY;
		memset(u->order + old, -1, u->cap_order - old);
	}
	if (u->order[i] < 0) {
		const struct ss_snap_cache *c = u->snap ? ss_snap_find(u->snap, name) : NULL;

		/* no snapshot, or a cache it lacks: a page is a slab */
		u->order[i] = (int8_t)(c && c->order <= SS_PAGEFREE_MAX_ORDER ? c->order : 0);
		/* per-CPU sheaves (6.18): objects reach a CPU's sheaf by bulk
		 * refills no tracepoint shows, so a slab's last traced
		 * allocation says nothing of where one came from -- and the
		 * models have no sheaves to put it in */
		if (c && c->sheaf_capacity)
			u->order[i] = SS_UNTRACED_SHEAVES;
	}
	*order = u->order[i] == SS_UNTRACED_SHEAVES ? 0 : (unsigned)u->order[i];
	return u->order[i] == SS_UNTRACED_SHEAVES ? ORDER_NOT_PLACED : (int)i;
}

static struct ss_ptr_entry *slab_of(struct ss_import_untraced *u, uint64_t ptr, unsigned order)
{
	uint64_t base = ptr & ~((4096ull << order) - 1);
	struct ss_ptr_entry *e = ss_ptrmap_find(&u->slabs, base);

	return e ? e : ss_ptrmap_insert(&u->slabs, base);
}

int ss_import_untraced_alloc(struct ss_import_untraced *u, const struct ss_kmem_rec *rec,
			     const char *name, uint64_t record)
{
	struct ss_ptr_entry *s;
	unsigned order;
	int cache;

	if (u->mode != SS_UNTRACED_PLAN)
		return 0;
	cache = order_of(u, name, &order);
	if (cache == ORDER_NOT_PLACED)
		return 0;
	if (cache < 0 || !(s = slab_of(u, rec->ptr, order)))
		return -1;
	s->bytes_alloc = record;
	s->cpu = rec->cpu;
	return 0;
}

void ss_import_untraced_page_free(struct ss_import_untraced *u, uint64_t addr)
{
	struct ss_ptr_entry *e;

	if (u->mode == SS_UNTRACED_PLAN && (e = ss_ptrmap_find(&u->slabs, addr)))
		ss_ptrmap_remove(&u->slabs, e);
}

int ss_import_untraced_plan(struct ss_import_untraced *u, const struct ss_kmem_rec *rec,
			    const char *name, uint64_t record)
{
	struct ss_ptr_entry *s, *p;
	struct ss_untraced_obj *o;
	uint64_t prev_free;
	unsigned order;
	int cache = order_of(u, name, &order);

	if (u->nr == u->cap) {
		uint64_t cap = u->cap ? 2 * u->cap : 1024;
		struct ss_untraced_obj *obj = realloc(u->obj, cap * sizeof(*obj));

		if (!obj)
			return -1;
		u->obj = obj;
		u->cap = cap;
	}
	if (cache == ORDER_NOT_PLACED) { /* its free is dropped */
		u->obj[u->nr++] = (struct ss_untraced_obj){.at = 0, .cache = UINT32_MAX};
		return 0;
	}
	if (cache < 0 || !(s = slab_of(u, rec->ptr, order)))
		return -1;
	p = ss_ptrmap_find(&u->ptrs, rec->ptr);
	if (!p && !(p = ss_ptrmap_insert(&u->ptrs, rec->ptr)))
		return -1;
	o = &u->obj[u->nr++];
	o->cache = (uint32_t)cache;
	prev_free = p->bytes_alloc; /* 0: never freed before */
	if (s->bytes_alloc > prev_free) {
		o->at = s->bytes_alloc + 1;
		o->cpu = s->cpu;
		u->anchored++;
	} else {
		/* a group ends when one of its objects is freed again: that
		 * free came after the group began */
		if (!s->id || s->id <= prev_free) {
			s->id = record; /* a new group starts here */
			s->site = rec->cpu;
		}
		o->at = s->id;
		o->cpu = s->site;
	}
	p->bytes_alloc = record;
	return 0;
}

static int by_at(const void *a, const void *b, void *ctx)
{
	const struct ss_untraced_obj *obj = ctx;
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	if (obj[x].at != obj[y].at)
		return obj[x].at < obj[y].at ? -1 : 1;
	return x < y ? -1 : x > y;
}

int ss_import_untraced_ready(struct ss_import_untraced *u)
{
	ss_ptrmap_release(&u->slabs);
	ss_ptrmap_release(&u->ptrs);
	u->by_at = malloc((u->nr ? u->nr : 1) * sizeof(*u->by_at));
	u->id = calloc(u->nr ? u->nr : 1, sizeof(*u->id));
	if (!u->by_at || !u->id)
		return -1;
	u->nr_due = 0;
	for (uint64_t i = 0; i < u->nr; i++)
		if (u->obj[i].at) /* 0: not placed */
			u->by_at[u->nr_due++] = i;
	qsort_r(u->by_at, u->nr_due, sizeof(*u->by_at), by_at, u->obj);
	u->mode = SS_UNTRACED_APPLY;
	u->next = u->seen = 0;
	return 0;
}

bool ss_import_untraced_due(struct ss_import_untraced *u, uint64_t record, uint64_t *k)
{
	if (u->mode != SS_UNTRACED_APPLY || u->next >= u->nr_due ||
	    u->obj[u->by_at[u->next]].at > record)
		return false;
	*k = u->by_at[u->next++];
	return true;
}

int ss_import_untraced_free(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
			    const char *name, struct ss_error *err)
{
	struct ss_import_untraced *u = &x->run->untraced;
	uint64_t k, id;

	if (u->mode == SS_UNTRACED_PLAN)
		return ss_import_untraced_plan(u, rec, name, x->record)
			       ? SS_IMPORT_BAD(x, err, "out of memory")
			       : 0;
	if (u->mode != SS_UNTRACED_APPLY)
		return 0;
	k = u->seen++;
	if (k >= u->nr || (u->obj[k].at && strcmp(u->names.strs[u->obj[k].cache], name)))
		return SS_IMPORT_BAD(x, err, "the capture reads differently the second time (did it change while read?)");
	if (!u->id[k]) /* not placed, or its cache could not be declared: dropped */
		return 0;
	id = u->id[k] - 1;
	if (ss_trace_write_free(x->w, rec->cpu, id))
		return ss_trace_writer_failed(x->w, err);
	ss_idpool_put(&x->ids, id);
	x->t->untraced_placed++;
	x->t->events++;
	return 0;
}

/* The planned allocations due before the record at hand: fresh ids, on
 * the planned CPU, of the bytes the cache's allocations ask for. */
int ss_import_untraced_write_due(struct ss_import_pass *x, struct ss_error *err)
{
	struct ss_import_untraced *u = &x->run->untraced;
	uint64_t k;

	while (ss_import_untraced_due(u, x->record, &k)) {
		const char *name = u->names.strs[u->obj[k].cache];
		uint64_t size, id;
		uint32_t api;

		switch (ss_import_cache_api_named(&x->caches, x->w, name,
						  ss_import_learned_first(&x->run->learned, name),
						  &api, err)) {
		case SS_IMPORT_CACHE_FOUND: break;
		case SS_IMPORT_CACHE_SIZELESS: continue; /* its free is dropped */
		case SS_IMPORT_CACHE_FAILED: return ss_import_at_line(x, err);
		}
		size = ss_import_cache_req(&x->caches, name);
		if (!size)
			continue;
		id = ss_idpool_get(&x->ids);
		if (ss_trace_write_alloc(x->w, u->obj[k].cpu, id, SS_UNTRACED_SITE, api, size))
			return ss_trace_writer_failed(x->w, err);
		u->id[k] = id + 1;
		x->t->events++;
	}
	return 0;
}

void ss_import_untraced_release(struct ss_import_untraced *u)
{
	ss_strtab_release(&u->names);
	free(u->order);
	ss_ptrmap_release(&u->slabs);
	ss_ptrmap_release(&u->ptrs);
	free(u->obj);
	free(u->by_at);
	free(u->id);
	memset(u, 0, sizeof(*u));
}
