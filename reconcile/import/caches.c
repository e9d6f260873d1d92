/* caches.c - which cache an imported allocation goes to.
 *
 * kmalloc records stay kmalloc (the model picks the class from bytes_req).
 * kmem_cache_alloc records name their cache (name=, printed since 6.1) or
 * give only bytes_req (the cache's object_size) and bytes_alloc (its
 * stride, s->size).  A named cache is declared with the kmem_cache_create()
 * arguments that reproduce its traced stride on the target; an unnamed one
 * goes to kmalloc when the target's kmalloc class for bytes_req has
 * exactly that stride, else to a cache named cache-<bytes_alloc>.
 * With the kernel's snapshot (import --snapshot), a cache it lists is
 * declared with its own object size, alignment and flags instead.
 */
#include <stdlib.h>
#include <string.h>

#include "geometry.h"
#include "import_rules.h"
#include "kmalloc.h"

/* The arguments tried, most common first: none, SLAB_HWCACHE_ALIGN, the
 * free pointer moved out of the object (SLAB_TYPESAFE_BY_RCU or a ctor),
 * both, then an explicit align with and without RCU.  The first that
 * reproduces the traced stride wins. */
static int try_spec(const struct ss_target *t, uint64_t req, uint64_t alloc,
		    unsigned align, unsigned flags)
{
	struct ss_cache_spec spec = {.object_size = (unsigned)req, .align = align,
				     .flags = flags};
	struct ss_geometry g;

	return !ss_geometry_compute(t, &spec, &g, NULL) && g.size == alloc;
}

int ss_import_infer_spec(const struct ss_target *t, uint64_t req,
			 uint64_t alloc, unsigned *align, unsigned *flags)
{
	static const unsigned plain[] = {0, SS_CF_HWCACHE, SS_CF_RCU,
					 SS_CF_HWCACHE | SS_CF_RCU};

	*align = 0;
	*flags = 0;
	if (!req || req > (1u << 30) || alloc > (1ull << 32))
		return -1;
	for (size_t f = 0; f < sizeof(plain) / sizeof(plain[0]); f++) {
		if (try_spec(t, req, alloc, 0, plain[f])) {
			*flags = plain[f];
			return 0;
		}
	}
	for (unsigned rcu = 0; rcu <= SS_CF_RCU; rcu += SS_CF_RCU) {
		for (unsigned a = 8; a <= 4096; a *= 2) {
			if (try_spec(t, req, alloc, a, rcu)) {
				*align = a;
				*flags = rcu;
				return 0;
			}
		}
	}
	return -1;
}

static int remember(struct ss_import_caches *c, uint32_t idx, uint32_t api,
		    const struct ss_kmem_rec *rec)
{
	if (idx >= c->cap) {
		uint32_t cap = c->cap ? c->cap * 2 : 64;
		uint32_t *a = realloc(c->api, cap * sizeof(*a));
		uint64_t *q, *b;

		if (a)
			c->api = a;
		q = realloc(c->req, cap * sizeof(*q));
		if (q)
			c->req = q;
		b = realloc(c->alloc, cap * sizeof(*b));
		if (b)
			c->alloc = b;
		if (!a || !q || !b)
			return -1;
		c->cap = cap;
	}
	c->api[idx] = api;
	c->req[idx] = rec->bytes_req;
	c->alloc[idx] = rec->bytes_alloc;
	return 0;
}

/* The kmem_cache_create() arguments of a cache the snapshot lists: its
 * object size, its s->align as the align argument, and its flags; an RCU
 * cache whose stride has no room for a free pointer after the object
 * keeps it inside (an explicit freeptr_offset, 6.13+: filp).  0 found
 * (the target lays it out with the kernel's stride), -1 not. */
static int snapshot_spec(const struct ss_import_caches *c, const char *name,
			 unsigned *size, unsigned *align, unsigned *flags)
{
	const struct ss_snap_cache *k = c->snap ? ss_snap_find(c->snap, name) : NULL;
	unsigned f = 0;

	if (!k || !k->have_geometry || !k->object_size)
		return -1;
	f |= k->flags & SS_SNAP_HWCACHE ? SS_CF_HWCACHE : 0;
	f |= k->flags & SS_SNAP_RCU ? SS_CF_RCU : 0;
	f |= k->flags & SS_SNAP_CTOR ? SS_CF_CTOR : 0;
	*size = k->object_size;
	*align = k->align;
	if (try_spec(c->target, k->object_size, k->slab_size, k->align, f)) {
		*flags = f;
		return 0;
	}
	if ((f & SS_CF_RCU) && try_spec(c->target, k->object_size, k->slab_size, k->align,
					f | SS_CF_FREEPTR)) {
		*flags = f | SS_CF_FREEPTR;
		return 0;
	}
	return -1;
}

