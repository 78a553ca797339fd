// LogicalOr: dst = (src0 != 0) || (src1 != 0), as bool (or 1 / 0 in dst's type).
#ifndef ASC_TWIN_ADV_API_MATH_LOGICAL_OR_H_
#define ASC_TWIN_ADV_API_MATH_LOGICAL_OR_H_

#include "adv_api/math/logical_impl.h"

namespace AscendC {

struct LogicalOrConfig {
  bool isReuseSource;
};
constexpr LogicalOrConfig DEFAULT_LOGICAL_OR_CONFIG = {false};

template <const LogicalOrConfig& config = DEFAULT_LOGICAL_OR_CONFIG, typename T, typename U>
__aicore__ inline void LogicalOr(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                                 const uint32_t count) {
  twin::adv::LogicalMap("LogicalOr", dst, src0, src1, count, [](bool a, bool b) { return a || b; });
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_LOGICAL_OR_H_
