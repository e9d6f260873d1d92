/* sheaf.c - per-CPU sheaves and the barn (sheaf.h): mm/slub.c of 6.18
 * (a cache created with a sheaf capacity) and of 7.0 - 7.2 (every cache
 * with a capacity, docs/sheaves.md).
 *
 * The two eras differ here in three rules, each marked where it applies:
 * the objects a refill takes and a flush gives back go through 6.18's
 * CPU-slab paths one by one (slub.h) or 7.x's bulk paths (slub7.h:
 * refill_objects(), __kmem_cache_free_bulk()); 7.0 keeps an empty main
 * sheaf as the spare after a refill ("slub: keep empty main sheaf as
 * spare in __pcs_replace_empty_main()"); and the counters of a pop and a
 * push are 6.18's alloc_cpu_sheaf / free_cpu_sheaf, 7.x's alloc_fastpath
 * / free_fastpath.
 *
 * The simulation is single-threaded, so the kernel's races (a sheaf full
 * again after the lock was dropped) never happen: each function keeps
 * the branch a lone CPU takes.  kfree_rcu() batching (rcu_free sheaves),
 * the prefill API and flushing on shrink or CPU hot-unplug are not
 * modelled: a trace has no event for any of them (docs/sheaves.md).
 */
#include "sheaf.h"

#include <stdlib.h>
#include <string.h>

#include "slub.h"
#include "slub7.h"

/* MAX_FULL_SHEAVES: the barn's limit of full sheaves per node. */
#define MAX_FULL_SHEAVES 10u

struct sheaf {
	struct ss_link link;	/* on a barn list */
	struct ss_iobj mem;	/* the kmalloc'ed struct slab_sheaf */
	unsigned size;
	struct ss_slab *obj[];	/* capacity entries */
};

struct pcs { /* struct slub_percpu_sheaves */
	struct sheaf *main, *spare;
};

struct barn { /* struct node_barn */
	struct ss_list full, empty;
};

struct ss_sheaves {
	struct ss_kcache *s;
	struct ss_backend_env env;
	unsigned capacity;
	bool seven;		/* 7.0+ rules (above) */
	bool ready;		/* init_percpu_sheaves() done */
	bool initing;		/* ... running: a kmalloc cache whose sheaves
				 * come from itself reaches it again */
	struct pcs *cpu;	/* the topology's CPUs */
	struct barn *node;
	/* the main sheaves of the possible CPUs past the topology's
	 * (nr_cpu_ids): allocated, never used */
	struct ss_iobj *idle;
	unsigned nr_idle;
	uint64_t parked;
};

static struct sheaf *sheaf_of(struct ss_link *l)
{
	return ss_list_entry(l, struct sheaf, link);
}

struct ss_sheaves *ss_sheaves_create(struct ss_kcache *s, unsigned capacity,
				     const struct ss_backend_env *env)
{
	struct ss_sheaves *sh = calloc(1, sizeof(*sh));
	unsigned possible = ss_target_nr_cpu_ids(s->t);

	if (!sh)
		return NULL;
	sh->s = s;
	sh->env = *env;
	sh->capacity = capacity;
	sh->seven = s->t->era >= SS_ERA_7_0;
	sh->cpu = calloc(s->topo->nr_cpus, sizeof(*sh->cpu));
	sh->node = calloc(s->topo->nr_nodes, sizeof(*sh->node));
	sh->nr_idle = possible > s->topo->nr_cpus ? possible - s->topo->nr_cpus : 0;
	sh->idle = calloc(sh->nr_idle ? sh->nr_idle : 1, sizeof(*sh->idle));
	if (!sh->cpu || !sh->node || !sh->idle) {
		ss_sheaves_destroy(sh);
		return NULL;
	}
	return sh;
}

static void free_list(struct ss_list *l)
{
	struct sheaf *sf;

	while ((sf = sheaf_of(l->head))) {
		ss_list_del(l, &sf->link);
		free(sf);
	}
}

