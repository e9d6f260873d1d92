/* cmd_calibrate.c - `slabsim calibrate -o FILE`: measure the cost-table
 * steps on this host and write them as a cost table labelled measured,
 * for `slabsim run --costs FILE` (docs/cost-model.md). */
#include <hwloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "atomic_file.h"
#include "calib.h"
#include "commands.h"
#include "host_clock.h"
#include "host_run.h"
#include "opts.h"

#define REPS_FULL 301
#define REPS_QUICK 15

enum { O_OUTPUT, O_QUICK, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_OUTPUT] = {"output", "-o", "FILE", "the cost table to write"},
	[O_QUICK] = {"quick", NULL, NULL, SS_OPT_STR(REPS_QUICK) " samples per measurement instead of "
		SS_OPT_STR(REPS_FULL) " (tests)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void calibrate_usage(FILE *out);

static const struct ss_opt_set opt_set = {"calibrate", specs, NR_OPTS, calibrate_usage};

static void calibrate_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim calibrate -o FILE [--quick]\n\n"
		"Measure the cost-table steps on this host and write a cost table that\n"
		"`slabsim run --costs FILE` uses: poison memset and memchr_inv (per\n"
		"operation and per byte), a spin lock pair (list_lock), a locked cmpxchg\n"
		"pair (slab_lock), cmpxchg16b (cmpxchg_double, x86_64), a lock bounced\n"
		"between two PUs (remote_free), and the host-mode allocator's fast and\n"
		"slow paths.  Each line is `STEP MEDIAN P10 P90`: the range is the\n"
		"measured spread, which `make sensitivity` varies over.  Figures are\n"
		"ticks of the host cycle counter; the file's header says which host,\n"
		"when, and how each step was measured.  Steps not measured keep the\n"
		"defaults.  See docs/cost-model.md.\n\n");
	ss_opt_help(out, &opt_set);
}

static void header(FILE *fp, hwloc_topology_t host, double tpn, unsigned reps,
		   const struct ss_calib_result *r)
{
	char desc[256], date[32];
	struct utsname u;
	time_t now = time(NULL);

	ss_host_describe(desc, sizeof(desc), host);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	fprintf(fp,
		"# slabsim cost table: MEASURED on this host by `slabsim calibrate`\n"
		"# (docs/cost-model.md).  Not published figures: this machine's own.\n"
		"# host: %s; Linux %s\n"
		"# date: %s\n"
		"# clock: %s, %.1f ticks per microsecond; every figure below is in ticks\n"
		"#   of that clock: STEP MEDIAN P10 P90 over %u samples, less the timer's\n"
		"#   own overhead (%.1f ticks for an empty measurement); P10..P90 is the\n"
		"#   measured spread\n"
		"# method per step:\n"
		"#   poison_write, poison_write_byte: memset() of 32..4096 bytes in L1,\n"
		"#     batches of 16, least-squares line a + b*bytes (a per call, b per byte)\n"
		"#     through the medians (P10, P90: lines through those of each size)\n"
		"#   poison_check, poison_check_byte: the word-wise memchr_inv() host mode\n"
		"#     checks poison with, same sizes and fit\n"
		"#   list_lock: pthread spin lock + unlock, uncontended (host mode's list_lock)\n"
		"#   slab_lock: lock cmpxchg to take a word + release store to drop it,\n"
		"#     uncontended: what bit_spin_lock() / __bit_spin_unlock() do on x86\n"
		"#   cmpxchg_double: one lock cmpxchg16b that succeeds, line in L1 (x86_64)\n"
		"#   remote_free: one hand-off of a spin lock between threads pinned to host\n"
		"#     PUs 0 and 1 (the lock's cache line moves each time)%s\n"
		"#   alloc_fastpath, free_fastpath: host-mode allocator, c->freelist pop and\n"
		"#     push on the active slab, batches of 16\n"
		"#   free_slowpath: host-mode __slab_free of another CPU's active slab\n"
		"#     (slab lock, push on slab->freelist), batches of 32, less the\n"
		"#     slab_lock median: the model adds __slab_free's update apart\n"
		"#     (cmpxchg_double)\n"
		"#   alloc_slowpath: host-mode ___slab_alloc taking a remote free back\n"
		"#     (get_freelist): 16 x (a slow free + that allocation), less the\n"
		"#     slow free, less the slab_lock median: host mode updates the\n"
		"#     freelist under its slab lock, the model prices get_freelist's\n"
		"#     update apart (cmpxchg_double), so it is counted once\n"
		"# Steps not listed keep allocators/costs/default.costs.\n",
		desc, u.release, date, SS_HOST_CLOCK_NAME, tpn * 1000.0, reps, r->timer,
		r->bounce.v < 0 ? "; NOT measured: this host\n#     has one PU, the default stays" : "");
}

