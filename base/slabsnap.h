/* slabsnap.h - a kernel's slab caches at one moment: what `make capture`
 * records (slab-before.txt / slab-after.txt, docs/capture.md), a copied
 * /sys/kernel/slab tree, or a /proc/slabinfo 2.1 file.
 *
 * One reader for the three: a replay starts its caches from a snapshot
 * (`slabsim run --initial-state`) and a report compares the replay with
 * the kernel's after-snapshot.  Figures are SLUB's own (mm/slub.c,
 * show_slab_objects() and get_slabinfo(), 6.18):
 *   objects        total object slots less the free ones on the node
 *                  partial lists (free slots of CPU slabs count as used)
 *   total_objects  object slots of every slab
 *   slabs          slabs held
 *   partial        slabs on the node partial lists
 *   objects_partial objects in use on them
 *   cpu_slabs      active slabs plus per-CPU partial slabs
 * /proc/slabinfo has no list figures (have_lists false): its free objects
 * are all on node partial lists, in an unknown number of slabs.
 */
#ifndef SS_SLABSNAP_H
#define SS_SLABSNAP_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

#define SS_SNAP_NAME 128
#define SS_SNAP_MAX_CPUS 1024

/* Cache flags a snapshot can show (sysfs attribute in parentheses). */
#define SS_SNAP_HWCACHE 0x001u	 /* hwcache_align */
#define SS_SNAP_RCU 0x002u	 /* destroy_by_rcu (SLAB_TYPESAFE_BY_RCU) */
#define SS_SNAP_CTOR 0x004u	 /* ctor is not empty */
#define SS_SNAP_RECLAIM 0x008u	 /* reclaim_account */
#define SS_SNAP_DMA 0x010u	 /* cache_dma */
#define SS_SNAP_POISON 0x020u	 /* poison */
#define SS_SNAP_RED_ZONE 0x040u	 /* red_zone */
#define SS_SNAP_STORE_USER 0x080u /* store_user */
#define SS_SNAP_CHECKS 0x100u	 /* sanity_checks */

/* a slab-fill slab's free objects' bitmap: slabs of up to this many
 * objects x 64 (capture/slabfill_rec.h SLABFILL_FREE_WORDS) */
#define SS_FILL_FREE_WORDS 8
/* the list a slab-fill slab was on */
enum ss_fill_kind { SS_FILL_NODE, SS_FILL_CPU, SS_FILL_CPU_PARTIAL };

/* One slab as slab-fill listed it (capture/slabfill.c). */
struct ss_snap_fill {
	uint64_t base;		/* its pages' address, 0 when it showed no free object */
	uint64_t page;		/* its struct slab (struct page) address */
	uint32_t inuse;		/* the slab's count: an active slab's counts the
				 * objects on its CPU freelist as in use */
	uint32_t cpu_free;	/* SS_FILL_CPU: those objects, or SS_SNAP_FREE_UNKNOWN */
	uint32_t where;		/* its node, or its CPU */
	uint8_t kind;		/* enum ss_fill_kind */
	/* version 3: which objects were free (bit i: object i from the
	 * slab's start), when the file has them and they agree with its
	 * counts (free_known) */
	bool free_known;
	uint64_t free_bits[SS_FILL_FREE_WORDS];
};

/* A CPU's sheaves as slab-fill read them (version 4, 6.18+): the objects
 * in its main, spare and rcu_free sheaves (SS_SNAP_NO_SHEAF: none). */
struct ss_snap_pcs {
	uint32_t main, spare, rcu;
	bool listed;		/* the file had this CPU's line */
};
#define SS_SNAP_NO_SHEAF UINT32_MAX

/* A node's barn (version 4): its full and empty sheaves, and the objects
 * in the full ones (SS_SNAP_FREE_UNKNOWN: its list changed as it was read). */
struct ss_snap_barn {
	uint32_t full, empty, objects;
	bool listed;		/* the file had this node's line */
};

