/* slabfill.bpf.c - how full each partial slab of every SLUB cache is, read
 * from the kernel itself (`build/slab-fill`, docs/capture.md).
 *
 * /sys/kernel/slab gives a cache's partial slabs only as a count and a sum
 * (partial, objects_partial: count_partial() over the node lists), and
 * slabs_cpu_partial as an estimate; the replay of a capture needs each
 * slab's own fill and its place on the list (get_partial_node() refills
 * from the head).  A kmem_cache iterator (bpf_iter_kmem_cache, 6.13) visits
 * every cache; this program walks, per cache, each node's partial list in
 * list order, and sends a record per slab through a ring buffer (one
 * cache's slabs can be more than a seq_file page holds).  The lists are
 * read without their locks, as count_partial() does on 6.18 without
 * CONFIG_SLUB_DEBUG: a slab that moves meanwhile can be missed or seen
 * twice, and the replay makes the fills agree with the snapshot's counts
 * (allocators/slab_prior.c plan_measured).
 *
 * The CPU slabs are not read: s->cpu_slab carries no per-CPU type tag in
 * this kernel's BTF (bpf_per_cpu_ptr() refuses it), and __per_cpu_offset,
 * which per_cpu_ptr() adds, is not in kallsyms without KALLSYMS_ALL.  The
 * replay keeps its estimate for them (docs/own-trace.md).
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
	void *freelist;
	unsigned int inuse : 16;
	unsigned int objects : 15;
} __attribute__((preserve_access_index));

struct kmem_cache_node {
	unsigned long nr_partial;
	struct list_head partial;
} __attribute__((preserve_access_index));

struct kmem_cache {
	const char *name;
	struct kmem_cache_node *node[1024];
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

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, SLABFILL_RING_BYTES);
} slabs SEC(".maps");

__u32 cache_index;	/* the cache being visited: its header's number */
__u64 dropped;		/* records the ring had no room for */

/* bpf_loop's state over one node's list */
struct walk {
	struct list_head *at;	    /* the next link */
	struct list_head *head;	    /* the node's list head, to stop at */
	__u32 node;
};

static void emit(struct walk *w, struct slab *slab)
{
	struct slabfill_rec r = {};

	r.cache = cache_index;
	r.node = w->node;
	r.slab = (__u64)slab;
	r.freelist = (__u64)BPF_CORE_READ(slab, freelist);
	r.inuse = BPF_CORE_READ_BITFIELD_PROBED(slab, inuse);
	r.objects = BPF_CORE_READ_BITFIELD_PROBED(slab, objects);
	if (bpf_ringbuf_output(&slabs, &r, sizeof(r), 0))
		dropped++;
}

/* one node partial slab: slab_list links them, head is the node's */
static long node_step(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	struct list_head *at = w->at;

	if (!at || at == w->head)
		return 1;
	emit(w, (struct slab *)((char *)at - bpf_core_field_offset(struct slab, slab_list)));
	w->at = BPF_CORE_READ(at, next);
	return 0;
}

SEC("iter/kmem_cache")
int slab_fill(struct bpf_iter__kmem_cache *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct kmem_cache *s = ctx->s;
	struct walk w = {};
	const char *name;
	__u32 n;

	if (!s)
		return 0;
	name = BPF_CORE_READ(s, name);
	cache_index++;
	BPF_SEQ_PRINTF(seq, "cache %u %s\n", cache_index, name);
	for (n = 0; n < SLABFILL_MAX_NODES && n < nr_nodes; n++) {
		struct kmem_cache_node *kn = BPF_CORE_READ(s, node[n]);

		if (!kn)
			continue;
		w.node = n;
		w.head = (struct list_head *)((char *)kn +
					      bpf_core_field_offset(struct kmem_cache_node, partial));
		w.at = BPF_CORE_READ(kn, partial.next);
		bpf_loop(SLABFILL_MAX_LIST, node_step, &w, 0);
	}
	return 0;
}
