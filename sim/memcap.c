/* memcap.c - simulated memory against its cap (see memcap.h). */
#include "memcap.h"

#include <stdlib.h>
#include <string.h>

void ss_memcap_init(struct ss_memcap *m, uint64_t max_bytes, unsigned page_size)
{
	memset(m, 0, sizeof(*m));
	m->max_bytes = max_bytes ? max_bytes : SS_MEMCAP_DEFAULT;
	m->page_size = page_size;
}

void ss_memcap_release(struct ss_memcap *m)
{
	free(m->cache_pages);
	free(m->seen);
	free(m->held);
	m->cache_pages = NULL;
	m->seen = NULL;
	m->held = NULL;
	m->nr_caches = 0;
}

static int grow(struct ss_memcap *m, uint32_t cache)
{
	uint32_t nr = m->nr_caches ? m->nr_caches : 32;
	uint64_t *p, *h;
	uint8_t *s;

	while (nr <= cache)
		nr *= 2;
	p = realloc(m->cache_pages, nr * sizeof(*p));
	if (p)
		m->cache_pages = p;
	h = realloc(m->held, nr * sizeof(*h));
	if (h)
		m->held = h;
	s = realloc(m->seen, nr);
	if (s)
		m->seen = s;
	if (!p || !h || !s)
		return -1;
	memset(p + m->nr_caches, 0, (nr - m->nr_caches) * sizeof(*p));
	memset(h + m->nr_caches, 0, (nr - m->nr_caches) * sizeof(*h));
	memset(s + m->nr_caches, 0, nr - m->nr_caches);
	m->nr_caches = nr;
	return 0;
}

int ss_memcap_note_slow(struct ss_memcap *m, const struct ss_model_desc *desc,
			const struct ss_model *model, const struct ss_obj *obj,
			const struct ss_op *op)
{
	uint64_t pages;

	if (obj->state == SS_OBJ_LARGE) {
		struct ss_large_report lr;

		desc->ops->large_report(model, &lr);
		m->large_bytes = lr.page_bytes;
		return 0;
	}
	if (obj->state != SS_OBJ_LIVE || !op->stats)
		return 0;
	if (obj->cache >= m->nr_caches && grow(m, obj->cache))
		return -1;
	pages = op->stats[SS_STEP_PAGE_ALLOC] - op->stats[SS_STEP_PAGE_FREE];
	if (!m->seen[obj->cache] || op->resync) {
		/* first sight, or slabs added outside the counters (an initial
		 * state has no page counts): the pages the cache holds now,
		 * and from here on the counter's moves */
		struct ss_cache_report r;
		uint64_t now = m->held[obj->cache] + (pages - m->cache_pages[obj->cache]);

		if (desc->ops->cache_report) {
			desc->ops->cache_report(model, obj->cache, &r);
			now = r.slab_bytes / m->page_size;
		}
		m->slab_pages += now - m->held[obj->cache];
		m->held[obj->cache] = now;
		m->cache_pages[obj->cache] = pages;
		m->seen[obj->cache] = 1;
		return 0;
	}
	m->slab_pages += pages - m->cache_pages[obj->cache];
	m->held[obj->cache] += pages - m->cache_pages[obj->cache];
	m->cache_pages[obj->cache] = pages;
	return 0;
}
