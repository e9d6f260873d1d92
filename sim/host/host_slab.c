/* host_slab.c - the host-mode slab allocator (host_slab.h): real pages,
 * real free lists, real locks, real poison. */
#include "host_slab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>


/* ---- geometry ---- */

void ss_hostslab_geometry_from_model(struct ss_hostslab_geometry *g, const struct ss_cache_report *r,
			    unsigned page_size)
{
	memset(g, 0, sizeof(*g));
	g->object_size = r->object_size;
	g->size = r->slab_size;
	g->objs = r->objs_per_slab;
	g->order = r->order;
	g->page_size = page_size;
	g->poison = r->debug & SS_DBG_P;
	g->redzone = r->debug & SS_DBG_Z;
	g->checks = r->debug_checks && (g->poison || g->redzone);
	/* With P or Z calculate_sizes() leaves at least one word after the
	 * object: the link goes in the slot's last 4 bytes, out of the
	 * poison's and red zone's way.  Otherwise inside the object. */
	g->fp_offset = (g->poison || g->redzone) ? g->size - 4 : 0;
	g->min_partial = r->min_partial;
	g->cpu_partial = r->cpu_partial;
	g->cpu_partial_slabs = r->cpu_partial_slabs;
}

static bool has_cpu_partial(const struct ss_hostslab_cache *s)
{
	return s->g.cpu_partial_slabs || s->g.cpu_partial;
}

int ss_hostslab_geometry_for_spec(struct ss_hostslab_geometry *g, const struct ss_target *t,
			 const struct ss_topology *topo,
			 const struct ss_cache_spec *spec, struct ss_error *err)
{
	struct ss_geometry geo;
	struct ss_cache_report r = {0};
	bool cpu_partial;

	(void)topo;
	if (ss_geometry_compute(t, spec, &geo, err))
		return -1;
	/* what the SLUB model reports of a new cache of spec */
	cpu_partial = ss_geometry_cpu_partial(&geo);
	r.object_size = geo.object_size;
	r.slab_size = geo.size;
	r.objs_per_slab = geo.objs_per_slab;
	r.order = geo.order;
	r.debug = geo.debug;
	r.debug_checks = ss_geometry_debug_checks(t, &geo);
	r.min_partial = geo.min_partial;
	r.cpu_partial = cpu_partial ? geo.cpu_partial : 0;
	r.cpu_partial_slabs = cpu_partial ? geo.cpu_partial_slabs : 0;
	ss_hostslab_geometry_from_model(g, &r, t->page_size);
	return 0;
}

/* Does the per-CPU partial list stop taking slabs?  The limit is in slabs
 * from 5.16, in free objects before (put_cpu_partial(), get_partial_node()
 * take half of it). */
static bool cpu_partial_full(const struct ss_hostslab_cache *s, unsigned slabs,
			     unsigned objects, bool half)
{
	if (s->g.cpu_partial_slabs)
		return slabs > (half ? s->g.cpu_partial_slabs / 2 : s->g.cpu_partial_slabs - 1);
	return objects > (half ? s->g.cpu_partial / 2 : s->g.cpu_partial);
}

/* ---- lists ---- */

static struct ss_hostslab_slab *slab_of(struct ss_link *l)
{
	return ss_list_entry(l, struct ss_hostslab_slab, link);
}

static void list_add(struct ss_list *l, struct ss_hostslab_slab *sl, bool tail)
{
	ss_list_add(l, &sl->link, tail);
}

static void list_del(struct ss_list *l, struct ss_hostslab_slab *sl)
{
	ss_list_del(l, &sl->link);
}

/* ---- object links and debug bytes ---- */

static inline char *obj_at(const struct ss_hostslab_cache *s, const struct ss_hostslab_slab *sl,
			   uint32_t idx)
{
	return sl->mem + (size_t)idx * s->g.size;
}

static inline uint32_t obj_index(const struct ss_hostslab_cache *s,
				 const struct ss_hostslab_slab *sl, const void *obj)
{
	return (uint32_t)(((const char *)obj - sl->mem) / s->g.size);
}

static inline uint32_t get_link(const struct ss_hostslab_cache *s, const char *obj)
{
	uint32_t v;

	memcpy(&v, obj + s->g.fp_offset, sizeof(v));
	return v;
}