void ss_sheaves_destroy(struct ss_sheaves *sh)
{
	if (!sh)
		return;
	for (unsigned c = 0; sh->cpu && c < sh->s->topo->nr_cpus; c++) {
		free(sh->cpu[c].main);
		free(sh->cpu[c].spare);
	}
	for (unsigned n = 0; sh->node && n < sh->s->topo->nr_nodes; n++) {
		free_list(&sh->node[n].full);
		free_list(&sh->node[n].empty);
	}
	free(sh->cpu);
	free(sh->node);
	free(sh->idle);
	free(sh);
}

uint64_t ss_sheaves_parked(const struct ss_sheaves *sh)
{
	return sh->parked;
}

unsigned ss_sheaves_capacity(const struct ss_sheaves *sh)
{
	return sh->capacity;
}

void ss_sheaves_state(const struct ss_sheaves *sh, unsigned cpu, struct ss_sheaves_state *st)
{
	const struct pcs *p = &sh->cpu[cpu];
	const struct barn *b = &sh->node[sh->s->topo->cpu_node[cpu]];
	const struct sheaf *sf;

	*st = (struct ss_sheaves_state){
		.main = p->main ? (int)p->main->size : -1,
		.spare = p->spare ? (int)p->spare->size : -1,
		.barn_full = b->full.nr,
		.barn_empty = b->empty.nr,
	};
	for (const struct ss_link *l = b->full.head; l; l = l->next) {
		sf = ss_list_entry(l, const struct sheaf, link);
		st->barn_objects += sf->size;
	}
}

/* The bytes of one sheaf: struct_size(sheaf, objects, capacity). */
static uint64_t sheaf_bytes(const struct ss_sheaves *sh)
{
	return ss_sheaf_header_bytes(sh->s->t) + (uint64_t)sh->capacity * sh->s->t->ptr_size;
}

/* __alloc_empty_sheaf(): kmalloc(struct_size(sheaf, objects, capacity)).
 * A kmalloc cache's sheaf is asked for with SLAB_ALLOC_NO_RECURSE: the
 * kmalloc cache that gives it may not allocate an empty sheaf of its own
 * meanwhile (alloc_empty_sheaf() fails, and that allocation takes
 * ___slab_alloc()). */
static int sheaf_kmalloc(struct ss_sheaves *sh, unsigned cpu, struct ss_iobj *mem,
			 struct ss_op *op)
{
	bool *no_recurse = sh->env.no_recurse;
	bool was = no_recurse && *no_recurse;
	int rc;

	if (no_recurse && (sh->s->spec.flags & SS_CF_KMALLOC))
		*no_recurse = true;
	rc = sh->env.kmalloc(sh->env.ctx, sheaf_bytes(sh), "alloc_empty_sheaf", cpu, mem, op);
	if (no_recurse)
		*no_recurse = was;
	return rc;
}

/* alloc_empty_sheaf(): NULL under SLAB_ALLOC_NO_RECURSE (but for a
 * cache's first sheaves, made at its creation: boot) or when out of
 * memory. */
static struct sheaf *alloc_sheaf(struct ss_sheaves *sh, unsigned cpu, bool boot,
				 struct ss_op *op)
{
	struct sheaf *sf;

	if (!boot && sh->env.no_recurse && *sh->env.no_recurse)
		return NULL;
	sf = calloc(1, sizeof(*sf) + sh->capacity * sizeof(sf->obj[0]));
	if (!sf)
		return NULL;
	if (sheaf_kmalloc(sh, cpu, &sf->mem, op)) {
		free(sf);
		return NULL;
	}
	op->stats = sh->s->stats;
	ss_step(op, SS_STEP_SHEAF_ALLOC, 1);
	return sf;
}

static struct sheaf *alloc_empty_sheaf(struct ss_sheaves *sh, unsigned cpu, struct ss_op *op)
{
	return alloc_sheaf(sh, cpu, false, op);
}

/* A sheaf of the kernel's (no memory charged), empty. */
static struct sheaf *kernel_sheaf(struct ss_sheaves *sh)
{
	struct sheaf *sf = calloc(1, sizeof(*sf) + sh->capacity * sizeof(sf->obj[0]));

