// LogicalXor: dst = (src0 != 0) != (src1 != 0), as bool (or 1 / 0 in dst's type).
#ifndef ASC_TWIN_ADV_API_MATH_LOGICAL_XOR_H_
#define ASC_TWIN_ADV_API_MATH_LOGICAL_XOR_H_

#include "adv_api/math/logical_impl.h"

namespace AscendC {

struct LogicalXorConfig {
  bool isReuseSource;
};
constexpr LogicalXorConfig DEFAULT_LOGICAL_XOR_CONFIG = {false};

template <const LogicalXorConfig& config = DEFAULT_LOGICAL_XOR_CONFIG, typename T, typename U>
__aicore__ inline void LogicalXor(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                                  const uint32_t count) {
  twin::adv::LogicalMap("LogicalXor", dst, src0, src1, count, [](bool a, bool b) { return a != b; });
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_LOGICAL_XOR_H_
