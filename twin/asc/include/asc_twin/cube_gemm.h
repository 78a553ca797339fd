// The cube twin's inner product: a C tile of `rows` x 16 (rows <= 6) updated with a packed A
// panel times a packed B panel, in fp32 (fused multiply-add) or int32 (wrapping). Mmad
// (cube_mmad.h) packs L0A/L0B fractals into panels once per call and runs this over every tile
// of L0C; the Matmul high-level API reuses it the same way.
//
// Packed operands, k = 0 .. depth-1:
//   aPanel[k * rows + r] = A(r, k)       (r < rows)
//   bPanel[k * 16 + j]   = B(k, j)       (j < 16; zero where the matrix has no column)
//   c[r * ldc + j]       = C(r, j), updated in place (an L0C fractal's rows: ldc = 16)
// fp32: C(r, j) = fma(A(r, k), B(k, j), C(r, j)) for k in increasing order, one rounding per
// step (RNE), identical on the AVX2 path and the portable one. int32: exact products, sums wrap.
#ifndef ASC_TWIN_CUBE_GEMM_H_
#define ASC_TWIN_CUBE_GEMM_H_

#include <cmath>
#include <cstdint>

#include "asc_twin/cpu_features.h"

#if ASC_TWIN_X86_DISPATCH
#include <immintrin.h>
#define ASC_TWIN_TARGET_AVX2_FMA __attribute__((target("avx2,fma")))
#endif

namespace AscendC {
namespace twin {
namespace cube {

constexpr uint32_t kTileCols = 16;
constexpr uint32_t kMaxTileRows = 6;  // 12 accumulators + 2 B vectors + 1 broadcast: 15 of 16 ymm

// ---------------------------------------------------------------- portable

inline void TileF32Portable(uint32_t rows, const float* a, const float* b, uint32_t depth, float* c, uint32_t ldc) {
  for (uint32_t r = 0; r < rows; ++r) {
    float acc[kTileCols];
    for (uint32_t j = 0; j < kTileCols; ++j) acc[j] = c[r * ldc + j];
    for (uint32_t k = 0; k < depth; ++k) {
      const float ar = a[k * rows + r];
      for (uint32_t j = 0; j < kTileCols; ++j) acc[j] = std::fma(ar, b[k * kTileCols + j], acc[j]);
    }
    for (uint32_t j = 0; j < kTileCols; ++j) c[r * ldc + j] = acc[j];
  }
}

inline void TileI32Portable(uint32_t rows, const int32_t* a, const int32_t* b, uint32_t depth, int32_t* c,
                            uint32_t ldc) {
  for (uint32_t r = 0; r < rows; ++r) {
    uint32_t acc[kTileCols];
    for (uint32_t j = 0; j < kTileCols; ++j) acc[j] = static_cast<uint32_t>(c[r * ldc + j]);
    for (uint32_t k = 0; k < depth; ++k) {
      const uint32_t ar = static_cast<uint32_t>(a[k * rows + r]);
      for (uint32_t j = 0; j < kTileCols; ++j) acc[j] += ar * static_cast<uint32_t>(b[k * kTileCols + j]);
    }
    for (uint32_t j = 0; j < kTileCols; ++j) c[r * ldc + j] = static_cast<int32_t>(acc[j]);
  }
}

// ---------------------------------------------------------------- AVX2 (+ FMA)

#if ASC_TWIN_X86_DISPATCH
// FMA3 is a separate CPUID bit from AVX2 (leaf 1, ECX bit 12); checked once per binary.
__attribute__((noinline, cold)) inline bool DetectFma() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && ((c >> 12) & 1u);
}
inline bool HasAvx2Fma() {
  static const bool fma = DetectFma();
  return HasAvx2() && fma;
}

// The accumulators stay in registers for the whole depth: R rows x two 8-float halves.
template <uint32_t R>
ASC_TWIN_TARGET_AVX2_FMA inline void TileF32Avx2(const float* a, const float* b, uint32_t depth, float* c,
                                                 uint32_t ldc) {
  __m256 lo[R], hi[R];
  for (uint32_t r = 0; r < R; ++r) {
    lo[r] = _mm256_loadu_ps(c + r * ldc);
    hi[r] = _mm256_loadu_ps(c + r * ldc + 8);
  }
  for (uint32_t k = 0; k < depth; ++k) {
    const __m256 b0 = _mm256_loadu_ps(b + k * kTileCols);
    const __m256 b1 = _mm256_loadu_ps(b + k * kTileCols + 8);
    const float* ak = a + k * R;
    for (uint32_t r = 0; r < R; ++r) {
      const __m256 ar = _mm256_broadcast_ss(ak + r);
      lo[r] = _mm256_fmadd_ps(ar, b0, lo[r]);
      hi[r] = _mm256_fmadd_ps(ar, b1, hi[r]);
    }
  }
  for (uint32_t r = 0; r < R; ++r) {
    _mm256_storeu_ps(c + r * ldc, lo[r]);
    _mm256_storeu_ps(c + r * ldc + 8, hi[r]);
  }
}

template <uint32_t R>
ASC_TWIN_TARGET_AVX2 inline void TileI32Avx2(const int32_t* a, const int32_t* b, uint32_t depth, int32_t* c,
                                             uint32_t ldc) {
  __m256i lo[R], hi[R];
  for (uint32_t r = 0; r < R; ++r) {
    lo[r] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + r * ldc));
    hi[r] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + r * ldc + 8));
  }
  for (uint32_t k = 0; k < depth; ++k) {
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + k * kTileCols));
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + k * kTileCols + 8));
    const int32_t* ak = a + k * R;
    for (uint32_t r = 0; r < R; ++r) {
      const __m256i ar = _mm256_set1_epi32(ak[r]);
      lo[r] = _mm256_add_epi32(lo[r], _mm256_mullo_epi32(ar, b0));
      hi[r] = _mm256_add_epi32(hi[r], _mm256_mullo_epi32(ar, b1));
    }
  }
  for (uint32_t r = 0; r < R; ++r) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(c + r * ldc), lo[r]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(c + r * ldc + 8), hi[r]);
  }
}
#endif

