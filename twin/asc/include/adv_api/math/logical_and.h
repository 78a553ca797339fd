// LogicalAnd: dst = (src0 != 0) && (src1 != 0), as bool (or 1 / 0 in dst's type).
#ifndef ASC_TWIN_ADV_API_MATH_LOGICAL_AND_H_
#define ASC_TWIN_ADV_API_MATH_LOGICAL_AND_H_

#include "adv_api/math/logical_impl.h"

namespace AscendC {

struct LogicalAndConfig {
  bool isReuseSource;
};
constexpr LogicalAndConfig DEFAULT_LOGICAL_AND_CONFIG = {false};

template <const LogicalAndConfig& config = DEFAULT_LOGICAL_AND_CONFIG, typename T, typename U>
__aicore__ inline void LogicalAnd(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                                  const uint32_t count) {
  twin::adv::LogicalMap("LogicalAnd", dst, src0, src1, count, [](bool a, bool b) { return a && b; });
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_LOGICAL_AND_H_
