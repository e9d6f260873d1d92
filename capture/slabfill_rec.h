/* slabfill_rec.h - one slab as slabfill.bpf.c reports it to user space
 * (slabfill.c): shared by the BPF program and its reader. */
#ifndef SLABFILL_REC_H
#define SLABFILL_REC_H

#define SLABFILL_NODE_PARTIAL 0 /* on node `where`'s partial list */

#define SLABFILL_RING_BYTES (16u << 20)
#define SLABFILL_MAX_LIST (1u << 20) /* slabs per list, at most */
#define SLABFILL_MAX_NODES 64

struct slabfill_rec {
	__u64 slab;	/* struct slab *: the slab's identity */
	__u64 freelist; /* a free object's address, 0 when none (frozen) */
	__u32 cache;	/* the header line's number */
	__u32 kind;	/* SLABFILL_NODE_PARTIAL */
	__u32 where;	/* the node */
	__u16 inuse, objects;
	__u32 frozen, pad;
};

#endif
