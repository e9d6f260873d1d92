/* contention_table.c - locks.csv and the contention table
 * (contention_table.h). */
#include "contention_table.h"

#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "md_table.h"

int rp_load_locks(const char *path, struct rp_run *run, struct ss_error *err)
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
		struct rp_lock *l = realloc(run->locks, (run->nlocks + 1) * sizeof(*l));
		double *v;

		if (!l) {
			r = ss_errorf(err, "out of memory");
			break;
		}
		run->locks = l;
		l += run->nlocks;
		snprintf(l->name, sizeof(l->name), "%.*s %.*s", RP_NAME_MAX,
			 ss_csv_get(&c, icache), RP_NAME_MAX, ss_csv_get(&c, ires));
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
static long most_waited(const struct rp_run *run, const long *taken,
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

static void where_cell(struct md_table *t, const struct rp_run *run)
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
		mdt_cell(t, "%s", buf);
	else
		mdt_cell(t, "%s", run->nlocks ? "none" : "n/a");
}

static void num_cell(struct md_table *t, double v, const char *fmt)
{
	if (v < 0)
		mdt_cell(t, "n/a");
	else
		mdt_cell(t, fmt, v);
}

int rp_contention_table(FILE *fp, const struct rp_results *res)
{
	struct md_table t;
	bool multi = false;

	mdt_init(&t, "llrrrrrrrl");
	mdt_cell(&t, "variant");
	mdt_cell(&t, "model");
	mdt_cell(&t, "CPUs");
	mdt_cell(&t, "fast path %%");
	mdt_cell(&t, "lock wait ms");
	mdt_cell(&t, "%% of allocator time");
	mdt_cell(&t, "waits");
	mdt_cell(&t, "cmpxchg retries");
	mdt_cell(&t, "line transfers");
	mdt_cell(&t, "most waited for (cache lock: ms)");
	for (unsigned v = 0; v < res->variants.n; v++)
		for (unsigned m = 0; m < res->models.n; m++) {
			const struct rp_run *run = rp_find(res, v, m);
			const struct rp_summary *s;

			if (!run)
				continue;
			s = &run->s;
			multi |= s->cpus > 1;
			mdt_cell(&t, "%s", run->variant);
			mdt_cell(&t, "%s", run->model);
			mdt_cell(&t, "%.0f", s->cpus);
			mdt_cell(&t, "%.1f", s->fastpath_pct);
			num_cell(&t, s->lock_wait_ms, "%.3f");
			if (s->lock_wait_ms >= 0 && s->alloc_time_ms > 0)
				mdt_cell(&t, "%.1f", 100 * s->lock_wait_ms / s->alloc_time_ms);
			else
				mdt_cell(&t, "n/a");
			num_cell(&t, s->lock_waits, "%.0f");
			num_cell(&t, s->cmpxchg_retries, "%.0f");
			num_cell(&t, s->remote_line_transfers, "%.0f");
			where_cell(&t, run);
		}
	if (mdt_print(fp, &t))
		return -1;
	if (!multi)
		fputs("Every run here had one CPU: nothing can wait for another CPU (`make sim "
		      "CPUS=8` or a capture from several CPUs shows contention).\n\n", fp);
	return ferror(fp) ? -1 : 0;
}
