/* sheaf.c - per-CPU sheaves and the barn (sheaf.h), mm/slub.c of 6.18.
 *
 * The simulation is single-threaded, so the kernel's races (a sheaf full
 * again after the lock was dropped) never happen: each function keeps
 * the branch a lone CPU takes.  kfree_rcu() batching (rcu_free sheaves),
 * the prefill API and flushing on shrink or CPU hot-unplug are not
 * modelled (docs/strategies.md).
 */
#include "sheaf.h"

#include <stdlib.h>
#include <string.h>

#include "slub.h"

/* MAX_FULL_SHEAVES / MAX_EMPTY_SHEAVES: the barn's limits per node. */
#define MAX_FULL_SHEAVES 10u
/* struct slab_sheaf before its objects: a union of rcu_head and
 * list_head (16 on 64-bit, 8 on 32-bit), the cache pointer, size and
 * node (unsigned int each). */
#define SHEAF_HEADER(ptr) (2 * (ptr) + (ptr) + 8)

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
	bool ready;		/* init_percpu_sheaves() done */
	struct pcs *cpu;
	struct barn *node;
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

	if (!sh)
		return NULL;
	sh->s = s;
	sh->env = *env;
	sh->capacity = capacity;
	sh->cpu = calloc(s->topo->nr_cpus, sizeof(*sh->cpu));
	sh->node = calloc(s->topo->nr_nodes, sizeof(*sh->node));
	if (!sh->cpu || !sh->node) {
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

/* alloc_empty_sheaf(): kzalloc(struct_size(sheaf, objects, capacity)). */
static struct sheaf *alloc_empty_sheaf(struct ss_sheaves *sh, unsigned cpu,
				       struct ss_op *op)
{
	unsigned ptr = sh->s->t->ptr_size;
	struct sheaf *sf = calloc(1, sizeof(*sf) + sh->capacity * sizeof(sf->obj[0]));

	if (!sf)
		return NULL;
	if (sh->env.kmalloc(sh->env.ctx, SHEAF_HEADER(ptr) + (uint64_t)sh->capacity * ptr,
			    "alloc_empty_sheaf", cpu, &sf->mem, op)) {
		free(sf);
		return NULL;
	}
	ss_step(op, SS_STEP_SHEAF_ALLOC, 1);
	return sf;
}

/* init_percpu_sheaves(): every possible CPU starts with an empty main
 * sheaf when the cache is created; here at the cache's first use. */
static int init_percpu_sheaves(struct ss_sheaves *sh, unsigned cpu, struct ss_op *op)
{
	for (unsigned c = 0; c < sh->s->topo->nr_cpus; c++)
		if (!(sh->cpu[c].main = alloc_empty_sheaf(sh, cpu, op)))
			return -1;
	op->stats = sh->s->stats;
	sh->ready = true;
	return 0;
}

/* refill_sheaf(): __kmem_cache_alloc_bulk() of the missing objects. */
static int refill_sheaf(struct ss_sheaves *sh, struct sheaf *sf, unsigned cpu,
			struct ss_op *op)
{
	unsigned n = sh->capacity - sf->size;

	for (unsigned i = 0; i < n; i++) {
		struct ss_slab *sl = ss_kcache_alloc(sh->s, cpu, op);

		if (!sl)
			return -1;
		sf->obj[sf->size++] = sl;
		sh->parked++;
	}
	ss_step(op, SS_STEP_SHEAF_REFILL, n);
	return 0;
}

/* sheaf_flush_unused(): every object back to its slab. */
static void sheaf_flush(struct ss_sheaves *sh, struct sheaf *sf, unsigned cpu,
			struct ss_op *op)
{
	ss_step(op, SS_STEP_SHEAF_FLUSH, sf->size);
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
	if (refill_sheaf(sh, empty, cpu, op))
		return -1;
	/* "If we are returning empty sheaf, we either got it from the barn
	 * or had to allocate one": the empty main goes to the barn */
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
	ss_step(op, SS_STEP_ALLOC_CPU_SHEAF, 1);
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
	empty = barn_pop(&b->empty);
	if (!empty && !(empty = alloc_empty_sheaf(sh, cpu, op))) /* -ENOMEM */
		return -1;
	op->stats = sh->s->stats;
	ss_list_add(&b->full, &p->main->link, false);
	ss_step(op, SS_STEP_BARN_PUT, 1);
	p->main = empty;
	return 0;
}

void ss_sheaves_free(struct ss_sheaves *sh, unsigned cpu, struct ss_slab *sl,
		     struct ss_op *op)
{
	struct pcs *p = &sh->cpu[cpu];
	unsigned node = sh->s->topo->cpu_node[cpu];

	op->stats = sh->s->stats;
	if (!sh->ready && init_percpu_sheaves(sh, cpu, op))
		goto to_slab;
	/* free_to_pcs() takes only objects of the CPU's own node */
	if (sl->node != node)
		goto to_slab;
	if (p->main->size == sh->capacity &&
	    replace_full_main(sh, p, &sh->node[node], cpu, op))
		goto to_slab;
	p->main->obj[p->main->size++] = sl;
	sh->parked++;
	ss_step(op, SS_STEP_FREE_CPU_SHEAF, 1);
	return;
to_slab:
	ss_kcache_free(sh->s, cpu, sl, op);
}
