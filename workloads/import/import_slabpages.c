/* import_slabpages.c - frees of objects on pages that were no slab pages
 * at the before-snapshot (import --slab-pages, base/slabpages.h).
 *
 * Such an object was allocated inside the capture's window.  With no
 * allocation event for it, a task no tracepoint reports allocated it
 * (on the sandboxes slabsim is built on: PID 1's threads reading /proc,
 * scripts/capture-untraced.sh), so its free is not one of the
 * before-snapshot's objects leaving: the import counts it with the
 * untraced allocations and writes no prior free.  Measured: a capture of
 * `perf bench sched messaging -g 20` whose 800 tasks' /proc inodes those
 * threads made, then the tasks' exits freed, traced: 115 proc_inode_cache
 * slabs no snapshot listed, each of whose 23 objects the trace freed and
 * whose pages it then freed (docs/own-trace.md, nineteenth round).
 *
 * A page freed in the window (mm_page_free) is a slab page no more: a
 * slab made there later is new too.  The rule is used only with the
 * direct map's base found and the slab-fill file's listed slabs on pages
 * the file marks (SS_SLABPAGES_MIN_LISTED_PCT of them; they were read a
 * moment before it), and only for kmem_cache_free events, which name a
 * cache: a kfree() of a large kmalloc (no slab: its own pages) looks the
 * same as a new slab's object. */
#include <string.h>

#include "import.h"

int ss_import_slabpages_setup(struct ss_import_slabpages *s, const char *path,
			      const struct ss_import_pagefree *pf, const struct ss_snap *snap,
			      struct ss_error *err)
{
	memset(s, 0, sizeof(*s));
	if (ss_slabpages_load(&s->pages, path, err))
		return -1;
	s->loaded = true;
	if (!pf->have_base) {
		s->why = "the direct map's base was not found";
		return 0;
	}
	s->base = pf->base;
	for (uint32_t i = 0; snap && i < snap->nr; i++) {
		const struct ss_snap_cache *c = &snap->caches[i];

		for (uint32_t k = 0; k < c->nr_fill; k++) {
			uint64_t off;

			if (!ss_import_pagefree_frame(pf, c->fill[k].page, &off))
				continue;
			s->listed++;
			s->listed_found += ss_slabpages_has(&s->pages, off >> 12);
		}
	}
	if (!s->listed) {
		s->why = "no slab-fill slab to check the pages against";
		return 0;
	}
	if (s->listed_found * 100 < s->listed * SS_SLABPAGES_MIN_LISTED_PCT) {
		s->why = "the slab-fill's slabs are not on the pages it marks";
		return 0;
	}
	s->active = true;
	return 0;
}

bool ss_import_slabpages_new(const struct ss_import_slabpages *s, const struct ss_kmem_rec *rec)
{
	uint64_t pfn;

	if (!s->active || !rec->name || rec->ptr < s->base)
		return false;
	pfn = (rec->ptr - s->base) >> 12;
	return pfn < s->pages.frames && !ss_slabpages_has(&s->pages, pfn);
}

void ss_import_slabpages_page_free(struct ss_import_slabpages *s, const struct ss_kmem_rec *rec)
{
	if (s->active && rec->order <= SS_PAGEFREE_MAX_ORDER)
		ss_slabpages_clear(&s->pages, rec->pfn, 1ull << rec->order);
}

void ss_import_slabpages_release(struct ss_import_slabpages *s)
{
	if (s->loaded)
		ss_slabpages_release(&s->pages);
	memset(s, 0, sizeof(*s));
}
