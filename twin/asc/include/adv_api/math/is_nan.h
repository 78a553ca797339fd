// IsNan: dst = src is nan (bool, or 1.0 / 0.0 in the source's type).
#ifndef ASC_TWIN_ADV_API_MATH_IS_NAN_H_
#define ASC_TWIN_ADV_API_MATH_IS_NAN_H_

#include "adv_api/math/is_finite_impl.h"

namespace AscendC {

struct IsNanConfig {
  bool isReuseSource;
};
constexpr IsNanConfig DEFAULT_IS_NAN_CONFIG = {false};

template <const IsNanConfig& config = DEFAULT_IS_NAN_CONFIG, typename T, typename U>
__aicore__ inline void IsNan(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count) {
  twin::adv::Classify("IsNan", dst, src, count, [](float x) { return std::isnan(x); });
}
template <const IsNanConfig& config = DEFAULT_IS_NAN_CONFIG, typename T, typename U>
__aicore__ inline void IsNan(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count) {
  twin::adv::CheckTmpBuffer<U>("IsNan", sharedTmpBuffer, asc_twin_tmp::nodes::kIsNan, count);
  IsNan<config, T, U>(dst, src, count);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_IS_NAN_H_
