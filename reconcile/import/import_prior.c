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
 *
 * With raw pointers (`make capture`'s default) and the kernel's snapshot,
 * an object's slab is its address rounded down to the slab size (slab
 * pages come from the buddy allocator, aligned to their order).  The
 * first pass notes which cache each slab held; an unknown kfree() of an
 * object in a slab seen before the free is of that cache, whatever the
 * site (note_prior_kfree says why not after).  And each prior free
 * carries its slab, so the replay frees the objects the kernel freed
 * slab by slab from one slab of its own (slab_prior.h).  A kfree site
 * that learned nothing has its raw pointers classed by their slot
 * offsets (import_stride.c), which records each free's cache the same
 * way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "import.h"
#include "import_objext.h"
#include "kmalloc.h"
#include "kmalloc_type.h"
#include "slab_vector.h"
#include "trace_io.h"

struct prior_count {
	uint32_t key;		/* index in keys */
	uint64_t n, given;	/* learned frees; unknown frees sent here */
};

struct prior_site {
	struct prior_count *c;
	uint32_t nr, cap;
	uint64_t total, seen;	/* learned frees; unknown frees so far */
	uint64_t *unk;		/* first pass: raw pointers of its unknown kfrees */
	uint32_t nr_unk, cap_unk;
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

/* kmalloc-N, kmalloc-cg-N, kmalloc-rcl-N, dma-kmalloc-N (6.x names):
 * kmalloc_type() picks DMA over reclaimable over accounted. */
void ss_import_kmalloc_name(uint32_t gfp, uint64_t size, char *buf, size_t n)
{
	const char *type = gfp & SS_GFP_DMA ? "dma-kmalloc-" : gfp & SS_GFP_RECLAIMABLE ?
			   "kmalloc-rcl-" : gfp & SS_GFP_ACCOUNT ? "kmalloc-cg-" : "kmalloc-";

	if (size >= 1024 && !(size % 1024))
		snprintf(buf, n, "%s%lluk", type, (unsigned long long)(size / 1024));
	else
		snprintf(buf, n, "%s%llu", type, (unsigned long long)size);
}

/* Key k's cache in the snapshot (and for a kmalloc type the snapshot
 * lacks, the plain class): its index, -1 when none; the slab order is
 * kept beside it (-1 unknown).  Looked up once per key. */
static int key_lookup(struct ss_import_prior *p, uint32_t k)
{
	const char *key = p->keys.strs[k];
	const struct ss_snap_cache *c = NULL;
	char name[SS_IMPORT_CACHE_NAME + 32];
	unsigned g;
	unsigned long long size;

	if (k < p->cap_keys && p->key_order[k] != -2)
		return 0;
	if (k >= p->cap_keys) {
		uint32_t cap = p->cap_keys ? 2 * p->cap_keys : 256;
		int8_t *o;
		int32_t *x;

		while (cap <= k)
			cap *= 2;
		o = realloc(p->key_order, cap);
		if (o)
			p->key_order = o;
		x = realloc(p->key_snapi, cap * sizeof(*x));
		if (x)
			p->key_snapi = x;
		if (!o || !x)
			return -1;
		memset(o + p->cap_keys, -2, cap - p->cap_keys);
		p->cap_keys = cap;
	}
	if (p->snap && key[0] == 'k' && sscanf(key, "k %u %llu", &g, &size) == 2) {
		ss_import_kmalloc_name(g, size, name, sizeof(name));
		c = ss_snap_find(p->snap, name);
		if (!c) {
			ss_import_kmalloc_name(0, size, name, sizeof(name));
			c = ss_snap_find(p->snap, name);
		}
	} else if (p->snap && key[0] == 'c') {
		c = ss_snap_find(p->snap, key + 2);
	}
	p->key_order[k] = c && c->order <= 10 ? (int8_t)c->order : -1;
	p->key_snapi[k] = c ? (int32_t)(c - p->snap->caches) : -1;
	return 0;
}

/* The slab order of the cache behind key k, from the snapshot; -1 when
 * unknown. */
static int key_order(struct ss_import_prior *p, uint32_t k)
{
	return key_lookup(p, k) ? -1 : p->key_order[k];
}

/* Key k's snapshot cache, or NULL. */
static const struct ss_snap_cache *key_cache(struct ss_import_prior *p, uint32_t k)
{
	return key_lookup(p, k) || p->key_snapi[k] < 0 ? NULL : &p->snap->caches[p->key_snapi[k]];
}

#define SLAB_BASE(ptr, order) (((ptr) & ~((4096ull << (order)) - 1)) | (order))

const struct ss_snap_cache *ss_import_prior_last_owner(struct ss_import_prior *p, uint64_t ptr,
						       unsigned order)
{
	struct ss_ptr_entry *e = ss_ptrmap_find(&p->slab_owner, SLAB_BASE(ptr, order));

	return e && key_order(p, (uint32_t)e->id) == (int)order ? key_cache(p, (uint32_t)e->id)
								: NULL;
}

/* The first pass: slab -> the cache (key) it last held. */
static int note_slab(struct ss_import_prior *p, uint64_t ptr, uint32_t k)
{
	struct ss_ptr_entry *e;
	int o;

	if (!p->raw)
		return 0;
	o = key_order(p, k);
	if (o < 0)
		return 0;
	e = ss_ptrmap_find(&p->slab_owner, SLAB_BASE(ptr, o));
	if (!e && !(e = ss_ptrmap_insert(&p->slab_owner, SLAB_BASE(ptr, o))))
		return -1;
	e->id = k;
	return 0;
}

/* Raw kernel addresses of x86_64 (and other 64-bit kernels) have their
 * top 16 bits set; %p's hashes (4.15+) are 32-bit values. */
#define RAW_PTR_MIN 0xffff000000000000ull

static uint32_t slab_key(struct ss_import_prior *p, uint64_t ptr);

void ss_import_prior_place(struct ss_import_prior *p, uint64_t ptr, uint32_t k)
{
	struct ss_ptr_entry *e = ss_ptrmap_find(&p->prior_owner, ptr);

	if (e)
		e->id = (uint64_t)k + 1;
}

int ss_import_prior_key_cache(const struct ss_import_prior *p, uint32_t k,
			      char name[SS_IMPORT_CACHE_NAME])
{
	const char *key = p->keys.strs[k];
	unsigned g;
	unsigned long long size;

	if (key[0] == 'k' && sscanf(key, "k %u %llu", &g, &size) == 2)
		ss_import_kmalloc_name(g, size, name, SS_IMPORT_CACHE_NAME);
	else if (key[0] == 'c')
		snprintf(name, SS_IMPORT_CACHE_NAME, "%s", key + 2);
	else
		return -1;
	return 0;
}

/* A raw pointer kfree()d unknown at this site: the cache its slab held
 * then, as far as the events so far tell.  Only those: an object from
 * before the capture, live until now, kept its slab alive from before the
 * capture until now, so every event in that slab so far was in that
 * slab; an event after the free may be in a new slab on the same pages
 * (reclaim frees slabs, other caches take the pages: du after
 * drop_caches sent 6,762 dentry-name kfrees to dentry, ext4_inode_cache
 * and extent_status by their slabs' later owners).  Unknown then, it is
 * a candidate for the stride rule. */
static int note_prior_kfree(struct ss_import_prior *p, const char *site, uint64_t ptr,
			    uint32_t vector_key)
{
	uint32_t k = slab_key(p, ptr);
	struct ss_ptr_entry *e = ss_ptrmap_find(&p->prior_owner, ptr);
	struct prior_site *s;

	if (!e && !(e = ss_ptrmap_insert(&p->prior_owner, ptr)))
		return -1;
	if (k == UINT32_MAX && (k = vector_key) != UINT32_MAX)
		p->vector_frees++;
	e->id = k == UINT32_MAX ? 0 : (uint64_t)k + 1;
	if (k != UINT32_MAX)
		return 0;
	s = site_slot(p, site);
	if (!s)
		return -1;
	if (s->nr_unk == s->cap_unk) {
		uint32_t cap = s->cap_unk ? 2 * s->cap_unk : 16;
		uint64_t *u = realloc(s->unk, cap * sizeof(*u));

		if (!u)
			return -1;
		s->unk = u;
		s->cap_unk = cap;
	}
	s->unk[s->nr_unk++] = ptr;
	return 0;
}

/* A kmem_cache_free naming its cache (6.1+) of an object from before the
 * capture: the object kept its slab alive from before the capture until
 * this free, so the slab held that cache -- as sure as an allocation
 * seen in it, and the same for a later unknown kfree() in that slab
 * (note_prior_kfree).  Without it, a slab the capture saw only in such
 * frees was no cache's: measured on this machine's 6.18, TIME_WAIT
 * sockets expiring in one capture freed their tcp_bind2_buckets by
 * kmem_cache_free (inet_twsk_bind_unhash(), name=eventpoll_epi, the
 * merged 128-byte cache) and their tcp_bind_buckets by kfree_rcu()
 * (inet_bind_bucket_destroy(), a kfree at kvfree_rcu_list() later, no
 * name: kfree() takes any slab object since 6.4), 6,301 of them in 769
 * slabs where the named frees came first; the stride rule, which knows
 * only kmalloc caches, put 5,483 in kmalloc-128 (kernel +3,660,
 * replay -1,904). */
static int note_named_prior(struct ss_import_prior *p, const struct ss_target *t,
			    const struct ss_kmem_rec *rec)
{
	char key[SS_IMPORT_CACHE_NAME + 32];
	uint32_t k;

	if (!rec->name || !p->raw || rec->ptr < RAW_PTR_MIN)
		return 0;
	key_of(t, rec, key, sizeof(key));
	k = ss_strtab_intern(&p->keys, key);
	return k == UINT32_MAX ? -1 : note_slab(p, rec->ptr, k);
}

struct learner {
	struct ss_import_prior *p;
	struct ss_ptrmap map, dead;
	const struct ss_target *t;
	/* per CPU: the key of the object its last kfree() freed, when the
	 * capture saw it allocated; UINT32_MAX otherwise (after_kfree_vector) */
	uint32_t *last_kfree;
	uint32_t nr_cpus;
};

/* Note the CPU's last free for after_kfree_vector(): key k of a kfree()d
 * object the capture saw allocated, UINT32_MAX for any other free (a
 * kmem_cache_free is import_objext.c's, an unknown kfree's cache not
 * known yet).  -1 out of memory. */
static int note_last_free(struct learner *ln, unsigned cpu, uint32_t k)
{
	if (cpu >= ln->nr_cpus) {
		uint32_t old = ln->nr_cpus;

		if (ss_grow_zeroed((void **)&ln->last_kfree, &ln->nr_cpus, cpu,
				   sizeof(*ln->last_kfree), 64))
			return -1;
		memset(ln->last_kfree + old, 0xff, (ln->nr_cpus - old) * sizeof(*ln->last_kfree));
	}
	ln->last_kfree[cpu] = k;
	return 0;
}

/* A freed slab's obj_exts vector kfree()d right after a kfree() of an
 * object the capture saw allocated: that kfree emptied the slab (as a
 * kmem_cache_free does in import_objext.c, whose rule it completes), so
 * the vector's class is that object's cache's objects per slab times 8.
 * Measured on lsR-share-cold (captures40, 6.18): 4,081 such vectors on
 * slabs the slab-fill listed, every one of that class (kmalloc-cg-N
 * slabs, whose objects only kfree() frees).  The vector's own slab
 * (slab_key()) is asked first and names most of them: this rule placed
 * 1 there, the stride and call-site rules' guess otherwise.  The key of
 * that class, or UINT32_MAX. */
static uint32_t after_kfree_vector(struct learner *ln, const struct ss_kmem_rec *rec)
{
	struct ss_import_prior *p = ln->p;
	const struct ss_snap_cache *c;
	char key[64];
	int idx;

	if (!ss_site_frees_slab_vector(rec->call_site) || rec->cpu >= ln->nr_cpus ||
	    ln->last_kfree[rec->cpu] == UINT32_MAX ||
	    !(c = key_cache(p, ln->last_kfree[rec->cpu])) || !c->objs_per_slab ||
	    (c->flags & SS_SNAP_RCU) ||
	    (idx = ss_kmalloc_index(ln->t, (size_t)c->objs_per_slab * SS_OBJEXT_BYTES)) < 0)
		return UINT32_MAX;
	snprintf(key, sizeof(key), "k 0 %llu", (unsigned long long)ss_kmalloc_class_size(ln->t, idx));
	return ss_strtab_intern(&p->keys, key);
}

static int learn_rec(void *ctx, int kind, struct ss_kmem_rec *recp, const char *why,
		     struct ss_error *err)
{
	struct learner *ln = ctx;
	struct ss_import_prior *p = ln->p;
	struct ss_ptrmap *map = &ln->map, *dead = &ln->dead;
	const struct ss_target *t = ln->t;
	struct ss_kmem_rec rec = *recp;
	struct ss_ptr_entry *e;
	const struct ss_snap_cache *c;
	char key[SS_IMPORT_CACHE_NAME + 32];

