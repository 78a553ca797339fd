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
#include <vector>

#include "asc_twin/cube_fractal.h"
#include "asc_twin/cube_gemm.h"

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

// Per-thread packing buffers, kept between calls (a block runs on one thread).
template <typename Acc>
inline std::vector<Acc>& PanelBuffer(int which) {
  static thread_local std::vector<Acc> buffers[2];
  return buffers[which];
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
  // B panels: panel nb holds B(k, nb*16 + j) at [k * 16 + j].
  std::vector<Acc>& bp = PanelBuffer<Acc>(0);
  bp.assign(static_cast<uint64_t>(s.n1) * s.k * kTileCols, Acc(0));
  for (uint32_t nb = 0; nb < s.n1; ++nb) {
    Acc* panel = bp.data() + static_cast<uint64_t>(nb) * s.k * kTileCols;
    const uint32_t cols = (s.n - nb * kCubeBlock) < kCubeBlock ? s.n - nb * kCubeBlock : kCubeBlock;
    for (uint32_t kb = 0; kb * c0 < s.k; ++kb) {
      const uint64_t frac = (static_cast<uint64_t>(kb) * s.n1 + nb) * kCubeBlock * c0;
      const uint32_t depth = (s.k - kb * c0) < c0 ? s.k - kb * c0 : c0;
      for (uint32_t j = 0; j < cols; ++j) {
        for (uint32_t kk = 0; kk < depth; ++kk) {
          panel[(kb * c0 + kk) * kTileCols + j] = LoadInput(b, frac + j * c0 + kk, hf32, tiesToZero);
        }
      }
    }
  }
  // Row blocks of at most 6 rows inside each 16-row fractal of A and C.
  std::vector<Acc>& ap = PanelBuffer<Acc>(1);
  ap.resize(static_cast<uint64_t>(kMaxTileRows) * s.k);
  for (uint32_t mb = 0; mb < s.m1; ++mb) {
    const uint32_t rowsHere = (s.m - mb * kCubeBlock) < kCubeBlock ? s.m - mb * kCubeBlock : kCubeBlock;
    for (uint32_t r0 = 0; r0 < rowsHere; r0 += kMaxTileRows) {
      const uint32_t rows = (rowsHere - r0) < kMaxTileRows ? rowsHere - r0 : kMaxTileRows;
      for (uint32_t r = 0; r < rows; ++r) {
        const uint32_t rr = r0 + r;
        for (uint32_t k = 0; k < s.k; ++k) {
          const uint64_t idx = s.gemv ? k
                                      : ((static_cast<uint64_t>(mb) * s.k1 + k / c0) * kCubeBlock + rr) * c0 + k % c0;
          ap[static_cast<uint64_t>(k) * rows + r] = LoadInput(a, idx, hf32, tiesToZero);
        }
      }
      for (uint32_t nb = 0; nb < s.n1; ++nb) {
        Acc* tile = c + (static_cast<uint64_t>(nb) * s.m1 + mb) * kFrac + r0 * kCubeBlock;
        const Acc* panel = bp.data() + static_cast<uint64_t>(nb) * s.k * kTileCols;
        if constexpr (std::is_same<Acc, float>::value) {
          GemmTileF32(rows, ap.data(), panel, s.k, tile, kCubeBlock);
        } else {
          GemmTileI32(rows, ap.data(), panel, s.k, tile, kCubeBlock);
        }
      }
    }
  }
}

}  // namespace cube
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CUBE_MMAD_H_
