// One element of Cast under a RoundMode, for every A2/A3 conversion pair (the count form's
// vectorized paths in kernel_operator_vec_cast_intf.h compute the same values for the pairs
// they cover). Pairs and modes:
//   half->float, bfloat16_t->float, int8_t/uint8_t/int16_t->half, int16_t->float,
//   int32_t->int64_t                                               CAST_NONE (exact or RNE)
//   float->half                                 CAST_NONE(=RINT), RINT, FLOOR, CEIL, ROUND, TRUNC, ODD
//   float->bfloat16_t                           RINT, FLOOR, CEIL, ROUND, TRUNC
//   float/half/bfloat16_t->int32_t, float->int16_t, float->int64_t,
//   half->int16_t, float->float (to integral)   RINT, FLOOR, CEIL, ROUND, TRUNC
//   half->int8_t, half->uint8_t                 CAST_NONE(=RINT), RINT, FLOOR, CEIL, ROUND, TRUNC
//   int32_t->float, int64_t->float              CAST_NONE(=RINT), RINT, FLOOR, CEIL, ROUND, TRUNC
//   int32_t->int16_t, int64_t->int32_t          CAST_NONE
//   int32_t->half                               any (ignored): scaled by SetDeqScale(half), asc_twin/deq_scale.h
//   half->int4b_t                               CAST_NONE(=RINT), RINT, FLOOR, CEIL, ROUND, TRUNC
//   int4b_t->half                               CAST_NONE (exact)
// Float -> integer saturates to the target's range and maps NaN to 0; integer -> narrower
// integer saturates (the NPU's exact overflow results are not documented publicly).
#ifndef ASC_TWIN_CAST_LANE_H_
#define ASC_TWIN_CAST_LANE_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "asc_twin/trap.h"
#include "kernel_type.h"

namespace AscendC {
namespace twin {

template <typename T>
constexpr bool kSoftFloat = std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value;
template <typename T>
constexpr bool kFloatLike = kSoftFloat<T> || std::is_floating_point<T>::value;

// Which modes a (src U -> dst T) pair accepts; 0 = the pair does not exist.
enum CastModes : unsigned {
  kNoneOnly = 1,
  kIntegral = 2,        // RINT FLOOR CEIL ROUND TRUNC
  kIntegralOrNone = 3,  // ... and NONE
  kHalfModes = 4,       // NONE RINT FLOOR CEIL ROUND TRUNC ODD
  kAnyMode = 5,         // the mode is not used (int32_t->half goes through DEQSCALE)
};

template <typename T, typename U>
constexpr unsigned CastPairModes() {
  using std::is_same;
  if (is_same<U, half>::value && is_same<T, float>::value) return kNoneOnly;
  if (is_same<U, bfloat16_t>::value && is_same<T, float>::value) return kNoneOnly;
  if ((is_same<U, int8_t>::value || is_same<U, uint8_t>::value || is_same<U, int16_t>::value) &&
      is_same<T, half>::value)
    return kNoneOnly;
  if (is_same<U, int16_t>::value && is_same<T, float>::value) return kNoneOnly;
  if (is_same<U, int32_t>::value && is_same<T, int64_t>::value) return kNoneOnly;
  if (is_same<U, int32_t>::value && is_same<T, int16_t>::value) return kNoneOnly;
  if (is_same<U, int64_t>::value && is_same<T, int32_t>::value) return kNoneOnly;
  if (is_same<U, float>::value && is_same<T, half>::value) return kHalfModes;
  if (is_same<U, float>::value && is_same<T, bfloat16_t>::value) return kIntegral;
  if ((is_same<U, float>::value || is_same<U, half>::value || is_same<U, bfloat16_t>::value) &&
      is_same<T, int32_t>::value)
    return kIntegral;
  if (is_same<U, float>::value &&
      (is_same<T, int16_t>::value || is_same<T, int64_t>::value || is_same<T, float>::value))
    return kIntegral;
  if (is_same<U, half>::value && is_same<T, int16_t>::value) return kIntegral;
  if (is_same<U, half>::value && (is_same<T, int8_t>::value || is_same<T, uint8_t>::value)) return kIntegralOrNone;
  if ((is_same<U, int32_t>::value || is_same<U, int64_t>::value) && is_same<T, float>::value) return kIntegralOrNone;
  if (is_same<U, half>::value && is_same<T, int4b_t>::value) return kIntegralOrNone;
  if (is_same<U, int4b_t>::value && is_same<T, half>::value) return kNoneOnly;
  if (is_same<U, int32_t>::value && is_same<T, half>::value) return kAnyMode;
  return 0;
}

inline bool CastModeAllowed(unsigned modes, RoundMode m) {
  const bool integral = m == RoundMode::CAST_RINT || m == RoundMode::CAST_FLOOR || m == RoundMode::CAST_CEIL ||
                        m == RoundMode::CAST_ROUND || m == RoundMode::CAST_TRUNC;
  switch (modes) {
    case kNoneOnly:
      return m == RoundMode::CAST_NONE;
    case kIntegral:
      return integral;
    case kIntegralOrNone:
      return integral || m == RoundMode::CAST_NONE;
    case kHalfModes:
      return integral || m == RoundMode::CAST_NONE || m == RoundMode::CAST_ODD;
    case kAnyMode:
      return true;
    default:
      return false;
  }
}

inline double RoundByMode(double x, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return std::floor(x);
    case RoundMode::CAST_CEIL:
      return std::ceil(x);
    case RoundMode::CAST_ROUND:
      return std::round(x);
    case RoundMode::CAST_TRUNC:
      return std::trunc(x);
    default:
      return std::nearbyint(x);  // NONE, RINT: ties to even
  }
}

template <typename T>
inline T SaturateInt(double r) {
  if (std::isnan(r)) return T(0);
  if constexpr (std::is_same<T, int4b_t>::value) {  // -8..7
    return T(static_cast<int32_t>(r >= 7.0 ? 7.0 : (r <= -8.0 ? -8.0 : r)));
  } else {
    if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    if (r <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    return static_cast<T>(r);
  }
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CAST_LANE_H_
