/* rule_free_objects.c - rule free-objects: a free of an object that was
 * free as tracing began, on a slab the --free-objects file lists with its
 * free objects (make capture's slab-fill-start.txt, version 3, read right
 * after tracing began).
 *
 * Like rule slab-pages one level down: the object was allocated in the
 * window without an event, and its free is no object from before the
 * capture leaving: counted with the untraced allocations
 * (free_slot_frees), replayed or dropped (untraced.c).  Both kfree and
 * kmem_cache_free: the pointer is on a listed slab's pages, so no large
 * kmalloc.  The slab is found by the pointer's page frame, the object by
 * (ptr - slab start) / s->size; caches with red zones (red_left_pad
 * before each object, mm/slub.c 6.18 calculate_sizes()) are left out.
 * From the "start" marker on, as rule slab-pages; a page freed in the
 * window takes its slab out. */
#include <string.h>

#include "import_rules.h"

/* The frames of the listed slabs whose free objects the file has, with
 * the direct map's base. */
static int begin(struct ss_import_pass *x, struct ss_error *err)
{
	struct ss_import_rule_free_objects *s = &x->rule.free_objects;
	const struct ss_import_pagefree *pf = &x->run->learned.pagefree;
	const struct ss_snap *snap = &x->run->start_snap;

	if (!x->run->have_start_snap || !pf->have_base)
		return 0;
	s->snap = snap;
	s->base = pf->base;
	for (uint32_t i = 0; i < snap->nr; i++) {
		const struct ss_snap_cache *c = &snap->caches[i];

		if (c->flags & SS_SNAP_RED_ZONE || !c->slab_size)
			continue;
		for (uint32_t k = 0; k < c->nr_fill; k++) {
			uint64_t off;

			if (!c->fill[k].free_known || !ss_import_pagefree_frame(pf, c->fill[k].page, &off))
				continue;
			for (uint64_t p = 0; p < 1ull << c->order; p++) {
				struct ss_ptr_entry *e = ss_ptrmap_find(&s->frames, (off >> 12) + p + 1);

				if (!e && !(e = ss_ptrmap_insert(&s->frames, (off >> 12) + p + 1)))
					return ss_errorf(err, "out of memory");
				e->id = i;
				e->bytes_alloc = k;
			}
		}
	}
	x->t->free_slots_used = s->frames.live > 0;
	return 0;
}

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	struct ss_import_rule_free_objects *s = &x->rule.free_objects;
	const struct ss_snap_cache *c;
	const struct ss_snap_fill *f;
	struct ss_ptr_entry *e;
	uint64_t start, idx, off;

	(void)err;
	if (!x->after_start || !s->frames.live || rec->ptr < s->base)
		return 0;
	off = rec->ptr - s->base;
	if (!(e = ss_ptrmap_find(&s->frames, (off >> 12) + 1)))
		return 0;
	c = &s->snap->caches[e->id];
	f = &c->fill[e->bytes_alloc];
	/* the slab's first frame: its pages are aligned to its order */
	start = off & ~((4096ull << c->order) - 1);
	idx = (off - start) / c->slab_size;
	if (idx >= 64 * SS_FILL_FREE_WORDS || idx >= c->objs_per_slab ||
	    !(f->free_bits[idx / 64] >> (idx % 64) & 1))
		return 0;
	x->t->free_slot_frees++;
	d->verdict = SS_IMPORT_UNTRACED;
	return 0;
}

/* mm_page_free: those frames are no listed slab's any more */
static void note_page_free(struct ss_import_pass *x, const struct ss_kmem_rec *rec)
{
	struct ss_ptrmap *frames = &x->rule.free_objects.frames;

	if (rec->order > SS_PAGEFREE_MAX_ORDER)
		return;
	for (uint64_t p = 0; frames->live && p < 1ull << rec->order; p++) {
		struct ss_ptr_entry *e = ss_ptrmap_find(frames, rec->pfn + p + 1);

		if (e)
			ss_ptrmap_remove(frames, e);
	}
}

static void end(struct ss_import_pass *x)
{
	ss_ptrmap_release(&x->rule.free_objects.frames);
	memset(&x->rule.free_objects, 0, sizeof(x->rule.free_objects));
}

const struct ss_import_free_rule ss_import_rule_free_objects = {
	.name = "free-objects",
	.counter = "free_slot_frees",
	.unknown = true,
	.begin = begin,
	.decide = decide,
	.note_page_free = note_page_free,
	.end = end,
};
