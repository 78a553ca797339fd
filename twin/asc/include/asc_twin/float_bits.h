// Bit-exact conversions between float/double and the 16-bit float formats,
// written branch-free where it matters so element loops vectorize. All
// conversions to a narrower format round to nearest, ties to even (RNE), keep
// NaN a (quiet) NaN and produce +-inf on overflow, as IEEE 754 does.
#ifndef ASC_TWIN_FLOAT_BITS_H_
#define ASC_TWIN_FLOAT_BITS_H_

#include <cstdint>

namespace AscendC {
namespace twin {

constexpr uint32_t FloatBits(float f) { return __builtin_bit_cast(uint32_t, f); }
constexpr float BitsFloat(uint32_t u) { return __builtin_bit_cast(float, u); }
constexpr uint64_t DoubleBits(double d) { return __builtin_bit_cast(uint64_t, d); }

// ---- binary16 ----
constexpr float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t em = h & 0x7fffu;
  // Normal numbers: rebias the exponent (127 - 15 = 112).
  uint32_t normal = (em << 13) + (112u << 23);
  // Inf/NaN: exponent field must become 255.
  normal = (em >= 0x7c00u) ? normal + (128u - 16u) * (1u << 23) : normal;
  // Subnormals: em * 2^-24, exact in float.
  const float sub = static_cast<float>(em) * 5.9604644775390625e-08f;
  const uint32_t out = (em < 0x0400u) ? FloatBits(sub) : normal;
  return BitsFloat(out | sign);
}

constexpr uint16_t FloatToHalf(float f) {
  const uint32_t x = FloatBits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t mag = x & 0x7fffffffu;
  // Normal range: rebias, add rounding bias (0xfff + lsb for ties-to-even).
  const uint32_t normal = (mag - (112u << 23) + 0x0fffu + ((mag >> 13) & 1u)) >> 13;
  // Half-subnormal range: let the FPU round |f| + 0.5 (RNE) and read the bits.
  const uint32_t sub = FloatBits(BitsFloat(mag) + 0.5f) - 0x3f000000u;
  uint32_t out = (mag < 0x38800000u) ? sub : normal;
  out = (mag >= 0x477ff000u) ? 0x7c00u : out;                            // rounds to >= 65536: inf
  out = (mag > 0x7f800000u) ? (0x7e00u | ((mag >> 13) & 0x3ffu)) : out;  // NaN stays NaN
  return static_cast<uint16_t>(out | sign);
}

constexpr uint16_t DoubleToHalf(double d) {
  const uint64_t x = DoubleBits(d);
  const uint32_t sign = static_cast<uint32_t>(x >> 48) & 0x8000u;
  const uint64_t mag = x & 0x7fffffffffffffffull;
  uint32_t out = 0;
  if (mag > 0x7ff0000000000000ull) {
    out = 0x7e00u;
  } else if (mag >= 0x40f0000000000000ull) {  // >= 65536 (covers inf)
    out = 0x7c00u;
  } else if (mag < 0x3f10000000000000ull) {                                     // < 2^-14: subnormal half
    const double scaled = __builtin_bit_cast(double, mag) * 16777216.0;         // exact
    const double rounded = (scaled + 4503599627370496.0) - 4503599627370496.0;  // RNE
    out = static_cast<uint32_t>(rounded);
  } else {
    const uint64_t m = mag - (1008ull << 52);
    out = static_cast<uint32_t>((m + ((1ull << 41) - 1) + ((m >> 42) & 1u)) >> 42);
  }
  return static_cast<uint16_t>(out | sign);
}

// ---- bfloat16 ----
constexpr float Bf16ToFloat(uint16_t b) { return BitsFloat(static_cast<uint32_t>(b) << 16); }

constexpr uint16_t FloatToBf16(float f) {
  const uint32_t x = FloatBits(f);
  const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
  const uint32_t nan = (x >> 16) | 0x0040u;
  return static_cast<uint16_t>(((x & 0x7fffffffu) > 0x7f800000u) ? nan : rounded);
}

constexpr uint16_t DoubleToBf16(double d) {
  const uint64_t x = DoubleBits(d);
  const uint32_t sign = static_cast<uint32_t>(x >> 48) & 0x8000u;
  const uint64_t mag = x & 0x7fffffffffffffffull;
  uint32_t out = 0;
  if (mag > 0x7ff0000000000000ull) {
    out = 0x7fc0u;
  } else if (mag >= 0x47f0000000000000ull) {  // >= 2^128 (covers inf)
    out = 0x7f80u;
  } else if (mag < 0x3810000000000000ull) {                           // < 2^-126: subnormal bf16
    const double scaled = __builtin_bit_cast(double, mag) * 0x1p133;  // exact
    const double rounded = (scaled + 4503599627370496.0) - 4503599627370496.0;
    out = static_cast<uint32_t>(rounded);
  } else {
    const uint64_t m = mag - (896ull << 52);
    out = static_cast<uint32_t>((m + ((1ull << 44) - 1) + ((m >> 45) & 1u)) >> 45);
  }
  return static_cast<uint16_t>(out | sign);
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_FLOAT_BITS_H_
