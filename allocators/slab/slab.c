/* slab.c - SLAB's allocation and free paths (slab.h), mm/slab.c:
 * ____cache_alloc(), cache_alloc_refill(), transfer_objects(),
 * cache_grow() (≤ 4.5) / cache_grow_begin()+cache_grow_end() (4.6+),
 * __cache_free(), cache_free_alien(), cache_flusharray(), free_block()
 * (the 4.6 change: empty slabs are trimmed after the loop) and
 * slab_destroy(), each function named where it is modelled.
 *
 * Not modelled: the array caches' own memory, colouring's placement
 * (the left-over bytes are counted, where they sit is not), NUMA
 * mempolicies and fallback_alloc(), CONFIG_DEBUG_SLAB.
 */
#include "slab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmalloc.h"

/* BATCHREFILL_LIMIT: an untouched array refills at most this many. */
#define BATCHREFILL_LIMIT 16u

/* ---- arrays ---- */

static int array_init(struct ss_mslab_array *a, unsigned limit, unsigned batch)
{
	a->avail = 0;
	a->limit = limit;
	a->batchcount = batch;
	a->touched = false;
	a->entry = limit ? calloc(limit, sizeof(*a->entry)) : NULL;
	return limit && !a->entry ? -1 : 0;
}

unsigned ss_mslab_transfer(struct ss_mslab_array *to, struct ss_mslab_array *from, unsigned max,
		     struct ss_op *op)
{
	unsigned nr = from->avail;

	if (nr > max)
		nr = max;
	if (nr > to->limit - to->avail)
		nr = to->limit - to->avail;
	if (!nr)
		return 0;
	memcpy(to->entry + to->avail, from->entry + from->avail - nr, nr * sizeof(*to->entry));
	from->avail -= nr;
	to->avail += nr;
	ss_step(op, SS_STEP_ARRAY_MOVE, nr);
	return nr;
}

void ss_mslab_array_shift(struct ss_mslab_array *a, unsigned nr)
{
	a->avail -= nr;
	memmove(a->entry, a->entry + nr, a->avail * sizeof(*a->entry));
}

/* ---- slabs ---- */

static void list_move(struct ss_mslab_cache *c, struct ss_mslab_slab *sl, enum ss_mslab_where to, bool tail)
{
	struct ss_mslab_node *n = &c->node[sl->node];

	ss_list_del(&n->list[sl->where], &sl->link);
	ss_list_add(&n->list[to], &sl->link, tail);
	sl->where = (uint8_t)to;
}

/* cache_grow(): pages, management, objects; the slab joins slabs_free. */
static struct ss_mslab_slab *cache_grow(struct ss_mslab_cache *c, unsigned node, unsigned cpu,
				  struct ss_op *op)
{
	struct ss_mslab_slab *sl = calloc(1, sizeof(*sl));
	uint64_t bytes = (uint64_t)c->t->page_size << c->geo.order;

	if (!sl)
		return NULL;
	sl->node = (uint16_t)node;
	sl->mgmt.cache = -1;
	if (c->t->era < SS_ERA_4_6) /* n->colour_next under its own lock */
		ss_step(op, SS_STEP_LIST_LOCK, 1);
	ss_step(op, SS_STEP_ALLOC_SLAB, 1);
	ss_step(op, SS_STEP_PAGE_ALLOC, 1ull << c->geo.order);
	op->slab_pages += 1ll << c->geo.order; /* the replay's memory total */
	if (c->geo.mgmt == SS_MSLAB_OFF) {
		/* alloc_slabmgmt(): the descriptor / freelist from a kmalloc
		 * cache (kmem_cache_alloc(slabp_cache) .. kmalloc_node() 6.1) */
		if (c->env.kmalloc(c->env.ctx, c->geo.offslab_bytes, "alloc_slabmgmt", cpu,
				   &sl->mgmt, op)) {
			free(sl);
			return NULL;
		}
		op->stats = c->stats;
	}
	ss_step(op, SS_STEP_SLAB_INIT_OBJECT, c->geo.num);
	ss_step(op, SS_STEP_GROWN, 1);
	ss_step(op, SS_STEP_LIST_LOCK, 1);
	ss_list_add(&c->node[node].list[SS_MSLAB_FREE], &sl->link, true);
	sl->where = SS_MSLAB_FREE;
	c->node[node].free_objects += c->geo.num;
	c->nr_slabs++;
	c->total_objects += c->geo.num;
	c->slab_bytes += bytes;
	if (c->slab_bytes > c->peak_slab_bytes)
		c->peak_slab_bytes = c->slab_bytes;
	c->env.slab_event(c->env.ctx, c->index, sl, c->geo.num, true, cpu, op);
	op->stats = c->stats;
	return sl;
}

