// Cos: dst = cos(x), element-wise; half and bfloat16_t are computed in fp32 and rounded
// once to nearest even. The twin computes with the C library's single-precision function
// (within 1-2 ulp of the exact value; CANN's NPU code uses its own polynomial).
#ifndef ASC_TWIN_ADV_API_MATH_COS_H_
#define ASC_TWIN_ADV_API_MATH_COS_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

enum class CosAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
struct CosConfig {
  CosAlgo algo = CosAlgo::POLYNOMIAL_APPROXIMATION;
};
constexpr CosConfig defaultCosConfig;

ASC_TWIN_ADV_UNARY_API_CFG(Cos, CosConfig, defaultCosConfig, [](auto x) { return std::cos(x); })

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_COS_H_
