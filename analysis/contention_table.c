/* contention_table.c - locks.csv and the contention table
 * (contention_table.h). */
#include "contention_table.h"

#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "md_table.h"

int ss_report_load_locks(const char *path, struct ss_report_run *run, struct ss_error *err)
{
	static const char *const cols[] = {"uses", "waits", "retries", "wait_ms", "hold_ms"};
	unsigned icache, ires, idx[5];
	struct ss_csv c;
	int r;

	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	r = ss_csv_need(&c, "cache", &icache, err) || ss_csv_need(&c, "resource", &ires, err);
	for (unsigned i = 0; !r && i < 5; i++)
		r = ss_csv_need(&c, cols[i], &idx[i], err);
	if (r) {
		ss_csv_close(&c);
		return -1;
	}
	while ((r = ss_csv_next(&c, err)) == 1) {
		struct ss_report_lock *l = realloc(run->locks, (run->nlocks + 1) * sizeof(*l));
		double *v;

		if (!l) {
			r = ss_errorf(err, "out of memory");
			break;
		}
		run->locks = l;
		l += run->nlocks;
		snprintf(l->name, sizeof(l->name), "%.*s %.*s", SS_REPORT_NAME_MAX,
			 ss_csv_get(&c, icache), SS_REPORT_NAME_MAX, ss_csv_get(&c, ires));
		v = &l->uses;
		for (unsigned i = 0; i < 5 && r == 1; i++)
			if (ss_csv_num(&c, idx[i], &v[i], err))
				r = -1;
			else if (v[i] < 0)
				r = ss_error_at(err, path, c.line, "column '%s': negative value %s",
						cols[i], ss_csv_get(&c, idx[i]));
		if (r != 1)
			break;
		run->nlocks++;
	}
	ss_csv_close(&c);
	return r;
}

/* The index of the lock run waited for most, not among the `skip` first
 * of `taken`; -1 when none waited. */
static long most_waited(const struct ss_report_run *run, const long *taken,
			unsigned skip)
{
	long best = -1;

	for (size_t i = 0; i < run->nlocks; i++) {
		bool seen = false;

		for (unsigned k = 0; k < skip; k++)
			seen |= taken[k] == (long)i;
		if (seen || run->locks[i].wait_ms <= 0)
			continue;
		if (best < 0 || run->locks[i].wait_ms > run->locks[best].wait_ms)
			best = (long)i;
	}
	return best;
}

#define TOP 2

static void where_cell(struct ss_md_table *t, const struct ss_report_run *run)
{
	long top[TOP];
	char buf[256];
	size_t at = 0;
	unsigned n = 0;

	for (; n < TOP && (top[n] = most_waited(run, top, n)) >= 0; n++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%s %.3f",
				       n ? ", " : "", run->locks[top[n]].name,
				       run->locks[top[n]].wait_ms);
	if (n)
		ss_mdtable_cell(t, "%s", buf);
	else
		ss_mdtable_cell(t, "%s", run->nlocks ? "none" : "n/a");
}

static void num_cell(struct ss_md_table *t, double v, const char *fmt)
{
	if (v < 0)
		ss_mdtable_cell(t, "n/a");
	else
		ss_mdtable_cell(t, fmt, v);
}

int ss_report_contention_table(FILE *fp, const struct ss_report_results *res)
{
	struct ss_md_table t;
	bool multi = false;

	ss_mdtable_init(&t, "llrrrrrrrl");
	ss_mdtable_cell(&t, "variant");
	ss_mdtable_cell(&t, "model");
	ss_mdtable_cell(&t, "CPUs");
	ss_mdtable_cell(&t, "fast path %%");
	ss_mdtable_cell(&t, "lock wait ms");
	ss_mdtable_cell(&t, "%% of allocator time");
	ss_mdtable_cell(&t, "waits");
	ss_mdtable_cell(&t, "cmpxchg retries");
	ss_mdtable_cell(&t, "line transfers");
	ss_mdtable_cell(&t, "most waited for (cache lock: ms)");
	for (unsigned v = 0; v < res->variants.n; v++)
		for (unsigned m = 0; m < res->models.n; m++) {
			const struct ss_report_run *run = ss_report_find(res, v, m);
			const struct ss_report_summary *s;

			if (!run)
				continue;
			s = &run->s;
			multi |= s->cpus > 1;
			ss_mdtable_cell(&t, "%s", run->variant);
			ss_mdtable_cell(&t, "%s", run->model);
			ss_mdtable_cell(&t, "%.0f", s->cpus);
			ss_mdtable_cell(&t, "%.1f", s->fastpath_pct);
			num_cell(&t, s->lock_wait_ms, "%.3f");
			if (s->lock_wait_ms >= 0 && s->alloc_time_ms > 0)
				ss_mdtable_cell(&t, "%.1f", 100 * s->lock_wait_ms / s->alloc_time_ms);
			else
				ss_mdtable_cell(&t, "n/a");
			num_cell(&t, s->lock_waits, "%.0f");
			num_cell(&t, s->cmpxchg_retries, "%.0f");
			num_cell(&t, s->remote_line_transfers, "%.0f");
			where_cell(&t, run);
		}
	if (ss_mdtable_print(fp, &t))
		return -1;
	if (!multi)
		fputs("Every run here had one CPU: nothing can wait for another CPU (`make sim "
		      "CPUS=8` or a capture from several CPUs shows contention).\n\n", fp);
	return ferror(fp) ? -1 : 0;
}
