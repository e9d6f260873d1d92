/* slab_reap.c - SLAB's cache_reap() on simulated time (slab.h).
 *
 * mm/slab.c: start_cpu_timer() schedules each CPU's reap work about a
 * second after boot (__round_jiffies_relative(HZ, cpu)), then every
 * REAPTIMEOUT_AC (2 * HZ; REAPTIMEOUT_CPUC in 2.6.16).  Each pass visits
 * every cache: reap_alien(), drain_array() of the CPU's array; every
 * REAPTIMEOUT_NODE (4 * HZ; REAPTIMEOUT_LIST3) per node also the shared
 * array and, unless free slabs were touched since, drain_freelist() of
 * (free_limit + 5 * num - 1) / (5 * num) free slabs.
 */
#include "slab.h"

#define NS_PER_S 1e9
#define REAP_FIRST_NS (1 * NS_PER_S)  /* HZ */
#define REAP_CPU_NS (2 * NS_PER_S)    /* REAPTIMEOUT_AC */
#define REAP_NODE_NS (4 * NS_PER_S)   /* REAPTIMEOUT_NODE */
/* round_jiffies()'s per-CPU skew: 3 jiffies per CPU, at HZ 250 */
#define REAP_SKEW_NS (3 * NS_PER_S / 250)

/* drain_array(): an untouched array gives back a fifth of its limit (at
 * most half of what it holds); a touched one is only marked untouched. */
static void drain_array(struct ss_mslab_cache *c, struct ss_mslab_array *a, unsigned cpu,
			struct ss_op *op)
{
	unsigned tofree;

	if (!a->avail)
		return;
	if (a->touched) {
		a->touched = false;
		return;
	}
	ss_step(op, SS_STEP_LIST_LOCK, 1);
	tofree = (a->limit + 4) / 5;
	if (tofree > a->avail)
		tofree = (a->avail + 1) / 2;
	ss_mslab_free_block(c, a->entry, tofree, cpu, op);
	ss_mslab_array_shift(a, tofree);
}

/* drain_freelist(): up to tofree slabs of slabs_free go, one lock each. */
static void drain_freelist(struct ss_mslab_cache *c, struct ss_mslab_node *n, unsigned long tofree,
			   unsigned cpu, struct ss_op *op)
{
	while (tofree-- && n->list[SS_MSLAB_FREE].tail) {
		struct ss_mslab_slab *sl = ss_list_entry(n->list[SS_MSLAB_FREE].tail, struct ss_mslab_slab, link);

		ss_step(op, SS_STEP_LIST_LOCK, 1);
		ss_list_del(&n->list[SS_MSLAB_FREE], &sl->link);
		n->free_objects -= c->geo.num;
		ss_step(op, SS_STEP_REAPED, 1);
		ss_mslab_slab_destroy(c, sl, cpu, op);
	}
}

/* reap_alien(): one other node's alien array per pass, round robin. */
static void reap_alien(struct ss_mslab_cache *c, struct ss_mslab_node *n, unsigned self,
		       unsigned cpu, struct ss_op *op)
{
	unsigned nodes = c->topo->nr_nodes;

	if (!n->alien)
		return;
	n->reap_node = (n->reap_node + 1) % nodes;
	if (n->reap_node == self)
		n->reap_node = (n->reap_node + 1) % nodes;
	ss_mslab_drain_alien(c, &n->alien[n->reap_node], n->reap_node, cpu, op);
}

static void reap_cache(struct ss_mslab_cache *c, unsigned cpu, double now_ns, struct ss_op *op)
{
	unsigned node = c->topo->cpu_node[cpu];
	struct ss_mslab_node *n = &c->node[node];

	op->stats = c->stats;
	ss_step(op, SS_STEP_CACHE_REAP, 1);
	reap_alien(c, n, node, cpu, op);
	drain_array(c, &c->ac[cpu], cpu, op);
	if (n->next_reap_ns < 0) {
		/* next_reap = jiffies + REAPTIMEOUT_NODE + (cachep % REAPTIMEOUT_NODE)
		 * at creation: the cache's address becomes its index here */
		n->next_reap_ns = now_ns + REAP_NODE_NS +
				  (double)((unsigned)c->index * 997u % 4000u) * 1e6;
		return;
	}
	if (now_ns < n->next_reap_ns)
		return;
	n->next_reap_ns = now_ns + REAP_NODE_NS;
	drain_array(c, &n->shared, cpu, op);
	if (n->free_touched)
		n->free_touched = false;
	else
		drain_freelist(c, n, (n->free_limit + 5ull * c->geo.num - 1) / (5ull * c->geo.num),
			       cpu, op);
}

double ss_mslab_cpu_timer(void *const *caches, unsigned nr, unsigned cpu,
		    double now_ns, bool first, struct ss_op *op)
{
	if (first)
		return now_ns + REAP_FIRST_NS + cpu * REAP_SKEW_NS;
	for (unsigned i = 0; i < nr; i++)
		reap_cache(caches[i], cpu, now_ns, op);
	return now_ns + REAP_CPU_NS;
}