static inline void set_link(const struct ss_hostslab_cache *s, char *obj, uint32_t v)
{
	memcpy(obj + s->g.fp_offset, &v, sizeof(v));
}

const void *ss_hostslab_memchr_inv(const void *p, int c, size_t n)
{
	const unsigned char *b = p;
	uint64_t word = 0x0101010101010101ull * (uint8_t)c;

	for (; n >= 8; b += 8, n -= 8) {
		uint64_t w;

		memcpy(&w, b, 8);
		if (w != word)
			break;
	}
	for (; n; b++, n--)
		if (*b != (uint8_t)c)
			return b;
	return NULL;
}

static unsigned redzone_len(const struct ss_hostslab_cache *s)
{
	return s->g.fp_offset > s->g.object_size ? s->g.fp_offset - s->g.object_size : 0;
}

/* init_object(): poison the free object, mark its red zone. */
static void init_object(const struct ss_hostslab_cache *s, char *obj, int red,
			struct ss_hostslab_ctx *ctx)
{
	if (s->g.poison && red == SS_HOSTSLAB_RED_INACTIVE) {
		memset(obj, SS_HOSTSLAB_POISON_FREE, s->g.object_size - 1);
		obj[s->g.object_size - 1] = (char)SS_HOSTSLAB_POISON_END;
		ctx->poison_written += s->g.object_size;
	}
	if (s->g.redzone) {
		memset(obj + s->g.object_size, red, redzone_len(s));
		ctx->poison_written += redzone_len(s);
	}
}

/* check_object(): red zone, and on alloc the poison. */
static void check_object(const struct ss_hostslab_cache *s, const char *obj, int red,
			 struct ss_hostslab_ctx *ctx)
{
	if (s->g.redzone) {
		if (ss_hostslab_memchr_inv(obj + s->g.object_size, red, redzone_len(s)) && !ctx->corrupt)
			ctx->corrupt = "red zone overwritten";
		ctx->poison_checked += redzone_len(s);
	}
	if (s->g.poison && red == SS_HOSTSLAB_RED_INACTIVE) {
		if ((ss_hostslab_memchr_inv(obj, SS_HOSTSLAB_POISON_FREE, s->g.object_size - 1) ||
		     (uint8_t)obj[s->g.object_size - 1] != SS_HOSTSLAB_POISON_END) && !ctx->corrupt)
			ctx->corrupt = "poison overwritten (use after free)";
		ctx->poison_checked += s->g.object_size;
	}
}

/* ---- slabs ---- */

static size_t slab_bytes(const struct ss_hostslab_cache *s)
{
	return (size_t)s->g.page_size << s->g.order;
}

static void account_bytes(struct ss_hostslab_cache *s, int64_t delta)
{
	int64_t now = atomic_fetch_add(s->mapped_bytes, delta) + delta;
	int64_t peak = atomic_load(s->peak_bytes);

	while (now > peak && !atomic_compare_exchange_weak(s->peak_bytes, &peak, now))
		;
}

/* allocate_slab() + shuffle-free freelist: 0 -> 1 -> ... -> objs-1. */
static struct ss_hostslab_slab *new_slab(struct ss_hostslab_cache *s, unsigned node,
				struct ss_hostslab_ctx *ctx)
{
	struct ss_hostslab_slab *sl;
	void *mem;

	if (s->max_bytes &&
	    atomic_load(s->mapped_bytes) + (int64_t)slab_bytes(s) > s->max_bytes) {
		ctx->over_cap = 1;
		return NULL;
	}
	sl = calloc(1, sizeof(*sl));
	if (!sl)
		return NULL;
	mem = mmap(NULL, slab_bytes(s), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		free(sl);
		return NULL;
	}
	sl->mem = mem;
	atomic_flag_clear(&sl->lock);
	sl->node = (uint16_t)node;
	if (s->g.poison) { /* the slab's padding reads 0x5a */
		memset(sl->mem, SS_HOSTSLAB_POISON_INUSE, slab_bytes(s));
		ctx->poison_written += slab_bytes(s);
	}
	for (uint32_t i = 0; i < s->g.objs; i++) {
		char *obj = obj_at(s, sl, i);

		init_object(s, obj, SS_HOSTSLAB_RED_INACTIVE, ctx);
		set_link(s, obj, i + 1 < s->g.objs ? i + 1 : SS_HOSTSLAB_NIL);
	}
	sl->freelist = 0;
	pthread_mutex_lock(&s->all_lock);
	ss_list_add(&s->all, &sl->all, false);
	pthread_mutex_unlock(&s->all_lock);
	account_bytes(s, (int64_t)slab_bytes(s));
	ctx->slabs_mapped++;
	return sl;
}

