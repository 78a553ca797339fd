// Tanh: dst = tanh(x), element-wise; half and bfloat16_t are computed in fp32 and rounded
// once to nearest even. The twin computes with the C library's single-precision function
// (within 1-2 ulp of the exact value; CANN's NPU code uses its own polynomial).
#ifndef ASC_TWIN_ADV_API_MATH_TANH_H_
#define ASC_TWIN_ADV_API_MATH_TANH_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

enum class TanhAlgo { INTRINSIC = 0, SUBSECTION_COMPENSATION };
struct TanhConfig {
  TanhAlgo algo = TanhAlgo::INTRINSIC;
};
constexpr TanhConfig DEFAULT_TANH_CONFIG = {TanhAlgo::INTRINSIC};

ASC_TWIN_ADV_UNARY_API_CFG(Tanh, TanhConfig, DEFAULT_TANH_CONFIG, [](auto x) { return std::tanh(x); })

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_TANH_H_
