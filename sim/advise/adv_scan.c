/* adv_scan.c - the advisor's pass over the trace (adv_scan.h). */
#include "adv_scan.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

static int grow_sites(struct ss_advise_scan *s, uint32_t idx)
{
	return ss_grow_zeroed((void **)&s->site, &s->nr_site, idx, sizeof(*s->site), 64);
}

static int grow_objs(struct ss_advise_scan *s, uint64_t id)
{
	uint64_t nr = s->nr_obj ? s->nr_obj : 1024;
	struct ss_advise_obj *p;

	while (nr <= id)
		nr *= 2;
	p = realloc(s->obj, nr * sizeof(*p));
	if (!p)
		return -1;
	memset(p + s->nr_obj, 0, (nr - s->nr_obj) * sizeof(*p));
	s->obj = p;
	s->nr_obj = nr;
	return 0;
}

/* A kmalloc object of size bytes appears (+1) or goes (-1). */
static void count_size(struct ss_advise_scan *s, uint64_t size, uint32_t site, int dir)
{
	if (!size || size > s->max_size)
		return;
	if (dir > 0) {
		if (++s->size_live[size] > s->size_peak[size])
			s->size_peak[size] = s->size_live[size];
		if (s->size_site[size] == UINT32_MAX)
			s->size_site[size] = site;
	} else {
		s->size_live[size]--;
	}
}

static int on_alloc(struct ss_advise_scan *s, const struct ss_event *ev)
{
	struct ss_advise_site *st;
	struct ss_advise_obj *o;

	if (ev->site >= s->nr_site && grow_sites(s, ev->site))
		return -1;
	if (ev->id >= s->nr_obj && grow_objs(s, ev->id))
		return -1;
	o = &s->obj[ev->id];
	if (o->size) /* the replay refuses this trace: say nothing here */
		return 0;
	st = &s->site[ev->site];
	if (!st->allocs) {
		st->api = ev->api;
		st->min = ev->value;
	}
	st->mixed_api |= st->api != ev->api;
	st->allocs++;
	if (ev->value < st->min)
		st->min = ev->value;
	if (ev->value > st->max)
		st->max = ev->value;
	if (++st->live > st->peak_live)
		st->peak_live = st->live;
	o->size = ev->value + 1;
	o->site = ev->site;
	o->api = ev->api;
	if (ev->api == SS_API_KMALLOC)
		count_size(s, ev->value, ev->site, 1);
	s->allocs++;
	return 0;
}

static void on_free(struct ss_advise_scan *s, const struct ss_event *ev)
{
	struct ss_advise_obj *o = ev->id < s->nr_obj ? &s->obj[ev->id] : NULL;

	if (!o || !o->size) /* the replay names a bad free */
		return;
	s->site[o->site].live--;
	if (o->api == SS_API_KMALLOC)
		count_size(s, o->size - 1, o->site, -1);
	o->size = 0;
}

int ss_advise_scan_trace(const char *path, unsigned max_size, struct ss_advise_scan *s,
		   struct ss_error *err)
{
	struct ss_event ev;
	const char *wl;
	int rc;

	memset(s, 0, sizeof(*s));
	s->max_size = max_size;
	s->size_live = calloc((size_t)max_size + 1, sizeof(*s->size_live));
	s->size_peak = calloc((size_t)max_size + 1, sizeof(*s->size_peak));
	s->size_site = malloc(((size_t)max_size + 1) * sizeof(*s->size_site));
	if (!s->size_live || !s->size_peak || !s->size_site) {
		ss_advise_scan_release(s);
		return ss_errorf(err, "out of memory");
	}
	memset(s->size_site, 0xff, ((size_t)max_size + 1) * sizeof(*s->size_site));
	if (ss_trace_open(&s->reader, path, err)) {
		ss_advise_scan_release(s);
		return -1;
	}
	while ((rc = ss_trace_next(s->reader, &ev, err)) == 1) {
		s->events++;
		if (ev.kind == SS_EV_ALLOC && on_alloc(s, &ev)) {
			rc = ss_errorf(err, "out of memory");
			break;
		}
		if (ev.kind == SS_EV_FREE)
			on_free(s, &ev);
	}
	if (rc < 0) {
		ss_advise_scan_release(s);
		return -1;
	}
	s->tables = ss_trace_tables(s->reader);
	wl = ss_trace_meta(s->tables, "workload");
	s->imported = wl && !strcmp(wl, "import");
	free(s->obj); /* only the counts stay */
	s->obj = NULL;
	s->nr_obj = 0;
	return 0;
}

void ss_advise_scan_release(struct ss_advise_scan *s)
{
	ss_trace_close(s->reader);
	free(s->site);
	free(s->size_live);
	free(s->size_peak);
	free(s->size_site);
	free(s->obj);
	memset(s, 0, sizeof(*s));
}
