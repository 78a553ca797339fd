// Exp: dst = e^x. CANN splits x into integer and fractional parts and expands e^frac in
// taylorExpandLevel Taylor terms (0: the vector unit's Exp); the twin computes fp32 expf,
// which is at least as accurate as any level. half/bfloat16_t go through fp32, rounded once.
#ifndef ASC_TWIN_ADV_API_MATH_EXP_H_
#define ASC_TWIN_ADV_API_MATH_EXP_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

ASC_TWIN_ADV_UNARY_FORMS(Exp, (typename T, uint8_t taylorExpandLevel, bool isReuseSource = false),
                         (T, taylorExpandLevel, isReuseSource), [](auto x) { return std::exp(x); })

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_EXP_H_
