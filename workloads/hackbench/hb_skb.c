/* hb_skb.c - skb sizes of a hackbench message (x86_64, 4.x-6.1). */
#include "hb_skb.h"

#include "hb_consts.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))
/* SKB_DATA_ALIGN() */
#define SKB_DATA_ALIGN(x) ALIGN_UP(x, HB_SMP_CACHE_BYTES)
/* SKB_MAX_HEAD(0) = SKB_WITH_OVERHEAD(PAGE_SIZE): the largest linear part
 * unix_stream_sendmsg() puts in the head before using page fragments. */
#define SKB_MAX_HEAD0 (HB_PAGE_SIZE - SKB_DATA_ALIGN(HB_SHINFO_SIZE))

/* kmalloc size class of a head request: heads are at least 384 bytes, so
 * the class is the next power of two (kmalloc_index() above 192). */
static unsigned kmalloc_class(unsigned size)
{
	unsigned c = 256;

	while (c < size)
		c <<= 1;
	return c;
}

void ss_hackbench_skb_compute(unsigned datasize, bool pipes, struct ss_hackbench_skb *out)
{
	unsigned linear, data_len;

	*out = (struct ss_hackbench_skb){0};
	if (pipes) {
		/* pipe_write() fills page buffers: a full pipe holds
		 * PIPE_DEF_BUFFERS pages of data. */
		out->truesize = datasize;
		out->window = (HB_PIPE_BUFFERS * HB_PAGE_SIZE + datasize - 1) / datasize;
		return;
	}
	/* unix_stream_sendmsg(): data_len = size - SKB_MAX_HEAD(0) goes to
	 * page fragments, the rest is the linear head. */
	data_len = datasize > SKB_MAX_HEAD0 ? datasize - SKB_MAX_HEAD0 : 0;
	linear = datasize - data_len;
	out->skb_size = HB_SKB_SIZE;
	/* __alloc_skb(): size = SKB_DATA_ALIGN(size) +
	 * SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), one kmalloc. */
	out->head_size = SKB_DATA_ALIGN(linear) + SKB_DATA_ALIGN(HB_SHINFO_SIZE);
	out->head_ksize = kmalloc_class(out->head_size);
	out->frag_pages = (data_len + HB_PAGE_SIZE - 1) / HB_PAGE_SIZE;
	/* truesize = SKB_TRUESIZE(SKB_WITH_OVERHEAD(ksize(data))) plus the
	 * fragment pages (sock_alloc_send_pskb). */
	out->truesize = out->head_ksize + SKB_DATA_ALIGN(HB_SKB_SIZE) +
			out->frag_pages * HB_PAGE_SIZE;
	/* sock_alloc_send_pskb() allocates while sk_wmem_alloc < sk_sndbuf:
	 * the n-th skb goes out if (n - 1) * truesize < sndbuf. */
	out->window = (HB_SNDBUF + out->truesize - 1) / out->truesize;
}