void ss_mslab_slab_destroy(struct ss_mslab_cache *c, struct ss_mslab_slab *sl, unsigned cpu,
		     struct ss_op *op)
{
	c->env.slab_event(c->env.ctx, c->index, sl, c->geo.num, false, cpu, op);
	if (sl->mgmt.cache >= 0)
		c->env.kfree(c->env.ctx, &sl->mgmt, cpu, op);
	op->stats = c->stats;
	ss_step(op, SS_STEP_FREE_SLAB, 1);
	ss_step(op, SS_STEP_PAGE_FREE, 1ull << c->geo.order);
	op->slab_pages -= 1ll << c->geo.order;
	c->nr_slabs--;
	c->total_objects -= c->geo.num;
	c->slab_bytes -= (uint64_t)c->t->page_size << c->geo.order;
	free(sl);
}

/* ---- free_block() ---- */

void ss_mslab_free_block(struct ss_mslab_cache *c, struct ss_mslab_slab **objs, unsigned nr,
		   unsigned cpu, struct ss_op *op)
{
	const bool trim_after = c->t->era >= SS_ERA_4_6;
	struct ss_mslab_slab *doomed = NULL; /* ≤ 4.5: destroyed after the loop */

	for (unsigned i = 0; i < nr; i++) {
		struct ss_mslab_slab *sl = objs[i];
		struct ss_mslab_node *n = &c->node[sl->node];

		ss_list_del(&n->list[sl->where], &sl->link);
		sl->inuse--;
		n->free_objects++;
		ss_step(op, SS_STEP_SLAB_PUT_OBJ, 1);
		if (sl->inuse) {
			/* "Unconditionally move a slab to the end of the
			 * partial list on free" */
			ss_list_add(&n->list[MS_PARTIAL], &sl->link, true);
			sl->where = MS_PARTIAL;
		} else if (!trim_after && n->free_objects > n->free_limit) {
			n->free_objects -= c->geo.num;
			sl->link.next = doomed ? &doomed->link : NULL;
			doomed = sl;
		} else {
			ss_list_add(&n->list[SS_MSLAB_FREE], &sl->link, false);
			sl->where = SS_MSLAB_FREE;
		}
	}
	if (trim_after) {
		/* 4.6+: while free_objects > free_limit, the last free slab goes */
		for (unsigned node = 0; node < c->topo->nr_nodes; node++) {
			struct ss_mslab_node *n = &c->node[node];

			while (n->free_objects > n->free_limit && n->list[SS_MSLAB_FREE].tail) {
				struct ss_mslab_slab *sl = ss_list_entry(n->list[SS_MSLAB_FREE].tail,
								   struct ss_mslab_slab, link);

				ss_list_del(&n->list[SS_MSLAB_FREE], &sl->link);
				n->free_objects -= c->geo.num;
				sl->link.next = doomed ? &doomed->link : NULL;
				doomed = sl;
			}
		}
	}
	while (doomed) { /* slabs_destroy() */
		struct ss_mslab_slab *next = ss_list_entry(doomed->link.next, struct ss_mslab_slab, link);

		ss_mslab_slab_destroy(c, doomed, cpu, op);
		doomed = next;
	}
}

/* ---- allocation ---- */

/* cache_alloc_refill(): fill the CPU's array from the shared array or
 * the node's slabs, growing the cache when both are empty. */
