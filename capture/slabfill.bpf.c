/* slabfill.bpf.c - how full each partial and CPU slab of every SLUB cache
 * is, and what its sheaves hold, read from the kernel itself
 * (`build/slab-fill`, docs/capture.md).
 *
 * /sys/kernel/slab gives a cache's partial slabs only as a count and a sum
 * (partial, objects_partial: count_partial() over the node lists), and
 * its CPU slabs only as a count (cpu_slabs) and slabs_cpu_partial as an
 * estimate; the replay of a capture needs each slab's own fill and its
 * place on its list (get_partial_node() refills from the head).  A
 * kmem_cache iterator (bpf_iter_kmem_cache, 6.13) visits every cache; this
 * program walks, per cache, each node's partial list in list order, then
 * each CPU's kmem_cache_cpu: the active slab (its free objects on the
 * CPU's lockless freelist counted by walking it) and the CPU partial list
 * (slab->next, head first), and sends a record per slab through a ring
 * buffer (one cache's slabs can be more than a seq_file page holds), with
 * a bitmap of its free objects: its own freelist walked, and an active
 * slab's CPU freelist too (the import tells objects allocated unseen in
 * the capture's window by them, docs/import.md).  The
 * lists are read without their locks, as count_partial() does on 6.18
 * without CONFIG_SLUB_DEBUG: a slab that moves meanwhile can be missed or
 * seen twice, and the replay makes the fills agree with the snapshot's
 * counts (allocators/slab_prior.c plan_measured).
 *
 * The CPU areas: s->cpu_slab is a __percpu pointer, and this kernel's BTF
 * tags no field per-CPU (bpf_per_cpu_ptr() refuses it) nor does kallsyms
 * hold __per_cpu_offset or this_cpu_off without KALLSYMS_ALL.  A per-CPU
 * array map of this program's own gives the offsets instead: its storage
 * is one __percpu pointer (struct bpf_array pptrs[0]), and
 * bpf_map_lookup_percpu_elem() returns that pointer as per_cpu_ptr()
 * makes it for CPU c, so the difference is CPU c's offset
 * (__per_cpu_offset[c]), the one per_cpu_ptr(s->cpu_slab, c) adds.  Reading
 * the map's own address this way takes root (bpf_allow_ptr_leaks()), as
 * the iterator does anyway.
 *
 * Sheaves (6.18 for caches created with a capacity, 7.x for every cache):
 * per CPU the objects in its main, spare and rcu_free sheaves (struct
 * slub_percpu_sheaves at s->cpu_sheaves, __percpu, found by the same
 * offsets), per node its barn's full and empty sheaves and the objects in
 * the full ones (kmem_cache_node's barn in 6.18, s->per_node[n].barn in
 * 7.x).  7.x has no struct kmem_cache_cpu and no s->node[]: the object
 * has a program per kernel layout (enum layout below), and the reader
 * loads the one the running kernel's BTF has: 6.13 - 6.17, 6.18, 7.x.
 *
 * Types are declared here with only the fields read, relocated against the
 * running kernel's BTF (CO-RE), so no vmlinux.h is generated.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "slabfill_rec.h"

char LICENSE[] SEC("license") = "GPL"; /* bpf_loop, the ring buffer */

struct list_head {
	struct list_head *next, *prev;
} __attribute__((preserve_access_index));

struct slab {
	struct list_head slab_list;
	struct slab *next;	/* (CPU partial lists: the union's other side) */
	void *freelist;
	unsigned int inuse : 16;
	unsigned int objects : 15;
} __attribute__((preserve_access_index));

struct node_barn { /* 6.18+: a node's full and empty sheaves */
	struct list_head sheaves_full;
	unsigned int nr_full;
	unsigned int nr_empty;
} __attribute__((preserve_access_index));

struct kmem_cache_node {
	unsigned long nr_partial;
	struct list_head partial;
	struct node_barn *barn;	/* 6.18 only (7.x: s->per_node[].barn) */
} __attribute__((preserve_access_index));

