// LoadData's engines, L1 -> L0A/L0B, in 512-byte fractals (cube_fractal.h):
//  - 2D (LoadData2DParams): repeat i copies source fractal startIndex +/- i * srcStride to
//    destination fractal i * (dstGap + 1); ifTranspose transposes each 16 x 16 (16-bit) fractal;
//  - with transpose (LoadData2dTransposeParams): repeat i transposes the square at
//    startIndex + i * srcStride squares: 16 x 16 for 16-bit types (one fractal), 32 x 32 for
//    8-bit (two 16 x 32 fractals one above the other), 64 x 64 for int4b_t (four), 16 x 16 for
//    32-bit types (two 16 x 8 fractals side by side); the transposed square is cut into fractals
//    the same way (32-bit: its left and right 8 columns) and fractal j of repeat i lands at
//    i * (dstGap + 1) + j * (dstFracGap + 1) fractals. As CANN's pseudo code for
//    LoadDataWithTranspose (load_data_l12l0/scripts/load_data_with_transpose.py) describes.
#ifndef ASC_TWIN_CUBE_LOAD_H_
#define ASC_TWIN_CUBE_LOAD_H_

#include <cstdint>
#include <cstring>

#include "asc_twin/cube_fractal.h"

namespace AscendC {
namespace twin {
namespace cube {

// Raw element moves by index, for any element width (int4b_t: nibbles).
template <typename T>
inline void MoveElem(uint8_t* dst, uint64_t di, const uint8_t* src, uint64_t si) {
  if constexpr (kIsInt4<T>) {
    StoreNibble(dst, di, LoadNibble(src, si));
  } else {
    std::memcpy(dst + di * sizeof(T), src + si * sizeof(T), sizeof(T));
  }
}

template <typename T>
inline void Load2D(uint8_t* dst, const uint8_t* src, uint32_t repeats, uint32_t startIndex, uint32_t srcStride,
                   uint32_t dstGap, bool decreasing, bool transpose) {
  for (uint32_t i = 0; i < repeats; ++i) {
    const int64_t sf =
        decreasing ? int64_t{startIndex} - int64_t{i} * srcStride : int64_t{startIndex} + int64_t{i} * srcStride;
    const uint8_t* s = src + sf * kFractalBytes;
    uint8_t* d = dst + uint64_t{i} * (dstGap + 1u) * kFractalBytes;
    if (!transpose) {
      std::memmove(d, s, kFractalBytes);
      continue;
    }
    uint8_t tmp[kFractalBytes];  // 16 x 16 of 16-bit: d(r, c) = s(c, r)
    for (uint32_t r = 0; r < kCubeBlock; ++r) {
      for (uint32_t c = 0; c < kCubeBlock; ++c) std::memcpy(tmp + (r * 16 + c) * 2, s + (c * 16 + r) * 2, 2);
    }
    std::memcpy(d, tmp, kFractalBytes);
  }
}

// Side of the transposed square and the fractals it spans.
template <typename T>
constexpr uint32_t SquareSide() {
  return sizeof(T) == 4 ? 16u : C0Elems<T>();
}
template <typename T>
constexpr uint32_t SquareFractals() {
  return sizeof(T) == 2 ? 1u : (sizeof(T) == 4 ? 2u : C0Elems<T>() / kCubeBlock);
}

template <typename T>
inline void LoadTransposed(uint8_t* dst, const uint8_t* src, uint32_t repeats, uint32_t startIndex, uint32_t srcStride,
                           uint32_t dstGap, uint32_t dstFracGap, bool decreasing) {
  constexpr uint32_t side = SquareSide<T>();
  constexpr uint32_t fracs = SquareFractals<T>();
  constexpr uint32_t squareElems = side * side;
  constexpr bool b32 = sizeof(T) == 4;
  uint8_t tmp[kFractalBytes * 4];
  for (uint32_t i = 0; i < repeats; ++i) {
    const int64_t sq =
        decreasing ? int64_t{startIndex} - int64_t{i} * srcStride : int64_t{startIndex} + int64_t{i} * srcStride;
    const uint8_t* s = src + ElemBytes<T>(static_cast<uint64_t>(sq) * squareElems);
    // T(c, r) = S(r, c), built in tmp laid out as the destination fractals back to back.
    for (uint32_t r = 0; r < side; ++r) {
      for (uint32_t c = 0; c < side; ++c) {
        const uint64_t si = b32 ? (c / 8) * 128u + r * 8u + c % 8 : uint64_t{r} * side + c;
        const uint64_t di = b32 ? (r / 8) * 128u + c * 8u + r % 8 : uint64_t{c} * side + r;
        MoveElem<T>(tmp, di, s, si);
      }
    }
    uint8_t* d = dst + uint64_t{i} * (dstGap + 1u) * kFractalBytes;
    for (uint32_t j = 0; j < fracs; ++j) {
      std::memcpy(d + uint64_t{j} * (dstFracGap + 1u) * kFractalBytes, tmp + j * kFractalBytes, kFractalBytes);
    }
  }
}

}  // namespace cube
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CUBE_LOAD_H_
