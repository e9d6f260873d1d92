/* prior_counts.h - how many prior frees (`u` events) each kernel slab of
 * a raw-pointer capture takes over the whole trace.
 *
 * A prior free names the kernel slab its object was in (slab=K, dense
 * per cache: docs/trace-format.md), not how full that slab was: the
 * snapshot gives only each cache's totals.  The n frees the trace makes
 * from kernel slab K say it held at least n objects from before the
 * trace, so the replay maps K onto one of its own initial slabs that
 * holds at least n (slab_prior.h).  Counted by a pass over the trace
 * before the replay (sim/run.c); memory is one entry per kernel slab
 * the trace frees from.
 *
 * The same pass sees some kernel slabs freed: a kfree of an obj_exts
 * vector (slab_vector.h) as the next event on the CPU after a prior free
 * of kernel slab K is K's slab freed by that free.  A slab is freed empty,
 * so K held exactly the prior objects the trace freed from it by then
 * (`dead`, 0 when not seen freed): slab_prior.c starts K's slab with that
 * many.  Caches without vectors, and slabs emptied by the free of an
 * object the trace allocated (its event names no kernel slab), are not
 * seen that way.  A capture with page frees sees them all: a `d` line
 * (SS_EV_SLAB_FREED: the import matched a kmem:mm_page_free to K's
 * address) is K's death whatever emptied it, and K held the prior frees
 * it gave by then.
 *
 * A kernel slab the trace does not see freed, in a cache the trace sees
 * at least one slab of freed, outlived its prior frees: it held at least
 * one object more than it gave (ss_prior_counts_held), so its frees must
 * not empty the slab it maps onto.  That is what a memcg-accounted
 * cache's slabs say (each has a vector; SLUB discards a slab only when a
 * free empties it, and then frees the vector); it is wrong for the two
 * kinds of death not seen (above, and a slab emptied on a CPU partial
 * list and discarded by a later drain: its vector's kfree follows no free
 * of it).  A cache none of whose slabs the trace sees freed has, as far
 * as the trace tells, no vectors: nothing says its kernel slabs outlived
 * their frees, and each held at least what it gave (docs/own-trace.md,
 * "Kernel slabs the trace does not see freed"; with `d` lines every
 * cache's deaths are seen, and only an emptied slab SLUB keeps -- below
 * min_partial, or on a CPU partial list at the end -- is taken wrongly
 * as having outlived its frees).
 */
#ifndef SS_PRIOR_COUNTS_H
#define SS_PRIOR_COUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "trace.h"

struct ss_prior_count {
	uint64_t slab;	   /* K + 1; 0 = empty slot */
	uint64_t value;	   /* the event's size (kmalloc class), 0 for a cache */
	uint32_t api, gfp; /* the event's cache (or SS_API_KMALLOC) and flags */
	uint32_t n;	   /* prior frees of that kernel slab; a cache's: its kernel slabs */
	uint32_t dead;	   /* n when its slab was seen freed; 0: not seen (a cache's: how many) */
	uint64_t held;	   /* a cache's: ss_prior_counts_held summed over its kernel slabs */
	/* a cache's: how many of its kernel slabs held at least h, by h
	 * (nr_by_held = the largest h + 1, h counted up to 65536: no slab
	 * holds more; ss_prior_counts_finish) */
	uint32_t *by_held, nr_by_held;
};

/* What the trace says of the kernel slab a prior free was in, and of its
 * cache's kernel slabs (ss_prior_counts_about): what slab_prior.c maps
 * it by.  All 0 (kslab 0): nothing. */
