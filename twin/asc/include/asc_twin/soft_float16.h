// The arithmetic shared by the software 16-bit float types `half` and
// `bfloat16_t`: every operation is done in float and rounded once (RNE) back to
// the 16-bit format. For + - * / this is correctly rounded, because float has
// at least 2p+2 bits of precision for both formats.
//
// Mixed operations follow C++'s usual arithmetic conversions as if the 16-bit
// type ranked just below float: F op integer -> F, F op float -> float,
// F op double -> double.
#ifndef ASC_TWIN_SOFT_FLOAT16_H_
#define ASC_TWIN_SOFT_FLOAT16_H_

#include <cstdint>
#include <type_traits>

#include "asc_twin/float_bits.h"

namespace AscendC {
namespace twin {

// Format provides ToFloat(bits), FromFloat(float) and FromDouble(double).
template <typename Format>
struct SoftFloat16 {
  uint16_t val;

  SoftFloat16() = default;
  template <typename T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
  constexpr SoftFloat16(T v) : val(Convert(v)) {}  // NOLINT: implicit like a builtin float

  static constexpr SoftFloat16 FromBits(uint16_t bits) {
    SoftFloat16 r{};
    r.val = bits;
    return r;
  }
  constexpr operator float() const { return Format::ToFloat(val); }

  constexpr SoftFloat16& operator+=(SoftFloat16 o) { return *this = SoftFloat16(float(*this) + float(o)); }
  constexpr SoftFloat16& operator-=(SoftFloat16 o) { return *this = SoftFloat16(float(*this) - float(o)); }
  constexpr SoftFloat16& operator*=(SoftFloat16 o) { return *this = SoftFloat16(float(*this) * float(o)); }
  constexpr SoftFloat16& operator/=(SoftFloat16 o) { return *this = SoftFloat16(float(*this) / float(o)); }
  constexpr SoftFloat16 operator-() const { return FromBits(static_cast<uint16_t>(val ^ 0x8000u)); }
  constexpr SoftFloat16 operator+() const { return *this; }
  constexpr SoftFloat16& operator++() { return *this += SoftFloat16(1.0f); }
  constexpr SoftFloat16& operator--() { return *this -= SoftFloat16(1.0f); }

 private:
  template <typename T>
  static constexpr uint16_t Convert(T v) {
    if constexpr (std::is_same<T, float>::value) {
      return Format::FromFloat(v);
    } else if constexpr (std::is_same<T, bool>::value) {
      return Format::FromFloat(v ? 1.0f : 0.0f);
    } else {
      // double, long double and integers: one rounding from a wide value.
      return Format::FromDouble(static_cast<double>(v));
    }
  }
};

// Result type of F op T for arithmetic T.
template <typename F, typename T>
using MixedResult = std::conditional_t<std::is_floating_point<T>::value,
                                       std::conditional_t<std::is_same<T, float>::value, float, T>, F>;

#define ASC_TWIN_SOFT_BINARY(op)                                                               \
  template <typename Fmt>                                                                      \
  constexpr SoftFloat16<Fmt> operator op(SoftFloat16<Fmt> a, SoftFloat16<Fmt> b) {             \
    return SoftFloat16<Fmt>(float(a) op float(b));                                             \
  }                                                                                            \
  template <typename Fmt, typename T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0> \
  constexpr MixedResult<SoftFloat16<Fmt>, T> operator op(SoftFloat16<Fmt> a, T b) {            \
    using R = MixedResult<SoftFloat16<Fmt>, T>;                                                \
    if constexpr (std::is_floating_point<T>::value)                                            \
      return static_cast<R>(float(a)) op b;                                                    \
    else                                                                                       \
      return a op SoftFloat16<Fmt>(b);                                                         \
  }                                                                                            \
  template <typename Fmt, typename T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0> \
  constexpr MixedResult<SoftFloat16<Fmt>, T> operator op(T a, SoftFloat16<Fmt> b) {            \
    using R = MixedResult<SoftFloat16<Fmt>, T>;                                                \
    if constexpr (std::is_floating_point<T>::value)                                            \
      return a op static_cast<R>(float(b));                                                    \
    else                                                                                       \
      return SoftFloat16<Fmt>(a) op b;                                                         \
  }
ASC_TWIN_SOFT_BINARY(+)
ASC_TWIN_SOFT_BINARY(-)
ASC_TWIN_SOFT_BINARY(*)
ASC_TWIN_SOFT_BINARY(/)
#undef ASC_TWIN_SOFT_BINARY

#define ASC_TWIN_SOFT_COMPARE(op)                                                              \
  template <typename Fmt>                                                                      \
  constexpr bool operator op(SoftFloat16<Fmt> a, SoftFloat16<Fmt> b) {                         \
    return float(a) op float(b);                                                               \
  }                                                                                            \
  template <typename Fmt, typename T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0> \
  constexpr bool operator op(SoftFloat16<Fmt> a, T b) {                                        \
    return static_cast<double>(float(a)) op static_cast<double>(b);                            \
  }                                                                                            \
  template <typename Fmt, typename T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0> \
  constexpr bool operator op(T a, SoftFloat16<Fmt> b) {                                        \
    return static_cast<double>(a) op static_cast<double>(float(b));                            \
  }
ASC_TWIN_SOFT_COMPARE(==)
ASC_TWIN_SOFT_COMPARE(!=)
ASC_TWIN_SOFT_COMPARE(<)
ASC_TWIN_SOFT_COMPARE(<=)
ASC_TWIN_SOFT_COMPARE(>)
ASC_TWIN_SOFT_COMPARE(>=)
#undef ASC_TWIN_SOFT_COMPARE

struct HalfFormat {
  static constexpr float ToFloat(uint16_t b) { return HalfToFloat(b); }
  static constexpr uint16_t FromFloat(float f) { return FloatToHalf(f); }
  static constexpr uint16_t FromDouble(double d) { return DoubleToHalf(d); }
};

struct Bf16Format {
  static constexpr float ToFloat(uint16_t b) { return Bf16ToFloat(b); }
  static constexpr uint16_t FromFloat(float f) { return FloatToBf16(f); }
  static constexpr uint16_t FromDouble(double d) { return DoubleToBf16(d); }
};

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_SOFT_FLOAT16_H_
