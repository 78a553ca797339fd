// Frac: dst = x - trunc(x) (the fractional part, sign of x), element-wise; half and bfloat16_t are computed in fp32 and
// rounded once to nearest even. The twin computes with the C library's single-precision function (within 1-2 ulp of the
// exact value; CANN's NPU code uses its own polynomial).
#ifndef ASC_TWIN_ADV_API_MATH_FRAC_H_
#define ASC_TWIN_ADV_API_MATH_FRAC_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

ASC_TWIN_ADV_UNARY_API(Frac, [](auto x) { return (x - std::trunc(x)); })

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_FRAC_H_