struct slab_sheaf { /* 6.18+ */
	struct list_head barn_list; /* (in a union at its start) */
	unsigned int size;
} __attribute__((preserve_access_index));

struct slub_percpu_sheaves { /* 6.18+, per CPU */
	struct slab_sheaf *main, *spare, *rcu_free;
} __attribute__((preserve_access_index));

struct kmem_cache_per_node_ptrs { /* 7.0+ */
	struct node_barn *barn;
	struct kmem_cache_node *node;
} __attribute__((preserve_access_index));

struct kmem_cache_cpu {
	void *freelist;		/* the active slab's free objects, this CPU's */
	struct slab *slab;	/* the active slab */
	struct slab *partial;	/* CONFIG_SLUB_CPU_PARTIAL */
} __attribute__((preserve_access_index));

struct kmem_cache_order_objects {
	unsigned int x;		/* order << OO_SHIFT (16) | objects */
} __attribute__((preserve_access_index));

struct kmem_cache {
	struct kmem_cache_cpu *cpu_slab; /* __percpu; gone in 7.0 */
	struct slub_percpu_sheaves *cpu_sheaves; /* __percpu, 6.18+ */
	unsigned int sheaf_capacity; /* 6.18+: 0, no sheaves */
	unsigned int size;	/* the stride */
	unsigned int offset;	/* the free pointer's place in an object */
	struct kmem_cache_order_objects oo;
	struct kmem_cache_order_objects min; /* the order a slab falls back to */
	unsigned int red_left_pad; /* CONFIG_SLUB_DEBUG: before each object */
	unsigned long random;	/* CONFIG_SLAB_FREELIST_HARDENED */
	const char *name;
	struct kmem_cache_node *node[1024];	/* up to 6.18 */
	struct kmem_cache_per_node_ptrs per_node[1024]; /* 7.0+ */
} __attribute__((preserve_access_index));

struct bpf_array {
	void *pptrs[1];		/* a per-CPU array's storage, __percpu */
} __attribute__((preserve_access_index));

struct bpf_iter_meta {
	struct seq_file *seq;
} __attribute__((preserve_access_index));

struct bpf_iter__kmem_cache {
	struct bpf_iter_meta *meta;
	struct kmem_cache *s;
} __attribute__((preserve_access_index));

/* set by user space before load: a section of their own, so that its
 * map holds nothing else (the format strings are in .rodata) */
const volatile __u32 nr_nodes SEC(".rodata.cfg") = 1;
const volatile __u32 nr_cpus SEC(".rodata.cfg") = 1;

/* its per-CPU storage gives the per-CPU offsets (above) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} percpu_probe SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, SLABFILL_RING_BYTES);
} slabs SEC(".maps");

__u32 cache_index;	/* the cache being visited: its header's number */
/* the cache's geometry, for the free objects' walks (one cache at a
 * time); a section of its own, so that .bss stays as the reader reads it */
struct geom {
	__u64 random, size, pad_left, oo_bytes, min_bytes;
	__u32 offset, oo_objects;
};
struct geom g SEC(".data.geom") = {};
__u64 dropped;		/* records the ring had no room for */
__u64 cpu_unread;	/* CPU areas whose offset could not be found */

/* bpf_loop's state over one node's list */
struct walk {
	struct list_head *at;	    /* the next link */
	struct list_head *head;	    /* the node's list head, to stop at */
	__u32 node;
};

/* the address a pointer holds, as a number (bpf_probe_read_kernel copies
 * it: the verifier lets root read a pointer so, bpf_allow_ptr_leaks()) */
static __u64 addr_of(const void *p)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), &p);
	return v;
}

/* bpf_loop's state over a freelist: a slab's own, or an active slab's
 * CPU freelist */
