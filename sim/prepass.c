/* prepass.c - what a pass's runs learn from the trace before the replay
 * (prepass.h). */
#include "prepass.h"

#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "site_scan.h"

/* The trace's meta `key`, when it has it, a NAME=COUNT list (the import
 * writes them before the events; results.c and settle.c read them): 0, or
 * -1 with err naming the trace and the first bad entry. */
static int counts_ok(const struct ss_trace_tables *tb, const char *path, const char *key,
		     struct ss_error *err)
{
	const char *v = ss_trace_meta(tb, key), *bad;
	size_t len;

	if (!v || !(bad = ss_parse_counts_bad(v, &len)))
		return 0;
	return ss_errorf(err, "%s: meta %s: '%.*s' is not NAME=COUNT", path, key,
			 len > 80 ? 80 : (int)len, bad);
}

/* Meta cpus, when tb has it. */
static int take_cpus(struct ss_prepass *p, const struct ss_trace_tables *tb,
		     struct ss_error *err)
{
	const char *v = ss_trace_meta(tb, "cpus");
	uint64_t n;

	if (!v)
		return 0;
	if (ss_parse_u64(v, 65536, &n) || !n)
		return ss_errorf(err, "%s: meta cpus '%s' is not a CPU count (1-65536)",
				 p->src.name, v);
	p->cpus = (unsigned)n;
	return 0;
}

/* Meta slab_vectors, when tb has it (-1: not said). */
static int take_vectors(struct ss_prepass *p, const struct ss_trace_tables *tb,
			struct ss_error *err)
{
	const char *v = ss_trace_meta(tb, "slab_vectors");
	uint64_t n;

	p->slab_vectors = -1;
	if (!v)
		return 0;
	if (ss_parse_u64(v, INT64_MAX, &n))
		return ss_errorf(err, "%s: meta slab_vectors '%s' is not a count", p->src.name, v);
	p->slab_vectors = (int64_t)n;
	return 0;
}

static int dup_meta(const struct ss_trace_tables *tb, const char *key, char **out,
		    struct ss_error *err)
{
	const char *v = ss_trace_meta(tb, key);

	if (v && !(*out = strdup(v)))
		return ss_errorf(err, "out of memory");
	return 0;
}

/* What the trace says of itself before its first event: `meta workload`,
 * `meta cpus` and its NAME=COUNT lists (checked), `meta cpu_slab_free`,
 * `meta slab_fill` and `meta slab_vectors` (the import writes them before
 * the events, for the initial state and the model). */
static int take_header(struct ss_prepass *p, const struct ss_trace_tables *tb,
		       struct ss_error *err)
{
	const char *wl = ss_trace_meta(tb, "workload");

	p->imported = wl && !strcmp(wl, "import");
	if (take_cpus(p, tb, err) || take_vectors(p, tb, err) ||
	    counts_ok(tb, p->src.name, "untraced_allocs", err) ||
	    counts_ok(tb, p->src.name, "untraced_frees", err) ||
	    dup_meta(tb, "cpu_slab_free", &p->cpu_slab_free, err) ||
	    dup_meta(tb, "slab_fill", &p->slab_fill, err))
		return -1;
	return 0;
}

/* Every event of r, for what the needs ask. */
static int read_through(struct ss_prepass *p, const struct ss_prepass_needs *needs,
			struct ss_trace_reader *r, struct ss_error *err)
{
	struct ss_event ev[512];
	int n;

	p->have_sites = needs->site_sizes;
	p->have_prior_counts = needs->prior_counts;
	while ((n = ss_trace_next_batch(r, ev, 512, err)) > 0) {
		const struct ss_trace_tables *tb = ss_trace_tables(r);

		for (int i = 0; i < n; i++)
			if ((needs->site_sizes && ss_site_sizes_note(&p->sites, &ev[i])) ||
			    (needs->prior_counts &&
			     ss_prior_counts_take(&p->prior_counts, &ev[i], tb)))
				return ss_errorf(err, "out of memory");
	}
	if (n < 0)
		return -1;
	if (needs->prior_counts && ss_prior_counts_end(&p->prior_counts, ss_trace_tables(r)))
		return ss_errorf(err, "out of memory");
	return 0;
}

int ss_prepass_open(struct ss_prepass *p, const char *path,
		    const struct ss_prepass_needs *needs, struct ss_error *err)
{
	bool late_cpus;

	memset(p, 0, sizeof(*p));
	if (ss_trace_source_open(&p->src, path, err))
		return -1;
	if (ss_trace_source_reader(&p->src, &p->reader, err) ||
	    ss_trace_header(p->reader, err) < 0 || take_header(p, ss_trace_tables(p->reader), err))
		goto fail;
	/* an imported trace may state its CPUs only at the end (slabsim
	 * import before it knew them up front) */
	late_cpus = p->imported && !p->cpus;
	if (!needs->site_sizes && !needs->prior_counts && !late_cpus) {
		ss_trace_source_last(&p->src, p->reader);
		return 0;
	}
	p->read_through = true;
	if (read_through(p, needs, p->reader, err) ||
	    (late_cpus && take_cpus(p, ss_trace_tables(p->reader), err)))
		goto fail;
	ss_trace_close(p->reader);
	p->reader = NULL;
	if (ss_trace_source_reader(&p->src, &p->reader, err))
		goto fail;
	ss_trace_source_last(&p->src, p->reader);
	return 0;
fail:
	ss_prepass_close(p);
	return -1;
}

void ss_prepass_close(struct ss_prepass *p)
{
	ss_trace_close(p->reader);
	p->reader = NULL;
	ss_trace_source_close(&p->src);
	free(p->cpu_slab_free);
	free(p->slab_fill);
	p->cpu_slab_free = p->slab_fill = NULL;
	ss_site_sizes_release(&p->sites);
	ss_prior_counts_release(&p->prior_counts);
}
