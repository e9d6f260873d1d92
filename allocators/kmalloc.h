/* kmalloc.h - kmalloc size classes of the target (mm/slab_common.c:
 * kmalloc_slab(), size_index[], create_kmalloc_caches(), kmalloc_info[]).
 */
#ifndef SS_KMALLOC_H
#define SS_KMALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "geometry.h"
#include "target.h"

/* Class index for a request: the index i such that class size is
 * ss_kmalloc_class_size(t, i).  Returns SS_KMALLOC_ZERO for size 0
 * (ZERO_SIZE_PTR, no object) and SS_KMALLOC_LARGE above the largest class
 * (kmalloc_large: pages straight from the page allocator). */
#define SS_KMALLOC_ZERO (-1)
#define SS_KMALLOC_LARGE (-2)
int ss_kmalloc_index(const struct ss_target *t, size_t size);

/* Object size of class i (8, 16, 32, 64, 96, 128, 192, 256 ... 8192). */
unsigned ss_kmalloc_class_size(const struct ss_target *t, int index);

/* Number of class indexes (valid indexes are 0 .. n-1; some may not exist
 * on the target: ss_kmalloc_class_exists()). */
int ss_kmalloc_nr_classes(const struct ss_target *t);
int ss_kmalloc_class_exists(const struct ss_target *t, int index);

/* "kmalloc-96", "kmalloc-8192" (3.10) or "kmalloc-8k" (6.x). */
void ss_kmalloc_class_name(const struct ss_target *t, int index, char *buf,
			   size_t n);
/* The same for a class of `size` bytes, one the target has or not. */
void ss_kmalloc_size_name(const struct ss_target *t, unsigned size, char *buf,
			  size_t n);

/* Whether requests above the largest class go to the page allocator
 * (kmalloc_large); SLAB before 6.1 fails them instead. */
bool ss_kmalloc_has_large(const struct ss_target *t);

/* KMALLOC_MIN_SIZE and the largest class size (KMALLOC_MAX_CACHE_SIZE). */
unsigned ss_kmalloc_min_size(const struct ss_target *t);
unsigned ss_kmalloc_max_cache_size(const struct ss_target *t);

/* The spec kmalloc class i is created with on this target and era
 * (ARCH_KMALLOC_MINALIGN, the era's power-of-two alignment rule, SS_CF_KMALLOC),
 * with the given debug flags. */
void ss_kmalloc_spec(const struct ss_target *t, int index, unsigned debug,
		     struct ss_cache_spec *spec);
/* The same for a class of `size` bytes, one the target has or not (a
 * class set `slabsim advise` proposes), with ARCH_KMALLOC_MINALIGN
 * minalign (0: the target's). */
void ss_kmalloc_spec_size(const struct ss_target *t, unsigned size,
			  unsigned minalign, unsigned debug,
			  struct ss_cache_spec *spec);

#endif
