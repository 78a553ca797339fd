// Swish: dst = x / (1 + e^(-beta x)), beta = scalarValue; fp32 inside, rounded once.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SWISH_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SWISH_H_

#include "adv_api/activation/activation_impl.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                             const T scalarValue) {
  static_assert(twin::adv::kIsAdvFloat<T>, "Swish takes half, bfloat16_t or float");
  const float beta = static_cast<float>(scalarValue);
  twin::adv::Unary("Swish", dstLocal, srcLocal, dataSize, [beta](float x) { return twin::adv::SwishF(x, beta); });
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SWISH_H_