static void discard_slab(struct ss_hostslab_cache *s, struct ss_hostslab_slab *sl,
			 struct ss_hostslab_ctx *ctx)
{
	pthread_mutex_lock(&s->all_lock);
	ss_list_del(&s->all, &sl->all);
	pthread_mutex_unlock(&s->all_lock);
	munmap(sl->mem, slab_bytes(s));
	account_bytes(s, -(int64_t)slab_bytes(s));
	free(sl);
	ctx->slabs_unmapped++;
}

/* ---- allocation ---- */

/* Make sl the CPU's active slab with the slab's free objects (under the
 * slab lock, which the caller holds). */
static void activate_locked(struct ss_hostslab_cache *s, struct ss_hostslab_cpu *c,
			    struct ss_hostslab_slab *sl)
{
	c->freelist = sl->freelist;
	sl->freelist = SS_HOSTSLAB_NIL;
	sl->inuse = s->g.objs;
	sl->where = HS_ON_ACTIVE;
	c->slab = sl;
}

/* get_partial_node(): the first slab becomes active, more go to the CPU
 * partial list up to half its limit. */
static bool get_partial_node(struct ss_hostslab_cache *s, struct ss_hostslab_cpu *c,
			     struct ss_hostslab_node *n)
{
	struct ss_hostslab_slab *sl;
	unsigned taken = 0, available = 0;

	if (!n->partial.nr)
		return false;
	pthread_spin_lock(&n->list_lock);
	while ((sl = slab_of(n->partial.head))) {
		list_del(&n->partial, sl);
		hs_bitlock(&sl->lock);
		available += s->g.objs - sl->inuse;
		if (!c->slab) {
			activate_locked(s, c, sl);
		} else {
			sl->where = SS_HOSTSLAB_ON_CPU_PARTIAL;
			list_add(&c->partial, sl, false);
			c->pobjects += s->g.objs - sl->inuse;
			taken++;
		}
		hs_bitunlock(&sl->lock);
		if (!has_cpu_partial(s) || cpu_partial_full(s, taken, available, true))
			break;
	}
	pthread_spin_unlock(&n->list_lock);
	return c->slab != NULL;
}

/* get_partial(): the local node, then the others nearest first that hold
 * more than min_partial slabs (get_any_partial()). */
static bool get_partial(struct ss_hostslab_cache *s, unsigned cpu, struct ss_hostslab_cpu *c)
{
	unsigned local = s->topo->cpu_node[cpu];
	const uint16_t *z = ss_topology_zonelist(s->topo, local);

	if (get_partial_node(s, c, &s->node[local]))
		return true;
	for (unsigned i = 1; i < s->topo->nr_nodes; i++) {
		struct ss_hostslab_node *n = &s->node[z[i]];

		if (n->partial.nr > s->g.min_partial && get_partial_node(s, c, n))
			return true;
	}
	return false;
}

/* ___slab_alloc(): refill c->freelist; false if no memory. */
static bool slab_alloc_slow(struct ss_hostslab_cache *s, unsigned cpu,
			    enum ss_hostslab_path *path, struct ss_hostslab_ctx *ctx)
{
	struct ss_hostslab_cpu *c = &s->cpu[cpu];
	struct ss_hostslab_slab *sl = c->slab;

	if (sl) { /* get_freelist(), else the slab is full: off every list */
		hs_bitlock(&sl->lock);
		if (sl->freelist != SS_HOSTSLAB_NIL) {
			activate_locked(s, c, sl);
			hs_bitunlock(&sl->lock);
			*path = HS_REFILL;
			return true;
		}
		sl->where = SS_HOSTSLAB_ON_FULL;
		hs_bitunlock(&sl->lock);
		c->slab = NULL;
	}
	if ((sl = slab_of(c->partial.head))) {
		list_del(&c->partial, sl);
		hs_bitlock(&sl->lock);
		activate_locked(s, c, sl);
		hs_bitunlock(&sl->lock);
		*path = SS_HOSTSLAB_CPU_PARTIAL;
		return true;
	}
	if (get_partial(s, cpu, c)) {
		*path = HS_NODE_PARTIAL;
		return true;
	}
	sl = new_slab(s, s->topo->cpu_node[cpu], ctx);
	if (!sl)
		return false;
	hs_bitlock(&sl->lock);
	activate_locked(s, c, sl);
	hs_bitunlock(&sl->lock);
	*path = SS_HOSTSLAB_NEW_SLAB;
	return true;
}

