// LogicalNot: dst = (src == 0), as bool (or 1 / 0 in dst's type).
#ifndef ASC_TWIN_ADV_API_MATH_LOGICAL_NOT_H_
#define ASC_TWIN_ADV_API_MATH_LOGICAL_NOT_H_

#include "adv_api/math/logical_impl.h"

namespace AscendC {

struct LogicalNotConfig {
  bool isReuseSource;
};
constexpr LogicalNotConfig DEFAULT_LOGICAL_NOT_CONFIG = {false};

template <const LogicalNotConfig& config = DEFAULT_LOGICAL_NOT_CONFIG, typename T, typename U>
__aicore__ inline void LogicalNot(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count) {
  twin::adv::LogicalMap("LogicalNot", dst, src, src, count, [](bool a, bool) { return !a; });
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_LOGICAL_NOT_H_
