// Packing a block of A or B into the panels of the cube micro-kernel (asc_twin/cube_gemm.h),
// converting to the accumulator's type on the way: half / bfloat16_t / float -> float (exact),
// int8_t -> int32_t. This is the twin's MTE1 (L1 -> L0A/L0B); the F16C path converts 8 halves
// per instruction where the CPU has it.
#ifndef ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_PACK_H_
#define ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_PACK_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "adv_api/matmul/detail/matmul_operand.h"
#include "adv_api/matmul/matmul_type.h"
#include "asc_twin/cpu_features.h"
#include "asc_twin/cube_fractal.h"
#include "asc_twin/cube_gemm.h"

#if ASC_TWIN_X86_DISPATCH
#include <immintrin.h>
#endif

namespace AscendC {
namespace twin {
namespace matmul {

// The accumulator type the cube uses for inputs of type T (L0C: float or int32_t).
template <typename T>
using AccType = typename GetMmDstType<T>::Type;

template <typename T>
inline AccType<T> ToAcc(const T& v) {
  if constexpr (std::is_same<AccType<T>, int32_t>::value) {
    return static_cast<int32_t>(v);
  } else {
    return CubeToFloat(v);
  }
}

#if ASC_TWIN_X86_DISPATCH
__attribute__((noinline, cold)) inline bool DetectF16c() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && ((c >> 29) & 1u);
}
inline bool HasF16c() {
  static const bool f16c = DetectF16c();
  return HasAvx2() && f16c;
}
__attribute__((target("avx2,f16c"))) inline void HalfRowToFloatF16c(const uint16_t* src, uint32_t n, float* dst) {
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i))));
  }
  for (; i < n; ++i) dst[i] = HalfToFloat(src[i]);
}
#endif

// n contiguous elements to the accumulator type.
template <typename T>
inline void RowToAcc(const T* src, uint32_t n, AccType<T>* dst) {
#if ASC_TWIN_X86_DISPATCH
  if constexpr (std::is_same<T, half>::value) {
    if (HasF16c()) return HalfRowToFloatF16c(reinterpret_cast<const uint16_t*>(src), n, dst);
  }
#endif
  for (uint32_t i = 0; i < n; ++i) dst[i] = ToAcc(src[i]);
}

// A block (rows x depth of the logical A, from (row0, k0)) as panels of up to kMaxTileRows rows:
// strip s holds rows [6s, 6s+h) as panel[k * h + r], strips back to back.
template <typename T>
inline void PackA(const Operand<T>& a, uint64_t row0, uint64_t k0, uint32_t rows, uint32_t depth, AccType<T>* panel,
                  AccType<T>* rowScratch) {
  constexpr uint32_t R = cube::kMaxTileRows;
  for (uint32_t s = 0; s < rows; s += R) {
    const uint32_t h = rows - s < R ? rows - s : R;
    AccType<T>* strip = panel + static_cast<uint64_t>(s) * depth;
    for (uint32_t r = 0; r < h; ++r) {
      if (a.scalar) {
        for (uint32_t k = 0; k < depth; ++k) strip[k * h + r] = ToAcc(a.value);
      } else if (!a.transposed && !a.nz && Operand<T>::kRowsAreArrays) {
        // a stored row is contiguous in k: convert it at once, then interleave
        RowToAcc(a.base + a.Offset(row0 + s + r, k0), depth, rowScratch);
        for (uint32_t k = 0; k < depth; ++k) strip[k * h + r] = rowScratch[k];
      } else {
        for (uint32_t k = 0; k < depth; ++k) strip[k * h + r] = ToAcc(a.At(row0 + s + r, k0 + k));
      }
    }
  }
}

// A block of the logical B (depth x cols from (k0, col0)) as panels of 16 columns:
// group g holds columns [16g, 16g+16) as panel[k * 16 + j], zero past the block's last column.
template <typename T>
inline void PackB(const Operand<T>& b, uint64_t k0, uint64_t col0, uint32_t depth, uint32_t cols, AccType<T>* panel,
                  AccType<T>* rowScratch) {
  constexpr uint32_t W = cube::kTileCols;
  for (uint32_t g = 0; g < cols; g += W) {
    const uint32_t w = cols - g < W ? cols - g : W;
    AccType<T>* group = panel + static_cast<uint64_t>(g) * depth;
    for (uint32_t k = 0; k < depth; ++k) {
      AccType<T>* dst = group + static_cast<uint64_t>(k) * W;
      if (b.scalar) {
        for (uint32_t j = 0; j < w; ++j) dst[j] = ToAcc(b.value);
      } else if (!b.transposed && !b.nz && Operand<T>::kRowsAreArrays) {
        RowToAcc(b.base + b.Offset(k0 + k, col0 + g), w, dst);  // a stored row is contiguous in n
      } else {
        for (uint32_t j = 0; j < w; ++j) dst[j] = ToAcc(b.At(k0 + k, col0 + g + j));
      }
      for (uint32_t j = w; j < W; ++j) dst[j] = AccType<T>(0);
    }
  }
  (void)rowScratch;
}

// acc (rows x cols, row stride ldc, cols a multiple of 16 wide) += packed A x packed B.
inline void MultiplyPanels(const float* aPanel, const float* bPanel, uint32_t rows, uint32_t cols, uint32_t depth,
                           float* acc, uint32_t ldc) {
  for (uint32_t g = 0; g < cols; g += cube::kTileCols) {
    const float* bg = bPanel + static_cast<uint64_t>(g) * depth;
    for (uint32_t s = 0; s < rows; s += cube::kMaxTileRows) {
      const uint32_t h = rows - s < cube::kMaxTileRows ? rows - s : cube::kMaxTileRows;
      cube::GemmTileF32(h, aPanel + static_cast<uint64_t>(s) * depth, bg, depth,
                        acc + static_cast<uint64_t>(s) * ldc + g, ldc);
    }
  }
}
inline void MultiplyPanels(const int32_t* aPanel, const int32_t* bPanel, uint32_t rows, uint32_t cols, uint32_t depth,
                           int32_t* acc, uint32_t ldc) {
  for (uint32_t g = 0; g < cols; g += cube::kTileCols) {
    const int32_t* bg = bPanel + static_cast<uint64_t>(g) * depth;
    for (uint32_t s = 0; s < rows; s += cube::kMaxTileRows) {
      const uint32_t h = rows - s < cube::kMaxTileRows ? rows - s : cube::kMaxTileRows;
      cube::GemmTileI32(h, aPanel + static_cast<uint64_t>(s) * depth, bg, depth,
                        acc + static_cast<uint64_t>(s) * ldc + g, ldc);
    }
  }
}

}  // namespace matmul
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_PACK_H_