struct freewalk {
	__u64 obj;		/* the next free object, 0 at the end */
	__u64 lo, hi;		/* the slab's bytes: a pointer outside ends it */
	__u32 n;		/* objects counted */
	int bad;		/* a pointer outside the slab, unreadable, or a
				 * walk that did not end */
	int nobits;		/* an object the bitmap cannot hold */
	__u64 bits[SLABFILL_FREE_WORDS]; /* bit i: object i is free */
	__u64 shown;		/* the record's free object (0: the slab's first) */
	__u16 cpu_free;		/* the record's cpu_free */
};

/* One free object: marked in the bitmap, then its free pointer at obj +
 * s->offset, decoded as freelist_ptr_decode() does (6.18 mm/slub.c: ptr ^
 * s->random ^ swab(ptr_addr) when CONFIG_SLAB_FREELIST_HARDENED).  An
 * object's index is (obj - slab start - s->red_left_pad) / s->size, as
 * __obj_to_index() counts them. */
static long free_step(__u32 i, void *ctx)
{
	struct freewalk *f = ctx;
	__u64 at, v = 0, idx;

	if (!f->obj)
		return 1;
	if (f->obj < f->lo || f->obj >= f->hi) {
		f->bad = 1;
		return 1;
	}
	f->n++;
	idx = g.size ? (f->obj - f->lo - g.pad_left) / g.size : SLABFILL_FREE_BITS;
	if (idx < SLABFILL_FREE_BITS)
		f->bits[(idx >> 6) & (SLABFILL_FREE_WORDS - 1)] |= 1ull << (idx & 63);
	else
		f->nobits = 1;
	at = f->obj + g.offset;
	if (bpf_probe_read_kernel(&v, sizeof(v), (void *)at)) {
		f->bad = 1;
		return 1;
	}
	f->obj = v ^ g.random ^ (g.random ? __builtin_bswap64(at) : 0);
	return 0;
}

/* Walk the free objects from obj into f; the slab's bytes from the first
 * walk that has an object: its order is the cache's (oo), or the order
 * it falls back to (min) when it holds fewer objects. */
static void walk_free(struct freewalk *f, struct slab *slab, __u64 obj)
{
	if (!obj)
		return;
	if (!f->hi) {
		__u64 bytes = BPF_CORE_READ_BITFIELD_PROBED(slab, objects) == g.oo_objects
				      ? g.oo_bytes : g.min_bytes;

		f->lo = obj & ~(bytes - 1);
		f->hi = f->lo + bytes;
	}
	f->obj = obj;
	bpf_loop(SLABFILL_MAX_OBJECTS, free_step, f, 0);
	if (f->obj)
		f->bad = 1;
}

/* a slab's record: kind SLABFILL_NODE/CPU/CPU_PARTIAL, where its node or
 * CPU; f its free objects walked, with the free object to show (0: the
 * slab's first) and (an active slab) its objects on the CPU freelist
 * (BPF functions take 5 arguments at most) */
static void emit(struct slab *slab, __u16 kind, __u32 where, const struct freewalk *f)
{
	/* in the ring itself: the stack of every frame from the iterator's
	 * down to free_step() is 512 bytes in all */
	struct slabfill_rec *r = bpf_ringbuf_reserve(&slabs, sizeof(*r), 0);

	if (!r) {
		dropped++;
		return;
	}
	r->cache = cache_index;
	r->where = where;
	r->kind = kind;
	r->slab = (__u64)slab;
	r->freelist = f->shown ? f->shown : addr_of(BPF_CORE_READ(slab, freelist));
	r->inuse = BPF_CORE_READ_BITFIELD_PROBED(slab, inuse);
	r->objects = BPF_CORE_READ_BITFIELD_PROBED(slab, objects);
	r->cpu_free = f->cpu_free;
	r->free_ok = !f->bad && !f->nobits;
	__builtin_memcpy(r->free_bits, f->bits, sizeof(r->free_bits));
	r->pad[0] = r->pad[1] = r->pad[2] = 0;
	bpf_ringbuf_submit(r, 0);
}

