/* slub_cache.c - a simulated kmem_cache and its slabs (slub_cache.h): set-up, the
 * slab descriptor pool, new and discarded slabs with their accounting,
 * and the node partial list. */
#include "slub_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- cache set-up ---- */

const char *const ss_kres_names[SS_NR_KRES] = {"list_lock", "slab_lock",
					       "cmpxchg_double"};

int ss_kcache_init(struct ss_kcache *s, const char *name,
		   const struct ss_cache_spec *spec, const struct ss_target *t,
		   const struct ss_topology *topo, struct ss_error *err)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->spec = *spec;
	s->t = t;
	s->topo = topo;
	if (ss_geometry_compute(t, spec, &s->geo, err))
		return -1;
	s->debug_paths = ss_geometry_debug_paths(&s->geo);
	s->debug_checks = ss_geometry_debug_checks(t, &s->geo);
	/* kmem_cache_open() sets __CMPXCHG_DOUBLE only where the arch has
	 * it (system_has_cmpxchg_double(), never on 32-bit ARM: it selects
	 * neither HAVE_CMPXCHG_DOUBLE nor HAVE_ALIGNED_STRUCT_PAGE), and
	 * <= 4.5 only without SLAB_DEBUG_FLAGS; 4.6+ (149daaf3a02c "slub:
	 * Relax CMPXCHG consistency restrictions") only without
	 * SLAB_NO_CMPXCHG = F | U | T. */
	if (!t->cmpxchg_double)
		s->cmpxchg_ok = false;
	else if (t->era < SS_ERA_4_6)
		s->cmpxchg_ok = !s->debug_paths;
	else
		s->cmpxchg_ok = !(s->geo.debug & (SS_DBG_F | SS_DBG_U | SS_DBG_T));
	s->lockfree = !s->debug_paths && s->cmpxchg_ok;
	s->cpu_node = topo->cpu_node;
	s->notes_swaps = topo->nr_cpus > 1;
	/* calculate_sizes(), 3.10 - 6.18: __OBJECT_POISON only for
	 * SLAB_POISON without SLAB_TYPESAFE_BY_RCU (DESTROY_BY_RCU) and
	 * without a constructor. */
	s->poisons_object = (s->geo.debug & SS_DBG_P) &&
			    !(spec->flags & (SS_CF_RCU | SS_CF_CTOR));
	s->has_cpu_partial = ss_geometry_cpu_partial(&s->geo);
	s->remote_node_defrag_ratio = 1000;
	s->cpu = calloc(topo->nr_cpus, sizeof(*s->cpu));
	s->node = calloc(topo->nr_nodes, sizeof(*s->node));
	if (!s->cpu || !s->node) {
		ss_kcache_release(s);
		return ss_errorf(err, "%s: out of memory", name);
	}
	for (unsigned n = 0; n < topo->nr_nodes; n++)
		ss_resource_init(&s->node[n].list_lock);
	return 0;
}

/* ---- slab descriptor pool ---- */

/* Descriptors per chunk: 8 in a cache's first chunk, doubling up to
 * 1024, so a cache that never holds more than a slab or two (one per
 * site under kmem_cache --no-merge: 2M of them) costs 320 bytes of pool,
 * not 40 KiB. */
#define POOL_FIRST 8
#define POOL_CHUNK 1024

struct pool_chunk {
	struct pool_chunk *next;
	unsigned cap;
	struct ss_slab slabs[];
};

struct ss_slab *ss_slab_pool_get(struct ss_slab_pool *p)
{
	struct pool_chunk *ch = p->chunks;
	struct ss_slab *sl;

	if (p->free) {
		sl = p->free;
		p->free = ss_slab_of(sl->link.next);
		/* the operation that discarded it may have noted a use of its
		 * lock or line afterwards (sim/contention.c keeps it then) */
		ss_resource_release(&sl->lock);
		ss_resource_release(&sl->freelist);
	} else {
		if (!ch || p->used_in_chunk == ch->cap) {
			unsigned cap = !ch ? POOL_FIRST : ch->cap < POOL_CHUNK ? 2 * ch->cap : POOL_CHUNK;

			ch = malloc(sizeof(*ch) + cap * sizeof(ch->slabs[0]));
			if (!ch)
				return NULL;
			ch->cap = cap;
			ch->next = p->chunks;
			p->chunks = ch;
			p->used_in_chunk = 0;
		}
		sl = &ch->slabs[p->used_in_chunk++];
	}
	memset(sl, 0, sizeof(*sl));
	return sl;
}

