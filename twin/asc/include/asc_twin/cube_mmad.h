// Mmad's engine: C (L0C, Nz) = init + A (L0A, Zz; ND when m == 1, GEMV) x B (L0B, Zn), with the
// layouts of cube_fractal.h. B is packed into 16-column fp32/int32 panels once per call (fp16 and
// bf16 converted there, fp32 rounded to HF32 there when SetHF32Mode is on), A into 6-row
// panels once per row block, and cube_gemm.h's micro-kernel updates each tile of C in place.
// Only the m x n elements of each fractal that exist are computed; the rest of a fractal (its
// padding rows and columns) gets the initial value. K padding inside the last fractal is never read.
#ifndef ASC_TWIN_CUBE_MMAD_H_
#define ASC_TWIN_CUBE_MMAD_H_

#include <cstdint>
#include <type_traits>
#include <cstdlib>
#include <cstring>

#include "asc_twin/cube_fractal.h"
#include "asc_twin/cube_gemm.h"
#include "asc_twin/trap.h"

namespace AscendC {
namespace twin {
namespace cube {

enum class CInit : uint8_t { kZero, kBias, kKeep };

struct MmadShape {
  uint32_t m, n, k;
  uint32_t m1, n1, k1;  // fractal counts; k1 counts C0-wide fractals of the L0A/L0B layout
  bool gemv;            // m == 1: A is read as k contiguous elements
};

template <typename In>
using AccOf = typename std::conditional<std::is_same<In, int8_t>::value || kIsInt4<In>, int32_t, float>::type;

// One input element as the accumulator type.
template <typename In>
inline AccOf<In> LoadInput(const In* base, uint64_t i, bool hf32, bool tiesToZero) {
  if constexpr (kIsInt4<In>) {
    return static_cast<int32_t>(static_cast<int8_t>(LoadNibble(base, i)));
  } else if constexpr (std::is_same<In, int8_t>::value) {
    return static_cast<int32_t>(base[i]);
  } else if constexpr (std::is_same<In, float>::value) {
    return hf32 ? RoundToHf32(base[i], tiesToZero) : base[i];
  } else {
    return CubeToFloat(base[i]);
  }
}

#if ASC_TWIN_X86_DISPATCH
// F16C (CPUID leaf 1, ECX bit 29): half -> float eight at a time, exact like HalfToFloat.
__attribute__((noinline, cold)) inline bool DetectF16c() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && ((c >> 29) & 1u);
}
inline bool HasF16c() {
  static const bool f16c = DetectF16c();
  return HasAvx2() && f16c;
}
__attribute__((target("avx2,f16c"))) inline void HalvesToFloats(const void* src, float* dst, uint32_t n) {
  const __m128i* s = static_cast<const __m128i*>(src);
  for (uint32_t i = 0; i < n / 8; ++i) _mm256_storeu_ps(dst + 8 * i, _mm256_cvtph_ps(_mm_loadu_si128(s + i)));
}
#endif

// One whole fractal (16 x C0 inputs) as the accumulator type, row-major 16 x C0: converting a
// fractal at a time keeps the conversion vectorised (F16C for half) and out of the packing loops.
template <typename In>
inline void LoadFractal(const In* base, uint64_t fractal, AccOf<In>* out, bool hf32, bool tiesToZero) {
  constexpr uint32_t n = FractalElems<In>();
  const uint64_t first = fractal * n;
  if constexpr (std::is_same<In, half>::value) {
#if ASC_TWIN_X86_DISPATCH
    if (HasF16c()) {
      HalvesToFloats(base + first, out, n);
      return;
    }
#endif
  }
  for (uint32_t i = 0; i < n; ++i) out[i] = LoadInput(base, first + i, hf32, tiesToZero);
}

// Per-thread scratch, kept between calls (a block runs on one thread) and grown as needed. Plain
// data, constant-initialised: a thread_local with a destructor would pin a dlopened device binary
// until its threads exit. The operands fit their L0 memories, so the panels stay below 1 MiB.
struct Scratch {
  void* data;
  size_t bytes;
};
inline void* ScratchOf(int which, size_t bytes) {
  static thread_local Scratch slots[4] = {};
  Scratch& s = slots[which];
  if (s.bytes < bytes) {
    void* grown = std::realloc(s.data, bytes);
    if (grown == nullptr) RaiseTrap("Mmad/Fixpipe: cannot allocate %zu bytes of scratch on the host", bytes);
    s.data = grown;
    s.bytes = bytes;
  }
  return s.data;
}
template <typename Acc>
inline Acc* PanelBuffer(int which, uint64_t elems) {
  return static_cast<Acc*>(ScratchOf(which, static_cast<size_t>(elems) * sizeof(Acc)));
}

template <typename Acc, typename In>
inline void RunMmad(Acc* c, const In* a, const In* b, const Acc* bias, const MmadShape& s, CInit init, bool hf32,
                    bool tiesToZero) {
  constexpr uint32_t c0 = C0Elems<In>();
  constexpr uint32_t kFrac = kCubeBlock * kCubeBlock;
  // Initial value of every fractal of C.
  for (uint32_t nb = 0; nb < s.n1; ++nb) {
    for (uint32_t mb = 0; mb < s.m1; ++mb) {
      Acc* f = c + (static_cast<uint64_t>(nb) * s.m1 + mb) * kFrac;
      if (init == CInit::kKeep) continue;
      for (uint32_t r = 0; r < kCubeBlock; ++r) {
        for (uint32_t j = 0; j < kCubeBlock; ++j) {
          const uint32_t n = nb * kCubeBlock + j;
          f[r * kCubeBlock + j] = (init == CInit::kBias && n < s.n) ? bias[n] : Acc(0);
        }
      }
    }
  }
  // B panels: panel nb holds B(k, nb*16 + j) at [k * 16 + j]; each Zn fractal (kb, nb) is 16
  // columns n by C0 depths k, so packing it is a 16 x C0 transpose.
  Acc frac[kCubeBlock * c0];
  Acc* bp = PanelBuffer<Acc>(0, static_cast<uint64_t>(s.n1) * s.k * kTileCols);
  for (uint32_t nb = 0; nb < s.n1; ++nb) {
    Acc* panel = bp + static_cast<uint64_t>(nb) * s.k * kTileCols;
    const uint32_t cols = (s.n - nb * kCubeBlock) < kCubeBlock ? s.n - nb * kCubeBlock : kCubeBlock;
    if (cols < kCubeBlock) std::memset(panel, 0, static_cast<size_t>(s.k) * kTileCols * sizeof(Acc));
    for (uint32_t kb = 0; kb * c0 < s.k; ++kb) {
      LoadFractal(b, static_cast<uint64_t>(kb) * s.n1 + nb, frac, hf32, tiesToZero);
      const uint32_t depth = (s.k - kb * c0) < c0 ? s.k - kb * c0 : c0;
      for (uint32_t kk = 0; kk < depth; ++kk) {
        Acc* dst = panel + (kb * c0 + kk) * kTileCols;
        for (uint32_t j = 0; j < cols; ++j) dst[j] = frac[j * c0 + kk];
      }
    }
  }
  // Row blocks of at most 6 rows inside each 16-row fractal of A and C.
  Acc* ap = PanelBuffer<Acc>(1, static_cast<uint64_t>(kMaxTileRows) * s.k);
  Acc* arow = PanelBuffer<Acc>(2, static_cast<uint64_t>(s.k1) * kCubeBlock * c0);  // the m block's fractals
  for (uint32_t mb = 0; mb < s.m1; ++mb) {
    const uint32_t rowsHere = (s.m - mb * kCubeBlock) < kCubeBlock ? s.m - mb * kCubeBlock : kCubeBlock;
    if (!s.gemv) {
      for (uint32_t kb = 0; kb * c0 < s.k; ++kb) {
        LoadFractal(a, static_cast<uint64_t>(mb) * s.k1 + kb, arow + static_cast<uint64_t>(kb) * kCubeBlock * c0, hf32,
                    tiesToZero);
      }
    }
    for (uint32_t r0 = 0; r0 < rowsHere; r0 += kMaxTileRows) {
      const uint32_t rows = (rowsHere - r0) < kMaxTileRows ? rowsHere - r0 : kMaxTileRows;
      for (uint32_t r = 0; r < rows; ++r) {
        const uint32_t rr = r0 + r;
        for (uint32_t k = 0; k < s.k; ++k) {
          ap[static_cast<uint64_t>(k) * rows + r] =
              s.gemv ? LoadInput(a, k, hf32, tiesToZero)
                     : arow[(static_cast<uint64_t>(k / c0) * kCubeBlock + rr) * c0 + k % c0];
        }
      }
      for (uint32_t nb = 0; nb < s.n1; ++nb) {
        Acc* tile = c + (static_cast<uint64_t>(nb) * s.m1 + mb) * kFrac + r0 * kCubeBlock;
        const Acc* panel = bp + static_cast<uint64_t>(nb) * s.k * kTileCols;
        if constexpr (std::is_same<Acc, float>::value) {
          GemmTileF32(rows, ap, panel, s.k, tile, kCubeBlock);
        } else {
          GemmTileI32(rows, ap, panel, s.k, tile, kCubeBlock);
        }
      }
    }
  }
}

}  // namespace cube
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CUBE_MMAD_H_
