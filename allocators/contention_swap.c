/* contention_swap.c - the two out-of-line parts of contention_swap.h. */
#include "contention_swap.h"

#include <math.h>
#include <stdlib.h>

void ss_contention_floor(struct ss_contention *c)
{
	double min = c->clocks[0];

	c->until_floor = SS_FLOOR_EVERY;
	for (unsigned i = 1; i < c->nr_cpus; i++)
		if (c->clocks[i] < min)
			min = c->clocks[i];
	c->floor = min;
}

struct ss_swap_ring *ss_swap_ring_new(struct ss_resource *r, double at)
{
	struct ss_swap_ring *g = malloc(sizeof(*g));

	if (!g)
		return NULL;
	for (unsigned i = 0; i < SS_SWAP_RING; i++)
		g->from[i] = -INFINITY;
	g->head = 0;
	g->latest = at;
	r->hist = (struct ss_res_hist *)(void *)g;
	return g;
}
