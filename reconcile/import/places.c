/* places.c - where an object was, as a key the whole run shares: a
 * kmalloc class with its flags, or a cache by name (import_rules.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_rules.h"

uint32_t ss_import_place_intern(struct ss_import_places *p, const char *key)
{
	return ss_strtab_intern(&p->keys, key);
}

uint32_t ss_import_place_of_rec(struct ss_import_places *p, const struct ss_target *t,
				const struct ss_kmem_rec *rec)
{
	char name[SS_IMPORT_CACHE_NAME], key[SS_IMPORT_CACHE_NAME + 32];

	if (ss_import_cache_name(t, rec, name))
		snprintf(key, sizeof(key), "k %u %llu", rec->gfp, (unsigned long long)rec->bytes_alloc);
	else
		snprintf(key, sizeof(key), "c %s", name);
	return ss_import_place_intern(p, key);
}

uint32_t ss_import_place_kmalloc(struct ss_import_places *p, uint32_t gfp, uint64_t size)
{
	char key[64];

	snprintf(key, sizeof(key), "k %u %llu", gfp, (unsigned long long)size);
	return ss_import_place_intern(p, key);
}

uint32_t ss_import_place_cache(struct ss_import_places *p, const char *name)
{
	char key[SS_IMPORT_CACHE_NAME + 8];

	snprintf(key, sizeof(key), "c %s", name);
	return ss_import_place_intern(p, key);
}

/* kmalloc_type() picks DMA over reclaimable over accounted
 * (include/linux/slab.h, 6.x). */
void ss_import_kmalloc_name(uint32_t gfp, uint64_t size, char *buf, size_t n)
{
	const char *type = gfp & SS_GFP_DMA ? "dma-kmalloc-" : gfp & SS_GFP_RECLAIMABLE ?
			   "kmalloc-rcl-" : gfp & SS_GFP_ACCOUNT ? "kmalloc-cg-" : "kmalloc-";

	if (size >= 1024 && !(size % 1024))
		snprintf(buf, n, "%s%lluk", type, (unsigned long long)(size / 1024));
	else
		snprintf(buf, n, "%s%llu", type, (unsigned long long)size);
}

bool ss_import_place_kmalloc_class(const struct ss_import_places *p, uint32_t k,
				   unsigned *gfp, unsigned long long *size)
{
	const char *key = p->keys.strs[k];

	return key[0] == 'k' && sscanf(key, "k %u %llu", gfp, size) == 2;
}

/* Place k's snapshot cache and slab order, looked up once: -1 out of
 * memory. */
static int lookup(struct ss_import_places *p, uint32_t k)
{
	const char *key = p->keys.strs[k];
	const struct ss_snap_cache *c = NULL;
	char name[SS_IMPORT_CACHE_NAME + 32];
	unsigned g;
	unsigned long long size;

	if (k < p->cap && p->order[k] != -2)
		return 0;
	if (k >= p->cap) {
		uint32_t cap = p->cap ? 2 * p->cap : 256;
		int8_t *o;
		int32_t *x;

		while (cap <= k)
			cap *= 2;
		o = realloc(p->order, cap);
		if (o)
			p->order = o;
		x = realloc(p->snapi, cap * sizeof(*x));
		if (x)
			p->snapi = x;
		if (!o || !x)
			return -1;
		memset(o + p->cap, -2, cap - p->cap);
		p->cap = cap;
	}
	if (p->snap && ss_import_place_kmalloc_class(p, k, &g, &size)) {
		ss_import_kmalloc_name(g, size, name, sizeof(name));
		c = ss_snap_find(p->snap, name);
		if (!c) {
			ss_import_kmalloc_name(0, size, name, sizeof(name));
			c = ss_snap_find(p->snap, name);
		}
	} else if (p->snap && key[0] == 'c') {
		c = ss_snap_find(p->snap, key + 2);
	}
	p->order[k] = c && c->order <= 10 ? (int8_t)c->order : -1;
	p->snapi[k] = c ? (int32_t)(c - p->snap->caches) : -1;
	return 0;
}

int ss_import_place_order(struct ss_import_places *p, uint32_t k)
{
	return lookup(p, k) ? -1 : p->order[k];
}

int32_t ss_import_place_snap_index(struct ss_import_places *p, uint32_t k)
{
	return lookup(p, k) ? -1 : p->snapi[k];
}

const struct ss_snap_cache *ss_import_place_snap_cache(struct ss_import_places *p, uint32_t k)
{
	int32_t i = ss_import_place_snap_index(p, k);

	return i < 0 ? NULL : &p->snap->caches[i];
}

uint32_t ss_import_place_of_snap_cache(struct ss_import_places *p, uint32_t c)
{
	static const uint32_t types[] = {0, SS_GFP_ACCOUNT, SS_GFP_RECLAIMABLE, SS_GFP_DMA};
	const struct ss_snap_cache *sc = &p->snap->caches[c];
	unsigned size = sc->object_size ? sc->object_size : sc->slab_size;
	char key[SS_IMPORT_CACHE_NAME + 32], name[SS_IMPORT_CACHE_NAME + 32];
	uint32_t k;

	snprintf(key, sizeof(key), "c %s", sc->name);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		ss_import_kmalloc_name(types[i], size, name, sizeof(name));
		if (!strcmp(name, sc->name)) {
			snprintf(key, sizeof(key), "k %u %u", types[i], size);
			break;
		}
	}
	k = ss_import_place_intern(p, key);
	return k != SS_IMPORT_NO_PLACE && ss_import_place_snap_cache(p, k) == sc ? k
										 : SS_IMPORT_NO_PLACE;
}

void ss_import_place_decode(const struct ss_import_places *p, uint32_t k,
			    char name[SS_IMPORT_CACHE_NAME], uint64_t *size, uint32_t *gfp)
{
	unsigned g;
	unsigned long long sz;

	*size = 0;
	*gfp = 0;
	name[0] = '\0';
	if (ss_import_place_kmalloc_class(p, k, &g, &sz)) {
		*size = sz;
		*gfp = g;
	} else {
		snprintf(name, SS_IMPORT_CACHE_NAME, "%s", p->keys.strs[k] + 2);
	}
}

bool ss_import_place_cache_name(const struct ss_import_places *p, uint32_t k,
				char name[SS_IMPORT_CACHE_NAME])
{
	const char *key = p->keys.strs[k];
	unsigned g;
	unsigned long long size;

	if (ss_import_place_kmalloc_class(p, k, &g, &size))
		ss_import_kmalloc_name(g, size, name, SS_IMPORT_CACHE_NAME);
	else if (key[0] == 'c')
		snprintf(name, SS_IMPORT_CACHE_NAME, "%s", key + 2);
	else
		return false;
	return true;
}

void ss_import_places_release(struct ss_import_places *p)
{
	ss_strtab_release(&p->keys);
	free(p->order);
	free(p->snapi);
	p->order = NULL;
	p->snapi = NULL;
	p->cap = 0;
}
