/* trace_hash_avx2.c - XXH3 built for AVX2 (the Makefile adds -mavx2 to
 * this file alone on x86-64); called only when the CPU has AVX2
 * (ss_block_hash_have_avx2). */
#include "trace_hash.h"

#if defined(__AVX2__)
#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t ss_block_hash_avx2(const void *p, size_t n, uint64_t seed)
{
	return XXH3_64bits_withSeed(p, n, seed);
}
#else
uint64_t ss_block_hash_avx2(const void *p, size_t n, uint64_t seed)
{
	return ss_block_hash_base(p, n, seed); /* not built for AVX2 */
}
#endif