struct ss_kslab_info {
	uint32_t kslab;	       /* K + 1 */
	/* the kernel cache K is a slab of: the event's cache (or kmalloc,
	 * with its class and flags).  Kernel slab numbers are dense per
	 * kernel cache, and a what-if cache may hold several kernel caches'
	 * objects (kmalloc-buckets: dentry's in kmalloc-192) */
	uint32_t src_api, src_gfp;
	uint64_t src_value;
	uint32_t held, dead;   /* ss_prior_counts_held, ss_prior_counts_dead */
	uint32_t frees;	       /* the prior frees of K over the whole trace */
	/* K was not seen freed where the trace would have seen it: its
	 * cache's slabs are seen die (held is then frees + 1), or the trace
	 * has the page frees of slabs (`d` lines), which show every death */
	bool outlived;
	/* what all the kernel slabs of its cache held at least, summed
	 * (ss_prior_counts_finish), and how many the trace frees from */
	uint64_t cache_held;
	uint32_t cache_kslabs;
	/* how many of the cache's kernel slabs held at least h, for h <
	 * nr_by_held (none at or past it) */
	const uint32_t *by_held;
	uint32_t nr_by_held;
};

/* Open addressing over (slab, cache): slab 0 is an empty slot. */
struct ss_prior_table {
	struct ss_prior_count *e;
	uint64_t cap, nr;
};

struct ss_prior_counts {
	struct ss_prior_table slabs;  /* per kernel slab (slab = K + 1) */
	struct ss_prior_table caches; /* per cache (slab = 1): dead = its slabs seen freed */
	/* the scan's state: per CPU, the kernel slab of its last event when
	 * that was a prior free with a slab (.id = 0: none) */
	struct ss_event *last;
	uint32_t nr_last;
	uint64_t deaths; /* kernel slabs seen freed */
	/* the trace has SS_EV_SLAB_FREED events, or its meta page_base:
	 * the page frees show every death of a kernel slab it frees from */
	bool page_deaths;
};

/* Count the prior frees with a slab of every kernel slab in the trace at
 * path (any format).  -1 with err on a bad trace or out of memory. */
int ss_prior_counts_scan(const char *path, struct ss_prior_counts *pc, struct ss_error *err);
/* The same fed by a caller's own pass over the trace: each event in
 * order (its names and cache flags from tb), then, after the last, the
 * end (tb as it stands there: the import's meta page_base comes after the
 * events).  -1 when out of memory. */
int ss_prior_counts_take(struct ss_prior_counts *pc, const struct ss_event *ev,
			 const struct ss_trace_tables *tb);
int ss_prior_counts_end(struct ss_prior_counts *pc, const struct ss_trace_tables *tb);
/* Add one prior free (ev->kind SS_EV_FREE_PRIOR with ev->id = K + 1). */
int ss_prior_counts_add(struct ss_prior_counts *pc, const struct ss_event *ev);
/* Take event ev of the trace in order, `site` its site's name (NULL for
 * none), cflags its cache's SS_CF_* flags: counts prior frees and notes
 * slabs seen freed (never an SS_CF_RCU cache's).  -1 when out of
 * memory. */
int ss_prior_counts_note(struct ss_prior_counts *pc, const struct ss_event *ev,
			 const char *site, unsigned cflags);
/* After the last note: each cache's sum of ss_prior_counts_held
 * (ss_kslab_info's cache_held) and its counts by held.
 * ss_prior_counts_scan calls it. */
int ss_prior_counts_finish(struct ss_prior_counts *pc); /* -1: out of memory */
/* All of the above for prior free ev (its id the kernel slab K + 1, or
 * 0); only kslab when pc is NULL or has no count for it. */
void ss_prior_counts_about(const struct ss_prior_counts *pc, const struct ss_event *ev,
			   struct ss_kslab_info *out);
/* The frees counted for ev's kernel slab; 0 when none or pc is NULL. */
uint32_t ss_prior_counts_get(const struct ss_prior_counts *pc, const struct ss_event *ev);
/* The prior objects ev's kernel slab held when it was seen freed (what it
 * held at the start); 0 when not seen freed or pc is NULL. */
uint32_t ss_prior_counts_dead(const struct ss_prior_counts *pc, const struct ss_event *ev);
/* The objects ev's kernel slab held at least at the start: its frees
 * counted, one more when its slab is not seen freed and some slab of its
 * cache is; 0 when none or pc is NULL. */
uint32_t ss_prior_counts_held(const struct ss_prior_counts *pc, const struct ss_event *ev);
void ss_prior_counts_release(struct ss_prior_counts *pc);

#endif
