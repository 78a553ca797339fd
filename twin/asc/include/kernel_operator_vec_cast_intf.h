// Cast with RoundMode: the count form and the level-0 forms (mask/repeat; lanes are counted
// in the wider of the two types, as on the NPU). Pairs and modes: asc_twin/cast_lane.h.
// Another pair is a compile error; another mode traps. ROUND is half-away-from-zero, ODD is
// round-to-odd.
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_CAST_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_CAST_INTF_H_

#include <cmath>
#include <cstdint>
#include <limits>

#include "asc_twin/cast_lane.h"
#include "asc_twin/deq_scale.h"
#include "asc_twin/elementwise.h"

namespace AscendC {
namespace twin {

inline const char* RoundModeName(RoundMode m) {
  switch (m) {
    case RoundMode::CAST_NONE:
      return "CAST_NONE";
    case RoundMode::CAST_RINT:
      return "CAST_RINT";
    case RoundMode::CAST_FLOOR:
      return "CAST_FLOOR";
    case RoundMode::CAST_CEIL:
      return "CAST_CEIL";
    case RoundMode::CAST_ROUND:
      return "CAST_ROUND";
    case RoundMode::CAST_TRUNC:
      return "CAST_TRUNC";
    case RoundMode::CAST_ODD:
      return "CAST_ODD";
    case RoundMode::CAST_HYBRID:
      return "CAST_HYBRID";
    case RoundMode::CAST_EVEN:
      return "CAST_EVEN";
    case RoundMode::CAST_ZERO:
      return "CAST_ZERO";
    default:
      return "UNKNOWN";
  }
}

[[noreturn]] inline void BadRoundMode(RoundMode m, const char* pair) {
  RaiseTrap("Cast: RoundMode %s is not supported for %s", RoundModeName(m), pair);
}

// Picks lo/hi (adjacent encodings of a 16-bit format around |f|) by mode.
// Used for every mode except RNE, per element (directed modes are rare).
template <typename F>
inline F DirectedTo16(float f, RoundMode m, double overflowValue) {
  const F nearest(f);
  if (std::isnan(f) || static_cast<float>(nearest) == f) return nearest;
  const bool neg = std::signbit(f);
  const double af = std::fabs(static_cast<double>(f));
  const uint16_t mag = nearest.val & 0x7fffu;
  const double nearestMag = std::fabs(static_cast<double>(static_cast<float>(nearest)));
  const uint16_t lo = nearestMag > af ? static_cast<uint16_t>(mag - 1) : mag;
  const uint16_t hi = static_cast<uint16_t>(lo + 1);
  auto value = [overflowValue](uint16_t bits) {
    const float v = static_cast<float>(F::FromBits(bits));
    return std::isinf(v) ? overflowValue : static_cast<double>(v);
  };
  uint16_t r = lo;
  switch (m) {
    case RoundMode::CAST_TRUNC:
      r = lo;
      break;
    case RoundMode::CAST_FLOOR:
      r = neg ? hi : lo;
      break;
    case RoundMode::CAST_CEIL:
      r = neg ? lo : hi;
      break;
    case RoundMode::CAST_ROUND:
      r = (value(hi) - af <= af - value(lo)) ? hi : lo;
      break;
    case RoundMode::CAST_ODD:
      r = (lo & 1u) ? lo : hi;
      break;
    default:
      r = mag;
      break;
  }
  return F::FromBits(static_cast<uint16_t>(r | (neg ? 0x8000u : 0u)));
}

// double -> float under a directed mode (used for int32 -> float).
inline float DirectedToFloat(double d, RoundMode m) {
  const float nearest = static_cast<float>(d);
  if (static_cast<double>(nearest) == d) return nearest;
  const float lo = static_cast<double>(nearest) < d ? nearest : std::nextafter(nearest, -INFINITY);
  const float hi = std::nextafter(lo, INFINITY);
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return lo;
    case RoundMode::CAST_CEIL:
      return hi;
    case RoundMode::CAST_TRUNC:
      return d < 0 ? hi : lo;
    case RoundMode::CAST_ROUND: {
      const double dlo = d - lo, dhi = hi - d;
      if (dlo == dhi) return d < 0 ? lo : hi;
      return dlo < dhi ? lo : hi;
    }
    default:
      return nearest;
  }
}

inline int32_t SaturateToInt32(float r) {
  if (std::isnan(r)) return 0;
  if (r >= 2147483648.0f) return std::numeric_limits<int32_t>::max();
  if (r < -2147483648.0f) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(r);
}

// Rounds a float to an integral float value under the mode.
template <RoundMode M>
inline float RoundIntegral(float x) {
  if constexpr (M == RoundMode::CAST_RINT)
    return std::nearbyint(x);
  else if constexpr (M == RoundMode::CAST_FLOOR)
    return std::floor(x);
  else if constexpr (M == RoundMode::CAST_CEIL)
    return std::ceil(x);
  else if constexpr (M == RoundMode::CAST_ROUND)
    return std::round(x);
  else
    return std::trunc(x);
}

// Runs `body.template operator()<M>()` for the five integral rounding modes.
template <typename Body>
inline void WithIntegralMode(RoundMode m, const char* pair, Body body) {
  switch (m) {
    case RoundMode::CAST_RINT:
      body(std::integral_constant<RoundMode, RoundMode::CAST_RINT>{});
      break;
    case RoundMode::CAST_FLOOR:
      body(std::integral_constant<RoundMode, RoundMode::CAST_FLOOR>{});
      break;
    case RoundMode::CAST_CEIL:
      body(std::integral_constant<RoundMode, RoundMode::CAST_CEIL>{});
      break;
    case RoundMode::CAST_ROUND:
      body(std::integral_constant<RoundMode, RoundMode::CAST_ROUND>{});
      break;
    case RoundMode::CAST_TRUNC:
      body(std::integral_constant<RoundMode, RoundMode::CAST_TRUNC>{});
      break;
    default:
      BadRoundMode(m, pair);
  }
}

template <typename T>
constexpr const char* CastTypeName() {
  if (std::is_same<T, half>::value) return "half";
  if (std::is_same<T, bfloat16_t>::value) return "bfloat16_t";
  if (std::is_same<T, float>::value) return "float";
  if (std::is_same<T, int8_t>::value) return "int8_t";
  if (std::is_same<T, uint8_t>::value) return "uint8_t";
  if (std::is_same<T, int16_t>::value) return "int16_t";
  if (std::is_same<T, int32_t>::value) return "int32_t";
  if (std::is_same<T, int64_t>::value) return "int64_t";
  if (std::is_same<T, int4b_t>::value) return "int4b_t";
  return "?";
}

template <typename T, typename U>
inline void CheckCastMode(RoundMode m) {
  if constexpr (CastPairModes<T, U>() == kAnyMode) RequireDeqScale("Cast(int32_t->half)");
  if (!CastModeAllowed(CastPairModes<T, U>(), m)) {
    RaiseTrap("Cast: RoundMode %s is not supported for %s->%s", RoundModeName(m), CastTypeName<U>(), CastTypeName<T>());
  }
}

// One element src -> dst under mode m (m already checked).
template <typename T, typename U>
inline T CastOne(U x, RoundMode m) {
  if constexpr (kFloatLike<U> && kFloatLike<T>) {
    if constexpr (std::is_same<T, float>::value && kSoftFloat<U>) {
      return static_cast<float>(x);
    } else if constexpr (std::is_same<T, half>::value) {
      return (m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT) ? half::FromBits(FloatToHalf(x))
                                                                      : DirectedTo16<half>(x, m, 65536.0);
    } else if constexpr (std::is_same<T, bfloat16_t>::value) {
      return m == RoundMode::CAST_RINT ? bfloat16_t::FromBits(FloatToBf16(x)) : DirectedTo16<bfloat16_t>(x, m, 0x1p128);
    } else {
      return static_cast<T>(RoundByMode(static_cast<double>(x), m));
    }
  } else if constexpr (kFloatLike<U>) {
    return SaturateInt<T>(RoundByMode(static_cast<double>(static_cast<float>(x)), m));
  } else if constexpr (CastPairModes<T, U>() == kAnyMode) {
    (void)m;
    return DeqToHalf(x);
  } else if constexpr (std::is_same<T, float>::value) {
    if (m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT) return static_cast<float>(x);
    return DirectedToFloat(static_cast<double>(x), m);
  } else if constexpr (kFloatLike<T>) {
    return T(static_cast<double>(x));
  } else {
    if (static_cast<int64_t>(x) > static_cast<int64_t>(std::numeric_limits<T>::max()))
      return std::numeric_limits<T>::max();
    if (static_cast<int64_t>(x) < static_cast<int64_t>(std::numeric_limits<T>::min()))
      return std::numeric_limits<T>::min();
    return static_cast<T>(x);
  }
}

// int4b_t operands pack two elements a byte: a count must be even, a continuous mask even,
// and a bit mask must select both lanes of every pair (CANN's Cast constraints for int4b_t).
template <typename T, typename U>
inline void CheckInt4Count(uint64_t count) {
  if ((kIsInt4<T> || kIsInt4<U>)&&count % 2 != 0) {
    RaiseTrap("Cast: count %llu is odd; with an int4b_t operand it must be even (two elements per byte)",
              static_cast<unsigned long long>(count));
  }
}
template <typename T, typename U>
inline void CheckInt4Mask(uint64_t mask, bool isSetMask) {
  const VecRegs& v = Block().vec;
  if (!(kIsInt4<T> || kIsInt4<U>)) return;
  if (v.counterMode) return CheckInt4Count<T, U>(isSetMask ? mask : v.maskLow);
  if (isSetMask && mask % 2 != 0) {
    RaiseTrap("Cast: mask %llu is odd; with an int4b_t operand it must be even (two elements per byte)",
              static_cast<unsigned long long>(mask));
  }
}
template <typename T, typename U>
inline void CheckInt4Mask(const uint64_t mask[], bool isSetMask) {
  if (!(kIsInt4<T> || kIsInt4<U>) || !isSetMask || mask == nullptr) return;
  if (Block().vec.counterMode) return CheckInt4Count<T, U>(mask[0]);
  constexpr uint64_t kEven = 0x5555555555555555ull;
  for (int k = 0; k < 2; ++k) {
    if (((mask[k] ^ (mask[k] >> 1)) & kEven) != 0) {
      RaiseTrap(
          "Cast: mask[%d] = 0x%llx selects one lane of a pair; with an int4b_t operand bits 2i and 2i+1 "
          "must be equal (two elements per byte)",
          k, static_cast<unsigned long long>(mask[k]));
    }
  }
}

}  // namespace twin