	(void)why;
	if (ss_import_pagefree_learn(&p->pagefree, kind, &rec))
		return ss_errorf(err, "out of memory");
	if (kind != SS_KL_EVENT || !rec.ptr)
		return 0; /* the second pass reports what is malformed */
	if (rec.ptr >= RAW_PTR_MIN)
		p->raw = true;
	e = ss_ptrmap_find(map, rec.ptr);
	if (rec.event == SS_KE_KMALLOC || rec.event == SS_KE_CACHE_ALLOC) {
		uint32_t k;

		key_of(t, &rec, key, sizeof(key));
		k = ss_strtab_intern(&p->keys, key);
		if (k == UINT32_MAX || (!e && !(e = ss_ptrmap_insert(map, rec.ptr))) ||
		    note_cache(p, t, &rec))
			return ss_errorf(err, "out of memory");
		e->id = k;
		if ((e = ss_ptrmap_find(dead, rec.ptr)))
			ss_ptrmap_remove(dead, e);
		if (rec.has_cpu && p->raw && (c = key_cache(p, k)) &&
		    ss_import_cpuslab_alloc(&p->cpuslab, p->snap, c, rec.cpu, rec.ptr))
			return ss_errorf(err, "out of memory");
		return note_slab(p, rec.ptr, k) ? ss_errorf(err, "out of memory") : 0;
	}
	if (p->raw && p->snap && ss_import_cpuslab_free(&p->cpuslab, rec.ptr))
		return ss_errorf(err, "out of memory");
	if (!e) {
		if (p->walk.live && ss_ptrmap_find(&p->walk, rec.ptr))
			return 0; /* the snapshot walk's (import_walk.c) */
		if (note_named_prior(p, t, &rec))
			return ss_errorf(err, "out of memory");
		if (!rec.name && rec.ptr >= RAW_PTR_MIN && rec.call_site &&
		    note_prior_kfree(p, rec.call_site, rec.ptr, after_kfree_vector(ln, &rec)))
			return ss_errorf(err, "out of memory");
		if (!ss_site_frees_slab_vector(rec.call_site) &&
		    note_last_free(ln, rec.cpu, UINT32_MAX))
			return ss_errorf(err, "out of memory");
		return learn_dead(p, dead, rec.ptr) ? ss_errorf(err, "out of memory") : 0;
	}
	/* (a vector's own kfree leaves its slab's cache known) */
	if (!ss_site_frees_slab_vector(rec.call_site) &&
	    note_last_free(ln, rec.cpu, rec.name ? UINT32_MAX : (uint32_t)e->id))
		return ss_errorf(err, "out of memory");
	if (!rec.name) {
		struct prior_site *s = site_slot(p, rec.call_site);

		if (!s || count(s, (uint32_t)e->id))
			return ss_errorf(err, "out of memory");
	}
	if (note_slab(p, rec.ptr, (uint32_t)e->id))
		return ss_errorf(err, "out of memory");
	ss_ptrmap_remove(map, e);
	return ss_ptrmap_insert(dead, rec.ptr) ? 0 : ss_errorf(err, "out of memory");
}

/* The kmalloc flags of site s's learned frees when they are all kmalloc
 * objects of one family (kmalloc_type()'s on target t), else -1: a named
 * cache's objects are no class's, and two families no one's. */
static int64_t site_kmalloc_gfp(const struct ss_import_prior *p, const struct ss_target *t,
				const struct prior_site *s)
{
	int64_t gfp = -1;

	for (uint32_t j = 0; j < s->nr; j++) {
		unsigned g;
		unsigned long long size;

		if (sscanf(p->keys.strs[s->c[j].key], "k %u %llu", &g, &size) != 2 ||
		    (gfp >= 0 && ss_kmalloc_gfp_type(t, g) != ss_kmalloc_gfp_type(t, (uint32_t)gfp)))
			return -1;
		gfp = g;
	}
	return gfp;
}

/* After the first pass: the stride rule (import_stride.c) for the kfree
 * sites that learned nothing, on their pointers in slabs no cache was seen
 * in -- and for those that learned only kmalloc objects of one family,
 * within that family.  A site that frees strings or arrays frees every
 * class their lengths reach, and what the capture saw it free need not be
 * all of them: measured on git-status-cold (6.18, after drop_caches),
 * ext4_free_in_core_inode freed 7 objects the capture saw allocated, all
 * kmalloc-32, and 5,270 from before it, 1,621 of which sat at offsets no
 * kmalloc-32 object has (16 past a multiple of 32); by the learned share
 * all went to kmalloc-32, which lost 1,613 objects where the kernel's
 * lost 887, and kmalloc-16 63 where the kernel's lost 2,330.  Pointers the
 * rule leaves unclassed (fewer than SS_STRIDE_MIN_GROUP in a slab, or
 * fitting no class) keep the learned shares (rule 4). */
static int learn_strides(struct ss_import_prior *p, const struct ss_target *t)
{
	struct ss_import_stride st;
	int rc = 0;

	if (!p->raw || ss_import_stride_begin(&st, p))
		return p->raw ? -1 : 0;
	for (uint32_t i = 0; i < p->sites.nr && !rc; i++) {
		struct prior_site *s = &p->site[i];
		uint32_t n = 0;
		int64_t gfp;

		/* not known when freed, nor placed since by the rule */
		for (uint32_t j = 0; j < s->nr_unk; j++) {
			struct ss_ptr_entry *e = ss_ptrmap_find(&p->prior_owner, s->unk[j]);

			if (e && !e->id)
				s->unk[n++] = s->unk[j];
		}
		if (!s->total)
			rc = ss_import_stride_site(&st, p, t, s->unk, n, -1);
		else if ((gfp = site_kmalloc_gfp(p, t, s)) >= 0)
			rc = ss_import_stride_site(&st, p, t, s->unk, n, gfp);
		free(s->unk);
		s->unk = NULL;
		s->nr_unk = s->cap_unk = 0;
	}
	p->stride_frees = st.frees;
	p->stride_slabs = st.slabs;
	ss_import_stride_release(&st);
	return rc;
}

/* A listed slab that showed no free object (a CPU's active slab handed
 * out whole) is found by its struct page instead, once the direct map's
 * base is exact (ss_import_pagefree_fill): its pages are the frame's. */
static int fill_bare(struct ss_import_prior *p)
{
	const struct ss_import_pagefree *pf = &p->pagefree;

	for (unsigned c = 0; c < p->snap->nr; c++) {
		const struct ss_snap_cache *sc = &p->snap->caches[c];

		for (uint32_t i = 0; i < sc->nr_fill; i++) {
			const struct ss_snap_fill *f = &sc->fill[i];
			struct ss_ptr_entry *e;
			uint64_t off;

			if (f->base || sc->order > 10 || !ss_import_pagefree_frame(pf, f->page, &off))
				continue;
			if (!(e = ss_ptrmap_insert(&p->fill_pos, pf->base + off)))
				return -1;
			e->id = i + 1;
			e->site = c;
		}
	}
	return 0;
}

int ss_import_prior_learn(struct ss_import_prior *p, const char *input, bool dat,
			  const struct ss_kmem_labels *l, const struct ss_target *t,
			  struct ss_error *err)
{
	struct learner ln = {.p = p, .t = t};
	int rc;

