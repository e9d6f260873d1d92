/* pagefree.c - the kernel's slab page frees (kmem:mm_page_free) in
 * a raw-pointer capture: which kernel slabs died during the trace.
 *
 * SLUB frees an empty slab's pages with the buddy allocator: __slab_free()
 * -> discard_slab() -> free_slab() -> __free_slab() -> free_frozen_pages()
 * (mm/slub.c, mm/page_alloc.c 6.18), whose free_pages_prepare() fires
 * mm_page_free with the slab's pfn and order.  The event names a pfn, the
 * kmem events a direct-map address: the two meet at the direct map's base
 * (page_offset_base, randomized by KASLR in PUD_SIZE steps,
 * arch/x86/mm/kaslr.c), which no event prints.  It is learned in the
 * learn pass: when a free is the CPU's last event before a page free,
 * and that free emptied its slab, address - (pfn << PAGE_SHIFT) is the
 * base (the free's slab address, rounded down to the page free's order).
 * Most frees do not empty their slab, so most such pairs are other page
 * frees; those give scattered differences, and only the base repeats.
 * Only differences that are a multiple of 1 GiB are candidates.  The base
 * is the one candidate held by at least SS_PAGEFREE_MIN_VOTES pairs and
 * by more than half of all candidate pairs; else there is none, and page
 * frees say nothing (the import says so).
 *
 * With a slab-fill file the base is exact instead: each listed slab's
 * struct page (the file's SLAB) is a frame through the vmemmap the page
 * frees' page= and pfn= give, and its free object's address rounded down
 * is that frame's direct-map address (ss_import_pagefree_fill).
 *
 * The reading passes turn a page free at a kernel slab the trace's prior
 * frees named into a "slab freed" event (pass.c, trace-format.md `d`).
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "import_rules.h"

#define PUD_BYTES (1ull << 30)

/* A free's slab at the page free's order, 0 for none: the CPU's last
 * event was not a free of a raw pointer. */
static uint64_t *last_slot(struct ss_import_pagefree *pf, unsigned cpu)
{
	if (cpu >= pf->nr_cpus &&
	    ss_grow_zeroed((void **)&pf->last_free, &pf->nr_cpus, cpu, sizeof(*pf->last_free), 16))
		return NULL;
	return &pf->last_free[cpu];
}

static void vote(struct ss_import_pagefree *pf, uint64_t base)
{
	unsigned i;

	pf->votes++;
	for (i = 0; i < pf->nr_cand; i++)
		if (pf->cand[i].base == base) {
			pf->cand[i].votes++;
			return;
		}
	if (pf->nr_cand < SS_PAGEFREE_CANDIDATES) {
		pf->cand[pf->nr_cand].base = base;
		pf->cand[pf->nr_cand++].votes = 1;
	}
	/* (a candidate past the table still counts against the majority) */
}

/* page = vmemmap + pfn * sizeof(struct page): the stride from the first
 * two page frees of different frames, every later one checked */
static void learn_vmemmap(struct ss_import_pagefree *pf, const struct ss_kmem_rec *rec)
{
	if (!rec->page || rec->page < SS_IMPORT_RAW_MIN)
		return;
	if (!pf->ref_page) {
		pf->ref_page = rec->page;
		pf->ref_pfn = rec->pfn;
	} else if (!pf->stride && rec->pfn != pf->ref_pfn) {
		uint64_t dp = rec->page > pf->ref_page ? rec->page - pf->ref_page : pf->ref_page - rec->page;
		uint64_t dn = rec->pfn > pf->ref_pfn ? rec->pfn - pf->ref_pfn : pf->ref_pfn - rec->pfn;

		/* (both the same way, a whole number of bytes a page) */
		if ((rec->page > pf->ref_page) == (rec->pfn > pf->ref_pfn) && dp % dn == 0 &&
		    dp / dn >= 32 && dp / dn <= 256) {
			pf->stride = dp / dn;
			pf->vmemmap = rec->page - rec->pfn * pf->stride;
		} else {
			pf->vm_disagree++;
		}
	} else if (pf->stride) {
		if (rec->page == pf->vmemmap + rec->pfn * pf->stride)
			pf->vm_agree++;
		else
			pf->vm_disagree++;
	}
}