/* a listed slab's record with its own freelist walked */
static void emit_walked(struct slab *slab, __u16 kind, __u32 where)
{
	struct freewalk f = {};

	walk_free(&f, slab, addr_of(BPF_CORE_READ(slab, freelist)));
	emit(slab, kind, where, &f);
}

/* bpf_loop's state over one CPU's partial list */
struct cpuwalk {
	struct slab *at;
	__u32 cpu;
};

static long cpu_partial_step(__u32 i, void *ctx)
{
	struct cpuwalk *w = ctx;
	struct slab *at = w->at;

	if (!at)
		return 1;
	emit_walked(at, SLABFILL_CPU_PARTIAL, w->cpu);
	w->at = BPF_CORE_READ(at, next);
	return 0;
}

/* The kernel layouts, one program each (the user space loads the one its
 * kernel has, capture/slabfill.c): the compiler drops what a layout lacks,
 * so no instruction reads a field its kernel does not have (a CO-RE
 * field test alone would not do: the compiler may compute both sides of
 * a test on a relocated constant). */
enum layout {
	CPU_SLABS,	  /* 6.13 - 6.17: CPU slabs, s->node[] */
	CPU_SLABS_SHEAVES, /* 6.18: and sheaves, the barn in kmem_cache_node */
	SHEAVES_ONLY,	  /* 7.0+: no struct kmem_cache_cpu, s->per_node[] */
};

/* bpf_loop's state over the CPUs */
struct cpus {
	__u64 cpu_slab;		/* s->cpu_slab, __percpu (up to 6.18) */
	__u64 cpu_sheaves;	/* s->cpu_sheaves, __percpu; 0: no sheaves */
	__u64 base;		/* percpu_probe's __percpu storage */
};

/* a sheaf's objects, SLABFILL_NO_SHEAF for none */
static __u16 sheaf_size(struct slab_sheaf *sf)
{
	return sf ? (__u16)BPF_CORE_READ(sf, size) : SLABFILL_NO_SHEAF;
}

/* CPU c's sheaves (struct slub_percpu_sheaves at pcs): their objects */
static void emit_sheaves(struct slub_percpu_sheaves *pcs, __u32 c)
{
	struct slabfill_rec *r = bpf_ringbuf_reserve(&slabs, sizeof(*r), 0);

	if (!r) {
		dropped++;
		return;
	}
	__builtin_memset(r, 0, sizeof(*r));
	r->cache = cache_index;
	r->where = c;
	r->kind = SLABFILL_SHEAVES;
	r->inuse = sheaf_size(BPF_CORE_READ(pcs, main));
	r->objects = sheaf_size(BPF_CORE_READ(pcs, spare));
	r->cpu_free = sheaf_size(BPF_CORE_READ(pcs, rcu_free));
	bpf_ringbuf_submit(r, 0);
}

/* CPU c's active slab and CPU partial list (up to 6.18), and its sheaves
 * (6.18+) */