/* Declare a cache for the first allocation that names it. */
static int declare(struct ss_import_caches *c, struct ss_trace_writer *w,
		   const char *name, const struct ss_kmem_rec *rec, struct ss_error *err)
{
	unsigned align, flags, ksize;
	uint64_t size = rec->bytes_req;
	uint32_t idx;
	int api;

	if (!snapshot_spec(c, name, &ksize, &align, &flags)) {
		size = ksize;
		c->from_snapshot++;
	} else if (ss_import_infer_spec(c->target, rec->bytes_req, rec->bytes_alloc, &align, &flags)) {
		c->geometry_mismatch++;
		if (!rec->name) /* no name to keep apart: the stride is the size */
			size = rec->bytes_alloc;
		if (c->warn)
			fprintf(c->warn, "slabsim import: cache %s: no kmem_cache_create() arguments give object size %llu a stride of %llu on target %s; declared with size=%llu\n",
				name, (unsigned long long)rec->bytes_req,
				(unsigned long long)rec->bytes_alloc, c->target->name,
				(unsigned long long)size);
	}
	if (!size || size > (1u << 30))
		return ss_errorf(err, "cache %s: object size %llu out of range", name,
				 (unsigned long long)size);
	api = ss_trace_write_cache(w, name, (unsigned)size, align, flags);
	idx = ss_strtab_intern(&c->names, name);
	if (api < 0 || idx == UINT32_MAX || remember(c, idx, (uint32_t)api, rec))
		return ss_errorf(err, "cache %s: cannot declare it in the output", name);
	return api;
}

void ss_import_clean_name(const char *in, char *out)
{
	size_t n = 0;

	for (; in[n] && n < SS_MAX_NAME; n++)
		out[n] = (unsigned char)in[n] <= ' ' || (unsigned char)in[n] > '~' ? '_' : in[n];
	out[n] = '\0';
}

/* A cache may not be called kmalloc: that is api 0. */
static void clean_cache_name(const char *in, char *out)
{
	ss_import_clean_name(in, out);
	if (!strcmp(out, "kmalloc"))
		strcpy(out, "kmalloc_");
}

static int cache_api(struct ss_import_caches *c, struct ss_trace_writer *w,
		     const char *name, const struct ss_kmem_rec *rec,
		     struct ss_error *err)
{
	uint32_t idx = ss_strtab_find(&c->names, name);

	if (idx == UINT32_MAX)
		return declare(c, w, name, rec, err);
	if (c->req[idx] != rec->bytes_req || c->alloc[idx] != rec->bytes_alloc)
		c->size_changes++;
	return (int)c->api[idx];
}

/* The stride kmalloc gives `req` bytes on the target (0 for size 0). */
static uint64_t kmalloc_stride(const struct ss_target *t, uint64_t req)
{
	int idx = ss_kmalloc_index(t, (size_t)req);

	if (idx == SS_KMALLOC_ZERO)
		return 0;
	if (idx == SS_KMALLOC_LARGE) /* kmalloc_large: whole pages */
		return (uint64_t)t->page_size << ss_get_order(t, (unsigned long)req);
	return ss_kmalloc_class_size(t, idx);
}

bool ss_import_cache_name(const struct ss_target *t, const struct ss_kmem_rec *rec,
			  char name[SS_IMPORT_CACHE_NAME])
{
	if (rec->event == SS_KE_KMALLOC)
		return true;
	if (rec->name) {
		clean_cache_name(rec->name, name);
		return false;
	}
	if (rec->bytes_req && kmalloc_stride(t, rec->bytes_req) == rec->bytes_alloc)
		return true;
	snprintf(name, SS_IMPORT_CACHE_NAME, "cache-%llu", (unsigned long long)rec->bytes_alloc);
	return false;
}

int ss_import_cache_api(struct ss_import_caches *c, struct ss_trace_writer *w,
			const struct ss_kmem_rec *rec, uint64_t *size,
			struct ss_error *err)
{
	char name[SS_IMPORT_CACHE_NAME];

	*size = rec->bytes_req;
	if (!ss_import_cache_name(c->target, rec, name))
		return cache_api(c, w, name, rec, err);
	if (rec->event == SS_KE_KMALLOC)
		c->kmalloc_mismatch += kmalloc_stride(c->target, rec->bytes_req) != rec->bytes_alloc;
	else
		c->by_class++;
	return SS_API_KMALLOC;
}

enum ss_import_cache_lookup ss_import_cache_api_named(struct ss_import_caches *c,
						      struct ss_trace_writer *w, const char *name,
						      const struct ss_kmem_rec *first,
						      uint32_t *api, struct ss_error *err)
{
	uint32_t idx = ss_strtab_find(&c->names, name);
	const struct ss_snap_cache *k;
	struct ss_kmem_rec rec = {.event = SS_KE_CACHE_ALLOC, .name = name};

	if (idx == UINT32_MAX) {
		if (first) {
			rec = *first;
			rec.name = name;
		} else if (c->snap && (k = ss_snap_find(c->snap, name)) && k->object_size) {
			rec.bytes_req = k->object_size;
			rec.bytes_alloc = k->slab_size;
		} else {
			return SS_IMPORT_CACHE_SIZELESS;
		}
		if (declare(c, w, name, &rec, err) < 0)
			return SS_IMPORT_CACHE_FAILED;
		idx = ss_strtab_find(&c->names, name);
	}
	*api = c->api[idx];
	return SS_IMPORT_CACHE_FOUND;
}

uint64_t ss_import_cache_req(const struct ss_import_caches *c, const char *name)
{
	uint32_t idx = ss_strtab_find(&c->names, name);

	return idx == UINT32_MAX ? 0 : c->req[idx];
}

void ss_import_caches_release(struct ss_import_caches *c)
{
	ss_strtab_release(&c->names);
	free(c->api);
	free(c->req);
	free(c->alloc);
	c->api = NULL;
	c->req = c->alloc = NULL;
	c->cap = 0;
}
