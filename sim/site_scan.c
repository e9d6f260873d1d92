/* site_scan.c - sizes per allocation site. */
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

int ss_site_scan(const char *trace_path, struct ss_site_sizes *out,
		 struct ss_error *err)
{
	struct ss_trace_reader *r;
	struct ss_event ev;
	int rc;

	memset(out, 0, sizeof(*out));
	if (ss_trace_open(&r, trace_path, err))
		return -1;
	while ((rc = ss_trace_next(r, &ev, err)) == 1) {
		if (ev.kind != SS_EV_ALLOC)
			continue;
		if (ev.site >= out->nr && grow(out, ev.site)) {
			rc = ss_errorf(err, "out of memory");
			break;
		}
		if (out->min[ev.site] > out->max[ev.site])
			out->api[ev.site] = ev.api;
		if (ev.value < out->min[ev.site])
			out->min[ev.site] = ev.value;
		if (ev.value > out->max[ev.site])
			out->max[ev.site] = ev.value;
	}
	ss_trace_close(r);
	if (rc < 0)
		ss_site_sizes_release(out);
	return rc < 0 ? -1 : 0;
}

void ss_site_sizes_release(struct ss_site_sizes *s)
{
	free(s->min);
	free(s->max);
	free(s->api);
	memset(s, 0, sizeof(*s));
}
