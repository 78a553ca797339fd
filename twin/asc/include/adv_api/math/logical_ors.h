// LogicalOrs: LogicalOr with one operand a scalar (config.scalarTensorIndex says which:
// 0 src0, 1 src1; either order of tensor and scalar is accepted).
#ifndef ASC_TWIN_ADV_API_MATH_LOGICAL_ORS_H_
#define ASC_TWIN_ADV_API_MATH_LOGICAL_ORS_H_

#include "adv_api/math/logical_impl.h"

namespace AscendC {

struct LogicalOrsConfig {
  bool isReuseSource;
  int8_t scalarTensorIndex;
};
constexpr LogicalOrsConfig DEFAULT_LOGICAL_ORS_CONFIG = {false, 1};

template <const LogicalOrsConfig& config = DEFAULT_LOGICAL_ORS_CONFIG, typename T, typename U, typename S>
__aicore__ inline void LogicalOrs(const LocalTensor<T>& dst, const U& src0, const S& src1, const uint32_t count) {
  twin::adv::LogicalMap("LogicalOrs", dst, src0, src1, count, [](bool a, bool b) { return a || b; });
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_LOGICAL_ORS_H_
