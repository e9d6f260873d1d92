/* import_prior.c - frees of objects allocated before the capture began.
 *
 * A replay started from the kernel's caches (`run --initial-state`) takes
 * such an object out of its cache's initial population, so the import
 * writes these frees (`u` events) instead of dropping them.  The cache is
 * in the event for kmem_cache_free since 6.1 (name=).  kfree() names no
 * cache, nor does kmem_cache_free before 6.1; for them a first pass over
 * the capture learns, per free call site, where the objects it frees and
 * the capture saw allocated were (kmalloc class and flags, or cache).
 * The n-th unknown free at a site then goes to the place its share says:
 * with 700 kmalloc-32 and 300 kmalloc-64 learned, the frees go 32, 64, 32,
 * 32, 64, ... (largest remainder, deterministic).  A site that freed
 * nothing the capture saw allocated teaches nothing: its frees are
 * counted as unattributed and dropped.
 *
 * The first pass also finds the pointers the kernel allocates without an
 * allocation event: one freed twice with no allocation between (on 6.18
 * here, /proc inodes, their dentries and LSM blobs, ~1000 a second).
 * None of their frees is taken as the free of an object from before the
 * capture: such objects come and go in equal numbers, and the first free
 * of each would otherwise empty the initial state by that many.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "trace_io.h"

struct prior_count {
	uint32_t key;		/* index in keys */
	uint64_t n, given;	/* learned frees; unknown frees sent here */
};

struct prior_site {
	struct prior_count *c;
	uint32_t nr, cap;
	uint64_t total, seen;	/* learned frees; unknown frees so far */
};

/* kmalloc objects: "k GFP SIZE" (SIZE = bytes_alloc, the class);
 * cache objects: "c NAME". */
static void key_of(const struct ss_target *t, const struct ss_kmem_rec *rec,
		   char *key, size_t n)
{
	char name[SS_IMPORT_CACHE_NAME];

	if (ss_import_cache_name(t, rec, name))
		snprintf(key, n, "k %u %llu", rec->gfp, (unsigned long long)rec->bytes_alloc);
	else
		snprintf(key, n, "c %s", name);
}

static struct prior_site *site_slot(struct ss_import_prior *p, const char *site)
{
	uint32_t i = ss_strtab_intern(&p->sites, site);

	if (i == UINT32_MAX)
		return NULL;
	if (i >= p->cap_site) {
		uint32_t cap = p->cap_site ? 2 * p->cap_site : 256;
		struct prior_site *s = realloc(p->site, cap * sizeof(*s));

		if (!s)
			return NULL;
		memset(s + p->cap_site, 0, (cap - p->cap_site) * sizeof(*s));
		p->site = s;
		p->cap_site = cap;
	}
	return &p->site[i];
}

static int count(struct prior_site *s, uint32_t key)
{
	for (uint32_t i = 0; i < s->nr; i++) {
		if (s->c[i].key == key) {
			s->c[i].n++;
			s->total++;
			return 0;
		}
	}
	if (s->nr == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 4;
		struct prior_count *c = realloc(s->c, cap * sizeof(*c));

		if (!c)
			return -1;
		s->c = c;
		s->cap = cap;
	}
	s->c[s->nr++] = (struct prior_count){key, 1, 0};
	s->total++;
	return 0;
}

/* The first record of each cache: the import may have to declare one at
 * a free, before any allocation from it. */
static int note_cache(struct ss_import_prior *p, const struct ss_target *t,
		      const struct ss_kmem_rec *rec)
{
	char name[SS_IMPORT_CACHE_NAME];
	uint32_t i, nr = p->caches.nr;

	if (ss_import_cache_name(t, rec, name))
		return 0;
	i = ss_strtab_intern(&p->caches, name);
	if (i == UINT32_MAX)
		return -1;
	if (i < nr)
		return 0;
	if (i >= p->cap_caches) {
		uint32_t cap = p->cap_caches ? 2 * p->cap_caches : 64;
		struct ss_kmem_rec *r = realloc(p->first, cap * sizeof(*r));

		if (!r)
			return -1;
		p->first = r;
		p->cap_caches = cap;
	}
	p->first[i] = *rec;
	p->first[i].call_site = p->first[i].name = NULL;
	return 0;
}

/* A free of a pointer not live: a second free since its last allocation
 * event marks it as allocated without events. */
static int learn_dead(struct ss_import_prior *p, struct ss_ptrmap *dead, uint64_t ptr)
{
	if (!ss_ptrmap_find(dead, ptr))
		return ss_ptrmap_insert(dead, ptr) ? 0 : -1;
	if (ss_ptrmap_find(&p->untraced, ptr))
		return 0;
	return ss_ptrmap_insert(&p->untraced, ptr) ? 0 : -1;
}

