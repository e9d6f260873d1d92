/* report_window.c - a capture's run against its start (report_window.h). */
#include "report_window.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compare_runs.h"
#include "csv.h"
#include "run_settings.h"
#include "slabsnap.h"

const char *ss_report_start_name(enum ss_report_start s)
{
	switch (s) {
	case SS_REPORT_START_SNAPSHOT: return "the kernel's caches";
	case RP_START_EMPTY: return "empty caches";
	case SS_REPORT_START_REPACKED: return "the kernel's objects, repacked";
	default: return "not known";
	}
}

static double snap_kib(const struct ss_snap *s, double page_bytes)
{
	double pages = 0;

	for (unsigned i = 0; i < s->nr; i++)
		pages += (double)(s->caches[i].slabs << s->caches[i].order);
	return pages * page_bytes / 1024;
}

int ss_report_snapshot_kib(const char *path, const char *file, double page_bytes, double *kib,
		    struct ss_error *err)
{
	struct ss_snap s;

	if (file ? ss_snap_load_in(&s, path, file, err) : ss_snap_load(&s, path, err))
		return -1;
	*kib = snap_kib(&s, page_bytes);
	ss_snap_release(&s);
	return 0;
}

/* A cache of the run holds more of the kernel's objects than the
 * snapshot's slabs of it have slots for (prior.csv prior_live against
 * total_objects; `objects` leaves out free slots that sheaves and CPU
 * slabs hold objects in): the placement moved another cache's there.  Or
 * it holds them in a geometry of the run's own (prior.csv from_snapshot
 * 0: a what-if's order, a slub_debug layout): in other slabs than the
 * snapshot's. */
static int repacked(const char *run_dir, const struct ss_snap *b, bool *out,
		    struct ss_error *err)
{
	char path[1100];
	struct ss_csv c;
	unsigned name, live;
	int rc, own;

	*out = false;
	snprintf(path, sizeof(path), "%s/prior.csv", run_dir);
	if (access(path, F_OK))
		return 0;
	if (ss_csv_open(&c, path, NULL, NULL, err))
		return -1;
	if (ss_csv_need(&c, "cache", &name, err) || ss_csv_need(&c, "prior_live", &live, err)) {
		ss_csv_close(&c);
		return -1;
	}
	own = ss_csv_col(&c, "from_snapshot");
	while ((rc = ss_csv_next(&c, err)) == 1 && !*out) {
		const struct ss_snap_cache *k = ss_snap_find(b, ss_csv_get(&c, name));
		uint64_t v, f = 1;

		if (ss_csv_u64(&c, live, &v, err) ||
		    (own >= 0 && ss_csv_u64(&c, (unsigned)own, &f, err))) {
			rc = -1;
			break;
		}
		*out = v > (k ? k->total_objects : 0) || (!f && v);
	}
	ss_csv_close(&c);
	return rc < 0 ? -1 : 0;
}

/* A repacked run's start: the initial state's slab pages as the model
 * packed them, its timeline.csv's last initial_kib (report_window.h). */
static int packed_start(const char *run_dir, struct ss_report_window *w, struct ss_error *err)
{
	struct ss_compare_timeline tl;
	char path[1100];

	w->end_kib = w->slabinfo_kib;
	snprintf(path, sizeof(path), "%s/timeline.csv", run_dir);
	if (ss_compare_read_timeline(path, NULL, NULL, &tl, err))
		return -1;
	ss_compare_timeline_free(&tl);
	if (!tl.initial)
		return 0;
	w->packed_known = true;
	w->start_kib = tl.last.initial_kib;
	w->delta_kib = w->end_kib - w->start_kib;
	return 0;
}

static void copy_setting(char *dst, size_t n, const struct ss_report_settings *s, const char *key)
{
	const char *v = ss_report_setting(s, key);

	snprintf(dst, n, "%s", v ? v : "");
}

int ss_report_window_of_run(const char *run_dir, double page_bytes, struct ss_report_window *w,
		     struct ss_error *err)
{
	struct ss_report_settings set = {0};
	struct ss_snap b, m;
	char path[1100];
	bool moved = false;
	int rc = -1;

	memset(w, 0, sizeof(*w));
	if (ss_report_settings_load(run_dir, &set, err))
		return -1;
	copy_setting(w->initial, sizeof(w->initial), &set, "initial_state");
	copy_setting(w->allocator, sizeof(w->allocator), &set, "allocator");
	copy_setting(w->target, sizeof(w->target), &set, "target");
	copy_setting(w->cpus, sizeof(w->cpus), &set, "cpus");
	ss_report_settings_free(&set);
	snprintf(path, sizeof(path), "%s/slabinfo", run_dir);
	if (ss_snap_load(&m, path, err))
		return -1;
	w->slabinfo_kib = snap_kib(&m, page_bytes);
	if (!w->initial[0]) {
		w->start = RP_START_EMPTY;
		w->end_kib = w->delta_kib = w->slabinfo_kib;
		ss_snap_release(&m);
		return 0;
	}
	if (ss_snap_load(&b, w->initial, err))
		goto out_m;
	if (repacked(run_dir, &b, &moved, err))
		goto out;
	w->start = moved ? SS_REPORT_START_REPACKED : SS_REPORT_START_SNAPSHOT;
	if (moved) {
		rc = packed_start(run_dir, w, err);
		goto out;
	}
	w->start_kib = snap_kib(&b, page_bytes);
	w->end_kib = w->slabinfo_kib;
	/* a cache the run never used kept the snapshot's slabs */
	for (unsigned i = 0; i < b.nr; i++)
		if (!ss_snap_find(&m, b.caches[i].name))
			w->end_kib += (double)(b.caches[i].slabs << b.caches[i].order) *
				      page_bytes / 1024;
	w->delta_kib = w->end_kib - w->start_kib;
	rc = 0;
out:
	ss_snap_release(&b);
out_m:
	ss_snap_release(&m);
	return rc;
}
