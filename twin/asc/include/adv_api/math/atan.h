// Atan: dst = atan(x), element-wise; half and bfloat16_t are computed in fp32 and rounded
// once to nearest even. The twin computes with the C library's single-precision function
// (within 1-2 ulp of the exact value; CANN's NPU code uses its own polynomial).
#ifndef ASC_TWIN_ADV_API_MATH_ATAN_H_
#define ASC_TWIN_ADV_API_MATH_ATAN_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

enum class AtanAlgo { TAYLOR_EXPANSION = 0, POLYNOMIAL_APPROXIMATION };
struct AtanConfig {
  AtanAlgo algo = AtanAlgo::TAYLOR_EXPANSION;
};
constexpr AtanConfig defaultAtanConfig = {AtanAlgo::TAYLOR_EXPANSION};

ASC_TWIN_ADV_UNARY_API_CFG(Atan, AtanConfig, defaultAtanConfig, [](auto x) { return std::atan(x); })

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_ATAN_H_