static int learn_line(struct ss_import_prior *p, struct ss_ptrmap *map,
		      struct ss_ptrmap *dead, const struct ss_target *t,
		      const struct ss_kmem_labels *l, char *line)
{
	struct ss_kmem_rec rec;
	struct ss_ptr_entry *e;
	const char *why;
	char key[SS_IMPORT_CACHE_NAME + 32];

	if (ss_kmem_parse_line(line, l, &rec, &why) != SS_KL_EVENT || !rec.ptr)
		return 0; /* the second pass reports what is malformed */
	e = ss_ptrmap_find(map, rec.ptr);
	if (rec.event == SS_KE_KMALLOC || rec.event == SS_KE_CACHE_ALLOC) {
		uint32_t k;

		key_of(t, &rec, key, sizeof(key));
		k = ss_strtab_intern(&p->keys, key);
		if (k == UINT32_MAX || (!e && !(e = ss_ptrmap_insert(map, rec.ptr))) ||
		    note_cache(p, t, &rec))
			return -1;
		e->id = k;
		if ((e = ss_ptrmap_find(dead, rec.ptr)))
			ss_ptrmap_remove(dead, e);
		return 0;
	}
	if (!e)
		return learn_dead(p, dead, rec.ptr);
	if (!rec.name) {
		struct prior_site *s = site_slot(p, rec.call_site);

		if (!s || count(s, (uint32_t)e->id))
			return -1;
	}
	ss_ptrmap_remove(map, e);
	return ss_ptrmap_insert(dead, rec.ptr) ? 0 : -1;
}

int ss_import_prior_learn(struct ss_import_prior *p, const char *input,
			  const struct ss_kmem_labels *l, const struct ss_target *t,
			  struct ss_error *err)
{
	struct ss_inbuf in;
	struct ss_ptrmap map = {0}, dead = {0};
	char *line;
	size_t len;
	int rc;

	if (ss_inbuf_open(&in, input, err))
		return -1;
	while ((rc = ss_inbuf_line(&in, &line, &len, input, err)) == 1) {
		if (memchr(line, '\0', len))
			continue;
		if (learn_line(p, &map, &dead, t, l, line)) {
			rc = ss_errorf(err, "%s: out of memory", input);
			break;
		}
	}
	ss_inbuf_close(&in);
	ss_ptrmap_release(&map);
	ss_ptrmap_release(&dead);
	p->learned = rc == 0;
	return rc < 0 ? -1 : 0;
}

int ss_import_prior_pick(struct ss_import_prior *p, const char *site,
			 char name[SS_IMPORT_CACHE_NAME], uint64_t *size, uint32_t *gfp)
{
	uint32_t i = ss_strtab_find(&p->sites, site);
	struct prior_site *s;
	struct prior_count *best = NULL;
	double best_gap = 0;
	const char *key;
	unsigned g;
	unsigned long long sz;

	if (i == UINT32_MAX || !p->site[i].total)
		return -1;
	s = &p->site[i];
	s->seen++;
	for (uint32_t k = 0; k < s->nr; k++) {
		double gap = (double)s->c[k].n * (double)s->seen / (double)s->total -
			     (double)s->c[k].given;

		if (!best || gap > best_gap) {
			best = &s->c[k];
			best_gap = gap;
		}
	}
	best->given++;
	key = p->keys.strs[best->key];
	if (key[0] == 'k' && sscanf(key, "k %u %llu", &g, &sz) == 2) {
		name[0] = '\0';
		*size = sz;
		*gfp = g;
		return 0;
	}
	snprintf(name, SS_IMPORT_CACHE_NAME, "%s", key + 2);
	*size = 0;
	*gfp = 0;
	return 0;
}

const struct ss_kmem_rec *ss_import_prior_first(const struct ss_import_prior *p,
						const char *cache)
{
	uint32_t i = ss_strtab_find(&p->caches, cache);

	return i == UINT32_MAX ? NULL : &p->first[i];
}

void ss_import_prior_release(struct ss_import_prior *p)
{
	for (uint32_t i = 0; i < p->sites.nr; i++)
		free(p->site[i].c);
	free(p->site);
	free(p->first);
	ss_ptrmap_release(&p->untraced);
	ss_strtab_release(&p->keys);
	ss_strtab_release(&p->sites);
	ss_strtab_release(&p->caches);
	memset(p, 0, sizeof(*p));
}
