/* report_kernel.h - report.md's section "The live kernel and the
 * simulator" and kernel.csv: per cache, the kernel's objects and slabs
 * before and after a capture (its slab snapshots) beside the replay's,
 * their changes and the error of the simulated change.
 *
 * `objects` is SLUB's figure on both sides (object slots less the free
 * slots on node partial lists: /sys/kernel/slab/<c>/objects, the active
 * objects of /proc/slabinfo), the replay's from its final slabinfo.  A
 * cache the replay never touched kept the state it started from: the
 * before-snapshot.  Changes are signed 64-bit (every figure is below
 * 2^56), errors are (model change - kernel change) / |kernel change|.
 */
#ifndef SS_REPORT_KERNEL_H
#define SS_REPORT_KERNEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "capture_meta.h"
#include "error.h"

/* The acceptance rule of docs/own-trace.md: caches whose object count
 * changes by this much or more are held to the bounds below. */
#define SS_REPORT_KERNEL_MIN_DELTA 1500
#define SS_REPORT_KERNEL_OBJ_TOL 10.0	/* % of the kernel's change in objects */
#define SS_REPORT_KERNEL_SLAB_TOL 15.0	/* % of the kernel's change in slabs */

struct ss_report_kernel_row {
	char name[128];
	uint64_t k_obj0, k_obj1, m_obj1; /* kernel before, after; model after */
	uint64_t k_slab0, k_slab1, m_slab1;
	bool in_model;			 /* the replay has the cache */
	unsigned sheaf_capacity;	 /* 6.18 sheaves, the kernel's */
	/* the run gives the cache its sheaves (a 7.x SLUB run, or
	 * sheaf_capacity.NAME= in kernel.txt's config: a 6.18+ target) */
	bool sheaves_modelled;
	/* slab pages (slabs << order): the kernel's before and after, the
	 * model's after (a cache it never touched: the kernel's before) */
	uint64_t k_pages0, k_pages1, m_pages1;
	uint64_t prior_freed, prior_missing, settled;
	/* frees of objects allocated without an event (prior.csv's
	 * untraced_allocs): the kernel may hold more than any trace shows */
	uint64_t untraced_allocs;
	/* initial objects the replay took when the trace saw their kernel
	 * slab's pages freed (prior.csv prior_freed_unseen) */
	uint64_t prior_freed_unseen;
	/* the free slots the model's initial state gave the CPU slabs
	 * (prior.csv's cpu_free_estimated, cpu_free_measured), which neither
	 * side's `objects` shows */
	uint64_t cpu_free_est, cpu_free_meas;
	/* what the trace says of the kernel's slabs (prior.csv): how many it
	 * freed initial objects from, how many of those held a whole slab;
	 * the initial slabs that were not full, and those the replay freed */
	uint64_t kslabs_freed_from, kslabs_whole, prior_not_full, prior_slabs_freed;
	/* of kslabs_freed_from, those the slab-fill listed (their fill
	 * measured), and frees of them beyond what they held (dropped) */
	uint64_t kslabs_listed, prior_listed_unseen, cpu_slabs_listed;
	/* the CPU slabs' free slots at the end, which `objects` counts as in
	 * use: the kernel's from a slab-fill file read after the
	 * after-snapshot (rp_kernel_load_fill_after), the model's from
	 * prior.csv cpu_free_end; each only where known */
	uint64_t k_cpu_free1, m_cpu_free1;
	bool k_cpu_free1_known, m_cpu_free1_known;
	/* the model before the settling rule (slabinfo.unsettled; the same
	 * as m_obj1, m_slab1 when the run settled nothing) */
	uint64_t u_obj1, u_slab1;
	/* own_start: the model's before is not the kernel's before but
	 * these: the run laid the cache out in a geometry of its own
	 * (prior.csv from_snapshot 0: a what-if's order, a slub_debug
	 * layout), its initial state holding the kernel's objects in other
	 * slabs (prior.csv initial_objects, initial_slabs) */
	bool own_start;
	uint64_t m_obj0, m_slab0, m_pages0;
	unsigned m_order; /* the model's slab order (its slabinfo) */
};

struct ss_report_kernel {
	char before[512], after[512], run[512], model[64];
	struct ss_report_kernel_row *rows;
	size_t n;
	uint64_t prior_freed, prior_missing, settled; /* over all caches */
	bool unsettled;	/* the run wrote slabinfo.unsettled (--final-state) */
	bool has_meta;	/* the capture's meta was given (rp_kernel_load_meta) */
	struct ss_capture_meta meta;
};

/* Signed change and error (NaN when the kernel's change is 0). */
int64_t ss_report_kernel_delta(uint64_t before, uint64_t after);
/* The model's change of objects, slabs and slab pages: after less its
 * before (the kernel's before, or its own start: own_start). */