	if (sf)
		sf->mem.cache = -1;
	return sf;
}

/* init_percpu_sheaves(): every possible CPU gets an empty main sheaf when
 * the cache is created -- here at its first use (the model creates a
 * cache when the trace first names it).  A cache the run started as the
 * kernel's (the initial state, s->recon) had its sheaves before the
 * trace: their memory is among the kernel's kmalloc objects of the
 * snapshot, so they are not allocated again. */
static int init_percpu_sheaves(struct ss_sheaves *sh, unsigned cpu, struct ss_op *op)
{
	bool booted = sh->s->recon != NULL;
	int rc = -1;

	/* an allocation of this cache while its sheaves are being made (its
	 * own sheaf's kmalloc) meets the bootstrap sheaf: the slow path */
	if (sh->initing)
		return -1;
	sh->initing = true;
	for (unsigned c = 0; c < sh->s->topo->nr_cpus; c++) {
		struct sheaf *sf;

		sf = booted ? kernel_sheaf(sh) : alloc_sheaf(sh, cpu, true, op);
		if (!(sh->cpu[c].main = sf))
			goto out;
	}
	for (unsigned i = 0; !booted && i < sh->nr_idle; i++) {
		if (sheaf_kmalloc(sh, cpu, &sh->idle[i], op))
			goto out;
		op->stats = sh->s->stats;
		ss_step(op, SS_STEP_SHEAF_ALLOC, 1);
	}
	sh->ready = true;
	rc = 0;
out:
	op->stats = sh->s->stats;
	sh->initing = false;
	return rc;
}

/* refill_sheaf(): the missing objects.  7.x: refill_objects() in bulk,
 * priced per object (sheaf_refill) beside its locks and cmpxchgs; 6.18:
 * __kmem_cache_alloc_bulk(), each object through the CPU-slab paths that
 * price it (the counter without a price of its own). */
static int refill_sheaf(struct ss_sheaves *sh, struct sheaf *sf, unsigned cpu,
			struct ss_op *op)
{
	unsigned n = sh->capacity - sf->size;

	if (sh->seven) {
		unsigned got = ss7_refill(sh->s, cpu, n, &sf->obj[sf->size], op);

		sf->size += got;
		sh->parked += got;
		ss_step(op, SS_STEP_SHEAF_REFILL, got);
		return got < n ? -1 : 0;
	}
	for (unsigned i = 0; i < n; i++) {
		struct ss_slab *sl = ss_kcache_alloc(sh->s, cpu, op);

		if (!sl)
			return -1;
		sf->obj[sf->size++] = sl;
		sh->parked++;
	}
	op->stats[SS_STEP_SHEAF_REFILL] += n;
	return 0;
}

/* sheaf_flush_unused(): every object back to its slab.  7.x:
 * __kmem_cache_free_bulk(), priced per object (sheaf_flush) beside each
 * slab's __slab_free(); 6.18: each object through slab_free()'s paths. */
static void sheaf_flush(struct ss_sheaves *sh, struct sheaf *sf, unsigned cpu,
			struct ss_op *op)
{
	if (sh->seven) {
		ss7_free_bulk(sh->s, cpu, sf->obj, sf->size, op);
		ss_step(op, SS_STEP_SHEAF_FLUSH, sf->size);
		sh->parked -= sf->size;
		sf->size = 0;
		return;
	}
	op->stats[SS_STEP_SHEAF_FLUSH] += sf->size;
	while (sf->size) {
		ss_kcache_free(sh->s, cpu, sf->obj[--sf->size], op);
		sh->parked--;
	}
}

static struct sheaf *barn_pop(struct ss_list *l)
{
	struct sheaf *sf = sheaf_of(l->head);

	if (sf)
		ss_list_del(l, &sf->link);
	return sf;
}

