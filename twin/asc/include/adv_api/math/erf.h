// Erf: dst = erf(x), element-wise; half and bfloat16_t are computed in fp32 and rounded
// once to nearest even. The twin computes with the C library's single-precision function
// (within 1-2 ulp of the exact value; CANN's NPU code uses its own polynomial).
#ifndef ASC_TWIN_ADV_API_MATH_ERF_H_
#define ASC_TWIN_ADV_API_MATH_ERF_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

enum class ErfAlgo { PADE_APPROXIMATION = 0, SUBSECTION_POLYNOMIAL_APPROXIMATION };
struct ErfConfig {
  ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};
constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};

ASC_TWIN_ADV_UNARY_API_CFG(Erf, ErfConfig, defaultErfConfig, [](auto x) { return std::erf(x); })

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_ERF_H_
