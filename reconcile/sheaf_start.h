/* sheaf_start.h - the kernel's sheaves and barns when the trace began,
 * in the model's (sheaf_start.c). */
#ifndef SS_SHEAF_START_H
#define SS_SHEAF_START_H

#include "slab_prior.h"
#include "slabsnap.h"

/* The objects kernel cache k's sheaves and barns held when the trace
 * began, as a slab-fill read them (version 4: k->pcs, k->barns), taken out
 * of rc's initial objects into its cache's sheaves (right after
 * ss_recon_populate()): the CPU's main and spare sheaves, the node's barn
 * (full sheaves, empty ones, and a CPU's rcu_free sheaf as the full one it
 * will be).  A CPU or node the model does not have keeps its objects
 * among the initial ones.  The objects placed; 0 without a read or
 * without sheaves in the model. */
uint64_t ss_recon_start_sheaves(struct ss_recon_cache *rc, const struct ss_snap_cache *k);

#endif