void *ss_hostslab_alloc(struct ss_hostslab_cache *s, unsigned cpu, struct ss_hostslab_slab **slab,
	       enum ss_hostslab_path *path, struct ss_hostslab_ctx *ctx)
{
	struct ss_hostslab_cpu *c = &s->cpu[cpu];
	char *obj;

	*path = SS_HOSTSLAB_FAST;
	if (c->freelist == SS_HOSTSLAB_NIL && !slab_alloc_slow(s, cpu, path, ctx))
		return NULL;
	obj = obj_at(s, c->slab, c->freelist);
	c->freelist = get_link(s, obj);
	*slab = c->slab;
	if (s->g.checks)
		check_object(s, obj, SS_HOSTSLAB_RED_INACTIVE, ctx);
	if (s->g.redzone)
		init_object(s, obj, SS_HOSTSLAB_RED_ACTIVE, ctx);
	ctx->alloc_path[*path]++;
	return obj;
}

/* ---- free ---- */

/* unfreeze_partials(): every slab of c->partial to its node's list, empty
 * ones unmapped beyond min_partial. */
static void unfreeze_partials(struct ss_hostslab_cache *s, struct ss_hostslab_cpu *c,
			      struct ss_hostslab_ctx *ctx)
{
	struct ss_hostslab_slab *sl;

	while ((sl = slab_of(c->partial.head))) {
		struct ss_hostslab_node *n = &s->node[sl->node];
		bool empty;

		list_del(&c->partial, sl);
		pthread_spin_lock(&n->list_lock);
		hs_bitlock(&sl->lock);
		empty = !sl->inuse && n->partial.nr >= s->g.min_partial;
		if (!empty) {
			sl->where = HS_ON_NODE_PARTIAL;
			list_add(&n->partial, sl, true);
		}
		hs_bitunlock(&sl->lock);
		pthread_spin_unlock(&n->list_lock);
		if (empty)
			discard_slab(s, sl, ctx);
	}
	c->pobjects = 0;
}

/* put_cpu_partial(): the freeing CPU keeps the formerly full slab. */
static void put_cpu_partial(struct ss_hostslab_cache *s, struct ss_hostslab_cpu *c,
			    struct ss_hostslab_slab *sl, struct ss_hostslab_ctx *ctx)
{
	if (c->partial.nr && cpu_partial_full(s, c->partial.nr, c->pobjects, false))
		unfreeze_partials(s, c, ctx);
	list_add(&c->partial, sl, false);
	c->pobjects += s->g.objs - sl->inuse;
}

/* __slab_free().  A free that may empty a slab on a node list needs
 * list_lock, taken before the slab lock (trylock first, else drop and
 * retake in order: the slab cannot go away while our object is in it). */
static void slab_free_slow(struct ss_hostslab_cache *s, unsigned cpu, char *obj,
			   struct ss_hostslab_slab *sl, struct ss_hostslab_ctx *ctx)
{
	struct ss_hostslab_node *n = &s->node[sl->node];
	bool listed = false, discard = false;

	hs_bitlock(&sl->lock);
	if (sl->where == HS_ON_NODE_PARTIAL && sl->inuse == 1) {
		listed = true;
		if (pthread_spin_trylock(&n->list_lock)) {
			hs_bitunlock(&sl->lock);
			pthread_spin_lock(&n->list_lock);
			hs_bitlock(&sl->lock);
		}
	}
	set_link(s, obj, sl->freelist);
	sl->freelist = obj_index(s, sl, obj);
	sl->inuse--;
	if (sl->where == SS_HOSTSLAB_ON_FULL && has_cpu_partial(s)) {
		sl->where = SS_HOSTSLAB_ON_CPU_PARTIAL;
		hs_bitunlock(&sl->lock);
		if (listed)
			pthread_spin_unlock(&n->list_lock);
		put_cpu_partial(s, &s->cpu[cpu], sl, ctx);
		return;
	}
	if (sl->where == SS_HOSTSLAB_ON_FULL) { /* no CPU partial lists: node list */
		if (!listed) { /* lock order: drop, take list_lock, retake */
			hs_bitunlock(&sl->lock);
			pthread_spin_lock(&n->list_lock);
			hs_bitlock(&sl->lock);
			listed = true;
		}
		if (sl->where == SS_HOSTSLAB_ON_FULL) {
			sl->where = HS_ON_NODE_PARTIAL;
			list_add(&n->partial, sl, true);
		}
	}
	if (listed && sl->where == HS_ON_NODE_PARTIAL && !sl->inuse &&
	    n->partial.nr >= s->g.min_partial) {
		list_del(&n->partial, sl);
		sl->where = SS_HOSTSLAB_ON_NONE;
		discard = true;
	}
	hs_bitunlock(&sl->lock);
	if (listed)
		pthread_spin_unlock(&n->list_lock);
	if (discard)
		discard_slab(s, sl, ctx);
}