/* A step not measured (v < 0) keeps its default, and the file says so. */
static void line(FILE *fp, const char *step, struct ss_calib_value c, const char *what)
{
	if (c.v < 0) {
		fprintf(fp, "# %s: not measured on this host (default kept)\n", step);
		return;
	}
	if (c.lo > c.v) /* a fit's ends need not straddle the median's */
		c.lo = c.v;
	if (c.hi < c.v)
		c.hi = c.v;
	fprintf(fp, "%-20s %.3f %.3f %.3f   # measured: %s\n", step, c.v, c.lo, c.hi, what);
}

/* Part a (fixed) or b (per byte) of a fit, never negative. */
static struct ss_calib_value fit_part(const struct ss_calib_fits *f, bool per_byte)
{
	struct ss_calib_value c = {per_byte ? f->med.b : f->med.a,
				per_byte ? f->lo.b : f->lo.a,
				per_byte ? f->hi.b : f->hi.a};

	c.v = c.v > 0 ? c.v : 0;
	c.lo = c.lo > 0 ? c.lo : 0;
	c.hi = c.hi > 0 ? c.hi : 0;
	return c;
}

static void body(FILE *fp, const struct ss_calib_result *r)
{
	const struct ss_calib_value zero = {0, 0, 0};

	line(fp, "poison_write", fit_part(&r->poison_write, false), "memset, fixed part");
	line(fp, "poison_write_byte", fit_part(&r->poison_write, true), "memset, per byte");
	line(fp, "poison_check", fit_part(&r->poison_check, false), "memchr_inv, fixed part");
	line(fp, "poison_check_byte", fit_part(&r->poison_check, true), "memchr_inv, per byte");
	line(fp, "list_lock", r->list_lock, "spin lock + unlock");
	line(fp, "slab_lock", r->slab_lock, "lock cmpxchg + release store");
	line(fp, "cmpxchg_double", r->cmpxchg16b, "lock cmpxchg16b");
	line(fp, "remote_free", r->bounce, "lock hand-off between PUs 0 and 1");
	line(fp, "alloc_fastpath", r->alloc_fast, "host replay fast alloc");
	line(fp, "free_fastpath", r->free_fast, "host replay fast free");
	line(fp, "alloc_slowpath", r->alloc_slow, "host replay refill alloc");
	line(fp, "alloc_refill", r->alloc_slow.v < 0 ? r->alloc_slow : zero,
	     "inside alloc_slowpath above");
	line(fp, "free_slowpath", r->free_slow, "host replay slow free");
}

static int calibrate(const char *out, unsigned reps, struct ss_error *err)
{
	hwloc_topology_t host;
	struct ss_calib_result r;
	struct ss_atomic_file f;
	double tpn;

	if (hwloc_topology_init(&host) || hwloc_topology_load(host))
		return ss_errorf(err, "hwloc cannot read this host's topology");
	tpn = ss_host_clock_rate(50);
	ss_calib_measure(&r, reps, host);
	if (ss_atomic_open(&f, out, err)) {
		hwloc_topology_destroy(host);
		return -1;
	}
	header(f.fp, host, tpn, reps, &r);
	body(f.fp, &r);
	hwloc_topology_destroy(host);
	return ss_atomic_commit(&f, err);
}

int ss_cmd_calibrate(int argc, char **argv)
{
	const char *val[NR_OPTS] = {0};
	struct ss_error err = {{0}};
	int rc = ss_opt_scan(&opt_set, argc, argv, ss_opt_keep, val);

	if (rc)
		return ss_opt_exit(rc);
	if (!val[O_OUTPUT])
		return ss_opt_exit(ss_opt_usage_err(&opt_set, "-o FILE is required"));
	if (calibrate(val[O_OUTPUT], val[O_QUICK] ? REPS_QUICK : REPS_FULL, &err)) {
		fprintf(stderr, "slabsim calibrate: %s\n", err.msg);
		return 1;
	}
	return 0;
}
