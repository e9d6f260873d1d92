/* slab.h - SLAB, the allocator of mm/slab.c (2.6.16 .. 6.7), as a
 * backend (backend.h): a cache, its slabs on three node lists, the
 * per-CPU array_cache, the node's shared array and alien arrays.
 *
 * Objects are counted, not placed: an array entry is the slab its object
 * lives in.  slab.c holds the allocation and free paths, slab_reap.c
 * cache_reap(); the layout is slab_geometry.c's.
 */
#ifndef SS_MSLAB_H
#define SS_MSLAB_H

#include "backend.h"
#include "list.h"
#include "slab_geometry.h"

enum ss_mslab_where { SS_MSLAB_FULL, MS_PARTIAL, SS_MSLAB_FREE, MS_NR_LISTS };

struct ss_mslab_slab {		/* struct slab (≤ 3.12) / struct page (3.13+) */
	struct ss_link link;	/* on the node list `where` names */
	uint32_t inuse;		/* slabp->inuse / page->active */
	uint16_t node;
	uint8_t where;		/* enum ms_where */
	struct ss_iobj mgmt;	/* off-slab management, if any */
};

struct ss_mslab_array {		/* struct array_cache */
	uint32_t avail, limit, batchcount;
	bool touched;
	struct ss_mslab_slab **entry;
};

struct ss_mslab_node {		/* struct kmem_list3 / kmem_cache_node */
	struct ss_list list[MS_NR_LISTS]; /* slabs_full, _partial, _free */
	uint64_t free_objects;	/* free objects on the node's slabs */
	uint64_t free_limit;	/* (1 + CPUs of the node) * batchcount + num */
	struct ss_mslab_array shared;	/* limit 0: no shared array */
	struct ss_mslab_array *alien;	/* per other node; NULL on one node */
	bool free_touched;
	double next_reap_ns;	/* REAPTIMEOUT_NODE timer; < 0 not started */
	unsigned reap_node;	/* reap_alien()'s round robin */
};

struct ss_mslab_cache {
	char name[64];
	struct ss_cache_spec spec;
	struct ss_mslab_geo geo;
	const struct ss_target *t;
	const struct ss_topology *topo;
	struct ss_backend_env env;
	int index;
	struct ss_mslab_array *ac;	/* per CPU */
	struct ss_mslab_node *node;
	uint64_t live;		/* objects handed out */
	uint64_t nr_slabs, total_objects, slab_bytes, peak_slab_bytes;
	uint64_t stats[SS_NR_STEPS];
};

/* free_block(): nr objects (their slabs) back to their slabs on node
 * `node`; empty slabs beyond free_limit are destroyed. */
void ss_mslab_free_block(struct ss_mslab_cache *c, struct ss_mslab_slab **objs, unsigned nr,
		   unsigned cpu, struct ss_op *op);
/* transfer_objects(): up to max entries from the end of `from`. */
unsigned ss_mslab_transfer(struct ss_mslab_array *to, struct ss_mslab_array *from, unsigned max,
		     struct ss_op *op);
/* Drop the first nr entries of a (after they went elsewhere). */
void ss_mslab_array_shift(struct ss_mslab_array *a, unsigned nr);
/* slab_destroy(): the slab's pages and management go. */
void ss_mslab_slab_destroy(struct ss_mslab_cache *c, struct ss_mslab_slab *sl, unsigned cpu,
		     struct ss_op *op);
/* __drain_alien_cache(): an alien array's objects to their node. */
void ss_mslab_drain_alien(struct ss_mslab_cache *c, struct ss_mslab_array *a, unsigned node,
		    unsigned cpu, struct ss_op *op);

/* slab_reap.c: cache_reap() of every cache on cpu (backend cpu_timer). */
double ss_mslab_cpu_timer(void *const *caches, unsigned nr, unsigned cpu,
		    double now_ns, bool first, struct ss_op *op);

#endif
