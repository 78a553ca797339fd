// Geometry and element access of the cube unit's fractal layouts (NpuArch 2201, CANN's
// "矩阵计算分形介绍"): a fractal is 512 bytes of 16 rows x C0 elements, C0 = 32 B / element
// (half/bfloat16_t 16, int8_t 32, float/int32_t 8, int4b_t 64); L0C holds 16 x 16 fractals of
// float/int32_t. Layouts, with M1 = ceil(m / 16), K1 = ceil(k / C0), N1 = ceil(n / 16):
//   A in L0A, Zz: (M1, K1, 16, C0)  element (m, k) at ((m/16)*K1 + k/C0)*16*C0 + (m%16)*C0 + k%C0
//   B in L0B, Zn: (K1, N1, 16, C0)  element (k, n) at ((k/C0)*N1 + n/16)*16*C0 + (n%16)*C0 + k%C0
//   C in L0C, Nz: (N1, M1, 16, 16)  element (m, n) at ((n/16)*M1 + m/16)*256 + (m%16)*16 + n%16
//   L1 (and GM) Nz: (D1, rows, C0)  element (r, d) at (d/C0)*rowStride*C0 + r*C0 + d%C0
#ifndef ASC_TWIN_CUBE_FRACTAL_H_
#define ASC_TWIN_CUBE_FRACTAL_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "asc_twin/float_bits.h"
#include "kernel_bf16.h"
#include "kernel_fp16.h"
#include "kernel_int4.h"

namespace AscendC {
namespace twin {

constexpr uint32_t kFractalBytes = 512;
constexpr uint32_t kCubeBlock = 16;  // rows of a fractal; columns of an L0C fractal

// Elements in a 32-byte row of a fractal (C0) and in a whole 512-byte fractal.
template <typename T>
constexpr uint32_t C0Elems() {
  return kIsInt4<T> ? 64u : 32u / static_cast<uint32_t>(sizeof(T));
}
template <typename T>
constexpr uint32_t FractalElems() {
  return kCubeBlock * C0Elems<T>();
}

template <typename T>
constexpr const char* CubeTypeName() {
  if constexpr (std::is_same<T, half>::value)
    return "half";
  else if constexpr (std::is_same<T, bfloat16_t>::value)
    return "bfloat16_t";
  else if constexpr (std::is_same<T, float>::value)
    return "float";
  else if constexpr (std::is_same<T, int8_t>::value)
    return "int8_t";
  else if constexpr (std::is_same<T, uint8_t>::value)
    return "uint8_t";
  else if constexpr (std::is_same<T, int32_t>::value)
    return "int32_t";
  else if constexpr (std::is_same<T, uint32_t>::value)
    return "uint32_t";
  else if constexpr (kIsInt4<T>)
    return "int4b_t";
  else
    return "T";
}

inline uint32_t CeilDivU(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Floating inputs as float (exact for half and bfloat16_t).
template <typename T>
inline float CubeToFloat(const T& v) {
  if constexpr (std::is_same<T, float>::value) {
    return v;
  } else {
    uint16_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    if constexpr (std::is_same<T, half>::value)
      return HalfToFloat(bits);
    else
      return Bf16ToFloat(bits);
  }
}

template <typename T>
inline T CubeFromBits16(uint16_t bits) {
  T out;
  std::memcpy(&out, &bits, sizeof(out));
  return out;
}

// fp32 -> HF32 (the A2/A3 cube's 1+8+11-bit format, kept in a float): the low 12 mantissa bits
// dropped, rounding to nearest with ties to even (NEAREST_EVEN) or ties toward zero
// (NEAREST_ZERO); inf and NaN unchanged.
inline float RoundToHf32(float f, bool tiesToZero) {
  constexpr uint32_t kDrop = 12;
  uint32_t u = FloatBits(f);
  if ((u & 0x7f800000u) == 0x7f800000u) return f;
  const uint32_t half_ulp = 1u << (kDrop - 1);
  const uint32_t lsb = (u >> kDrop) & 1u;
  u += tiesToZero ? (half_ulp - 1u) : (half_ulp - 1u + lsb);  // on the magnitude: sign-magnitude
  u &= ~((1u << kDrop) - 1u);
  return BitsFloat(u);
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CUBE_FRACTAL_H_