static void pool_put(struct ss_slab_pool *p, struct ss_slab *sl)
{
	sl->link.next = p->free ? &p->free->link : NULL;
	p->free = sl;
}

void ss_slab_pool_release(struct ss_slab_pool *p)
{
	struct pool_chunk *ch = p->chunks, *next;
	unsigned used = p->used_in_chunk; /* the newest chunk's; the older
					   * ones are full */

	for (; ch; ch = next) {
		next = ch->next;
		if (ch != p->chunks) /* an older chunk: full, whatever its size */
			used = ch->cap;
		for (unsigned i = 0; i < used; i++) { /* freed ones too */
			ss_resource_release(&ch->slabs[i].lock);
			ss_resource_release(&ch->slabs[i].freelist);
		}
		free(ch);
	}
	memset(p, 0, sizeof(*p));
}

void ss_kcache_release(struct ss_kcache *s)
{
	ss_slab_pool_release(&s->pool);
	for (unsigned n = 0; s->node && n < s->topo->nr_nodes; n++)
		ss_resource_release(&s->node[n].list_lock);
	free(s->cpu);
	free(s->node);
	s->cpu = NULL;
	s->node = NULL;
}

uint64_t ss_kcache_partial_slabs(const struct ss_kcache *s)
{
	uint64_t nr = 0;

	for (unsigned n = 0; n < s->topo->nr_nodes; n++)
		nr += s->node[n].partial.nr;
	for (unsigned c = 0; c < s->topo->nr_cpus; c++)
		nr += s->cpu[c].partial.nr;
	return nr;
}

uint64_t ss_kcache_cpu_slabs(const struct ss_kcache *s)
{
	uint64_t nr = 0;

	for (unsigned c = 0; c < s->topo->nr_cpus; c++)
		nr += (s->cpu[c].slab != NULL) + s->cpu[c].partial.nr;
	return nr;
}

/* ---- slabs ---- */

/* Pages of one slab, poisoned and initialised as allocate_slab() and
 * setup_object_debug() do for a debug cache: with SLAB_POISON the whole
 * slab is filled with POISON_INUSE (3.10 - 4.5 allocate_slab(), 6.x
 * setup_slab_debug()), ctor or RCU or not; then init_object() per object
 * writes the free poison only with __OBJECT_POISON, the red zone with Z. */
static void charge_new_slab_debug(struct ss_kcache *s, struct ss_slab *sl,
				  struct ss_op *op)
{
	unsigned dbg = s->geo.debug;

	if (dbg & SS_DBG_P) {
		ss_step(op, SS_STEP_POISON_WRITE, 1);
		ss_step(op, SS_STEP_POISON_WRITE_BYTES,
			(uint64_t)s->t->page_size << sl->order);
	}
	if (s->poisons_object) {
		ss_step(op, SS_STEP_POISON_WRITE, sl->objects);
		ss_step(op, SS_STEP_POISON_WRITE_BYTES,
			(uint64_t)sl->objects * s->geo.object_size);
	}
	if (dbg & SS_DBG_Z)
		ss_step(op, SS_STEP_REDZONE_WRITE, sl->objects);
}

static void account_slab(struct ss_kcache *s, struct ss_slab *sl, unsigned node)
{
	sl->objects = s->geo.objs_per_slab;
	sl->order = (uint8_t)s->geo.order;
	sl->node = (uint16_t)node;
	sl->line_cpu = SS_NO_LINE_CPU;
	ss_resource_init(&sl->lock);
	ss_resource_init(&sl->freelist);
	s->node[node].nr_slabs++;
	s->node[node].total_objects += sl->objects;
	s->nr_slabs++;
	s->total_objects += sl->objects;
	s->slab_bytes += (uint64_t)s->t->page_size << sl->order;
	if (s->slab_bytes > s->peak_slab_bytes)
		s->peak_slab_bytes = s->slab_bytes;
}

/* allocate_slab(): try the cache's order, fall back to the minimum order
 * (never needed in a simulation with unlimited memory, so the fallback is
 * not taken; order_fallback stays 0). */