	if (dat)
		rc = ss_import_dat_read(input, learn_rec, &ln, NULL, err);
	else
		rc = ss_kmem_text_read(input, l, learn_rec, &ln, NULL, err);
	ss_ptrmap_release(&ln.map);
	ss_ptrmap_release(&ln.dead);
	free(ln.last_kfree);
	if (rc == 0 && learn_strides(p, t))
		rc = ss_errorf(err, "out of memory");
	ss_import_pagefree_finish(&p->pagefree);
	if (p->fill && !ss_import_pagefree_fill(&p->pagefree, p->snap) && fill_bare(p))
		rc = ss_errorf(err, "out of memory");
	p->learned = rc == 0;
	return rc < 0 ? -1 : 0;
}

int ss_import_prior_fill(struct ss_import_prior *p)
{
	p->fill = true;
	for (unsigned c = 0; p->snap && c < p->snap->nr; c++) {
		const struct ss_snap_cache *sc = &p->snap->caches[c];

		for (uint32_t i = 0; i < sc->nr_fill; i++) {
			struct ss_ptr_entry *e;

			if (!sc->fill[i].base || sc->order > 10)
				continue;
			if (!(e = ss_ptrmap_insert(&p->fill_pos, SLAB_BASE(sc->fill[i].base, sc->order))))
				return -1;
			e->id = i + 1;
			e->site = c;
		}
	}
	return 0;
}

/* With a slab-fill file: how many ids come before key k's cache's
 * unlisted slabs (its listed slabs' places come first), and *place the id
 * of a listed slab: its place, taken once (its pages may hold another
 * slab later).  0 otherwise. */
static uint64_t fill_ids(struct ss_import_prior *p, uint64_t base, uint32_t k, uint64_t *place)
{
	const struct ss_snap_cache *sc;
	struct ss_ptr_entry *e;
	int32_t c;

	if (!p->fill || (c = p->key_snapi[k]) < 0 || !(sc = &p->snap->caches[c])->nr_fill)
		return 0;
	if ((e = ss_ptrmap_find(&p->fill_pos, base)) && e->site == (uint32_t)c) {
		uint64_t id = e->id;

		ss_ptrmap_remove(&p->fill_pos, e);
		*place = id;
		return 0;
	}
	return sc->nr_fill;
}

/* The dense id + 1 of ptr's slab within key k's cache, 0 when unknown. */
static uint64_t slab_id(struct ss_import_prior *p, uint64_t ptr, uint32_t k)
{
	struct ss_ptr_entry *e;
	uint64_t place, before;
	int o;

	if (!p->raw || ptr < RAW_PTR_MIN || (o = key_order(p, k)) < 0)
		return 0;
	e = ss_ptrmap_find(&p->slab_ids, SLAB_BASE(ptr, o));
	if (e)
		return e->id;
	if (k >= p->nr_key_slabs) {
		uint32_t nr = p->nr_key_slabs ? 2 * p->nr_key_slabs : 256;
		uint64_t *n;

		while (nr <= k)
			nr *= 2;
		n = realloc(p->key_slabs, nr * sizeof(*n));
		if (!n)
			return 0;
		memset(n + p->nr_key_slabs, 0, (nr - p->nr_key_slabs) * sizeof(*n));
		p->key_slabs = n;
		p->nr_key_slabs = nr;
	}
	e = ss_ptrmap_insert(&p->slab_ids, SLAB_BASE(ptr, o));
	if (!e)
		return 0;
	place = 0;
	before = fill_ids(p, SLAB_BASE(ptr, o), k, &place);
	e->id = place ? place : before + ++p->key_slabs[k];
	e->site = k; /* (its cache, for ss_import_prior_slab_freed) */
	return e->id;
}

/* The cache a raw pointer's slab held when the object was freed (or the
 * stride rule's), or UINT32_MAX. */
static uint32_t prior_key(struct ss_import_prior *p, uint64_t ptr)
{
	struct ss_ptr_entry *e;

	if (!p->raw || ptr < RAW_PTR_MIN || !(e = ss_ptrmap_find(&p->prior_owner, ptr)) || !e->id)
		return UINT32_MAX;
	return (uint32_t)(e->id - 1);
}

/* The key the events give snapshot cache c's objects: "k FLAGS SIZE" for
 * a kmalloc cache (its type's flags), "c NAME" for the others; UINT32_MAX
 * when that key does not lead back to c. */
static uint32_t snap_cache_key(struct ss_import_prior *p, uint32_t c)
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
	k = ss_strtab_intern(&p->keys, key);
	return k != UINT32_MAX && key_cache(p, k) == sc ? k : UINT32_MAX;
}

