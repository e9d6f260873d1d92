/* slub_tiny.h - the paths of CONFIG_SLUB_TINY (6.2+, Vlastimil Babka's
 * "slub-tiny" series): no per-CPU slabs or partial lists, so every
 * allocation takes one object from a node partial slab (or a new slab)
 * under n->list_lock, and every free goes through __slab_free(); with
 * MIN_PARTIAL 0 an empty slab is freed at once.
 */
#ifndef SS_SLUB_TINY_H
#define SS_SLUB_TINY_H

#include "slub_cache.h"

/* Make a freshly initialised SLUB cache a SLUB_TINY one (min_partial 0,
 * no CPU partial list). */
void ss_tiny_setup(struct ss_kcache *s);

/* __slab_alloc_node() of SLUB_TINY: the object's slab, or NULL. */
struct ss_slab *ss_tiny_alloc(struct ss_kcache *s, unsigned cpu, struct ss_op *op);
/* do_slab_free() -> __slab_free() of SLUB_TINY. */
void ss_tiny_free(struct ss_kcache *s, unsigned cpu, struct ss_slab *sl,
		  struct ss_op *op);

#endif
