// The formulas of the element-wise activations, in fp32 (CANN's constants): each API widens
// half/bfloat16_t to fp32, applies one of these and rounds once to nearest even.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_ACTIVATION_IMPL_H_
#define ASC_TWIN_ADV_API_ACTIVATION_ACTIVATION_IMPL_H_

#include <cmath>

#include "adv_api/math/math_common_impl.h"

namespace AscendC {
namespace twin {
namespace adv {

inline float SigmoidF(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// tanh-approximated GELU: x * sigmoid(1.5957691216 * (x + 0.044715 x^3)).
inline float GeluF(float x) { return x / (1.0f + std::exp(-1.5957691216057308f * (x + 0.044715f * x * x * x))); }

// FasterGelu: x / (1 + exp(-1.702 x)).
inline float FasterGeluF(float x) { return x / (1.0f + std::exp(-1.702f * x)); }

// FasterGeluV2: x * (sgn(x) * (a * (min(|x|, -b) + b)^2 + 0.5) + 0.5), a = -0.1444,
// b = -1.769, sgn(x) = (x + 1e-12) / |x + 1e-12|.
inline float FasterGeluV2F(float x) {
  const float a = -0.1444f;
  const float b = -1.769f;
  const float shifted = x + 0.000000000001f;
  const float sgn = shifted / std::fabs(shifted);
  const float clipped = std::fmin(std::fabs(x), -b) + b;
  return x * (sgn * (a * clipped * clipped + 0.5f) + 0.5f);
}

// Swish with beta: x / (1 + exp(-beta x)).
inline float SwishF(float x, float beta) { return x / (1.0f + std::exp(-beta * x)); }

}  // namespace adv
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_ACTIVATION_IMPL_H_
