// The copy behind DataCopy: moves whole 32-byte blocks with vector loads and stores in an
// inline loop (32-byte AVX2 when the CPU has it, else 16-byte SSE2). glibc's memcpy picks
// `rep movsb` for the 2-8 KiB sizes tiles have, which streams from memory at about half the
// speed of this loop on the machines the twin runs on, and a call per tile also costs more than
// the loop for small tiles.
#ifndef ASC_TWIN_BLOCK_COPY_H_
#define ASC_TWIN_BLOCK_COPY_H_

#include <cstdint>
#include <cstring>

#include "asc_twin/cpu_features.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if ASC_TWIN_X86_DISPATCH
#include <immintrin.h>
#endif

namespace AscendC {
namespace twin {

#if ASC_TWIN_X86_DISPATCH
// 32-byte vectors: half the instructions of the SSE2 loop. kStream: non-temporal stores
// (dst 32-byte aligned). 256 bytes a trip, then 128: a 512-byte tile (128 floats) is two trips.
template <bool kStream>
ASC_TWIN_TARGET_AVX2 inline void CopyBlocks32Avx2(void* dst, const void* src, uint64_t bytes) {
  auto* d = static_cast<__m256i*>(dst);
  const auto* s = static_cast<const __m256i*>(src);
  const auto store = [](__m256i* to, const __m256i& v) ASC_TWIN_TARGET_AVX2 {
    if (kStream) {
      _mm256_stream_si256(to, v);
    } else {
      _mm256_storeu_si256(to, v);
    }
  };
  uint64_t vectors = bytes / 32;
  for (; vectors >= 8; vectors -= 8, s += 8, d += 8) {
    const __m256i a0 = _mm256_loadu_si256(s + 0), a1 = _mm256_loadu_si256(s + 1);
    const __m256i a2 = _mm256_loadu_si256(s + 2), a3 = _mm256_loadu_si256(s + 3);
    const __m256i a4 = _mm256_loadu_si256(s + 4), a5 = _mm256_loadu_si256(s + 5);
    const __m256i a6 = _mm256_loadu_si256(s + 6), a7 = _mm256_loadu_si256(s + 7);
    store(d + 0, a0);
    store(d + 1, a1);
    store(d + 2, a2);
    store(d + 3, a3);
    store(d + 4, a4);
    store(d + 5, a5);
    store(d + 6, a6);
    store(d + 7, a7);
  }
  for (; vectors >= 4; vectors -= 4, s += 4, d += 4) {
    const __m256i a0 = _mm256_loadu_si256(s + 0), a1 = _mm256_loadu_si256(s + 1);
    const __m256i a2 = _mm256_loadu_si256(s + 2), a3 = _mm256_loadu_si256(s + 3);
    store(d + 0, a0);
    store(d + 1, a1);
    store(d + 2, a2);
    store(d + 3, a3);
  }
  for (; vectors > 0; --vectors, ++s, ++d) store(d, _mm256_loadu_si256(s));
}
#endif

#if defined(__SSE2__)
// 16-byte vectors, 128 bytes a trip with the loads ahead of the stores. kStream: non-temporal
// stores (dst 16-byte aligned).
template <bool kStream>
inline void CopyBlocks32Sse2(void* dst, const void* src, uint64_t bytes) {
  auto* d = static_cast<__m128i*>(dst);
  const auto* s = static_cast<const __m128i*>(src);
  const auto store = [](__m128i* to, __m128i v) {
    if (kStream) {
      _mm_stream_si128(to, v);
    } else {
      _mm_storeu_si128(to, v);
    }
  };
  uint64_t vectors = bytes / 16;
  for (; vectors >= 8; vectors -= 8, s += 8, d += 8) {
    const __m128i a0 = _mm_loadu_si128(s + 0), a1 = _mm_loadu_si128(s + 1);
    const __m128i a2 = _mm_loadu_si128(s + 2), a3 = _mm_loadu_si128(s + 3);
    const __m128i a4 = _mm_loadu_si128(s + 4), a5 = _mm_loadu_si128(s + 5);
    const __m128i a6 = _mm_loadu_si128(s + 6), a7 = _mm_loadu_si128(s + 7);
    store(d + 0, a0);
    store(d + 1, a1);
    store(d + 2, a2);
    store(d + 3, a3);
    store(d + 4, a4);
    store(d + 5, a5);
    store(d + 6, a6);
    store(d + 7, a7);
  }
  for (; vectors >= 2; vectors -= 2, s += 2, d += 2) {
    const __m128i a0 = _mm_loadu_si128(s + 0), a1 = _mm_loadu_si128(s + 1);
    store(d + 0, a0);
    store(d + 1, a1);
  }
}
#endif

// Copies `bytes` (a multiple of 32) from src to dst; the ranges must not overlap.
inline void CopyBlocks32(void* dst, const void* src, uint64_t bytes) {
#if ASC_TWIN_X86_DISPATCH
  if (HasAvx2()) return CopyBlocks32Avx2<false>(dst, src, bytes);
#endif
#if defined(__SSE2__)
  CopyBlocks32Sse2<false>(dst, src, bytes);
#else
  std::memcpy(dst, src, bytes);
#endif
}

// Same as CopyBlocks32 with stores that bypass the caches (dst 16-byte aligned), for GM
// writes of a launch too large to stay in cache: no read-for-ownership of the destination, so
// a memory-bound kernel moves 3 instead of 4 bytes per byte written. Weakly ordered: the
// writer must FenceStreamingStores() before another thread may read dst.
inline void StreamBlocks32(void* dst, const void* src, uint64_t bytes) {
#if ASC_TWIN_X86_DISPATCH
  if (HasAvx2() && reinterpret_cast<uintptr_t>(dst) % 32 == 0) return CopyBlocks32Avx2<true>(dst, src, bytes);
#endif
#if defined(__SSE2__)
  CopyBlocks32Sse2<true>(dst, src, bytes);
#else
  std::memcpy(dst, src, bytes);
#endif
}

inline void FenceStreamingStores() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_BLOCK_COPY_H_