struct ss_snap_cache {
	char name[SS_SNAP_NAME]; /* as /proc/slabinfo lists it */
	char dir[SS_SNAP_NAME];	 /* the /sys/kernel/slab directory ("" from slabinfo) */
	/* geometry */
	unsigned object_size;	 /* 0 when unknown (slabinfo) */
	unsigned slab_size;	 /* s->size, the stride */
	unsigned objs_per_slab, order, align;
	unsigned min_partial, cpu_partial, sheaf_capacity; /* 0: not shown */
	unsigned flags;		 /* SS_SNAP_* */
	bool have_geometry;	 /* object_size, align, flags and limits are known */
	/* state */
	uint64_t objects, total_objects, slabs;
	bool have_lists;	 /* the four below are known */
	uint64_t partial, objects_partial, cpu_slabs;
	uint32_t *cpu_partial_slabs; /* per CPU, nr_cpus entries (may be NULL) */
	unsigned nr_cpus;
	/* per CPU, the free slots of its active slab as a raw-pointer trace
	 * shows them (ss_snap_take_cpu_free; NULL when none): a count, |
	 * SS_SNAP_FREE_ATLEAST for a lower bound, or SS_SNAP_FREE_UNKNOWN */
	uint32_t *cpu_free;
	unsigned nr_cpu_free;
	/* the slabs as the kernel listed them (ss_snap_take_fill; nr_fill 0:
	 * not measured): the node partial slabs first, head first
	 * (nr_fill_node of them), then each CPU's active slab and CPU partial
	 * slabs, head first */
	struct ss_snap_fill *fill;
	uint32_t nr_fill, cap_fill, nr_fill_node;
	/* the file listed CPU slabs (version 2): a cache it shows none of has
	 * none; without, they are the snapshot's counts and an estimate */
	bool fill_cpus;
	/* the trace's kernel slab ids 1..nr_fill are these slabs, in order
	 * (a trace imported with this fill: import --slab-fill) */
	bool fill_ids;
	/* the cache's sheaves and barns (version 4; have_sheaves: the file
	 * showed them, a cache of a 6.18+ kernel with sheaves): per CPU, by
	 * CPU number (nr_pcs), and per node (nr_barns); a CPU or node the
	 * file did not list has none */
	struct ss_snap_pcs *pcs;
	struct ss_snap_barn *barns;
	uint32_t nr_pcs, nr_barns;
	bool have_sheaves;
};

#define SS_SNAP_FREE_UNKNOWN UINT32_MAX
#define SS_SNAP_FREE_ATLEAST 0x80000000u

struct ss_snap {
	char path[512];
	char kernel[64];	 /* "" unless the file says */
	struct ss_snap_cache *caches; /* in file order */
	unsigned nr, cap;
	/* alias name -> cache index (every name the kernel knows the cache by) */
	char (*alias)[SS_SNAP_NAME];
	unsigned *alias_of;
	unsigned nr_alias, cap_alias;
};

/* Load PATH: a capture directory (its slab-before.txt is read), a
 * /sys/kernel/slab-like directory, a `slabsim-slab 1` file or a
 * `slabinfo - version: 2.1` file.  Errors name file:line. */
int ss_snap_load(struct ss_snap *s, const char *path, struct ss_error *err);
/* The same, taking `file` (e.g. "slab-after.txt") from a capture directory. */
int ss_snap_load_in(struct ss_snap *s, const char *path, const char *file,
		    struct ss_error *err);
void ss_snap_release(struct ss_snap *s);
/* The cache known as name (its own name or an alias), or NULL. */
const struct ss_snap_cache *ss_snap_find(const struct ss_snap *s, const char *name);

/* Take a trace's meta cpu_slab_free (docs/import.md rule 6): blank-
 * separated CACHE:CPU:N (N slots free in CPU's active slab when the trace
 * began) or CACHE:CPU:N+ (at least N).  A cache the snapshot lacks, or N
 * above its objects per slab (a snapshot of another kernel), is skipped
 * (*skipped counts them); a malformed item is an error naming it. */
int ss_snap_take_cpu_free(struct ss_snap *s, const char *meta, unsigned *skipped,
			  struct ss_error *err);

/* The objects a cache's sheaves and barns held as slab-fill read them
 * (allocated from its slabs, free for users: `objects` counts them as in
 * use); 0 when not read.  *unknown: a barn whose count was not read. */
uint64_t ss_snap_sheaf_objects(const struct ss_snap_cache *c, bool *unknown);

/* Take a `slabsim-slabfill` file, version 1, 2, 3 or 4 (make capture's
 * slab-fill-before.txt, capture/slabfill.c): each cache's node partial
 * slabs and (2) CPU slabs in list order with their objects in use and
 * (3) which objects were free, into the caches' fill arrays, and (4) its
 * sheaves and barns (pcs, barns).  The snapshot's
 * geometry gives each slab's pages from the free object's address.  A
 * cache the snapshot lacks is skipped (*skipped counts them); a slab whose
 * objects per slab are not the snapshot's is an error (another kernel's
 * file), as is a malformed line, naming file:line.  *hash: the file's
 * XXH3-64, which an imported trace records (meta slab_fill). */
int ss_snap_take_fill(struct ss_snap *s, const char *path, uint64_t *hash,
		      unsigned *skipped, struct ss_error *err);

/* Free object slots on the node partial lists (what `objects` leaves out). */
uint64_t ss_snap_node_partial_free(const struct ss_snap_cache *c);

#endif
