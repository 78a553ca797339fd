// IsFinite: dst = src is neither inf nor nan (bool, or 1.0 / 0.0 in the source's type).
#ifndef ASC_TWIN_ADV_API_MATH_IS_FINITE_H_
#define ASC_TWIN_ADV_API_MATH_IS_FINITE_H_

#include "adv_api/math/is_finite_impl.h"

namespace AscendC {

template <typename T, typename U>
__aicore__ inline void IsFinite(const LocalTensor<U>& dst, const LocalTensor<T>& src, uint32_t calCount) {
  twin::adv::Classify("IsFinite", dst, src, calCount, [](float x) { return std::isfinite(x); });
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_IS_FINITE_H_
