/* target_pick.h - the target a capture of a real kernel is replayed on by
 * default: the era and options nearest the kernel it came from
 * (`slabsim pick-target`, `make sim TRACE=`; docs/own-trace.md).
 *
 * The rules, in order:
 *  1. the family: the targets named after the capture's machine
 *     (meta machine=: x86_64 -> x86_64-*, arm* but aarch64 -> arm32-*;
 *     another machine takes x86_64's) that a run takes under every
 *     allocator asked for (ss_kconfig_finish(): SLUB 3.10 .. 7.x -- the
 *     capture's own, a snapshot is /sys/kernel/slab, which only SLUB
 *     has --, SLAB 2.6.16 .. 6.7, SLUB_TINY 6.2 on) -- so a what-if of SLAB on
 *     a 6.18 capture replays on the newest target of an era with SLAB,
 *     and a nearer target left out is named with the reason;
 *  2. the era: the newest of those whose era is not after the kernel's
 *     version (meta kernel=, else the snapshot's kernel=): an era's rules
 *     hold until the next era the model has; a kernel older than every
 *     one takes the oldest;
 *  3. without a version, a snapshot with sheaf caches (sheaf_capacity
 *     above 0) dates the kernel 6.18; without either, the default target;
 *  4. among targets of one era, one that declares no inferred parameter
 *     first (a documented machine before one fitted to a seed), then by
 *     name;
 *  5. the options: where the snapshot shows an option the target file
 *     sets otherwise and the era has it -- memcg (kmalloc-cg-*,
 *     CONFIG_MEMCG, 5.14+), and for SLUB alone (they are SLUB's) random
 *     kmalloc caches (kmalloc-rnd-*, CONFIG_RANDOM_KMALLOC_CACHES, 6.6+),
 *     kmem_buckets (memdup_user-*, CONFIG_SLAB_BUCKETS, 6.11+) and a
 *     cache's sheaf capacity (sheaf_capacity.NAME, 6.18+; from 7.0 only
 *     one its stride does not give, calculate_sheaf_capacity(): a
 *     request) -- the option as `--config` takes it.  (A run from the snapshot takes CONFIG_MEMCG
 *     from it too, sim/run.c; one from empty caches, as SLAB's, only so.)
 */
#ifndef SS_TARGET_PICK_H
#define SS_TARGET_PICK_H

#include "error.h"
#include "slabsnap.h"

struct ss_target_pick {
	char target[64];  /* the target's name */
	char config[512]; /* --config list of the snapshot's options ("" none) */
	char boot[512];	  /* --config list of the kernel's boot parameters ("" none) */
	char why[1024];	  /* the rule that chose it, one sentence */
};

/* The capture: its kernel release ("6.18.44-fc-v1300"; "" or NULL when
 * unknown), its machine ("x86_64"; "" or NULL), its before-snapshot
 * (NULL when none); allocators: a bit (1 << enum ss_allocator) for each
 * the target must have, 0 for SLUB alone.  dflt: the target when neither
 * the version nor the snapshot says.  0, or -1 with err (a target file
 * that does not load, or no target of the family with those allocators). */
int ss_target_pick(const char *kernel, const char *machine, const struct ss_snap *snap,
		   unsigned allocators, const char *dflt, struct ss_target_pick *out,
		   struct ss_error *err);

/* The kernel's slab boot parameters (meta slab_boot_params: the words of
 * /proc/cmdline that make capture keeps, "slub_min_order=3 slab_nomerge
 * ..."): each one a run takes as an option (kconfig.h ss_kconfig_set:
 * slub_min_order, slub_max_order, slub_min_objects and their slab_
 * spellings, slab_nomerge, init_on_alloc, init_on_free,
 * kfence.sample_interval) goes into out->boot and is named in out->why;
 * the others (slub_debug: a model's letters) are named there as not
 * taken.  Unlike the snapshot's options they hold on any target: the
 * machine was booted so.  -1 with err when boot has no room. */
int ss_target_pick_boot(const char *params, struct ss_target_pick *out, struct ss_error *err);

/* A kernel release's era ("6.18.44-fc" -> 618, "2.6.32-x" -> 232,
 * "3.10.0-1160.el7" -> 310); -1 when it does not start MAJOR.MINOR. */
int ss_kernel_release_era(const char *release);

#endif
