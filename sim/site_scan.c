/* site_scan.c - sizes per allocation site (site_scan.h). */
#include "site_scan.h"

#include <stdlib.h>
#include <string.h>

static int grow(struct ss_site_sizes *s, uint32_t idx)
{
	uint32_t nr = s->nr ? s->nr : 64;
	uint64_t *mn, *mx;
	uint32_t *api;

	while (nr <= idx)
		nr *= 2;
	mn = realloc(s->min, nr * sizeof(*mn));
	if (mn)
		s->min = mn;
	mx = realloc(s->max, nr * sizeof(*mx));
	if (mx)
		s->max = mx;
	api = realloc(s->api, nr * sizeof(*api));
	if (api)
		s->api = api;
	if (!mn || !mx || !api)
		return -1;
	for (uint32_t i = s->nr; i < nr; i++) {
		s->min[i] = UINT64_MAX; /* min > max: not seen */
		s->max[i] = 0;
		s->api[i] = 0;
	}
	s->nr = nr;
	return 0;
}

int ss_site_sizes_note(struct ss_site_sizes *s, const struct ss_event *ev)
{
	if (ev->kind != SS_EV_ALLOC)
		return 0;
	if (ev->site >= s->nr && grow(s, ev->site))
		return -1;
	if (s->min[ev->site] > s->max[ev->site])
		s->api[ev->site] = ev->api;
	if (ev->value < s->min[ev->site])
		s->min[ev->site] = ev->value;
	if (ev->value > s->max[ev->site])
		s->max[ev->site] = ev->value;
	return 0;
}

void ss_site_sizes_release(struct ss_site_sizes *s)
{
	free(s->min);
	free(s->max);
	free(s->api);
	memset(s, 0, sizeof(*s));
}
