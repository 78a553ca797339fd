// Silu: dst = x / (1 + e^-x) (Swish with beta 1), fp32 inside, rounded once.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SILU_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SILU_H_

#include "adv_api/activation/activation_impl.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize) {
  static_assert(twin::adv::kIsAdvFloat<T>, "Silu takes half, bfloat16_t or float");
  twin::adv::Unary("Silu", dstLocal, srcLocal, dataSize, [](float x) { return twin::adv::SwishF(x, 1.0f); });
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SILU_H_
