/* import_slabpages.c - frees of objects that were not there when tracing
 * began (import --slab-pages, --free-objects; base/slabpages.h).
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
 * Two reads, both right after tracing began, tell such objects: the page
 * frames that were slab pages (an object on any other page is new), and
 * each listed slab's free objects (a free one then is new).  Both apply
 * from the capture's "start" marker on, written after the reads (before
 * it, an object in use as tracing began may have been freed by the time
 * they were read).  A page freed in the window (mm_page_free) is a slab
 * page no more, nor a listed slab: whatever is made there later is new.
 * The pages rule is used only with the direct map's base found and the
 * slab-fill file's listed slabs on pages the file marks
 * (SS_SLABPAGES_MIN_LISTED_PCT of them), and only for kmem_cache_free
 * events, which name a cache: a kfree() of a large kmalloc (no slab: its
 * own pages) looks the same as a new slab's object. */
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

	if (!s->active || !s->read || !rec->name || rec->ptr < s->base)
		return false;
	pfn = (rec->ptr - s->base) >> 12;
	return pfn < s->pages.frames && !ss_slabpages_has(&s->pages, pfn);
}

int ss_import_freebits_setup(struct ss_import_slabpages *s, const struct ss_import_pagefree *pf,
			     const struct ss_snap *snap)
{
	if (!pf->have_base || !snap)
		return 0;
	s->snap = snap;
	s->base = pf->base;
	for (uint32_t i = 0; i < snap->nr; i++) {
		const struct ss_snap_cache *c = &snap->caches[i];

		/* red-zoned objects start red_left_pad into their stride */
		if (c->flags & SS_SNAP_RED_ZONE || !c->slab_size)
			continue;
		for (uint32_t k = 0; k < c->nr_fill; k++) {
			uint64_t off;

			if (!c->fill[k].free_known || !ss_import_pagefree_frame(pf, c->fill[k].page, &off))
				continue;
			for (uint64_t p = 0; p < 1ull << c->order; p++) {
				struct ss_ptr_entry *e = ss_ptrmap_find(&s->frames, (off >> 12) + p + 1);

				if (!e && !(e = ss_ptrmap_insert(&s->frames, (off >> 12) + p + 1)))
					return -1;
				e->id = i;
				e->bytes_alloc = k;
			}
		}
	}
	return 0;
}

bool ss_import_freebits_was_free(struct ss_import_slabpages *s, uint64_t ptr)
{
	const struct ss_snap_cache *c;
	const struct ss_snap_fill *f;
	struct ss_ptr_entry *e;
	uint64_t start, idx, off;

	if (!s->read || !s->frames.live || ptr < s->base)
		return false;
	off = ptr - s->base;
	e = ss_ptrmap_find(&s->frames, (off >> 12) + 1);
	if (!e)
		return false;
	c = &s->snap->caches[e->id];
	f = &c->fill[e->bytes_alloc];
	/* the slab's first frame: its pages are aligned to its order */
	start = off & ~((4096ull << c->order) - 1);
	idx = (off - start) / c->slab_size;
	return idx < 64 * SS_FILL_FREE_WORDS && idx < c->objs_per_slab &&
	       f->free_bits[idx / 64] >> (idx % 64) & 1;
}

void ss_import_slabpages_page_free(struct ss_import_slabpages *s, const struct ss_kmem_rec *rec)
{
	if (rec->order > SS_PAGEFREE_MAX_ORDER)
		return;
	if (s->active)
		ss_slabpages_clear(&s->pages, rec->pfn, 1ull << rec->order);
	for (uint64_t p = 0; s->frames.live && p < 1ull << rec->order; p++) {
		struct ss_ptr_entry *e = ss_ptrmap_find(&s->frames, rec->pfn + p + 1);

		if (e)
			ss_ptrmap_remove(&s->frames, e);
	}
}

void ss_import_slabpages_release(struct ss_import_slabpages *s)
{
	if (s->loaded)
		ss_slabpages_release(&s->pages);
	ss_ptrmap_release(&s->frames);
	memset(s, 0, sizeof(*s));
}