static int cache_alloc_refill(struct ss_mslab_cache *c, unsigned cpu, struct ss_op *op)
{
	struct ss_mslab_array *ac = &c->ac[cpu];
	unsigned node = c->topo->cpu_node[cpu];
	struct ss_mslab_node *n = &c->node[node];
	unsigned batch = ac->batchcount;
	bool grown = false;

	if (!ac->touched && batch > BATCHREFILL_LIMIT)
		batch = BATCHREFILL_LIMIT;
	for (;;) {
		unsigned left = batch, taken = 0;

		/* 4.6+: "if (!n->free_objects && (!shared || !shared->avail))
		 * goto direct_grow": no lock when there is nothing to take */
		if (c->t->era < SS_ERA_4_6 || n->free_objects || n->shared.avail) {
			if (c->t->era < SS_ERA_4_6 || !grown)
				ss_step(op, SS_STEP_LIST_LOCK, 1);
			if (n->shared.avail && ss_mslab_transfer(ac, &n->shared, batch, op)) {
				n->shared.touched = true;
				return 0;
			}
			while (left) {
				struct ss_mslab_slab *sl = ss_list_entry(n->list[MS_PARTIAL].head,
								   struct ss_mslab_slab, link);

				if (!sl) {
					n->free_touched = true;
					sl = ss_list_entry(n->list[SS_MSLAB_FREE].head, struct ss_mslab_slab, link);
				}
				if (!sl)
					break;
				while (sl->inuse < c->geo.num && left) {
					ac->entry[ac->avail++] = sl;
					sl->inuse++;
					left--;
					taken++;
				}
				list_move(c, sl, sl->inuse == c->geo.num ? SS_MSLAB_FULL : MS_PARTIAL, false);
			}
			ss_step(op, SS_STEP_SLAB_GET_OBJ, taken);
			n->free_objects -= taken;
		}
		if (ac->avail)
			return 0;
		if (!cache_grow(c, node, cpu, op))
			return -1;
		grown = true;
		/* ≤ 4.5: "goto retry" takes the lock again; 4.6+ takes the
		 * objects from the new page (alloc_block()) under the lock
		 * cache_grow_end() takes anyway */
	}
}

static void *mslab_alloc(void *cache, unsigned cpu, struct ss_op *op)
{
	struct ss_mslab_cache *c = cache;
	struct ss_mslab_array *ac = &c->ac[cpu];

	op->stats = c->stats;
	if (ac->avail) {
		ss_step(op, SS_STEP_ALLOCHIT, 1);
	} else {
		ss_step(op, SS_STEP_ALLOCMISS, 1);
		if (cache_alloc_refill(c, cpu, op))
			return NULL;
		op->stats = c->stats;
	}
	ac->touched = true;
	c->live++;
	return ac->entry[--ac->avail];
}

/* ---- free ---- */

void ss_mslab_drain_alien(struct ss_mslab_cache *c, struct ss_mslab_array *a, unsigned node,
		    unsigned cpu, struct ss_op *op)
{
	struct ss_mslab_node *rn = &c->node[node];

	if (!a->avail)
		return;
	ss_step(op, SS_STEP_LIST_LOCK, 1);
	ss_step(op, SS_STEP_NODE_REMOTE, 1);
	if (rn->shared.limit)
		ss_mslab_transfer(&rn->shared, a, a->limit, op);
	ss_mslab_free_block(c, a->entry, a->avail, cpu, op);
	a->avail = 0;
}

/* cache_free_alien(): an object of another node goes to this node's
 * alien array for that node (drained when full). */
static void cache_free_alien(struct ss_mslab_cache *c, struct ss_mslab_slab *sl, unsigned cpu,
			     struct ss_op *op)
{
	struct ss_mslab_node *n = &c->node[c->topo->cpu_node[cpu]];
	struct ss_mslab_array *a = &n->alien[sl->node];

	ss_step(op, SS_STEP_NODEFREES, 1);
	if (a->avail == a->limit) {
		ss_step(op, SS_STEP_ACOVERFLOW, 1);
		ss_mslab_drain_alien(c, a, sl->node, cpu, op);
	}
	a->entry[a->avail++] = sl;
}

