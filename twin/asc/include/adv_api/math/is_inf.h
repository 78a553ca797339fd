// IsInf: dst = src is inf (bool, or 1.0 / 0.0 in the source's type).
#ifndef ASC_TWIN_ADV_API_MATH_IS_INF_H_
#define ASC_TWIN_ADV_API_MATH_IS_INF_H_

#include "adv_api/math/is_finite_impl.h"

namespace AscendC {

struct IsInfConfig {
  bool isReuseSource;
};
constexpr IsInfConfig DEFAULT_IS_INF_CONFIG = {false};

template <const IsInfConfig& config = DEFAULT_IS_INF_CONFIG, typename T, typename U>
__aicore__ inline void IsInf(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count) {
  twin::adv::Classify("IsInf", dst, src, count, [](float x) { return std::isinf(x); });
}
template <const IsInfConfig& config = DEFAULT_IS_INF_CONFIG, typename T, typename U>
__aicore__ inline void IsInf(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count) {
  twin::adv::CheckTmpBuffer<U>("IsInf", sharedTmpBuffer, asc_twin_tmp::nodes::kIsInf, count);
  IsInf<config, T, U>(dst, src, count);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_IS_INF_H_