// ---------------------------------------------------------------- entry points

inline void GemmTileF32(uint32_t rows, const float* aPanel, const float* bPanel, uint32_t depth, float* c,
                        uint32_t ldc) {
#if ASC_TWIN_X86_DISPATCH
  if (HasAvx2Fma()) {
    switch (rows) {
      case 1:
        return TileF32Avx2<1>(aPanel, bPanel, depth, c, ldc);
      case 2:
        return TileF32Avx2<2>(aPanel, bPanel, depth, c, ldc);
      case 3:
        return TileF32Avx2<3>(aPanel, bPanel, depth, c, ldc);
      case 4:
        return TileF32Avx2<4>(aPanel, bPanel, depth, c, ldc);
      case 5:
        return TileF32Avx2<5>(aPanel, bPanel, depth, c, ldc);
      case 6:
        return TileF32Avx2<6>(aPanel, bPanel, depth, c, ldc);
      default:
        break;
    }
  }
#endif
  TileF32Portable(rows, aPanel, bPanel, depth, c, ldc);
}

inline void GemmTileI32(uint32_t rows, const int32_t* aPanel, const int32_t* bPanel, uint32_t depth, int32_t* c,
                        uint32_t ldc) {
#if ASC_TWIN_X86_DISPATCH
  if (HasAvx2()) {
    switch (rows) {
      case 1:
        return TileI32Avx2<1>(aPanel, bPanel, depth, c, ldc);
      case 2:
        return TileI32Avx2<2>(aPanel, bPanel, depth, c, ldc);
      case 3:
        return TileI32Avx2<3>(aPanel, bPanel, depth, c, ldc);
      case 4:
        return TileI32Avx2<4>(aPanel, bPanel, depth, c, ldc);
      case 5:
        return TileI32Avx2<5>(aPanel, bPanel, depth, c, ldc);
      case 6:
        return TileI32Avx2<6>(aPanel, bPanel, depth, c, ldc);
      default:
        break;
    }
  }
#endif
  TileI32Portable(rows, aPanel, bPanel, depth, c, ldc);
}

}  // namespace cube
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CUBE_GEMM_H_