static __always_inline long cpu_visit(__u32 c, struct cpus *cs, const enum layout lay)
{
	__u32 zero = 0;
	void *mine = bpf_map_lookup_percpu_elem(&percpu_probe, &zero, c);
	struct kmem_cache_cpu *kc;
	struct slab *slab;

	if (!mine) {
		cpu_unread++;
		return 0;
	}
	if (lay != CPU_SLABS && cs->cpu_sheaves)
		emit_sheaves((struct slub_percpu_sheaves *)(cs->cpu_sheaves +
							    (addr_of(mine) - cs->base)), c);
	if (lay == SHEAVES_ONLY)
		return 0;
	kc = (struct kmem_cache_cpu *)(cs->cpu_slab + (addr_of(mine) - cs->base));
	slab = BPF_CORE_READ(kc, slab);
	if (slab) {
		struct freewalk f = {};

		f.shown = addr_of(BPF_CORE_READ(kc, freelist));
		walk_free(&f, slab, f.shown);
		/* counted: 1 + its count (0: the walk ran off the slab, a
		 * list changing as it was read) */
		f.cpu_free = f.bad ? 0 : (__u16)(f.n + 1);
		/* then objects freed to the slab itself since the CPU took
		 * its freelist (remote frees): free too */
		walk_free(&f, slab, addr_of(BPF_CORE_READ(slab, freelist)));
		emit(slab, SLABFILL_CPU, c, &f);
	}
	if (bpf_core_field_exists(kc->partial)) {
		struct cpuwalk w = {.at = BPF_CORE_READ(kc, partial), .cpu = c};

		bpf_loop(SLABFILL_MAX_LIST, cpu_partial_step, &w, 0);
	}
	return 0;
}

static long cpu_step(__u32 c, void *ctx)
{
	return cpu_visit(c, ctx, CPU_SLABS);
}

static long cpu_step_618(__u32 c, void *ctx)
{
	return cpu_visit(c, ctx, CPU_SLABS_SHEAVES);
}

static long cpu_step_7(__u32 c, void *ctx)
{
	return cpu_visit(c, ctx, SHEAVES_ONLY);
}

/* one node partial slab: slab_list links them, head is the node's */
static long node_step(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	struct list_head *at = w->at;

	if (!at || at == w->head)
		return 1;
	emit_walked((struct slab *)((char *)at - bpf_core_field_offset(struct slab, slab_list)),
		    SLABFILL_NODE, w->node);
	w->at = BPF_CORE_READ(at, next);
	return 0;
}

/* bpf_loop's state over a barn's full sheaves */
struct barnwalk {
	struct list_head *at, *head;
	__u64 objects;
};

static long barn_step(__u32 i, void *ctx)
{
	struct barnwalk *w = ctx;
	struct list_head *at = w->at;

	if (!at || at == w->head)
		return 1;
	w->objects += BPF_CORE_READ((struct slab_sheaf *)((char *)at -
				    bpf_core_field_offset(struct slab_sheaf, barn_list)), size);
	w->at = BPF_CORE_READ(at, next);
	return 0;
}

/* node n's barn: its full and empty sheaves, the objects of the full */
static void emit_barn(struct node_barn *barn, __u32 n)
{
	struct slabfill_rec *r;
	struct barnwalk w = {};

	if (!barn)
		return;
	w.head = (struct list_head *)((char *)barn + bpf_core_field_offset(struct node_barn, sheaves_full));
	w.at = BPF_CORE_READ(barn, sheaves_full.next);
	bpf_loop(SLABFILL_MAX_SHEAVES, barn_step, &w, 0);
	r = bpf_ringbuf_reserve(&slabs, sizeof(*r), 0);
	if (!r) {
		dropped++;
		return;
	}
	__builtin_memset(r, 0, sizeof(*r));
	r->cache = cache_index;
	r->where = n;
	r->kind = SLABFILL_BARN;
	r->inuse = (__u16)BPF_CORE_READ(barn, nr_full);
	r->objects = (__u16)BPF_CORE_READ(barn, nr_empty);
	r->slab = w.objects;
	r->free_ok = w.at == w.head; /* the list walked to its end */
	bpf_ringbuf_submit(r, 0);
}

/* node n's struct kmem_cache_node: s->node[n] up to 6.18, s->per_node[n].node from 7.0 */
static __always_inline struct kmem_cache_node *node_of(struct kmem_cache *s, __u32 n,
							const enum layout lay)
{
	if (lay != SHEAVES_ONLY)
		return BPF_CORE_READ(s, node[n]);
	return BPF_CORE_READ(s, per_node[n].node);
}

