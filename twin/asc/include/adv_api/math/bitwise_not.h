// BitwiseNot: dst = ~src bit by bit, for integer types.
#ifndef ASC_TWIN_ADV_API_MATH_BITWISE_NOT_H_
#define ASC_TWIN_ADV_API_MATH_BITWISE_NOT_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

struct BitwiseNotConfig {
  bool isReuseSource;
};
constexpr BitwiseNotConfig DEFAULT_BITWISE_NOT_CONFIG = {false};

template <const BitwiseNotConfig& config = DEFAULT_BITWISE_NOT_CONFIG, typename T>
__aicore__ inline void BitwiseNot(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
  static_assert(std::is_integral<T>::value, "BitwiseNot takes integer types");
  twin::adv::Unary("BitwiseNot", dst, src, count, [](T a) { return static_cast<T>(~a); });
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_BITWISE_NOT_H_
