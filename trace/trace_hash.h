/* trace_hash.h - the checksum of a binary trace block (trace_bin.h,
 * version 2): XXH3_64bits_withSeed from Debian's libxxhash-dev header,
 * compiled in twice -- baseline x86-64 (SSE2) and, where the CPU has it,
 * AVX2, which hashes ~3x fewer instructions per byte.  Both give the same
 * value (XXH3's results do not depend on the vector unit). */
#ifndef SS_TRACE_HASH_H
#define SS_TRACE_HASH_H

#include <stddef.h>
#include <stdint.h>

uint64_t ss_block_hash(const void *p, size_t n, uint64_t seed);

/* The two builds, for the test that they agree (0 when not built). */
uint64_t ss_block_hash_base(const void *p, size_t n, uint64_t seed);
uint64_t ss_block_hash_avx2(const void *p, size_t n, uint64_t seed);
int ss_block_hash_have_avx2(void);

#endif
