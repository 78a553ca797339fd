// The engine of LogicalAnd/Or/Xor/Not and the scalar forms LogicalAnds/Ors: every operand
// counts as true when non-zero; dst is bool (or another type: 1 / 0).
#ifndef ASC_TWIN_ADV_API_MATH_LOGICAL_IMPL_H_
#define ASC_TWIN_ADV_API_MATH_LOGICAL_IMPL_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename V>
inline bool Truth(const V& v) {
  return static_cast<float>(v) != 0.0f || (std::is_integral<V>::value && v != V(0));
}

template <typename D>
inline D FromTruth(bool b) {
  if constexpr (std::is_same<D, bool>::value)
    return b;
  else
    return static_cast<D>(b ? 1.0f : 0.0f);
}

// dst[i] = op(truth(a[i] or a), truth(b[i] or b)), a/b each a LocalTensor or a scalar.
template <typename D, typename U, typename S, typename Op>
inline void LogicalMap(const char* api, const LocalTensor<D>& dst, const U& a, const S& b, uint32_t count, Op op) {
  CheckOperand(api, "dst", dst, count);
  auto at = [](const auto& v, uint32_t i) {
    if constexpr (ScalarOrTensor<float, std::decay_t<decltype(v)>>::kIsTensor)
      return Truth(v.TwinData()[i]);
    else
      return Truth(v);
  };
  if constexpr (ScalarOrTensor<float, U>::kIsTensor) CheckOperand(api, "src0", a, count);
  if constexpr (ScalarOrTensor<float, S>::kIsTensor) CheckOperand(api, "src1", b, count);
  LevelTwoDone();
  D* d = dst.TwinData();
  for (uint32_t i = 0; i < count; ++i) d[i] = FromTruth<D>(op(at(a, i), at(b, i)));
}

}  // namespace adv
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_LOGICAL_IMPL_H_
