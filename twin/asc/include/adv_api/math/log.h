// Log, Log2, Log10: natural, base-2 and base-10 logarithms (x <= 0 gives -inf / nan as IEEE).
// The twin uses fp32 logf/log2f/log10f; half and bfloat16_t go through fp32, rounded once.
#ifndef ASC_TWIN_ADV_API_MATH_LOG_H_
#define ASC_TWIN_ADV_API_MATH_LOG_H_

#include "adv_api/math/math_common_impl.h"

namespace asc_twin_tmp {
namespace nodes {
constexpr uint32_t kLog2 = kLog;
constexpr uint32_t kLog10 = kLog;
}  // namespace nodes
}  // namespace asc_twin_tmp

namespace AscendC {

ASC_TWIN_ADV_UNARY_API(Log, [](auto x) { return std::log(x); })
ASC_TWIN_ADV_UNARY_API(Log2, [](auto x) { return std::log2(x); })
ASC_TWIN_ADV_UNARY_API(Log10, [](auto x) { return std::log10(x); })

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_LOG_H_