// Sets DEQSCALE for Cast int32_t->half and AddDeqRelu (per block, kept until changed).
__aicore__ inline void SetDeqScale(half scale) {
  twin::VecRegs& v = twin::Block().vec;
  v.deqScaleBits = scale.val;
  v.deqScaleSet = true;
}

template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint32_t count) {
  constexpr const char* api = "Cast";
  const int32_t n = static_cast<int32_t>(count);
  if (count > static_cast<uint32_t>(INT32_MAX)) twin::RaiseTrap("Cast: count %u too large", count);
  const RoundMode m = roundMode;
  if constexpr (std::is_same<U, half>::value && std::is_same<T, float>::value) {
    if (m != RoundMode::CAST_NONE) twin::BadRoundMode(m, "half->float");
    twin::MapUnary(api, dst, src, n, [](half x) { return twin::HalfToFloat(x.val); });
  } else if constexpr (std::is_same<U, bfloat16_t>::value && std::is_same<T, float>::value) {
    if (m != RoundMode::CAST_NONE) twin::BadRoundMode(m, "bfloat16_t->float");
    twin::MapUnary(api, dst, src, n, [](bfloat16_t x) { return twin::Bf16ToFloat(x.val); });
  } else if constexpr (std::is_same<U, float>::value && std::is_same<T, half>::value) {
    if (m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT) {
      twin::MapUnary(api, dst, src, n, [](float x) { return half::FromBits(twin::FloatToHalf(x)); });
    } else if (m == RoundMode::CAST_FLOOR || m == RoundMode::CAST_CEIL || m == RoundMode::CAST_ROUND ||
               m == RoundMode::CAST_TRUNC || m == RoundMode::CAST_ODD) {
      twin::MapUnary(api, dst, src, n, [m](float x) { return twin::DirectedTo16<half>(x, m, 65536.0); });
    } else {
      twin::BadRoundMode(m, "float->half");
    }
  } else if constexpr (std::is_same<U, float>::value && std::is_same<T, bfloat16_t>::value) {
    if (m == RoundMode::CAST_RINT) {
      twin::MapUnary(api, dst, src, n, [](float x) { return bfloat16_t::FromBits(twin::FloatToBf16(x)); });
    } else if (m == RoundMode::CAST_FLOOR || m == RoundMode::CAST_CEIL || m == RoundMode::CAST_ROUND ||
               m == RoundMode::CAST_TRUNC) {
      twin::MapUnary(api, dst, src, n, [m](float x) { return twin::DirectedTo16<bfloat16_t>(x, m, 0x1p128); });
    } else {
      twin::BadRoundMode(m, "float->bfloat16_t");
    }
  } else if constexpr ((std::is_same<U, float>::value || std::is_same<U, half>::value) &&
                       std::is_same<T, int32_t>::value) {
    twin::WithIntegralMode(m, std::is_same<U, half>::value ? "half->int32_t" : "float->int32_t", [&](auto mode) {
      twin::MapUnary(api, dst, src, n, [](U x) {
        return twin::SaturateToInt32(twin::RoundIntegral<decltype(mode)::value>(static_cast<float>(x)));
      });
    });
  } else if constexpr (std::is_same<U, float>::value && std::is_same<T, float>::value) {
    twin::WithIntegralMode(m, "float->float", [&](auto mode) {
      twin::MapUnary(api, dst, src, n, [](float x) { return twin::RoundIntegral<decltype(mode)::value>(x); });
    });
  } else if constexpr (std::is_same<U, int32_t>::value && std::is_same<T, float>::value) {
    if (m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT) {
      twin::MapUnary(api, dst, src, n, [](int32_t x) { return static_cast<float>(x); });
    } else if (m == RoundMode::CAST_FLOOR || m == RoundMode::CAST_CEIL || m == RoundMode::CAST_ROUND ||
               m == RoundMode::CAST_TRUNC) {
      twin::MapUnary(api, dst, src, n, [m](int32_t x) { return twin::DirectedToFloat(static_cast<double>(x), m); });
    } else {
      twin::BadRoundMode(m, "int32_t->float");
    }
  } else {
    static_assert(twin::CastPairModes<T, U>() != 0, "Cast: this src->dst type pair is not supported on A2/A3");
    twin::CheckCastMode<T, U>(m);
    twin::CheckInt4Count<T, U>(count);
    twin::MapUnary(api, dst, src, n, [m](U x) { return twin::CastOne<T, U>(x, m); });
  }
}

// Level-0 forms: lanes of a repeat are counted in the wider type; each operand's blocks and
// repeats stride in its own 32-byte blocks.
#define ASC_TWIN_CAST_L0(MaskDecl)                                                                              \
  template <typename T, typename U, bool isSetMask = true>                                                      \
  __aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, \
                              MaskDecl, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {      \
    static_assert(twin::CastPairModes<T, U>() != 0, "Cast: this src->dst type pair is not supported on A2/A3"); \
    const RoundMode m = roundMode;                                                                              \
    twin::CheckCastMode<T, U>(m);                                                                               \
    twin::CheckInt4Mask<T, U>(mask, isSetMask);                                                                 \
    twin::UnaryLevel0<T, U, isSetMask>("Cast", dst, src, mask, repeatTime, repeatParams,                        \
                                       [m](U x) { return twin::CastOne<T, U>(x, m); });                         \
  }
ASC_TWIN_CAST_L0(const uint64_t mask[])
ASC_TWIN_CAST_L0(uint64_t mask)
#undef ASC_TWIN_CAST_L0

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_CAST_INTF_H_