/* __pcs_replace_empty_main(): the main sheaf is empty. */
static int replace_empty_main(struct ss_sheaves *sh, struct pcs *p, struct barn *b,
			      unsigned cpu, struct ss_op *op)
{
	struct sheaf *full, *empty;

	if (p->spare && p->spare->size) {
		full = p->spare;
		p->spare = p->main;
		p->main = full;
		return 0;
	}
	if (b->full.nr) { /* barn_replace_empty_sheaf() */
		full = barn_pop(&b->full);
		ss_list_add(&b->empty, &p->main->link, false);
		p->main = full;
		ss_step(op, SS_STEP_BARN_GET, 1);
		return 0;
	}
	ss_step(op, SS_STEP_BARN_GET_FAIL, 1);
	/* gfpflags_allow_blocking(): the trace does not say; process
	 * context with GFP_KERNEL is assumed, so the sheaf is refilled */
	empty = p->spare;
	p->spare = NULL;
	if (!empty)
		empty = barn_pop(&b->empty);
	if (!empty && !(empty = alloc_empty_sheaf(sh, cpu, op)))
		return -1;
	op->stats = sh->s->stats;
	if (refill_sheaf(sh, empty, cpu, op)) {
		/* "we must be very low on memory": flushed, freed, slow path */
		sheaf_flush(sh, empty, cpu, op);
		sh->env.kfree(sh->env.ctx, &empty->mem, cpu, op);
		op->stats = sh->s->stats;
		ss_step(op, SS_STEP_SHEAF_FREE, 1);
		free(empty);
		return -1;
	}
	/* 6.18: "If we are returning empty sheaf, we either got it from the
	 * barn or had to allocate one": the empty main goes to the barn.
	 * 7.0+: it becomes the spare (there is none: it was taken above) */
	if (sh->seven && !p->spare)
		p->spare = p->main;
	else
		ss_list_add(&b->empty, &p->main->link, false);
	p->main = empty;
	return 0;
}

struct ss_slab *ss_sheaves_alloc(struct ss_sheaves *sh, unsigned cpu,
				 struct ss_op *op)
{
	struct pcs *p = &sh->cpu[cpu];
	struct barn *b = &sh->node[sh->s->topo->cpu_node[cpu]];

	op->stats = sh->s->stats;
	if (!sh->ready && init_percpu_sheaves(sh, cpu, op))
		return NULL;
	if (!p->main->size && replace_empty_main(sh, p, b, cpu, op))
		return NULL;
	ss_step(op, sh->seven ? SS_STEP_ALLOC_FASTPATH : SS_STEP_ALLOC_CPU_SHEAF, 1);
	sh->parked--;
	return p->main->obj[--p->main->size];
}

/* __pcs_replace_full_main(): the main sheaf is full.  0, or -1 when no
 * empty sheaf could be had (the object then goes to its slab). */
static int replace_full_main(struct ss_sheaves *sh, struct pcs *p, struct barn *b,
			     unsigned cpu, struct ss_op *op)
{
	struct sheaf *empty;

	if (!p->spare) {
		empty = barn_pop(&b->empty);
		if (!empty && !(empty = alloc_empty_sheaf(sh, cpu, op)))
			return -1;
		op->stats = sh->s->stats;
		p->spare = p->main;
		p->main = empty;
		return 0;
	}
	if (p->spare->size < sh->capacity) {
		empty = p->spare;
		p->spare = p->main;
		p->main = empty;
		return 0;
	}
	/* barn_replace_full_sheaf() */
	if (b->full.nr >= MAX_FULL_SHEAVES) {
		/* -E2BIG: flush the (full) spare to the slabs and use it */
		ss_step(op, SS_STEP_BARN_PUT_FAIL, 1);
		empty = p->spare;
		p->spare = NULL;
		sheaf_flush(sh, empty, cpu, op);
		p->spare = p->main;
		p->main = empty;
		return 0;
	}
	/* no empty sheaf in the barn: one is allocated and the full main put
	 * in the barn all the same (7.2 __pcs_install_empty_sheaf()) */
	empty = barn_pop(&b->empty);
	if (!empty && !(empty = alloc_empty_sheaf(sh, cpu, op))) /* -ENOMEM */
		return -1;
	op->stats = sh->s->stats;
	ss_list_add(&b->full, &p->main->link, false);
	ss_step(op, SS_STEP_BARN_PUT, 1);
	p->main = empty;
	return 0;
}