/* its barn: kmem_cache_node's in 6.18, s->per_node[n].barn from 7.0 */
static __always_inline struct node_barn *barn_of(struct kmem_cache *s, struct kmem_cache_node *kn,
						 __u32 n, const enum layout lay)
{
	if (lay == CPU_SLABS_SHEAVES)
		return BPF_CORE_READ(kn, barn);
	return BPF_CORE_READ(s, per_node[n].barn);
}

/* One cache (ctx->s) of a kernel of layout lay. */
static __always_inline int fill(struct bpf_iter__kmem_cache *ctx, const enum layout lay)
{
	struct seq_file *seq = ctx->meta->seq;
	struct kmem_cache *s = ctx->s;
	struct walk w = {};
	struct cpus cs = {};
	const char *name;
	__u32 n;

	if (!s)
		return 0;
	name = BPF_CORE_READ(s, name);
	cache_index++;
	BPF_SEQ_PRINTF(seq, "cache %u %s\n", cache_index, name);
	g.offset = BPF_CORE_READ(s, offset);
	g.size = BPF_CORE_READ(s, size);
	g.oo_objects = BPF_CORE_READ(s, oo.x) & 0xffff;
	g.oo_bytes = 4096ull << (BPF_CORE_READ(s, oo.x) >> 16);
	g.min_bytes = 4096ull << (BPF_CORE_READ(s, min.x) >> 16);
	g.random = bpf_core_field_exists(s->random) ? BPF_CORE_READ(s, random) : 0;
	g.pad_left = bpf_core_field_exists(s->red_left_pad) ? BPF_CORE_READ(s, red_left_pad) : 0;
	for (n = 0; n < SLABFILL_MAX_NODES && n < nr_nodes; n++) {
		struct kmem_cache_node *kn = node_of(s, n, lay);

		if (!kn)
			continue;
		w.node = n;
		w.head = (struct list_head *)((char *)kn +
					      bpf_core_field_offset(struct kmem_cache_node, partial));
		w.at = BPF_CORE_READ(kn, partial.next);
		bpf_loop(SLABFILL_MAX_LIST, node_step, &w, 0);
	}
	/* a cache's sheaves: 6.18 only those created with a capacity (else
	 * cpu_sheaves is NULL), 7.x every one but those without (the
	 * bootstrap sheaf, capacity 0) */
	if (lay != CPU_SLABS && BPF_CORE_READ(s, sheaf_capacity)) {
		cs.cpu_sheaves = addr_of(BPF_CORE_READ(s, cpu_sheaves));
		for (n = 0; n < SLABFILL_MAX_NODES && n < nr_nodes; n++) {
			struct kmem_cache_node *kn = node_of(s, n, lay);

			if (kn)
				emit_barn(barn_of(s, kn, n, lay), n);
		}
	}
	if (lay != SHEAVES_ONLY)
		cs.cpu_slab = addr_of(BPF_CORE_READ(s, cpu_slab));
	bpf_probe_read_kernel(&cs.base, sizeof(cs.base),
			      (void *)(addr_of(&percpu_probe) +
				       bpf_core_field_offset(struct bpf_array, pptrs)));
	bpf_loop(nr_cpus < SLABFILL_MAX_CPUS ? nr_cpus : SLABFILL_MAX_CPUS,
		 lay == CPU_SLABS ? cpu_step : lay == CPU_SLABS_SHEAVES ? cpu_step_618 : cpu_step_7,
		 &cs, 0);
	return 0;
}

SEC("iter/kmem_cache")
int slab_fill(struct bpf_iter__kmem_cache *ctx)
{
	return fill(ctx, CPU_SLABS);
}

SEC("iter/kmem_cache")
int slab_fill_618(struct bpf_iter__kmem_cache *ctx)
{
	return fill(ctx, CPU_SLABS_SHEAVES);
}

SEC("iter/kmem_cache")
int slab_fill_7(struct bpf_iter__kmem_cache *ctx)
{
	return fill(ctx, SHEAVES_ONLY);
}
