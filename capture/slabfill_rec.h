/* slabfill_rec.h - one node partial slab as slabfill.bpf.c reports it to
 * user space (slabfill.c): shared by the BPF program and its reader. */
#ifndef SLABFILL_REC_H
#define SLABFILL_REC_H

#define SLABFILL_RING_BYTES (16u << 20)
#define SLABFILL_MAX_LIST (1u << 20) /* slabs per list, at most */
#define SLABFILL_MAX_NODES 64

struct slabfill_rec {
	__u64 slab;	/* struct slab *: the slab's identity */
	__u64 freelist; /* a free object's address, 0 when none */
	__u32 cache;	/* the header line's number */
	__u32 node;	/* the node whose partial list it is on */
	__u16 inuse, objects;
	__u32 pad;
};

#endif
