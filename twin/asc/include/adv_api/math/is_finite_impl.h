// The classification engine of IsFinite / IsInf / IsNan: dst[i] = pred(src[i]) as bool
// (true/false) or as the source's float type (1.0 / 0.0), CANN's two output forms.
#ifndef ASC_TWIN_ADV_API_MATH_IS_FINITE_IMPL_H_
#define ASC_TWIN_ADV_API_MATH_IS_FINITE_IMPL_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename D, typename S, typename P>
inline void Classify(const char* api, const LocalTensor<D>& dst, const LocalTensor<S>& src, uint32_t count, P pred) {
  static_assert(kIsAdvFloat<S>, "IsFinite/IsInf/IsNan take half, bfloat16_t or float");
  static_assert(std::is_same<D, bool>::value || std::is_same<D, S>::value,
                "IsFinite/IsInf/IsNan write bool or the source's type");
  CheckOperand(api, "dst", dst, count);
  CheckOperand(api, "src", src, count);
  LevelTwoDone();
  D* d = dst.TwinData();
  const S* s = src.TwinData();
  for (uint32_t i = 0; i < count; ++i) {
    const bool yes = pred(static_cast<float>(s[i]));
    if constexpr (std::is_same<D, bool>::value)
      d[i] = yes;
    else
      d[i] = static_cast<D>(yes ? 1.0f : 0.0f);
  }
}

}  // namespace adv
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_IS_FINITE_IMPL_H_
