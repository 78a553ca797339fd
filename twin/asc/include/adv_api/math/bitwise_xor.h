// BitwiseXor: dst = src0 ^ src1 bit by bit, for integer types.
#ifndef ASC_TWIN_ADV_API_MATH_BITWISE_XOR_H_
#define ASC_TWIN_ADV_API_MATH_BITWISE_XOR_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

struct BitwiseXorConfig {
  bool isReuseSource;
};
constexpr BitwiseXorConfig DEFAULT_BITWISE_XOR_CONFIG = {false};

template <const BitwiseXorConfig& config = DEFAULT_BITWISE_XOR_CONFIG, typename T>
__aicore__ inline void BitwiseXor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                  const uint32_t count) {
  static_assert(std::is_integral<T>::value, "BitwiseXor takes integer types");
  twin::adv::Binary("BitwiseXor", dst, src0, src1, count, [](T a, T b) { return static_cast<T>(a ^ b); });
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_BITWISE_XOR_H_
