/* settle.c - the settling rule applied to a run (settle.h). */
#include "settle.h"

int ss_settle_run(struct ss_run *run, const struct ss_snap *after,
		  struct ss_settle *out, struct ss_error *err)
{
	if (ss_settle_begin(out, run->desc, run->model, run->tables, after, err))
		goto fail;
	for (uint64_t id = 0; id < run->books.objs.nr; id++) {
		struct ss_obj *o = &run->books.objs.objs[id];
		struct ss_op op;

		if (!ss_settle_wants(out, o))
			continue;
		if (ss_settle_note(out, o, err))
			goto fail;
		ss_op_init(&op, run->costs->cycles);
		run->desc->ops->free(run->model, o->cpu, o, &op);
		/* the memory total and sites.csv's counts follow (account.h) */
		if (ss_memcap_note(&run->books.mem, run->desc, run->model, o, &op) ||
		    ss_account_free(&run->books.acct, &run->books.mem, o, o->cpu, run->books.events)) {
			ss_errorf(err, "out of memory");
			goto fail;
		}
		o->freed = o->state;
		o->free_cpu = o->cpu;
		o->state = SS_OBJ_FREE;
		o->slab = NULL;
		run->books.objs.live--;
	}
	ss_settle_end(out);
	return 0;
fail:
	ss_settle_release(out);
	return -1;
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
