// Test-only reference numerics, written independently of the twin's bit
// tricks: rounding of an exact double to binary16/bfloat16 with frexp/ldexp,
// decoding via ldexp, and ULP distances.
#ifndef ASC_TWIN_TESTS_REF_NUMERIC_H_
#define ASC_TWIN_TESTS_REF_NUMERIC_H_

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace asc_twin_test {

// Rounds v (RNE) to a binary format with `mant` fraction bits and exponent
// range [emin, emax]; returns the bit pattern (sign|exp|frac) in 16 bits.
inline uint16_t RefRound16(double v, int mant, int emin, int emax, int expBits) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const uint16_t expAll = static_cast<uint16_t>(((1 << expBits) - 1) << mant);
  if (std::isnan(v)) return static_cast<uint16_t>(sign | expAll | (1 << (mant - 1)));
  double a = std::fabs(v);
  if (std::isinf(a)) return sign | expAll;
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int E = e - 1;      // a in [2^E, 2^(E+1))
  if (a == 0) E = emin;
  if (E < emin) E = emin;  // subnormal: fixed quantum
  const double quantum = std::ldexp(1.0, E - mant);
  double q = std::nearbyint(a / quantum);  // a / quantum is exact; RNE
  if (q >= std::ldexp(1.0, mant + 1)) {
    q /= 2;
    ++E;
  }
  if (E > emax) return sign | expAll;
  const bool normal = q >= std::ldexp(1.0, mant);
  const uint32_t frac = static_cast<uint32_t>(q) & ((1u << mant) - 1);
  const uint32_t expField = normal ? static_cast<uint32_t>(E + ((1 << (expBits - 1)) - 1)) : 0;
  return static_cast<uint16_t>(sign | (expField << mant) | frac);
}
inline uint16_t RefToHalf(double v) { return RefRound16(v, 10, -14, 15, 5); }
inline uint16_t RefToBf16(double v) { return RefRound16(v, 7, -126, 127, 8); }

inline double RefDecode16(uint16_t b, int mant, int expBits) {
  const int bias = (1 << (expBits - 1)) - 1;
  const int ef = (b >> mant) & ((1 << expBits) - 1);
  const int frac = b & ((1 << mant) - 1);
  const double s = (b & 0x8000) ? -1.0 : 1.0;
  if (ef == (1 << expBits) - 1) return frac ? NAN : s * INFINITY;
  if (ef == 0) return s * std::ldexp(frac, 1 - bias - mant);
  return s * std::ldexp(frac + (1 << mant), ef - bias - mant);
}
inline double RefHalfValue(uint16_t b) { return RefDecode16(b, 10, 5); }
inline double RefBf16Value(uint16_t b) { return RefDecode16(b, 7, 8); }

inline bool IsNanHalf(uint16_t b) { return (b & 0x7c00) == 0x7c00 && (b & 0x3ff); }

// Distance in representable steps between two values of one format, given as
// sign-magnitude bit patterns (monotone mapping to integers).
inline int64_t Ordered(int64_t bits, int64_t signBit) { return (bits & signBit) ? -(bits & (signBit - 1)) : bits; }
inline int64_t UlpDiff16(uint16_t a, uint16_t b) { return std::llabs(Ordered(a, 0x8000) - Ordered(b, 0x8000)); }
inline int64_t UlpDiff32(float a, float b) {
  uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return std::llabs(Ordered(x, 0x80000000ll) - Ordered(y, 0x80000000ll));
}

// Rounding modes of the reference (mirrors AscendC::RoundMode by meaning).
enum class RefMode { kRint, kFloor, kCeil, kRound, kTrunc, kOdd };

// Rounds v to a binary format (mant fraction bits, expBits exponent bits)
// under `mode`, by quantising |v| on the format's grid; returns the pattern.
inline uint32_t RefRoundBits(double v, int mant, int expBits, RefMode mode) {
  const uint32_t signBit = 1u << (mant + expBits);
  const uint32_t sign = std::signbit(v) ? signBit : 0;
  const uint32_t infBits = ((1u << expBits) - 1) << mant;
  const int bias = (1 << (expBits - 1)) - 1;
  if (std::isnan(v)) return sign | infBits | (1u << (mant - 1));
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | infBits;
  int e = 0;
  std::frexp(a, &e);
  int E = a == 0 ? 1 - bias : e - 1;
  if (E < 1 - bias) E = 1 - bias;
  const double q = a / std::ldexp(1.0, E - mant);  // exact
  const bool neg = sign != 0;
  double r = 0;
  switch (mode) {
    case RefMode::kRint:
      r = std::nearbyint(q);
      break;
    case RefMode::kFloor:
      r = neg ? std::ceil(q) : std::floor(q);
      break;
    case RefMode::kCeil:
      r = neg ? std::floor(q) : std::ceil(q);
      break;
    case RefMode::kRound:
      r = std::round(q);
      break;
    case RefMode::kTrunc:
      r = std::trunc(q);
      break;
    case RefMode::kOdd: {
      r = std::trunc(q);
      if (r != q && std::fmod(r, 2.0) == 0) r += 1;
      break;
    }
  }
  if (r >= std::ldexp(1.0, mant + 1)) {
    r /= 2;  // carried into the next binade: r == 2^mant exactly
    ++E;
  }
  if (E > bias) {
    const bool towardZero = mode == RefMode::kTrunc || mode == RefMode::kOdd || (mode == RefMode::kFloor && !neg) ||
                            (mode == RefMode::kCeil && neg);
    return towardZero ? (sign | (infBits - 1)) : (sign | infBits);
  }
  const bool normal = r >= std::ldexp(1.0, mant);
  const uint32_t frac = static_cast<uint32_t>(r) & ((1u << mant) - 1);
  const uint32_t expField = normal ? static_cast<uint32_t>(E + bias) : 0;
  return sign | (expField << mant) | frac;
}

}  // namespace asc_twin_test

#endif  // ASC_TWIN_TESTS_REF_NUMERIC_H_
