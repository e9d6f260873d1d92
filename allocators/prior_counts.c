/* prior_counts.c - frees per kernel slab of a trace's prior frees
 * (prior_counts.h): open addressing over (cache, class, flags, slab). */
#include "prior_counts.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "slab_vector.h"

static uint64_t hash_of(uint64_t slab, uint64_t value, uint32_t api, uint32_t gfp)
{
	uint64_t x = slab * 0x9e3779b97f4a7c15ull ^ value * 0xc2b2ae3d27d4eb4full ^
		     ((uint64_t)api << 8 | gfp) * 0x165667b19e3779f9ull;

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 29);
}

/* The slot of ev's kernel slab: its entry, or the empty slot it goes to. */
static struct ss_prior_count *slot(const struct ss_prior_counts *pc, const struct ss_event *ev)
{
	uint64_t value = ev->api == SS_API_KMALLOC ? ev->value : 0;

	for (uint64_t i = hash_of(ev->id, value, ev->api, ev->gfp) & (pc->cap - 1);;
	     i = (i + 1) & (pc->cap - 1)) {
		struct ss_prior_count *e = &pc->e[i];

		if (!e->slab || (e->slab == ev->id && e->value == value && e->api == ev->api &&
				 e->gfp == ev->gfp))
			return e;
	}
}

static int grow(struct ss_prior_counts *pc)
{
	struct ss_prior_counts bigger = {.cap = pc->cap ? 2 * pc->cap : 1024};

	bigger.e = calloc(bigger.cap, sizeof(*bigger.e));
	if (!bigger.e)
		return -1;
	for (uint64_t i = 0; i < pc->cap; i++) {
		struct ss_prior_count *e = &pc->e[i];
		struct ss_event ev = {.id = e->slab, .value = e->value, .api = e->api, .gfp = e->gfp};

		if (e->slab)
			*slot(&bigger, &ev) = *e;
	}
	free(pc->e);
	pc->e = bigger.e;
	pc->cap = bigger.cap; /* (the scan's state stays) */
	return 0;
}

int ss_prior_counts_add(struct ss_prior_counts *pc, const struct ss_event *ev)
{
	struct ss_prior_count *e;

	if (ev->kind != SS_EV_FREE_PRIOR || !ev->id)
		return 0;
	if ((pc->nr + 1) * 2 > pc->cap && grow(pc)) /* load under one half */
		return -1;
	e = slot(pc, ev);
	if (!e->slab) {
		*e = (struct ss_prior_count){.slab = ev->id, .api = ev->api, .gfp = ev->gfp,
					     .value = ev->api == SS_API_KMALLOC ? ev->value : 0};
		pc->nr++;
	}
	e->n++;
	return 0;
}

static const struct ss_prior_count *find(const struct ss_prior_counts *pc,
					  const struct ss_event *ev)
{
	const struct ss_prior_count *e;

	if (!pc || !pc->cap || ev->kind != SS_EV_FREE_PRIOR || !ev->id)
		return NULL;
	e = slot(pc, ev);
	return e->slab ? e : NULL;
}

uint32_t ss_prior_counts_get(const struct ss_prior_counts *pc, const struct ss_event *ev)
{
	const struct ss_prior_count *e = find(pc, ev);

	return e ? e->n : 0;
}

uint32_t ss_prior_counts_dead(const struct ss_prior_counts *pc, const struct ss_event *ev)
{
	const struct ss_prior_count *e = find(pc, ev);

	return e ? e->dead : 0;
}

uint32_t ss_prior_counts_held(const struct ss_prior_counts *pc, const struct ss_event *ev)
{
	const struct ss_prior_count *e = find(pc, ev);

	/* not seen freed: K outlived its prior frees, an object left */
	return e ? e->n + !e->dead : 0;
}

/* CPU cpu's last event, the table grown to it; NULL when out of memory. */
static struct ss_event *last_of(struct ss_prior_counts *pc, unsigned cpu)
{
	if (cpu >= pc->nr_last &&
	    ss_grow_zeroed((void **)&pc->last, &pc->nr_last, cpu, sizeof(*pc->last), 16))
		return NULL;
	return &pc->last[cpu];
}

int ss_prior_counts_note(struct ss_prior_counts *pc, const struct ss_event *ev,
			 const char *site)
{
	struct ss_event *last;

	if (ev->kind == SS_EV_PHASE)
		return 0; /* (no CPU of its own) */
	if (!(last = last_of(pc, ev->cpu)))
		return -1;
	if (ev->kind == SS_EV_FREE_PRIOR && ev->api == SS_API_KMALLOC && last->id &&
	    ss_site_frees_slab_vector(site)) {
		struct ss_prior_count *e = slot(pc, last);

		if (e->slab && !e->dead) {
			e->dead = e->n;
			pc->deaths++;
		}
		last->id = 0; /* the vector's free: the next one is not K's */
		return ss_prior_counts_add(pc, ev);
	}
	if (ss_prior_counts_add(pc, ev))
		return -1;
	*last = *ev;
	if (ev->kind != SS_EV_FREE_PRIOR)
		last->id = 0;
	return 0;
}

int ss_prior_counts_scan(const char *path, struct ss_prior_counts *pc, struct ss_error *err)
{
	struct ss_trace_reader *r;
	struct ss_event ev;
	int rc;

	if (ss_trace_open(&r, path, err))
		return -1;
	while ((rc = ss_trace_next(r, &ev, err)) == 1)
		if (ss_prior_counts_note(pc, &ev, ev.kind == SS_EV_FREE_PRIOR ?
					 ss_trace_name(ss_trace_tables(r), ev.site) : NULL)) {
			rc = ss_errorf(err, "out of memory");
			break;
		}
	ss_trace_close(r);
	return rc < 0 ? -1 : 0;
}

void ss_prior_counts_release(struct ss_prior_counts *pc)
{
	free(pc->e);
	free(pc->last);
	memset(pc, 0, sizeof(*pc));
}