/* cache_flusharray(): the oldest batchcount entries to the shared array
 * (as many as fit) or back to their slabs. */
static void cache_flusharray(struct ss_mslab_cache *c, struct ss_mslab_array *ac, unsigned cpu,
			     struct ss_op *op)
{
	struct ss_mslab_node *n = &c->node[c->topo->cpu_node[cpu]];
	unsigned batch = ac->batchcount;

	ss_step(op, SS_STEP_LIST_LOCK, 1);
	if (n->shared.limit && n->shared.avail < n->shared.limit) {
		unsigned room = n->shared.limit - n->shared.avail;

		if (batch > room)
			batch = room;
		memcpy(n->shared.entry + n->shared.avail, ac->entry, batch * sizeof(*ac->entry));
		n->shared.avail += batch;
		ss_step(op, SS_STEP_ARRAY_MOVE, batch);
	} else {
		ss_mslab_free_block(c, ac->entry, batch, cpu, op);
	}
	ss_mslab_array_shift(ac, batch);
}

static void mslab_free(void *cache, unsigned cpu, void *slab, bool cross_cpu,
		       struct ss_op *op)
{
	struct ss_mslab_cache *c = cache;
	struct ss_mslab_slab *sl = slab;
	struct ss_mslab_array *ac = &c->ac[cpu];

	op->stats = c->stats;
	c->live--;
	if (cross_cpu)
		ss_step(op, SS_STEP_REMOTE_FREE, 1);
	if (c->topo->nr_nodes > 1 && sl->node != c->topo->cpu_node[cpu]) {
		cache_free_alien(c, sl, cpu, op);
		return;
	}
	if (ac->avail < ac->limit) {
		ss_step(op, SS_STEP_FREEHIT, 1);
	} else {
		ss_step(op, SS_STEP_FREEMISS, 1);
		cache_flusharray(c, ac, cpu, op);
	}
	ac->entry[ac->avail++] = sl;
}

/* ---- set-up and reports ---- */

static void mslab_destroy(void *cache)
{
	struct ss_mslab_cache *c = cache;

	if (!c)
		return;
	for (unsigned i = 0; c->ac && i < c->topo->nr_cpus; i++)
		free(c->ac[i].entry);
	for (unsigned i = 0; c->node && i < c->topo->nr_nodes; i++) {
		struct ss_mslab_node *n = &c->node[i];

		for (int w = 0; w < MS_NR_LISTS; w++) {
			struct ss_mslab_slab *sl;

			while ((sl = ss_list_entry(n->list[w].head, struct ss_mslab_slab, link))) {
				ss_list_del(&n->list[w], &sl->link);
				free(sl);
			}
		}
		free(n->shared.entry);
		for (unsigned j = 0; n->alien && j < c->topo->nr_nodes; j++)
			free(n->alien[j].entry);
		free(n->alien);
	}
	free(c->ac);
	free(c->node);
	free(c);
}

/* CPUs of node (nr_cpus_node()). */
static unsigned cpus_of_node(const struct ss_topology *topo, unsigned node)
{
	unsigned nr = 0;

	for (unsigned i = 0; i < topo->nr_cpus; i++)
		nr += topo->cpu_node[i] == node;
	return nr;
}

/* do_tune_cpucache() / setup_kmem_cache_node(): the arrays and lists. */
static int setup_arrays(struct ss_mslab_cache *c)
{
	const struct ss_mslab_geo *g = &c->geo;
	unsigned nodes = c->topo->nr_nodes;

	c->ac = calloc(c->topo->nr_cpus, sizeof(*c->ac));
	c->node = calloc(nodes, sizeof(*c->node));
	if (!c->ac || !c->node)
		return -1;
	for (unsigned i = 0; i < c->topo->nr_cpus; i++)
		if (array_init(&c->ac[i], g->limit, g->batchcount))
			return -1;
	for (unsigned i = 0; i < nodes; i++) {
		struct ss_mslab_node *n = &c->node[i];

		n->free_limit = (1ull + cpus_of_node(c->topo, i)) * g->batchcount + g->num;
		n->next_reap_ns = -1;
		if (array_init(&n->shared, g->shared * g->batchcount, 0xbaadf00d))
			return -1;
		if (nodes < 2)
			continue;
		/* alloc_alien_cache(): "if (limit > 1) limit = 12" */
		n->alien = calloc(nodes, sizeof(*n->alien));
		if (!n->alien)
			return -1;
		for (unsigned j = 0; j < nodes; j++)
			if (j != i && array_init(&n->alien[j], g->limit > 1 ? 12 : g->limit, 0xbaadf00d))
				return -1;
	}
	return 0;
}