int64_t ss_report_kernel_model_dobj(const struct ss_report_kernel_row *r);
int64_t ss_report_kernel_model_dslab(const struct ss_report_kernel_row *r);
int64_t ss_report_kernel_model_dpages(const struct ss_report_kernel_row *r);
double ss_report_kernel_err_pct(int64_t kernel, int64_t model);
/* Within the bounds, or not held to them (|kernel Δobjects| below the
 * threshold). */
bool ss_report_kernel_row_held(const struct ss_report_kernel_row *r);
bool ss_report_kernel_row_ok(const struct ss_report_kernel_row *r);
/* The optional columns of what the trace says of the kernel's slabs, as
 * prior.csv and kernel.csv both carry them (a file before them has
 * none), in rp_kernel_row order from kslabs_freed_from. */
#define SS_REPORT_KERNEL_KSLAB_COLS 7
struct ss_csv;
/* Their indexes in c's header (-1: absent). */
void ss_report_kernel_kslab_cols(const struct ss_csv *c, int col[SS_REPORT_KERNEL_KSLAB_COLS]);
/* The current record's values into v (0 where absent), checked: no more
 * slabs held whole than slabs freed from (error naming file and line). */
int ss_report_kernel_kslab_read(const struct ss_csv *c, const int col[SS_REPORT_KERNEL_KSLAB_COLS],
			 uint64_t v[SS_REPORT_KERNEL_KSLAB_COLS], struct ss_error *err);
/* The objects' and the slabs' bound alone. */
bool ss_report_kernel_row_objects_ok(const struct ss_report_kernel_row *r);
bool ss_report_kernel_row_slabs_ok(const struct ss_report_kernel_row *r);
/* What the pass count counts: held, not settled (the settling rule reads
 * the after-snapshot, so a settled cache's change is fitted to the kernel,
 * not predicted: a check, never a target) and within the bounds. */
bool ss_report_kernel_row_within(const struct ss_report_kernel_row *r);
/* Within the bounds on the model's figures before settling. */
bool ss_report_kernel_row_ok_unsettled(const struct ss_report_kernel_row *r);

/* Read both snapshots and the run's slabinfo, prior.csv, settled.csv and
 * slabinfo.unsettled (the last three optional).  Errors name the file. */
int ss_report_kernel_load(struct ss_report_kernel *k, const char *before, const char *after,
		   const char *run_dir, const char *model, struct ss_error *err);
/* The capture's meta file (capture_meta.h): the section then says what
 * the trace cannot show (tasks no tracepoint reports, lost events). */
int ss_report_kernel_load_meta(struct ss_report_kernel *k, const char *meta, struct ss_error *err);
/* The capture's slab-fill file read after its after-snapshot
 * (slab-fill-after.txt): each cache's CPU slabs' free slots then, so that
 * the report can say how much of an objects miss is what the CPU slabs
 * held.  A cache whose CPU freelist walk failed stays unknown.  Errors
 * name the file and line. */
int ss_report_kernel_load_fill_after(struct ss_report_kernel *k, const char *fill, struct ss_error *err);
/* The change of the objects really in use (`objects` less the CPU slabs'
 * free slots; before: those the model started with, measured or
 * estimated): false when either side's after is unknown. */
bool ss_report_kernel_in_use_deltas(const struct ss_report_kernel_row *r, int64_t *kernel, int64_t *model);
/* What the model leaves out for row r, as far as the figures tell
 * (report.md's last column): into buf (size bytes, cut short when it
 * does not fit), its length returned. */
#define SS_REPORT_KERNEL_NOTE_MAX 1024
struct ss_md_table;
/* An error's cell ("+1.5%", "n/a" or "0" when the kernel's change is 0)
 * and its CSV field (",1.50", "," when it has none). */
void ss_report_kernel_err_cell(struct ss_md_table *t, int64_t kernel, int64_t model);
void ss_report_kernel_csv_err(FILE *fp, int64_t kernel, int64_t model);
/* A percentage's CSV field: ",1.50", or "," for NaN (none). */
void ss_report_kernel_csv_pct(FILE *fp, double e);
size_t ss_report_kernel_note(const struct ss_report_kernel_row *r, char *buf, size_t size);
/* The markdown section; 0, or -1 when out of memory. */
int ss_report_kernel_write_md(FILE *fp, const struct ss_report_kernel *k);
/* kernel.csv: one row per cache, largest kernel change first. */
int ss_report_kernel_write_csv(FILE *fp, const struct ss_report_kernel *k);
void ss_report_kernel_free(struct ss_report_kernel *k);

#endif