/* The cache a raw pointer's slab was seen holding so far, or UINT32_MAX.
 * Seen by an event, or else listed by the slab-fill file read before the
 * capture: an object from before the capture, live until this free, kept
 * its slab alive from the listing until now.  Measured on lsR-share-cold
 * (captures40, 6.18): 3,270 of its 80,000 such kfrees, which the stride
 * and call-site rules had placed. */
static uint32_t slab_key(struct ss_import_prior *p, uint64_t ptr)
{
	if (!p->raw || ptr < RAW_PTR_MIN)
		return UINT32_MAX;
	for (int o = 0; o <= 10; o++) {
		struct ss_ptr_entry *e = ss_ptrmap_find(&p->slab_owner, SLAB_BASE(ptr, o));

		if (e && key_order(p, (uint32_t)e->id) == o)
			return (uint32_t)e->id;
	}
	for (int o = 0; p->fill && o <= 10; o++) {
		struct ss_ptr_entry *e = ss_ptrmap_find(&p->fill_pos, SLAB_BASE(ptr, o));

		if (e && p->snap->caches[e->site].order == (unsigned)o) {
			uint32_t k = snap_cache_key(p, (uint32_t)e->site);

			p->listed_frees += k != UINT32_MAX;
			return k;
		}
	}
	return UINT32_MAX;
}