bool ss_sheaves_free(struct ss_sheaves *sh, unsigned cpu, struct ss_slab *sl,
		     struct ss_op *op)
{
	struct pcs *p = &sh->cpu[cpu];
	unsigned node = sh->s->topo->cpu_node[cpu];

	op->stats = sh->s->stats;
	if (!sh->ready && init_percpu_sheaves(sh, cpu, op))
		return false;
	/* can_free_to_pcs(): only objects of the CPU's own node */
	if (sl->node != node)
		return false;
	if (p->main->size == sh->capacity &&
	    replace_full_main(sh, p, &sh->node[node], cpu, op))
		return false;
	p->main->obj[p->main->size++] = sl;
	sh->parked++;
	ss_step(op, sh->seven ? SS_STEP_FREE_FASTPATH : SS_STEP_FREE_CPU_SHEAF, 1);
	return true;
}

/* The sheaves' set-up outside an operation (an initial state): nothing
 * is priced or charged. */
static int ready_unpriced(struct ss_sheaves *sh)
{
	static const double no_cost[SS_NR_STEPS];
	struct ss_op op;

	if (sh->ready)
		return 0;
	ss_op_init(&op, no_cost);
	op.stats = sh->s->stats;
	return init_percpu_sheaves(sh, 0, &op);
}

/* Up to n objects into sf from take(). */
static unsigned fill_from(struct ss_sheaves *sh, struct sheaf *sf, unsigned n,
			  ss_sheaf_take_fn take, void *ctx)
{
	unsigned got = 0;
	struct ss_slab *sl;

	while (got < n && sf->size < sh->capacity && (sl = take(ctx))) {
		sf->obj[sf->size++] = sl;
		got++;
	}
	sh->parked += got;
	return got;
}

uint64_t ss_sheaves_start_cpu(struct ss_sheaves *sh, unsigned cpu, unsigned main, unsigned spare,
			      ss_sheaf_take_fn take, void *ctx)
{
	struct pcs *p = &sh->cpu[cpu];
	uint64_t got;

	if (ready_unpriced(sh))
		return 0;
	got = fill_from(sh, p->main, main, take, ctx);
	if (spare == SS_SHEAF_NONE || (!p->spare && !(p->spare = kernel_sheaf(sh))))
		return got;
	return got + fill_from(sh, p->spare, spare, take, ctx);
}

uint64_t ss_sheaves_start_barn(struct ss_sheaves *sh, unsigned node, unsigned full,
			       uint64_t objects, unsigned empty, unsigned rcu,
			       ss_sheaf_take_fn take, void *ctx)
{
	struct barn *b = &sh->node[node];
	uint64_t got = 0;
	struct sheaf *sf;

	if (ready_unpriced(sh))
		return 0;
	/* the full sheaves' objects as even as they go (each its capacity
	 * but for sheaves rcu_free_sheaf() took back short) */
	for (unsigned i = 0; i < full && (sf = kernel_sheaf(sh)); i++) {
		uint64_t share = (objects - got + (full - i) - 1) / (full - i);

		got += fill_from(sh, sf, share > sh->capacity ? sh->capacity : (unsigned)share, take, ctx);
		/* (a sheaf the initial objects ran out for, read a moment
		 * apart from their count, is an empty one) */
		ss_list_add(sf->size ? &b->full : &b->empty, &sf->link, false);
	}
	if (rcu && (sf = kernel_sheaf(sh))) {
		got += fill_from(sh, sf, rcu, take, ctx);
		ss_list_add(sf->size ? &b->full : &b->empty, &sf->link, false);
	}
	for (unsigned i = 0; i < empty && (sf = kernel_sheaf(sh)); i++)
		ss_list_add(&b->empty, &sf->link, false);
	return got;
}
