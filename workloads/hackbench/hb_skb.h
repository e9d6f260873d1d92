/* hb_skb.h - what one hackbench message costs the slab allocator: the
 * sk_buff and its data head, and how many fit in a socket's send buffer. */
#ifndef SS_HB_SKB_H
#define SS_HB_SKB_H

#include <stdbool.h>

#include "hb_consts.h"

/* Largest message one skb carries: unix_stream_sendmsg() sends at most
 * (sk_sndbuf >> 1) - 64 bytes per skb; larger writes would be split. */
#define HB_MAX_DATASIZE ((HB_SNDBUF >> 1) - 64u)

struct ss_hackbench_skb {
	unsigned skb_size;  /* skbuff_head_cache object (sizeof(struct sk_buff)) */
	unsigned head_size; /* kmalloc request of the linear data head */
	unsigned head_ksize;/* its kmalloc class (ksize()) */
	unsigned frag_pages;/* pages of paged data (page allocator, not slab) */
	unsigned truesize;  /* skb->truesize charged to the sender's socket */
	unsigned window;    /* messages in flight before a sender blocks */
};

/* The skb of one `datasize`-byte write to an AF_UNIX stream socket
 * (unix_stream_sendmsg -> sock_alloc_send_pskb -> __alloc_skb), or, with
 * pipes, only the window (pipe buffers are pages: no slab objects).
 * datasize must be 1..HB_MAX_DATASIZE. */
void ss_hackbench_skb_compute(unsigned datasize, bool pipes, struct ss_hackbench_skb *out);

#endif
