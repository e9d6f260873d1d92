/* settle_rule.c - the end-of-run settling rule (settle_rule.h). */
#include "settle_rule.h"

#include <stdlib.h>
#include <string.h>

#include "sort.h"

/* meta untraced_frees "SITE=N SITE=N ...": a flag per trace name index. */
static int evidence_sites(struct ss_settle *s, const struct ss_trace_tables *tb,
			  struct ss_error *err)
{
	const char *v = ss_trace_meta(tb, "untraced_frees");
	char *copy, *save = NULL;

	s->nr_sites = tb->names.nr;
	s->site_ok = calloc(tb->names.nr ? tb->names.nr : 1, 1);
	if (!s->site_ok)
		return ss_errorf(err, "out of memory");
	if (!v)
		return 0;
	copy = strdup(v);
	if (!copy)
		return ss_errorf(err, "out of memory");
	for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strrchr(tok, '=');
		uint32_t i;

		if (eq)
			*eq = '\0';
		i = ss_strtab_find(&tb->names, tok);
		if (i != UINT32_MAX)
			s->site_ok[i] = 1;
	}
	free(copy);
	return 0;
}

int ss_settle_begin(struct ss_settle *s, const struct ss_model_desc *desc,
		    const struct ss_model *model, const struct ss_trace_tables *tables,
		    const struct ss_snap *after, struct ss_error *err)
{
	const struct ss_model_ops *ops = desc->ops;
	unsigned n = ops->nr_caches(model);

	memset(s, 0, sizeof(*s));
	s->nr_caches = n;
	s->excess = calloc(n ? n : 1, sizeof(*s->excess));
	if (!s->excess)
		return ss_errorf(err, "out of memory");
	if (evidence_sites(s, tables, err))
		return -1;
	for (unsigned c = 0; c < n; c++) {
		struct ss_cache_report r;
		const struct ss_snap_cache *k;

		ops->cache_report(model, c, &r);
		k = ss_snap_find(after, r.name);
		/* `objects` as SLUB counts them, both sides; both are below
		 * 2^62, so the difference is exact in int64 */
		if (k && r.total_objects - r.node_partial_free > k->objects)
			s->excess[c] = (int64_t)(r.total_objects - r.node_partial_free) -
				       (int64_t)k->objects;
	}
	return 0;
}

bool ss_settle_wants(const struct ss_settle *s, const struct ss_obj *o)
{
	return o->state == SS_OBJ_LIVE && o->cache < s->nr_caches && s->excess[o->cache] > 0 &&
	       o->site < s->nr_sites && s->site_ok[o->site];
}

int ss_settle_note(struct ss_settle *s, const struct ss_obj *o, struct ss_error *err)
{
	s->excess[o->cache]--;
	s->total++;
	for (size_t i = 0; i < s->nr; i++) {
		if (s->rows[i].cache == o->cache && s->rows[i].site == o->site) {
			s->rows[i].objects++;
			return 0;
		}
	}
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct ss_settled *r = realloc(s->rows, cap * sizeof(*r));

		if (!r)
			return ss_errorf(err, "out of memory");
		s->rows = r;
		s->cap = cap;
	}
	s->rows[s->nr++] = (struct ss_settled){o->cache, o->site, 1};
	return 0;
}

static int by_cache_site(const void *a, const void *b)
{
	const struct ss_settled *x = a, *y = b;

	if (x->cache != y->cache)
		return x->cache < y->cache ? -1 : 1;
	return x->site < y->site ? -1 : x->site > y->site;
}

void ss_settle_end(struct ss_settle *s)
{
	ss_sort(s->rows, s->nr, sizeof(*s->rows), by_cache_site);
	free(s->excess);
	free(s->site_ok);
	s->excess = NULL;
	s->site_ok = NULL;
	s->nr_caches = 0;
	s->nr_sites = 0;
}

void ss_settle_release(struct ss_settle *s)
{
	free(s->rows);
	free(s->excess);
	free(s->site_ok);
	memset(s, 0, sizeof(*s));
}
