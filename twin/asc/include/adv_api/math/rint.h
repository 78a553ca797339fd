// Rint: dst = the integer nearest to src, ties to even (rint(2.5) = 2). Exact in every type.
#ifndef ASC_TWIN_ADV_API_MATH_RINT_H_
#define ASC_TWIN_ADV_API_MATH_RINT_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

struct RintConfig {
  bool isReuseSource;
};
constexpr RintConfig DEFAULT_RINT_CONFIG = {false};

template <const RintConfig& config = DEFAULT_RINT_CONFIG, typename T>
__aicore__ inline void Rint(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
  static_assert(twin::adv::kIsAdvFloat<T>, "Rint takes half, bfloat16_t or float");
  twin::adv::Unary("Rint", dst, src, count, [](auto x) { return std::nearbyint(x); });
}
template <const RintConfig& config = DEFAULT_RINT_CONFIG, typename T>
__aicore__ inline void Rint(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count) {
  twin::adv::CheckTmpBuffer<T>("Rint", sharedTmpBuffer, asc_twin_tmp::nodes::kRint, count);
  Rint<config, T>(dst, src, count);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_RINT_H_