/* Key k as a place: a cache name, or kmalloc size and flags. */
static void place_of(const struct ss_import_prior *p, uint32_t k,
		     char name[SS_IMPORT_CACHE_NAME], uint64_t *size, uint32_t *gfp)
{
	const char *key = p->keys.strs[k];
	unsigned g;
	unsigned long long sz;

	*size = 0;
	*gfp = 0;
	name[0] = '\0';
	if (key[0] == 'k' && sscanf(key, "k %u %llu", &g, &sz) == 2) {
		*size = sz;
		*gfp = g;
	} else {
		snprintf(name, SS_IMPORT_CACHE_NAME, "%s", key + 2);
	}
}

uint64_t ss_import_prior_kmalloc_slab(struct ss_import_prior *p, uint64_t ptr, uint32_t gfp,
				      uint64_t size)
{
	char key[64];
	uint32_t k;

	snprintf(key, sizeof(key), "k %u %llu", gfp, (unsigned long long)size);
	k = ss_strtab_intern(&p->keys, key);
	return k == UINT32_MAX ? 0 : slab_id(p, ptr, k);
}

uint64_t ss_import_prior_slab(struct ss_import_prior *p, uint64_t ptr, const char *cache)
{
	char key[SS_IMPORT_CACHE_NAME + 8];
	uint32_t k;

	snprintf(key, sizeof(key), "c %s", cache);
	/* a cache the capture never allocated from is a place all the same */
	k = ss_strtab_intern(&p->keys, key);
	return k == UINT32_MAX ? 0 : slab_id(p, ptr, k);
}

