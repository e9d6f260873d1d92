/* advise.c - `slabsim advise` from trace to advice (advise.h). */
#include "advise.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adv_gen.h"
#include "adv_out.h"
#include "adv_replay.h"
#include "adv_scan.h"
#include "atomic_file.h"
#include "kmalloc.h"

/* The target the trace says its sizes are for (`meta target`), which
 * --target overrides: generators and `slabsim import` write it. */
static int trace_target(const char *path, char *buf, size_t n, struct ss_error *err)
{
	struct ss_trace_reader *r;
	struct ss_event ev;
	const char *t;
	int rc;

	if (ss_trace_open(&r, path, err))
		return -1;
	rc = ss_trace_next(r, &ev, err); /* the header's meta lines come first */
	t = rc >= 0 ? ss_trace_meta(ss_trace_tables(r), "target") : NULL;
	if (t)
		snprintf(buf, n, "%s", t);
	ss_trace_close(r);
	if (rc < 0)
		return -1;
	if (!t)
		return ss_errorf(err, "%s: the trace names no target (no 'meta target'): give --target",
				 path);
	return 0;
}

/* The baseline's kernel options with one more (a later item wins:
 * ss_kconfig_apply_list()). */
static char *with_option(const char *base, const char *item, struct ss_error *err)
{
	size_t n = (base ? strlen(base) + 1 : 0) + strlen(item) + 1;
	char *s = malloc(n);

	if (!s) {
		ss_errorf(err, "out of memory");
		return NULL;
	}
	snprintf(s, n, "%s%s%s", base ? base : "", base ? "," : "", item);
	return s;
}

int ss_advise(const struct ss_advise_opts *opts, struct ss_error *err)
{
	struct ss_advise_opts with_target = *opts, *o = &with_target;
	char target[256];
	struct ss_run_setup rs = {0};
	struct ss_advise_scan scan = {0};
	struct ss_advise_props props = {0};
	struct ss_model_config cfg;
	struct ss_advise_job *jobs = NULL;
	struct ss_advise_result *res = NULL;
	int *replayed = NULL;
	char **configs = NULL; /* the jobs' --config lists */
	unsigned nj = 0, nconfig = 0;
	int rc = -1;

	if (!o->spec.target) {
		if (trace_target(o->spec.trace, target, sizeof(target), err))
			return -1;
		o->spec.target = target;
	}
	/* the baseline's model, target, costs, topology and configuration */
	if (ss_run_setup_load(&rs, &o->spec, err) || ss_run_setup_open(&rs, &o->spec, err) ||
	    ss_advise_scan_trace(o->spec.trace, ss_kmalloc_max_cache_size(&rs.target), &scan, err))
		goto out;
	cfg = rs.cfg;
	cfg.tables = scan.tables; /* names every site the trace has */
	{
		struct ss_advise_gen_in in = {
			.scan = &scan, .desc = rs.desc, .cfg = &cfg, .costs = &rs.costs,
			.max_proposals = o->max_proposals ? o->max_proposals : SS_ADVISE_MAX_PROPOSALS,
		};
		if (ss_advise_generate(&in, &props, err))
			goto out;
	}
	jobs = calloc(props.nr + 1, sizeof(*jobs));
	res = calloc(props.nr + 1, sizeof(*res));
	replayed = calloc(props.nr + 1, sizeof(*replayed));
	configs = calloc(props.nr + 1, sizeof(*configs));
	if (!jobs || !res || !replayed || !configs) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	jobs[nj++].ov = NULL; /* job 0: the baseline */
	for (unsigned i = 0; i < props.nr; i++)
		if (!props.p[i].needs) {
			jobs[nj].ov = &props.p[i].ov;
			if (props.p[i].config[0] &&
			    !(jobs[nj].config = configs[nconfig++] =
				  with_option(o->spec.config, props.p[i].config, err)))
				goto out;
			nj++;
		}
	if (ss_mkdirs(o->out, err) || ss_advise_replay_all(&o->spec, jobs, nj, o->jobs, err))
		goto out;
	for (unsigned i = 0, j = 1; i < props.nr; i++)
		if (!props.p[i].needs) {
			res[i] = jobs[j++].res;
			replayed[i] = 1;
		}
	{
		struct ss_advise_report r = {
			.opts = o, .target = &rs.target, .cpus_from = rs.cpus_from, .scan = &scan, .props = &props,
			.base = &jobs[0].res, .res = res, .replayed = replayed,
		};
		rc = ss_advise_write_outputs(&r, err);
	}
out:
	for (unsigned i = 0; i < nconfig; i++)
		free(configs[i]);
	free(configs);
	free(jobs);
	free(res);
	free(replayed);
	ss_advise_props_release(&props);
	ss_advise_scan_release(&scan);
	ss_run_setup_close(&rs, NULL);
	return rc;
}
