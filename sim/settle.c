/* settle.c - the end-of-run settling rule (settle.h). */
#include "settle.h"

#include <stdlib.h>
#include <string.h>

#include "sort.h"

/* meta untraced_frees "SITE=N SITE=N ...": a flag per trace name index. */
static int evidence_sites(const struct ss_trace_tables *tb, uint8_t **flag,
			  struct ss_error *err)
{
	const char *v = ss_trace_meta(tb, "untraced_frees");
	char *copy, *save = NULL;

	*flag = calloc(tb->names.nr ? tb->names.nr : 1, 1);
	if (!*flag)
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
			(*flag)[i] = 1;
	}
	free(copy);
	return 0;
}

static int note(struct ss_settle *s, uint32_t cache, uint32_t site)
{
	for (size_t i = 0; i < s->nr; i++) {
		if (s->rows[i].cache == cache && s->rows[i].site == site) {
			s->rows[i].objects++;
			return 0;
		}
	}
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct ss_settled *r = realloc(s->rows, cap * sizeof(*r));

		if (!r)
			return -1;
		s->rows = r;
		s->cap = cap;
	}
	s->rows[s->nr++] = (struct ss_settled){cache, site, 1};
	return 0;
}

static int by_cache_site(const void *a, const void *b)
{
	const struct ss_settled *x = a, *y = b;

	if (x->cache != y->cache)
		return x->cache < y->cache ? -1 : 1;
	return x->site < y->site ? -1 : x->site > y->site;
}

int ss_settle_run(struct ss_run *run, const struct ss_snap *after,
		  struct ss_settle *out, struct ss_error *err)
{
	const struct ss_model_ops *ops = run->desc->ops;
	unsigned n = ops->nr_caches(run->model);
	int64_t *excess = calloc(n ? n : 1, sizeof(*excess));
	uint8_t *site_ok = NULL;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!excess) {
		ss_errorf(err, "out of memory");
		goto done;
	}
	if (evidence_sites(run->tables, &site_ok, err))
		goto done;
	for (unsigned c = 0; c < n; c++) {
		struct ss_cache_report r;
		const struct ss_snap_cache *k;

		ops->cache_report(run->model, c, &r);
		k = ss_snap_find(after, r.name);
		/* `objects` as SLUB counts them, both sides; both are below
		 * 2^62, so the difference is exact in int64 */
		if (k && r.total_objects - r.node_partial_free > k->objects)
			excess[c] = (int64_t)(r.total_objects - r.node_partial_free) -
				    (int64_t)k->objects;
	}
	for (uint64_t id = 0; id < run->objs.nr; id++) {
		struct ss_obj *o = &run->objs.objs[id];
		struct ss_op op;

		if (o->state != SS_OBJ_LIVE || o->cache >= n || excess[o->cache] <= 0 ||
		    o->site >= run->tables->names.nr || !site_ok[o->site])
			continue;
		ss_op_init(&op, run->costs->cycles);
		if (note(out, o->cache, o->site)) {
			ss_errorf(err, "out of memory");
			goto done;
		}
		ops->free(run->model, o->cpu, o, &op);
		/* the memory total and sites.csv's counts follow (account.h) */
		if (ss_memcap_note(&run->mem, run->desc, run->model, o, &op) ||
		    ss_account_free(&run->acct, &run->mem, o, o->cpu, run->events)) {
			ss_errorf(err, "out of memory");
			goto done;
		}
		o->freed = o->state;
		o->free_cpu = o->cpu;
		o->state = SS_OBJ_FREE;
		o->slab = NULL;
		run->objs.live--;
		excess[o->cache]--;
		out->total++;
	}
	ss_sort(out->rows, out->nr, sizeof(*out->rows), by_cache_site);
	rc = 0;
done:
	free(excess);
	free(site_ok);
	return rc;
}

void ss_settle_csv(FILE *fp, const struct ss_run *run, const struct ss_settle *s)
{
	fprintf(fp, "cache,site,objects\n");
	for (size_t i = 0; i < s->nr; i++) {
		struct ss_cache_report r;

		run->desc->ops->cache_report(run->model, s->rows[i].cache, &r);
		fprintf(fp, "%s,%s,%llu\n", r.name, ss_trace_name(run->tables, s->rows[i].site),
			(unsigned long long)s->rows[i].objects);
	}
}

void ss_settle_release(struct ss_settle *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}
