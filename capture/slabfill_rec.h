/* slabfill_rec.h - one slab as slabfill.bpf.c reports it to user space
 * (slabfill.c): shared by the BPF program and its reader. */
#ifndef SLABFILL_REC_H
#define SLABFILL_REC_H

#define SLABFILL_RING_BYTES (32u << 20)
#define SLABFILL_MAX_LIST (1u << 20) /* slabs per list, at most */
#define SLABFILL_MAX_NODES 64
#define SLABFILL_MAX_CPUS 4096
#define SLABFILL_MAX_OBJECTS 32768 /* a slab's objects: a 15-bit field */
/* the free objects' bitmap: slabs of more objects get none */
#define SLABFILL_FREE_WORDS 8
#define SLABFILL_FREE_BITS (64 * SLABFILL_FREE_WORDS)

/* the list a slab is on */
#define SLABFILL_NODE 0		/* a node partial list */
#define SLABFILL_CPU 1		/* a CPU's active slab */
#define SLABFILL_CPU_PARTIAL 2	/* a CPU partial list */
/* not a slab (6.18+): a CPU's sheaves, where the CPU: inuse the objects
 * in its main sheaf, objects its spare's, cpu_free its rcu_free sheaf's
 * (SLABFILL_NO_SHEAF: no such sheaf) */
#define SLABFILL_SHEAVES 3
/* not a slab (6.18+): a node's barn, where the node: inuse its full
 * sheaves, objects its empty ones, slab the objects in the full ones
 * (free_ok: its list was walked to the end) */
#define SLABFILL_BARN 4
#define SLABFILL_NO_SHEAF 0xffff
#define SLABFILL_MAX_SHEAVES 1024 /* a barn's full sheaves walked, at most */

struct slabfill_rec {
	__u64 slab;	/* struct slab *: the slab's identity */
	__u64 freelist; /* a free object's address, 0 when none */
	__u32 cache;	/* the header line's number */
	__u32 where;	/* the node, or the CPU, whose list it is on */
	__u16 kind;	/* SLABFILL_* */
	__u16 inuse, objects;
	__u16 cpu_free;	/* SLABFILL_CPU: 1 + the CPU freelist's objects, 0 unknown */
	/* bit i: object i (from the slab's start) was free, on the slab's
	 * freelist or (an active slab) its CPU's; valid when free_ok */
	__u64 free_bits[SLABFILL_FREE_WORDS];
	__u16 free_ok;	/* 1: every free object's walk ended inside the slab */
	__u16 pad[3];
};

#endif