struct ss_slab *ss_slab_new(struct ss_kcache *s, unsigned node,
				 struct ss_op *op)
{
	struct ss_slab *sl = ss_slab_pool_get(&s->pool);
	double start = op->cycles;

	if (!sl)
		return NULL;
	account_slab(s, sl, node);
	ss_step(op, SS_STEP_ALLOC_SLAB, 1);
	ss_step(op, SS_STEP_PAGE_ALLOC, 1ull << sl->order);
	op->slab_pages += 1ll << sl->order;
	ss_step(op, SS_STEP_SLAB_INIT_OBJECT, sl->objects);
	if (s->debug_paths)
		charge_new_slab_debug(s, sl, op);
	if (s->on_slab)
		s->on_slab(s->on_slab_ctx, sl, true, op);
	ss_fn_done(s->fns, SS_FN_ALLOCATE_SLAB, op, start);
	return sl;
}

void ss_slab_adopt(struct ss_kcache *s, struct ss_slab *sl, unsigned node)
{
	account_slab(s, sl, node);
	sl->kept = true;
}

/* discard_slab() -> free_slab(); with checks (any debug flag up to 4.5,
 * SLAB_CONSISTENCY_CHECKS from 4.6), __free_slab() runs slab_pad_check()
 * and check_object(SLUB_RED_INACTIVE) on every object first.  All of them
 * are free, chained on the slab's freelist: every free pointer but the
 * tail's is set. */
void ss_slab_discard(struct ss_kcache *s, struct ss_slab *sl,
			  struct ss_op *op)
{
	double start = op->cycles;

	if (s->on_slab)
		s->on_slab(s->on_slab_ctx, sl, false, op);
	if (s->debug_checks) {
		ss_slab_pad_check(s, op);
		for (uint32_t i = 0; i < sl->objects; i++)
			ss_check_object(s, false, i + 1 < sl->objects, op);
	}
	ss_step(op, SS_STEP_FREE_SLAB, 1);
	ss_step(op, SS_STEP_PAGE_FREE, 1ull << sl->order);
	op->slab_pages -= 1ll << sl->order;
	s->node[sl->node].nr_slabs--;
	s->node[sl->node].total_objects -= sl->objects;
	s->nr_slabs--;
	s->total_objects -= sl->objects;
	s->slab_bytes -= (uint64_t)s->t->page_size << sl->order;
	ss_resource_release(&sl->lock);
	ss_resource_release(&sl->freelist);
	if (sl->kept)
		sl->where = SS_SLAB_NONE; /* empty, on no list: the initial state names it */
	else
		pool_put(&s->pool, sl);
	ss_fn_done(s->fns, SS_FN_DISCARD_SLAB, op, start);
}

/* ---- the debug checks shared by the alloc, free and discard paths ---- */

/* One memchr_inv() of n bytes (check_bytes_and_report()); none for 0. */
static void poison_check(struct ss_op *op, uint64_t n)
{
	if (!n)
		return;
	ss_step(op, SS_STEP_POISON_CHECK, 1);
	ss_step(op, SS_STEP_POISON_CHECK_BYTES, n);
}

/* slab_pad_check(), 3.10 - 6.x: with SLAB_POISON, memchr_inv() over the
 * slab's leftover, (PAGE_SIZE << order) % s->size bytes (none if 0). */
void ss_slab_pad_check(const struct ss_kcache *s, struct ss_op *op)
{
	uint64_t slab = (uint64_t)s->t->page_size << s->geo.order;

	if (s->geo.debug & SS_DBG_P)
		poison_check(op, slab % s->geo.size);
}

/* The bytes check_pad_bytes() compares: from the end of the metadata
 * (inuse, the free pointer when it sits after the object, the two tracks
 * with U, a kmalloc cache's orig_size with U from 6.1) to the end of the stride less the left red zone
 * (size_from_object()). */
static unsigned pad_bytes(const struct ss_kcache *s)
{
	const struct ss_geometry *g = &s->geo;
	unsigned off = g->inuse, end = g->size - g->red_left_pad;

	if (g->offset >= g->inuse)
		off += s->t->ptr_size;
	if (g->debug & SS_DBG_U) {
		off += 2 * s->t->track_size;
		if (s->t->era >= SS_ERA_6_1 && (s->spec.flags & SS_CF_KMALLOC))
			off += 4; /* orig_size, an unsigned int (geometry.c) */
	}
	return end > off ? end - off : 0;
}