static void *mslab_create(const char *name, const struct ss_cache_spec *spec,
			  const struct ss_target *t, const struct ss_topology *topo,
			  const struct ss_backend_env *env, int index, struct ss_error *err)
{
	struct ss_mslab_cache *c;

	if (spec->debug) {
		ss_errorf(err, "%s: slub_debug is SLUB's; SLAB's CONFIG_DEBUG_SLAB is not modelled", name);
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		ss_errorf(err, "out of memory");
		return NULL;
	}
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->spec = *spec;
	c->t = t;
	c->topo = topo;
	c->env = *env;
	c->index = index;
	if (ss_mslab_geometry(t, spec, &c->geo, err)) {
		free(c);
		return NULL;
	}
	if (setup_arrays(c)) {
		mslab_destroy(c);
		ss_errorf(err, "%s: out of memory", name);
		return NULL;
	}
	return c;
}

static int mslab_layout(const struct ss_target *t, const struct ss_cache_spec *spec,
			unsigned *size, unsigned *align, struct ss_error *err)
{
	struct ss_mslab_geo g;

	if (ss_mslab_geometry(t, spec, &g, err))
		return -1;
	*size = g.size;
	*align = g.align;
	return 0;
}

/* __kmem_cache_alias() came to SLAB with the common merge code
 * ("mm/slab: support slab merge", believed 3.18). */
static bool mslab_merges(const struct ss_target *t)
{
	return t->era >= SS_ERA_3_18;
}

/* __kmem_cache_alias() (mm/slab.c 3.18-6.7): cachep->object_size =
 * max(object_size, size); the layout stays. */
static void mslab_alias(void *cache, unsigned object_size)
{
	struct ss_mslab_cache *c = cache;

	if (object_size > c->geo.object_size)
		c->geo.object_size = object_size;
}

static void mslab_report(const void *cache, struct ss_cache_report *r)
{
	const struct ss_mslab_cache *c = cache;
	uint64_t partial = 0, free_objects = 0;

	for (unsigned i = 0; i < c->topo->nr_nodes; i++) {
		partial += c->node[i].list[MS_PARTIAL].nr;
		free_objects += c->node[i].free_objects;
	}
	*r = (struct ss_cache_report){
		.name = c->name,
		.object_size = c->geo.object_size,
		.slab_size = c->geo.size,
		.size_nodebug = c->geo.size,
		.objs_per_slab = c->geo.num,
		.order = c->geo.order,
		.align = c->geo.align,
		.limit = c->geo.limit,
		.batchcount = c->geo.batchcount,
		.shared = c->geo.shared,
		.live = c->live,
		.nr_slabs = c->nr_slabs,
		.total_objects = c->total_objects,
		.slab_bytes = c->slab_bytes,
		.partial_slabs = partial,
		.peak_slab_bytes = c->peak_slab_bytes,
		/* get_slabinfo(): active = all but the node lists' free
		 * objects (objects in arrays count as active) */
		.node_partial_free = free_objects,
		.stats = c->stats,
	};
}

const struct ss_backend_ops ss_backend_slab = {
	.allocator = SS_ALLOCATOR_SLAB,
	.layout = mslab_layout,
	.merges = mslab_merges,
	.create = mslab_create,
	.alloc = mslab_alloc,
	.free = mslab_free,
	.report = mslab_report,
	.destroy = mslab_destroy,
	.alias = mslab_alias,
	.cpu_timer = ss_mslab_cpu_timer,
};
