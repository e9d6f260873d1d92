/* reprice.c - a finished run's time under another cost table (reprice.h). */
#include "reprice.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* counters.csv: "cache,counter,unit,value" (the cache may be quoted; the
 * last three fields never hold a comma), each step summed over caches. */
static int load_counters(struct ss_reprice *r, const char *dir, struct ss_error *err)
{
	char path[4200], *line = NULL;
	size_t cap = 0;
	unsigned long ln = 0;
	FILE *fp;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/counters.csv", dir);
	if (!(fp = fopen(path, "r")))
		return ss_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	while (!rc && getline(&line, &cap, fp) >= 0) {
		char *f[3], *p;
		uint64_t v;
		int step;

		if (++ln == 1)
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		for (int k = 2; k >= 0; k--) {
			if (!(p = strrchr(line, ',')))
				break;
			*p = '\0';
			f[k] = p + 1;
		}
		if (!p || (step = ss_step_find(f[0])) < 0 || ss_parse_u64(f[2], UINT64_MAX, &v))
			rc = ss_error_at(err, path, ln, "want 'cache,counter,unit,value' with a known step");
		else
			r->n[step] += (double)v;
	}
	free(line);
	fclose(fp);
	return rc;
}

/* summary.json's `"key": N,` line, N a whole number. */
static int json_u64(const char *dir, const char *key, uint64_t *out, struct ss_error *err)
{
	char path[4200], want[64], *line = NULL;
	size_t cap = 0, n;
	FILE *fp;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	n = (size_t)snprintf(want, sizeof(want), "  \"%s\": ", key);
	if (!(fp = fopen(path, "r")))
		return ss_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	while (rc && getline(&line, &cap, fp) >= 0)
		if (!strncmp(line, want, n)) {
			line[strcspn(line, ",\r\n")] = '\0';
			rc = ss_parse_u64(line + n, UINT64_MAX, out);
			break;
		}
	free(line);
	fclose(fp);
	return rc ? ss_errorf(err, "%s: no whole number for \"%s\"", path, key) : 0;
}

int ss_reprice_load(struct ss_reprice *r, const char *run_dir, struct ss_error *err)
{
	uint64_t clock;

	memset(r->n, 0, sizeof(r->n));
	if (load_counters(r, run_dir, err) || json_u64(run_dir, "clock_mhz", &clock, err) ||
	    json_u64(run_dir, "large_allocs", &r->large_allocs, err))
		return -1;
	if (!clock || clock > 1000000)
		return ss_errorf(err, "%s/summary.json: clock_mhz %llu", run_dir,
				 (unsigned long long)clock);
	r->clock_mhz = (unsigned)clock;
	return 0;
}

/* Cycles of the counted steps under c. */
static double priced(const struct ss_reprice *r, const struct ss_costs *c)
{
	double sum = 0;

	for (int s = 0; s < SS_NR_STEPS; s++)
		sum += r->n[s] * c->cycles[s];
	return sum;
}

int ss_reprice_check(const struct ss_reprice *r, const struct ss_costs *costs,
		     struct ss_error *err)
{
	double ns;

	if (r->cpus != 1)
		return ss_errorf(err, "%g CPUs: the busiest one's time needs its own counts", r->cpus);
	if (r->lock_waits > 0 || r->cmpxchg_retries > 0)
		return ss_errorf(err, "lock waits or cmpxchg retries: they fall where the clocks put them");
	if (r->large_allocs)
		return ss_errorf(err, "kmalloc_large allocations: their frees are not counted");
	ns = r->work_ns + priced(r, costs) * 1000.0 / r->clock_mhz;
	/* (work_time_ms has three decimals: 1 us) */
	if (!(fabs(ns - r->sim_ns) <= 1000.0))
		return ss_errorf(err, "the work plus the counted steps priced make %.1f ns, the run %.1f ns: "
				 "its time is more than its counts", ns, r->sim_ns);
	return 0;
}

double ss_reprice_ns(const struct ss_reprice *r, const struct ss_costs *from,
		     const struct ss_costs *to)
{
	double delta = 0;

	for (int s = 0; s < SS_NR_STEPS; s++)
		delta += r->n[s] * (to->cycles[s] - from->cycles[s]);
	return r->sim_ns + delta * 1000.0 / r->clock_mhz;
}