int ss_import_prior_slab_freed(struct ss_import_prior *p, uint64_t addr, unsigned order,
			       char name[SS_IMPORT_CACHE_NAME], uint64_t *size, uint32_t *gfp,
			       uint64_t *slab)
{
	struct ss_ptr_entry *e;

	if (!p->raw || addr & ((4096ull << order) - 1) ||
	    !(e = ss_ptrmap_find(&p->slab_ids, SLAB_BASE(addr, order))))
		return 0;
	place_of(p, e->site, name, size, gfp);
	*slab = e->id;
	ss_ptrmap_remove(&p->slab_ids, e);
	return 1;
}

int ss_import_prior_pick(struct ss_import_prior *p, uint64_t ptr, const char *site,
			 char name[SS_IMPORT_CACHE_NAME], uint64_t *size, uint32_t *gfp,
			 uint64_t *slab)
{
	uint32_t i = ss_strtab_find(&p->sites, site), k = prior_key(p, ptr);
	struct prior_site *s;
	struct prior_count *best = NULL;
	double best_gap = 0;

	if (k != UINT32_MAX) {
		place_of(p, k, name, size, gfp);
		*slab = slab_id(p, ptr, k);
		return 0;
	}
	if (i == UINT32_MAX || !p->site[i].total)
		return -1;
	s = &p->site[i];
	s->seen++;
	for (uint32_t j = 0; j < s->nr; j++) {
		double gap = (double)s->c[j].n * (double)s->seen / (double)s->total -
			     (double)s->c[j].given;

		if (!best || gap > best_gap) {
			best = &s->c[j];
			best_gap = gap;
		}
	}
	best->given++;
	place_of(p, best->key, name, size, gfp);
	*slab = slab_id(p, ptr, best->key);
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
	for (uint32_t i = 0; i < p->sites.nr; i++) {
		free(p->site[i].c);
		free(p->site[i].unk);
	}
	free(p->site);
	free(p->first);
	ss_ptrmap_release(&p->untraced);
	ss_ptrmap_release(&p->walk);
	ss_ptrmap_release(&p->slab_owner);
	ss_ptrmap_release(&p->fill_pos);
	ss_ptrmap_release(&p->prior_owner);
	ss_ptrmap_release(&p->slab_ids);
	ss_import_pagefree_release(&p->pagefree);
	free(p->key_order);
	free(p->key_snapi);
	ss_import_cpuslab_release(&p->cpuslab);
	free(p->key_slabs);
	ss_strtab_release(&p->keys);
	ss_strtab_release(&p->sites);
	ss_strtab_release(&p->caches);
	memset(p, 0, sizeof(*p));
}