/* check_object() with SLAB_POISON, 3.10 - 6.x: the poison is verified only
 * for a free object (val != SLUB_RED_ACTIVE) with __OBJECT_POISON; without
 * a red zone the alignment padding after the object ("Alignment padding",
 * inuse - object_size bytes) is checked; then check_pad_bytes().  The red
 * zone tests are the flat check_object step.  Last, with any flag, the
 * free pointer the object holds goes through check_valid_pointer(), unless
 * the object is allocated and the pointer lies inside it (4.5: `if
 * (!s->offset && val == SLUB_RED_ACTIVE) return 1`; 6.x:
 * `freeptr_outside_object(s) || val != SLUB_RED_ACTIVE`); a NULL pointer
 * returns before the division (`if (!object) return 1`), so fp_set says
 * whether the pointer is non-NULL. */
void ss_check_object(const struct ss_kcache *s, bool active, bool fp_set,
		     struct ss_op *op)
{
	const struct ss_geometry *g = &s->geo;

	ss_step(op, SS_STEP_CHECK_OBJECT, 1);
	if (fp_set && (g->offset >= g->inuse || !active))
		ss_step(op, SS_STEP_CHECK_VALID_POINTER, 1);
	if (!(g->debug & SS_DBG_P))
		return;
	if (!active && s->poisons_object)
		poison_check(op, g->object_size);
	if (!(g->debug & SS_DBG_Z))
		poison_check(op, g->inuse - g->object_size);
	poison_check(op, pad_bytes(s));
}

/* The test before discarding an empty slab (deactivate_slab, __slab_free,
 * unfreeze_partials): 3.10 reads `nr_partial > min_partial`, 4.4 and
 * later `>=`.  The change came between the two (believed to be 3.16's
 * "slub: fix off by one in number of slab tests"); no target lies there. */
#define ERA_DISCARD_GE 316

bool ss_slab_should_discard(const struct ss_kcache *s, const struct ss_kcache_node *n,
			    const struct ss_slab *sl)
{
	if (sl->pinned) /* (slub_cache.h: its kernel slab outlived the capture) */
		return false;
	if (s->t->era < ERA_DISCARD_GE)
		return n->partial.nr > s->geo.min_partial;
	return n->partial.nr >= s->geo.min_partial;
}

unsigned ss_kcache_defrag_coin(struct ss_kcache *s)
{
	uint32_t x = ++s->defrag_tick;

	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x % 1024;
}

/* ---- reports ---- */

/* count_partial(n, count_free): what get_slabinfo() reports as free. */
static uint64_t node_partial_free(const struct ss_kcache *s)
{
	uint64_t nr = 0;

	for (unsigned n = 0; n < s->topo->nr_nodes; n++)
		for (const struct ss_link *l = s->node[n].partial.head; l; l = l->next) {
			const struct ss_slab *sl = ss_list_entry(l, const struct ss_slab, link);

			nr += sl->objects - sl->inuse;
		}
	return nr;
}

void ss_kcache_report(const struct ss_kcache *s, struct ss_cache_report *r)
{
	*r = (struct ss_cache_report){
		.name = s->name,
		.object_size = s->geo.object_size,
		.slab_size = s->geo.size,
		.size_nodebug = s->geo.size_nodebug,
		.objs_per_slab = s->geo.objs_per_slab,
		.order = s->geo.order,
		.debug = s->geo.debug,
		.align = s->geo.align,
		.min_partial = s->geo.min_partial,
		.cpu_partial = s->has_cpu_partial ? s->geo.cpu_partial : 0,
		.cpu_partial_slabs = s->has_cpu_partial ? s->geo.cpu_partial_slabs : 0,
		.debug_checks = s->debug_checks,
		.live = s->live,
		.requested_live = s->requested_live,
		.nr_slabs = s->nr_slabs,
		.total_objects = s->total_objects,
		.slab_bytes = s->slab_bytes,
		.partial_slabs = ss_kcache_partial_slabs(s),
		.cpu_slabs = ss_kcache_cpu_slabs(s),
		.peak_slab_bytes = s->peak_slab_bytes,
		.node_partial_free = node_partial_free(s),
		.stats = s->stats,
		.fns = s->fns,
		.res = s->res,
		.res_names = ss_kres_names,
		.nr_res = SS_NR_KRES,
	};
}