void ss_hostslab_free(struct ss_hostslab_cache *s, unsigned cpu, void *obj, struct ss_hostslab_slab *slab,
	     enum ss_hostslab_path *path, struct ss_hostslab_ctx *ctx)
{
	struct ss_hostslab_cpu *c = &s->cpu[cpu];

	if (s->g.checks)
		check_object(s, obj, SS_HOSTSLAB_RED_ACTIVE, ctx);
	init_object(s, obj, SS_HOSTSLAB_RED_INACTIVE, ctx);
	if (slab == c->slab) { /* do_slab_free() fast path */
		set_link(s, obj, c->freelist);
		c->freelist = obj_index(s, slab, obj);
		*path = SS_HOSTSLAB_FAST;
	} else {
		slab_free_slow(s, cpu, obj, slab, ctx);
		*path = HS_FREE_SLOW;
	}
	ctx->free_path[*path]++;
}

/* ---- cache set-up ---- */

int ss_hostslab_cache_init(struct ss_hostslab_cache *s, const char *name,
		  const struct ss_hostslab_geometry *g, const struct ss_topology *topo,
		  _Atomic int64_t *mapped_bytes, _Atomic int64_t *peak_bytes,
		  struct ss_error *err)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->g = *g;
	s->topo = topo;
	s->mapped_bytes = mapped_bytes;
	s->peak_bytes = peak_bytes;
	if (!g->objs || g->size < 4 || (size_t)g->objs * g->size > slab_bytes(s))
		return ss_errorf(err, "host mode: cache %s: impossible layout (%u x %u bytes in %zu)",
				 name, g->objs, g->size, slab_bytes(s));
	s->cpu = aligned_alloc(64, topo->nr_cpus * sizeof(*s->cpu));
	s->node = aligned_alloc(64, topo->nr_nodes * sizeof(*s->node));
	if (!s->cpu || !s->node) {
		free(s->cpu);
		free(s->node);
		return ss_errorf(err, "host mode: out of memory");
	}
	memset(s->cpu, 0, topo->nr_cpus * sizeof(*s->cpu));
	memset(s->node, 0, topo->nr_nodes * sizeof(*s->node));
	for (unsigned c = 0; c < topo->nr_cpus; c++)
		s->cpu[c].freelist = SS_HOSTSLAB_NIL;
	for (unsigned n = 0; n < topo->nr_nodes; n++)
		pthread_spin_init(&s->node[n].list_lock, PTHREAD_PROCESS_PRIVATE);
	pthread_mutex_init(&s->all_lock, NULL);
	return 0;
}

void ss_hostslab_cache_destroy(struct ss_hostslab_cache *s)
{
	struct ss_link *l, *next;

	for (l = s->all.head; l; l = next) {
		struct ss_hostslab_slab *sl = ss_list_entry(l, struct ss_hostslab_slab, all);

		next = l->next;
		munmap(sl->mem, slab_bytes(s));
		atomic_fetch_sub(s->mapped_bytes, (int64_t)slab_bytes(s));
		free(sl);
	}
	memset(&s->all, 0, sizeof(s->all));
	if (s->node)
		for (unsigned n = 0; n < s->topo->nr_nodes; n++)
			pthread_spin_destroy(&s->node[n].list_lock);
	pthread_mutex_destroy(&s->all_lock);
	free(s->cpu);
	free(s->node);
	s->cpu = NULL;
	s->node = NULL;
}
