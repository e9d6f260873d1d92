/* rule_slab_pages.c - rule slab-pages: a kmem_cache_free of an object on
 * a page frame that was no slab page as tracing began (--slab-pages: make
 * capture's slab-pages-start.txt, base/slabpages.h).
 *
 * Such an object was allocated inside the capture's window.  With no
 * allocation event for it, a task no tracepoint reports allocated it
 * (docs/capture.md, "Tasks no tracepoint sees"), so its free is not one
 * of the before-snapshot's objects leaving: counted with the untraced
 * allocations (new_slab_frees), replayed or dropped (untraced.c).
 *
 * The frames were read right after tracing began, so the rule applies
 * from the capture's "start" marker on, written after the read (before
 * it, an object in use as tracing began may have been freed by the time
 * the frames were read).  A page freed in the window (mm_page_free) is a
 * slab page no more: whatever is made there later is new.  The rule is
 * used only with the direct map's base found and the slab-fill file's
 * listed slabs on pages the file marks (SS_SLABPAGES_MIN_LISTED_PCT of
 * them), and only for kmem_cache_free events, which name a cache: a
 * kfree() of a large kmalloc (no slab: its own pages,
 * kmalloc_large(), mm/slub.c 6.18) looks the same as a new slab's
 * object. */
#include <stdlib.h>
#include <string.h>

#include "import_rules.h"

/* The slab-fill's listed slabs whose pages must be marked slab pages in
 * the file, in percent, for the rule to be used (a check that the file
 * and the direct map's base agree; a few may die between the two reads). */
#define SS_SLABPAGES_MIN_LISTED_PCT 95

/* Why the file cannot be used, or NULL: it checks out against the
 * slab-fill's slabs through the direct map pf learned. */
static const char *check(const struct ss_slabpages *pages, const struct ss_import_pagefree *pf,
			 const struct ss_snap *snap)
{
	uint64_t listed = 0, found = 0;

	if (!pf->have_base)
		return "the direct map's base was not found";
	for (uint32_t i = 0; snap && i < snap->nr; i++) {
		const struct ss_snap_cache *c = &snap->caches[i];

		for (uint32_t k = 0; k < c->nr_fill; k++) {
			uint64_t off;

			if (!ss_import_pagefree_frame(pf, c->fill[k].page, &off))
				continue;
			listed++;
			found += ss_slabpages_has(pages, off >> 12);
		}
	}
	if (!listed)
		return "no slab-fill slab to check the pages against";
	if (found * 100 < listed * SS_SLABPAGES_MIN_LISTED_PCT)
		return "the slab-fill's slabs are not on the pages it marks";
	return NULL;
}

/* The frames as read: this pass clears those freed in it. */
static int copy_pages(struct ss_slabpages *to, const struct ss_slabpages *from)
{
	size_t words = (size_t)(from->span + 63) / 64;

	*to = *from;
	to->bits = NULL;
	if (!words)
		return 0;
	if (!(to->bits = malloc(words * sizeof(*to->bits))))
		return -1;
	memcpy(to->bits, from->bits, words * sizeof(*to->bits));
	return 0;
}

static int begin(struct ss_import_pass *x, struct ss_error *err)
{
	struct ss_import_rule_slab_pages *s = &x->rule.slab_pages;
	const struct ss_import_run *r = x->run;
	const char *why;

	if (!r->have_pages)
		return 0;
	why = check(&r->pages, &r->learned.pagefree, r->have_snap ? &r->snap : NULL);
	x->t->slab_pages_used = !why;
	x->t->slab_pages_why = why;
	if (why)
		return 0;
	if (copy_pages(&s->pages, &r->pages))
		return ss_errorf(err, "out of memory");
	s->active = true;
	s->base = r->learned.pagefree.base;
	return 0;
}

static int decide(struct ss_import_pass *x, const struct ss_kmem_rec *rec,
		  struct ss_import_decision *d, struct ss_error *err)
{
	const struct ss_import_rule_slab_pages *s = &x->rule.slab_pages;
	uint64_t pfn;

	(void)err;
	if (!s->active || !x->after_start || !rec->name || rec->ptr < s->base)
		return 0;
	pfn = (rec->ptr - s->base) >> 12;
	if (pfn >= s->pages.frames || ss_slabpages_has(&s->pages, pfn))
		return 0;
	x->t->new_slab_frees++;
	d->verdict = SS_IMPORT_UNTRACED;
	return 0;
}

/* mm_page_free: those frames are slab pages no more */
static void note_page_free(struct ss_import_pass *x, const struct ss_kmem_rec *rec)
{
	struct ss_import_rule_slab_pages *s = &x->rule.slab_pages;

	if (s->active && rec->order <= SS_PAGEFREE_MAX_ORDER)
		ss_slabpages_clear(&s->pages, rec->pfn, 1ull << rec->order);
}

static void end(struct ss_import_pass *x)
{
	struct ss_import_rule_slab_pages *s = &x->rule.slab_pages;

	if (s->active)
		ss_slabpages_release(&s->pages);
	memset(s, 0, sizeof(*s));
}

const struct ss_import_free_rule ss_import_rule_slab_pages = {
	.name = "slab-pages",
	.counter = "new_slab_frees",
	.unknown = true,
	.begin = begin,
	.decide = decide,
	.note_page_free = note_page_free,
	.end = end,
};