bool ss_import_pagefree_frame(const struct ss_import_pagefree *pf, uint64_t page, uint64_t *off)
{
	if (!pf->have_vmemmap || page < pf->vmemmap || (page - pf->vmemmap) % pf->stride)
		return false;
	*off = (page - pf->vmemmap) / pf->stride << 12;
	return true;
}

bool ss_import_pagefree_fill(struct ss_import_pagefree *pf, const struct ss_snap *snap)
{
	uint64_t base = 0, agree = 0, disagree = 0;

	if (!pf->have_vmemmap || !snap)
		return false;
	for (unsigned c = 0; c < snap->nr; c++) {
		const struct ss_snap_cache *sc = &snap->caches[c];

		for (uint32_t i = 0; i < sc->nr_fill; i++) {
			const struct ss_snap_fill *f = &sc->fill[i];
			uint64_t b;

			if (!f->base || !ss_import_pagefree_frame(pf, f->page, &b))
				continue;
			b = f->base - b;
			if (!agree && !disagree)
				base = b;
			if (b == base)
				agree++;
			else
				disagree++;
		}
	}
	if (!agree || disagree || base % PUD_BYTES)
		return false;
	pf->votes_wrong = pf->have_base && pf->base != base;
	pf->votes_base = pf->base;
	pf->base = base;
	pf->have_base = true;
	pf->base_from_fill = true;
	return true;
}

int ss_import_pagefree_learn(struct ss_import_pagefree *pf, int kind,
			     const struct ss_kmem_rec *rec)
{
	uint64_t *last;

	if ((kind != SS_KL_EVENT && kind != SS_KL_PAGE_FREE && kind != SS_KL_OTHER) ||
	    !rec->has_cpu)
		return 0;
	if (!(last = last_slot(pf, rec->cpu)))
		return -1;
	if (kind == SS_KL_PAGE_FREE) {
		learn_vmemmap(pf, rec);
		if (*last && rec->order <= SS_PAGEFREE_MAX_ORDER) {
			uint64_t slab = *last & ~((4096ull << rec->order) - 1);
			uint64_t base = slab - (rec->pfn << 12);

			if (rec->pfn < (1ull << 40) && base >= SS_IMPORT_RAW_MIN &&
			    base % PUD_BYTES == 0)
				vote(pf, base);
		}
		*last = 0;
		return 0;
	}
	/* a free of a raw pointer may be the one whose slab a page free
	 * right after it frees; anything else on the CPU comes between */
	*last = kind == SS_KL_EVENT && rec->ptr >= SS_IMPORT_RAW_MIN &&
			(rec->event == SS_KE_KFREE || rec->event == SS_KE_CACHE_FREE)
		? rec->ptr : 0;
	return 0;
}

void ss_import_pagefree_finish(struct ss_import_pagefree *pf)
{
	const struct ss_pagefree_cand *best = NULL;

	for (unsigned i = 0; i < pf->nr_cand; i++)
		if (!best || pf->cand[i].votes > best->votes)
			best = &pf->cand[i];
	pf->have_base = best && best->votes >= SS_PAGEFREE_MIN_VOTES && 2 * best->votes > pf->votes;
	pf->base = pf->have_base ? best->base : 0;
	pf->have_vmemmap = pf->stride && pf->vm_agree && !pf->vm_disagree;
	free(pf->last_free);
	pf->last_free = NULL;
	pf->nr_cpus = 0;
}

bool ss_import_pagefree_addr(const struct ss_import_pagefree *pf, const struct ss_kmem_rec *rec,
			     uint64_t *addr)
{
	if (!pf->have_base || rec->pfn >= (1ull << 40) || rec->order > SS_PAGEFREE_MAX_ORDER)
		return false;
	*addr = pf->base + (rec->pfn << 12);
	return true;
}

void ss_import_pagefree_release(struct ss_import_pagefree *pf)
{
	free(pf->last_free);
	memset(pf, 0, sizeof(*pf));
}
