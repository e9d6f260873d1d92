/* advise.c - `slabsim advise` from trace to advice (advise.h). */
#include "advise.h"

#include <stdlib.h>
#include <string.h>

#include "adv_gen.h"
#include "adv_out.h"
#include "adv_replay.h"
#include "adv_scan.h"
#include "atomic_file.h"
#include "kmalloc.h"

int ss_advise(const struct ss_advise_opts *o, struct ss_error *err)
{
	struct ss_run_setup rs = {0};
	struct adv_scan scan = {0};
	struct adv_props props = {0};
	struct ss_model_config cfg;
	struct adv_job *jobs = NULL;
	struct adv_result *res = NULL;
	int *replayed = NULL;
	unsigned nj = 0;
	int rc = -1;

	/* the baseline's model, target, costs, topology and configuration */
	if (ss_run_setup_load(&rs, &o->spec, err) || ss_run_setup_open(&rs, &o->spec, err) ||
	    adv_scan_trace(o->spec.trace, ss_kmalloc_max_cache_size(&rs.target), &scan, err))
		goto out;
	cfg = rs.cfg;
	cfg.tables = scan.tables; /* names every site the trace has */
	{
		struct adv_gen_in in = {
			.scan = &scan, .desc = rs.desc, .cfg = &cfg, .costs = &rs.costs,
			.max_proposals = o->max_proposals ? o->max_proposals : SS_ADVISE_MAX_PROPOSALS,
		};
		if (adv_generate(&in, &props, err))
			goto out;
	}
	jobs = calloc(props.nr + 1, sizeof(*jobs));
	res = calloc(props.nr + 1, sizeof(*res));
	replayed = calloc(props.nr + 1, sizeof(*replayed));
	if (!jobs || !res || !replayed) {
		ss_errorf(err, "out of memory");
		goto out;
	}
	jobs[nj++].ov = NULL; /* job 0: the baseline */
	for (unsigned i = 0; i < props.nr; i++)
		if (!props.p[i].needs)
			jobs[nj++].ov = &props.p[i].ov;
	if (ss_mkdirs(o->out, err) || adv_replay_all(&o->spec, jobs, nj, o->jobs, err))
		goto out;
	for (unsigned i = 0, j = 1; i < props.nr; i++)
		if (!props.p[i].needs) {
			res[i] = jobs[j++].res;
			replayed[i] = 1;
		}
	{
		struct adv_report r = {
			.opts = o, .target = &rs.target, .scan = &scan, .props = &props,
			.base = &jobs[0].res, .res = res, .replayed = replayed,
		};
		rc = adv_write_outputs(&r, err);
	}
out:
	free(jobs);
	free(res);
	free(replayed);
	adv_props_release(&props);
	adv_scan_release(&scan);
	ss_run_setup_close(&rs, NULL);
	return rc;
}
