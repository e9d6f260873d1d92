/* trace_hash.c - block checksums (trace_hash.h): the baseline build and
 * the choice between it and the AVX2 build (trace_hash_avx2.c). */
#include "trace_hash.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t ss_block_hash_base(const void *p, size_t n, uint64_t seed)
{
	return XXH3_64bits_withSeed(p, n, seed);
}

int ss_block_hash_have_avx2(void)
{
#if defined(__x86_64__) && defined(SS_HAVE_AVX2_BUILD)
	static int have = -1;

	if (have < 0) {
		__builtin_cpu_init();
		have = __builtin_cpu_supports("avx2") != 0;
	}
	return have;
#else
	return 0;
#endif
}

uint64_t ss_block_hash(const void *p, size_t n, uint64_t seed)
{
	if (ss_block_hash_have_avx2())
		return ss_block_hash_avx2(p, n, seed);
	return ss_block_hash_base(p, n, seed);
}
